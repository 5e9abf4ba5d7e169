/**
 * npx tsx bench/search-compare.ts (--db postgres://… | --pglite <a copy of a data dir>/pglite)
 *     --variants "old:cand_idx|new:posts_search_grams_idx" [--count 300] [--rounds 2] [--btree-gin] [--ids <file>]
 *
 * Whether an index design changes any post search answer, and what the searches cost with it:
 * PostSearch answers a few hundred queries (single words of the newest posts, pieces of 2 or more
 * characters, and 2 to 4 of those, as the bench's uncached searches) once per variant, each variant
 * in a transaction that drops the indexes it names (rolled back after), so every variant sees the
 * same rows and the same statistics. Prints the queries whose id lists differ, and each variant's
 * total wall time (rounds alternate the variants' order; one warm-up round first). Build the
 * candidate index in a copy of the database; never open a data directory in use. --ids writes the
 * first variant's answers, a query and its ids a line, to compare two versions of the code.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { ReadCache } from '../src/server/cache/read-cache.js';
import type { AppDb } from '../src/server/db/database.js';
import { schema } from '../src/server/db/schema.js';
import { withRoomForHidden } from '../src/server/directory/visibility.js';
import { PostSearch } from '../src/server/search/post-search.js';
import { SEARCH_MAX_POSTS } from '../src/shared/limits.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    pglite: { type: 'string' },
    variants: { type: 'string' },
    count: { type: 'string', default: '300' },
    rounds: { type: 'string', default: '2' },
    'btree-gin': { type: 'boolean', default: false },
    ids: { type: 'string' },
  },
});
if (!values.db === !values.pglite) throw new Error('give --db or --pglite');
const variants = (values.variants ?? 'as is:').split('|').map((variant) => {
  const [name, drop = ''] = variant.split(':');
  return { name: name!, drop: drop.split(',').filter(Boolean) };
});

let db: AppDb;
let raw: (text: string) => Promise<Array<Record<string, unknown>>>;
let close: () => Promise<void>;
if (values.db) {
  // One connection: the transaction that dropped the indexes is the one the searches run in.
  const pool = new pg.Pool({ connectionString: values.db, max: 1 });
  db = drizzlePg({ client: pool, schema });
  raw = async (text) => (await pool.query(text)).rows as Array<Record<string, unknown>>;
  close = () => pool.end();
} else {
  const client = new PGlite({ dataDir: values.pglite, extensions: values['btree-gin'] ? { btree_gin } : {} });
  db = drizzlePglite({ client, schema });
  raw = async (text) => (await client.query<Record<string, unknown>>(text)).rows;
  close = () => client.close();
}

// The words of the newest posts, as bench/run.ts takes its vocabulary.
const newest = await raw('SELECT description FROM posts ORDER BY created_at DESC, id DESC LIMIT 100');
const vocabulary = [...new Set(newest.flatMap((row) => (row.description as string).toLowerCase().match(/[a-z]{3,}/g) ?? []))];
let state = 12_345;
const next = (n: number) => (state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0) % n;
const piece = () => {
  const word = vocabulary[next(vocabulary.length)]!;
  const start = next(2) ? 0 : next(word.length - 1);
  return word.slice(start, start + 2 + next(word.length));
};
const queries: string[][] = [];
for (let i = 0; queries.length < Number(values.count); i++) {
  if (i % 4 === 0) queries.push([vocabulary[next(vocabulary.length)]!]);
  else if (i % 4 === 1) queries.push([piece()]);
  else queries.push([...new Set(Array.from({ length: 2 + next(3) }, piece))]);
}

const limit = withRoomForHidden(SEARCH_MAX_POSTS);
const answers = new Map<string, string[]>();
const totals = new Map<string, number>();
const rounds = Number(values.rounds);
for (let round = -1; round < rounds; round++) {
  for (const variant of round % 2 === 0 ? variants : [...variants].reverse()) {
    await raw('BEGIN');
    for (const index of variant.drop) await raw(`DROP INDEX ${index}`);
    const search = new PostSearch(db, { maxExamined: values.db ? 20_000 : 3_000, cache: new ReadCache({ maxBytes: 1 << 24, ttlMs: 0 }) });
    const ids: string[] = [];
    const start = performance.now();
    for (const words of queries) ids.push((await search.cards(words, limit)).map((row) => row.id).join(','));
    const ms = performance.now() - start;
    await raw('ROLLBACK');
    if (round < 0) continue;
    const before = answers.get(variant.name);
    if (before && before.join('\n') !== ids.join('\n')) console.log(`${variant.name}: answers changed between rounds`);
    answers.set(variant.name, ids);
    totals.set(variant.name, (totals.get(variant.name) ?? 0) + ms);
  }
}
const [first, ...others] = variants.map((variant) => answers.get(variant.name)!);
let differ = 0;
queries.forEach((words, i) => {
  if (others.some((ids) => ids[i] !== first![i])) {
    differ++;
    console.log(`differ: ${words.join(' ')}`);
  }
});
if (values.ids) await fs.writeFile(values.ids, queries.map((words, i) => `${words.join(' ')}\t${first![i]}\n`).join(''));
console.log(
  `load average ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);
console.log(`${queries.length} queries, ${differ} answers differ`);
for (const [name, ms] of totals)
  console.log(`${name}: ${(ms / rounds).toFixed(0)} ms a round (${(ms / rounds / queries.length).toFixed(2)} ms a search)`);
await close();
