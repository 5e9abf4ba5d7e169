/**
 * npx tsx bench/feed-floor.ts [--db postgres://…/dormboard_bench_50000_1000000_1000000 | --pglite <data dir>]
 *     [--rounds 3] [--seconds 3]
 *
 * How cheap can a read with every cache off get at 16 connections, next to the static ceiling
 * the budgets divide by (issue 28 point 4)? One server, built as `npm start` builds it, pinned as
 * the bench pins it (event loop on CPU 1, the load generator on CPU 0, PostgreSQL where the OS
 * puts it), CACHE_TTL_MS=0, answers these in turns, `--rounds` times for `--seconds` each:
 *
 * - ceiling:  /bench-feed.json, the feed's own bytes as a static file (the bench's reference);
 * - json:     the viewer's feed page (100 cards and its cursor) built whole by the database, as
 *             one text value, sent as it comes;
 * - rows:     the same page read as the real feed reads it (its columns) and written as it
 *             writes it (toCard, JSON.stringify), nothing else;
 * - built 100, built 50: each card's JSON built ahead (a table made for the run, dropped after
 *             it), 100 or 50 of them read and joined: what is left of a read of a page of cards
 *             when nothing is computed per request (the feed's and a profile's page sizes);
 * - built 1:  one card's JSON built ahead, by its id: the least any read from the database costs;
 * - real:     GET /api/posts as the bench measures it, signed in.
 *
 * Every floor statement goes through the app's own query builder (prepared, as the app's are),
 * and none reads the session or the visibility rule, which the real reads must: the real reads
 * can be no cheaper. Prints, per route: p50/p95/p99 (ms), req/s, the server's and PostgreSQL's
 * CPU per request (the embedded database's is the server's), and each round's p99 and p95 ÷ the
 * ceiling's of the same round (the budgets' ratios). `--pglite` works on a copy of the data
 * directory; on PostgreSQL the table is dropped when the run ends. `--serve` is the server's own half (spawned by the other).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { AppDb } from '../src/server/db/database.js';
import type { CardRow } from '../src/server/posts/post.queries.js';
import { imageSet } from '../src/server/posts/post-images.js';
import { signIn, untilAnswering } from './bench-server.js';
import { loadSamples, summarizeSamples, type LoadRequest, type LoadSamples } from './load.js';
import { cpuSample, findTaskset, pinEventLoop, pinProcess, TICKS_PER_SECOND } from './proc.js';
import { cpuMsBetween, median, times } from './ratios.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    pglite: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '3' },
    serve: { type: 'boolean', default: false },
  },
});
const PORT = 3197;
const CLIENT_DIR = path.join(os.tmpdir(), 'feed-floor-client');

/**
 * A card's JSON as the API writes it, in SQL: its image paths come from imageSet itself (one
 * home for them), asked for a key that marks where the column goes.
 */
const CARD_JSON = (() => {
  const MARK = '\u0000';
  const set = imageSet({ imageKey: MARK, width: Number.MAX_SAFE_INTEGER, height: 1, placeholder: '' });
  const quoted = (text: string) => `'${text.replace(/'/g, "''")}'`;
  const path = (url: string) => url.split(MARK).map(quoted).join(' || image_key || ');
  const variants = set.variants.map((v) => `json_build_object('src', ${path(v.src)}, 'width', least(${v.width}, width))`);
  return sql.raw(`json_build_object('id', id, 'description', description,
  'image', json_build_object('width', width, 'height', height, 'placeholder', placeholder,
    'full', ${path(set.full)}, 'variants', json_build_array(${variants.join(', ')})))`);
})();

async function rowsOf<T extends Record<string, unknown>>(db: AppDb, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = await db.execute<T>(query);
  return (result as { rows: T[] }).rows;
}

if (values.serve) await serve();
else await measure();

/** The server's half: the app as `npm start` builds it, the table of built cards, the floors' routes. */
async function serve() {
  const { loadConfig } = await import('../src/server/config.js');
  const { buildApp, openServerDatabase } = await import('../src/server/app.js');
  const { toCard } = await import('../src/server/posts/post.service.js');
  const { toPage, encodeCursor } = await import('../src/server/http/cursor.js');
  const config = loadConfig();
  const database = await openServerDatabase(config);
  const db = database.orm;
  await db.execute(sql`DROP TABLE IF EXISTS bench_feed_floor_cards`);
  await db.execute(sql`CREATE TABLE bench_feed_floor_cards AS SELECT id, user_id, created_at, ${CARD_JSON}::text AS json FROM posts`);
  await db.execute(sql`CREATE INDEX ON bench_feed_floor_cards (created_at DESC, id DESC)`);
  await db.execute(sql`CREATE UNIQUE INDEX ON bench_feed_floor_cards (id)`);
  await db.execute(sql`VACUUM ANALYZE bench_feed_floor_cards`);
  // Written out now, not by the checkpointer in the middle of the measurements.
  await db.execute(sql`CHECKPOINT`);
  const app = await buildApp({ config, database });
  const json = (body: string) => ({ body, type: 'application/json; charset=utf-8' });
  const routes: Record<string, (query: Record<string, string>) => Promise<{ body: string; type: string }>> = {
    json: async ({ viewer }) => {
      const [row] = await rowsOf<{ body: string }>(
        db,
        sql`WITH page AS (SELECT * FROM posts WHERE user_id <> ${viewer} ORDER BY created_at DESC, id DESC LIMIT 101),
          shown AS (SELECT * FROM page ORDER BY created_at DESC, id DESC LIMIT 100)
        SELECT json_build_object(
          'posts', (SELECT coalesce(json_agg(${CARD_JSON} ORDER BY created_at DESC, id DESC), '[]') FROM shown),
          'nextCursor', CASE WHEN (SELECT count(*) FROM page) > 100 THEN
            (SELECT encode(convert_to(json_build_array(created_at::text, id)::text, 'UTF8'), 'base64') FROM shown ORDER BY created_at, id LIMIT 1) END
        )::text AS body`,
      );
      return json(row!.body);
    },
    rows: async ({ viewer }) => {
      const rows = await rowsOf<CardRow>(
        db,
        sql`SELECT id, user_id AS "userId", description, image_key AS "imageKey", width, height, placeholder, created_at::text AS "sortTime"
          FROM posts WHERE user_id <> ${viewer} ORDER BY created_at DESC, id DESC LIMIT 101`,
      );
      const page = toPage(rows, 100);
      return json(JSON.stringify({ posts: page.rows.map(toCard), nextCursor: page.nextCursor }));
    },
    built: async ({ viewer, n }) => {
      const size = Number(n);
      const rows = await rowsOf<{ json: string; sortTime: string; id: string }>(
        db,
        sql`SELECT json, created_at::text AS "sortTime", id FROM bench_feed_floor_cards
          WHERE user_id <> ${viewer} ORDER BY created_at DESC, id DESC LIMIT ${size + 1}`,
      );
      const more = rows.length > size;
      const shown = rows.slice(0, size);
      const cursor = more ? JSON.stringify(encodeCursor(shown[size - 1]!)) : 'null';
      return json(`{"posts":[${shown.map((row) => row.json).join(',')}],"nextCursor":${cursor}}`);
    },
    one: async ({ id }) => {
      const [row] = await rowsOf<{ json: string }>(db, sql`SELECT json FROM bench_feed_floor_cards WHERE id = ${id}`);
      return json(`{"post":${row!.json}}`);
    },
  };
  for (const [name, answer] of Object.entries(routes))
    app.get<{ Querystring: Record<string, string> }>(`/floor/${name}`, async (request, reply) => {
      const { body, type } = await answer(request.query);
      return reply.type(type).send(body);
    });
  await app.listen({ port: PORT, host: '127.0.0.1' });
}

async function measure() {
  if (!values.db === !values.pglite) throw new Error('give --db postgres://… or --pglite <data dir>');
  const taskset = findTaskset();
  const pinned = taskset !== undefined && os.cpus().length >= 2;
  if (pinned) pinProcess(taskset, process.pid, 0);
  fs.rmSync(CLIENT_DIR, { recursive: true, force: true });
  fs.cpSync('dist/client', CLIENT_DIR, { recursive: true });
  // There before the server starts, as the bench's (a file the static files do not know at start
  // is the app's shell instead); its bytes are the viewer's feed, written once signed in below.
  const ceilingFile = path.join(CLIENT_DIR, 'bench-feed.json');
  fs.writeFileSync(ceilingFile, '{}');
  const dataDir = path.join(os.tmpdir(), 'feed-floor-data');
  fs.rmSync(dataDir, { recursive: true, force: true });
  // Never the bench's own data directory: the floor's table would be left in it if this died.
  if (values.pglite) fs.cpSync(values.pglite, dataDir, { recursive: true });
  else fs.mkdirSync(dataDir, { recursive: true });
  const database = values.db ? new URL(values.db).pathname.slice(1) : undefined;
  const env = {
    ...process.env,
    DATABASE_URL: values.db ?? '',
    DATA_DIR: dataDir,
    CLIENT_DIR,
    CACHE_TTL_MS: '0',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_LOGIN_PER_IP: '1000000',
  };
  const args = ['--import', 'tsx', 'bench/feed-floor.ts', '--serve'];
  const child = pinned
    ? spawn(taskset, ['-c', '1', process.execPath, ...args], { env, stdio: ['ignore', 'ignore', 'inherit'] })
    : spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${PORT}`;
  const get = async <T>(url: string) => (await fetch(`${base}${url}`)).json() as Promise<T>;
  try {
    // The table of built cards comes first: minutes on a million posts.
    await untilAnswering(base, { tries: 2400 });
    // As the bench's servers: the event loop on CPU 1, the other threads where the OS puts them.
    if (pinned) pinEventLoop(taskset, child.pid!, 1);
    // A viewer who is not among the newest posters, as the bench picks one.
    const newest = await get<{ posts: Array<{ id: string }> }>('/api/posts');
    const detail = await get<{ post: { author: { username: string; uid: string } } }>(`/api/posts/${newest.posts[19]!.id}`);
    const viewer = detail.post.author;
    const cookie = await signIn(base, viewer.username);
    const feed = Buffer.from(await (await fetch(`${base}/api/posts`, { headers: { cookie } })).arrayBuffer());
    fs.writeFileSync(ceilingFile, feed);
    const ceilingBytes = (await (await fetch(`${base}/bench-feed.json`)).arrayBuffer()).byteLength;
    if (ceilingBytes !== feed.length) throw new Error(`the ceiling sent ${ceilingBytes} bytes, not the feed's ${feed.length}`);
    const ids = (json: string) => (JSON.parse(json) as { posts: Array<{ id: string }> }).posts.map((post) => post.id).join();
    const byDatabase = await (await fetch(`${base}/floor/json?viewer=${viewer.uid}`)).text();
    console.log(
      `${database ?? 'pglite'}: viewer ${viewer.username}; feed ${feed.length} bytes, the database's ${Buffer.byteLength(byDatabase)}; ` +
        `same cards: ${ids(byDatabase) === ids(feed.toString())}; pinned: ${pinned}`,
    );
    const routes: Record<string, LoadRequest> = {
      ceiling: { path: '/bench-feed.json' },
      json: { path: `/floor/json?viewer=${viewer.uid}` },
      rows: { path: `/floor/rows?viewer=${viewer.uid}` },
      'built 100': { path: `/floor/built?viewer=${viewer.uid}&n=100` },
      'built 50': { path: `/floor/built?viewer=${viewer.uid}&n=50` },
      'built 1': { path: `/floor/one?id=${newest.posts[0]!.id}` },
      real: { path: '/api/posts', headers: { cookie } },
    };
    const seconds = Number(values.seconds);
    const results = new Map<string, Array<{ samples: LoadSamples; serverMs: number; databaseMs: number }>>();
    const run = (request: LoadRequest, durationSeconds: number) =>
      loadSamples({ baseUrl: base, connections: 16, durationSeconds, requests: [request], gated: false });
    for (const request of Object.values(routes)) await run(request, 1);
    for (let round = 0; round < Number(values.rounds); round++) {
      for (const [name, request] of Object.entries(routes)) {
        const before = cpuSample(child.pid, database);
        const samples = await run(request, seconds);
        const after = cpuSample(child.pid, database);
        const own = (sample: Map<number, number>) => new Map([[child.pid!, sample.get(child.pid!) ?? 0]]);
        const serverMs = cpuMsBetween(own(before), own(after), TICKS_PER_SECOND);
        const databaseMs = cpuMsBetween(before, after, TICKS_PER_SECOND) - serverMs;
        results.set(name, [...(results.get(name) ?? []), { samples, serverMs, databaseMs }]);
      }
    }
    const ceiling = results.get('ceiling')!.map(({ samples }) => summarizeSamples([samples]));
    for (const [name, rounds] of results) {
      const all = summarizeSamples(rounds.map((r) => r.samples));
      const requests = rounds.reduce((sum, r) => sum + r.samples.latencies.length, 0);
      const perRequest = (ms: number) => (ms / requests).toFixed(3);
      const p99 = rounds.map((r, i) => summarizeSamples([r.samples]).p99 / ceiling[i]!.p99);
      const p95 = rounds.map((r, i) => summarizeSamples([r.samples]).p95 / ceiling[i]!.p95);
      console.log(
        `${name.padEnd(9)} p50 ${all.p50} p95 ${all.p95} p99 ${all.p99} ms, ${all.rps.toFixed(0)} req/s, errors ${all.errors}; ` +
          `CPU a request: server ${perRequest(rounds.reduce((sum, r) => sum + r.serverMs, 0))} ms, ` +
          `PostgreSQL ${perRequest(rounds.reduce((sum, r) => sum + r.databaseMs, 0))} ms; ` +
          `÷ ceiling by round: p99 ${p99.map(times).join(', ')} (median ${times(median(p99))}), ` +
          `p95 ${p95.map(times).join(', ')} (median ${times(median(p95))})`,
      );
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (values.db) {
      const admin = new pg.Client({ connectionString: values.db });
      await admin.connect();
      await admin.query('DROP TABLE IF EXISTS bench_feed_floor_cards');
      await admin.end();
    }
  }
}
