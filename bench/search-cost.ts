/**
 * npx tsx bench/search-cost.ts (--db postgres://… | --pglite <a copy of a data dir>/pglite)
 *     [--queries "girls|finished cheap|past"] [--runs 100] [--explain]
 *
 * What one post search costs, query by query, as PostSearch runs it with the caches off (the
 * grams' statistics and the window starts are still kept, as the server keeps them then): the
 * statements it sends, its median wall time, and this process's median CPU time for the search
 * (query building, the client's protocol work and row parsing: on PGlite also the database's own
 * work, which runs in this thread), the same with the cards serialized, and the same statements
 * sent by the bare client. --explain adds each statement's buffers, rows, planning time and median
 * execution time (EXPLAIN ANALYZE, BUFFERS): what the database does, whatever the machine's load.
 * Without --queries, the bench's own search words are picked from the newest posts as bench/run.ts
 * picks them. Never open a data directory in use: copy it first.
 */
import { parseArgs } from 'node:util';
import { explainEach, openLoggedDatabase } from './logged-database.js';
import { median } from './ratios.js';
import { ReadCache } from '../src/server/cache/read-cache.js';
import { toSharedCard, visibleCardsJson } from '../src/server/posts/post.service.js';
import { PostSearch } from '../src/server/search/post-search.js';
import { withRoomForHidden, type SeenBy } from '../src/server/directory/visibility.js';
import { SEARCH_MAX_POSTS } from '../src/shared/limits.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    pglite: { type: 'string' },
    queries: { type: 'string' },
    runs: { type: 'string', default: '100' },
    explain: { type: 'boolean', default: false },
  },
});
if (!values.db === !values.pglite) throw new Error('give --db or --pglite');
const runs = Number(values.runs);
/** The rows a search asks for, as SearchService asks. */
const LIMIT = withRoomForHidden(SEARCH_MAX_POSTS);

const { db, raw, sent, close } = openLoggedDatabase(values);

/** bench/run.ts's search words: from the newest posts of everyone but the viewer it signs in as. */
async function benchQueries(): Promise<string[]> {
  const rows = await raw('SELECT user_id, description FROM posts ORDER BY created_at DESC, id DESC LIMIT 200');
  const authors: string[] = [];
  for (const row of rows.slice(0, 20)) if (!authors.includes(row.user_id as string)) authors.push(row.user_id as string);
  const viewer = authors[authors.length - 1];
  const feed = rows.filter((row) => row.user_id !== viewer).slice(0, 100);
  const words = [...new Set(feed.flatMap((row) => (row.description as string).toLowerCase().match(/[a-z]{5,}/g) ?? []))];
  return [words.slice(0, 1).join(' '), words.slice(1, 3).join(' '), words[3]!.slice(0, 4), words.slice(4, 6).join(' ')];
}

const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
const seesAll: SeenBy = { sees: () => true, blocked: () => false, hiddenOtherwise: () => false, hiddenIds: () => [] };

const queries = values.queries ? values.queries.split('|') : await benchQueries();
const search = new PostSearch(db, {
  maxExamined: values.db ? 20_000 : 3_000,
  cache: new ReadCache({ maxBytes: 16 * 1024 * 1024, ttlMs: 0 }),
});
console.log(
  `load average ${(await import('node:os'))
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);
for (const query of queries) {
  const words = query.split(' ');
  await search.cards(words, LIMIT);
  const wall: number[] = [];
  const cards: number[] = [];
  const served: number[] = [];
  for (let run = 0; run < runs; run++) {
    sent.length = 0;
    const start = performance.now();
    const cpu = process.cpuUsage();
    const rows = await search.cards(words, LIMIT);
    cards.push(cpuMs(cpu));
    visibleCardsJson(rows.map(toSharedCard), seesAll, SEARCH_MAX_POSTS);
    served.push(cpuMs(cpu));
    wall.push(performance.now() - start);
  }
  const statements = [...sent];
  const bare: number[] = [];
  for (let run = 0; run < runs; run++) {
    const cpu = process.cpuUsage();
    for (const statement of statements) await raw(statement.text, statement.params);
    bare.push(cpuMs(cpu));
  }
  const f = (ms: number) => ms.toFixed(2);
  console.log(
    `${JSON.stringify(query)}: ${statements.length} statement(s); wall ${f(median(wall))} ms; CPU here: search ${f(median(cards))} ms, ` +
      `with the cards serialized ${f(median(served))} ms, the same statements by the bare client ${f(median(bare))} ms`,
  );
  if (values.explain)
    await explainEach(
      raw,
      statements,
      runs,
      (statement) => `${statement.text.replace(/\s+/g, ' ').slice(0, 120)}… ${JSON.stringify(statement.params).slice(0, 100)}`,
    );
}
await close();
