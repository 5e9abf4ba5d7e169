/**
 * npx tsx bench/feed-floor.ts [--db postgres://…/dormboard_bench_50000_1000000_1000000] [--rounds 3] [--seconds 3]
 *
 * How cheap can a caches-off home feed get at 16 connections, next to the static ceiling the
 * budgets divide by (issue 28 point 4)? One server, built as `npm start` builds it, pinned as the
 * bench pins it (event loop on CPU 1, the load generator on CPU 0, PostgreSQL where the OS puts
 * it), answers three routes in turns, `--rounds` times for `--seconds` each:
 *
 * - ceiling: /bench-feed.json, the feed's own bytes as a static file (the bench's reference);
 * - json:    /floor/json, the cheapest caches-off feed this code base could have: one prepared
 *            statement in which PostgreSQL builds the whole response (the viewer's page of 100
 *            cards and its cursor) as one text value, sent as it comes; no session, visibility
 *            or card work in JavaScript. The real route does all of that as well, so it can be
 *            no cheaper than this;
 * - rows:    /floor/rows, the same page read as the real feed reads it (its columns, one prepared
 *            statement) and written as it writes it (toCard, JSON.stringify), nothing else;
 * - prebuilt: /floor/prebuilt, each card's JSON built ahead (a table made for the run, dropped
 *            after it), read as 101 short texts and joined: what is left of a database read
 *            when nothing at all is computed per request;
 * - real:    GET /api/posts as the bench measures it, signed in, every cache off.
 *
 * Prints, per route: p50/p95/p99 (ms), req/s, the server's and PostgreSQL's CPU per request,
 * and each round's p99 ÷ the ceiling's p99 of the same round (the budget's ratio). Writes nothing.
 * `--serve` is the server's own half (spawned by the other).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { CardRow } from '../src/server/posts/post.queries.js';
import { loadSamples, summarizeSamples, type LoadSamples } from './load.js';
import { cpuSample, findTaskset, pinProcess, TICKS_PER_SECOND } from './proc.js';
import { cpuMsBetween, median, times } from './ratios.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/dormboard_bench_50000_1000000_1000000' },
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '3' },
    serve: { type: 'boolean', default: false },
    viewer: { type: 'string' },
  },
});
const PASSWORD = 'benchmark-password';
const PORT = 3197;
const CLIENT_DIR = path.join(os.tmpdir(), 'feed-floor-client');

/**
 * The floor's statement: the page as the real route answers it (100 cards, newest first, none
 * of the viewer's own, the 101st row only saying there is more), every byte built by PostgreSQL.
 * Image paths as post-images.ts writes them (fullImageKey, variantKey; widths 400 and 800).
 */
const FLOOR_SQL = `
WITH page AS (
  SELECT id, description, image_key, width, height, placeholder, created_at
  FROM posts WHERE user_id <> $1 ORDER BY created_at DESC, id DESC LIMIT 101
), shown AS (SELECT * FROM page ORDER BY created_at DESC, id DESC LIMIT 100)
SELECT json_build_object(
  'posts', (SELECT coalesce(json_agg(json_build_object(
    'id', id, 'description', description,
    'image', json_build_object('width', width, 'height', height, 'placeholder', placeholder,
      'full', '/media/' || image_key || '-full.jpg',
      'variants', json_build_array(
        json_build_object('src', '/media/' || image_key || '-400.webp', 'width', least(400, width)),
        json_build_object('src', '/media/' || image_key || '-800.webp', 'width', least(800, width)))))
    ORDER BY created_at DESC, id DESC), '[]') FROM shown),
  'nextCursor', CASE WHEN (SELECT count(*) FROM page) > 100 THEN
    (SELECT encode(convert_to(json_build_array(created_at::text, id)::text, 'UTF8'), 'base64') FROM shown ORDER BY created_at, id LIMIT 1) END
)::text AS body`;

/** Each post's card as JSON, built once (bench_feed_floor_cards, made for the run and dropped after it). */
const CARD_JSON = `json_build_object('id', id, 'description', description,
    'image', json_build_object('width', width, 'height', height, 'placeholder', placeholder,
      'full', '/media/' || image_key || '-full.jpg',
      'variants', json_build_array(
        json_build_object('src', '/media/' || image_key || '-400.webp', 'width', least(400, width)),
        json_build_object('src', '/media/' || image_key || '-800.webp', 'width', least(800, width)))))`;
const PREBUILD_SQL = `CREATE TABLE bench_feed_floor_cards AS SELECT id, user_id, created_at, ${CARD_JSON}::text AS json FROM posts;
  CREATE INDEX ON bench_feed_floor_cards (created_at DESC, id DESC); ANALYZE bench_feed_floor_cards`;
const PREBUILT_SQL = `SELECT json, created_at::text AS "sortTime", id FROM bench_feed_floor_cards
  WHERE user_id <> $1 ORDER BY created_at DESC, id DESC LIMIT 101`;

/** The rows variant's statement: the card columns as the real feed reads them (post.queries.ts cardColumns). */
const ROWS_SQL = `SELECT id, user_id AS "userId", description, image_key AS "imageKey", width, height, placeholder, created_at::text AS "sortTime"
  FROM posts WHERE user_id <> $1 ORDER BY created_at DESC, id DESC LIMIT 101`;

if (values.serve) await serve();
else await measure();

/** The server's half: the app as `npm start` builds it, plus the floor's route. */
async function serve() {
  const { loadConfig } = await import('../src/server/config.js');
  const { buildApp, openServerDatabase } = await import('../src/server/app.js');
  const { toCard } = await import('../src/server/posts/post.service.js');
  const { toPage } = await import('../src/server/http/cursor.js');
  const config = loadConfig();
  const database = await openServerDatabase(config);
  const app = await buildApp({ config, database });
  // A pool of its own, its statement prepared once per connection (named), as the app's are.
  const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 4 });
  app.get<{ Querystring: { viewer: string } }>('/floor/rows', async (request, reply) => {
    const { rows } = await pool.query<CardRow>({ name: 'floor-rows', text: ROWS_SQL, values: [request.query.viewer] });
    const page = toPage(rows, 100);
    return reply
      .type('application/json; charset=utf-8')
      .send(JSON.stringify({ posts: page.rows.map(toCard), nextCursor: page.nextCursor }));
  });
  app.get<{ Querystring: { viewer: string } }>('/floor/prebuilt', async (request, reply) => {
    const { rows } = await pool.query<{ json: string; sortTime: string; id: string }>({
      name: 'floor-prebuilt',
      text: PREBUILT_SQL,
      values: [request.query.viewer],
    });
    const page = toPage(rows, 100);
    const cursor = page.nextCursor === null ? 'null' : JSON.stringify(page.nextCursor);
    return reply
      .type('application/json; charset=utf-8')
      .send(`{"posts":[${page.rows.map((row) => row.json).join(',')}],"nextCursor":${cursor}}`);
  });
  app.get<{ Querystring: { viewer: string } }>('/floor/json', async (request, reply) => {
    const result = await pool.query<{ body: string }>({ name: 'floor-json', text: FLOOR_SQL, values: [request.query.viewer] });
    return reply.type('application/json; charset=utf-8').send(result.rows[0]!.body);
  });
  await app.listen({ port: PORT, host: '127.0.0.1' });
}

async function measure() {
  const taskset = findTaskset();
  const pinned = taskset !== undefined && os.cpus().length >= 2;
  if (pinned) pinProcess(taskset, process.pid, 0);
  fs.rmSync(CLIENT_DIR, { recursive: true, force: true });
  fs.cpSync('dist/client', CLIENT_DIR, { recursive: true });
  const database = new URL(values.db).pathname.slice(1);
  const env = {
    ...process.env,
    DATABASE_URL: values.db,
    DATA_DIR: path.join(os.tmpdir(), 'feed-floor-data'),
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
  try {
    await until(() => fetch(`${base}/api/me`));
    const admin = new pg.Client({ connectionString: values.db });
    await admin.connect();
    await admin.query('DROP TABLE IF EXISTS bench_feed_floor_cards');
    await admin.query(PREBUILD_SQL);
    // A viewer who is not among the newest posters, as the bench picks one.
    const viewer =
      values.viewer ??
      (
        await admin.query<{ username: string }>(
          'SELECT u.username FROM posts p JOIN users u ON u.id = p.user_id ORDER BY p.created_at DESC LIMIT 1 OFFSET 19',
        )
      ).rows[0]!.username;
    const { rows } = await admin.query<{ id: string }>('SELECT id FROM users WHERE username = $1', [viewer]);
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: viewer, password: PASSWORD }),
    });
    if (!login.ok) throw new Error(`sign-in as ${viewer} failed: ${login.status}`);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const feed = Buffer.from(await (await fetch(`${base}/api/posts`, { headers: { cookie } })).arrayBuffer());
    const floor = await (await fetch(`${base}/floor/json?viewer=${rows[0]!.id}`)).text();
    fs.writeFileSync(path.join(CLIENT_DIR, 'bench-feed.json'), feed);
    const ids = (json: string) => (JSON.parse(json) as { posts: Array<{ id: string }> }).posts.map((post) => post.id).join();
    const same = ids(floor) === ids(feed.toString());
    console.log(
      `viewer ${viewer}; feed ${feed.length} bytes, PostgreSQL's JSON ${Buffer.byteLength(floor)} bytes, same cards: ${same}; pinned: ${pinned}`,
    );
    const routes = {
      ceiling: { path: '/bench-feed.json' },
      json: { path: `/floor/json?viewer=${rows[0]!.id}` },
      rows: { path: `/floor/rows?viewer=${rows[0]!.id}` },
      prebuilt: { path: `/floor/prebuilt?viewer=${rows[0]!.id}` },
      real: { path: '/api/posts', headers: { cookie } },
    };
    const seconds = Number(values.seconds);
    const results: Record<string, Array<{ samples: LoadSamples; serverMs: number; databaseMs: number }>> = {
      ceiling: [],
      json: [],
      rows: [],
      prebuilt: [],
      real: [],
    };
    for (const request of Object.values(routes))
      await loadSamples({ baseUrl: base, connections: 16, durationSeconds: 1, requests: [request], gated: false });
    for (let round = 0; round < Number(values.rounds); round++) {
      for (const [name, request] of Object.entries(routes)) {
        const before = cpuSample(child.pid, database);
        const samples = await loadSamples({ baseUrl: base, connections: 16, durationSeconds: seconds, requests: [request], gated: false });
        const after = cpuSample(child.pid, database);
        const server = new Map([[child.pid!, before.get(child.pid!) ?? 0]]);
        const serverMs = cpuMsBetween(server, new Map([[child.pid!, after.get(child.pid!) ?? 0]]), TICKS_PER_SECOND);
        const databaseMs = cpuMsBetween(before, after, TICKS_PER_SECOND) - serverMs;
        results[name]!.push({ samples, serverMs, databaseMs });
      }
    }
    const ceilingP99 = results.ceiling!.map(({ samples }) => summarizeSamples([samples]).p99);
    for (const [name, rounds] of Object.entries(results)) {
      const all = summarizeSamples(rounds.map((r) => r.samples));
      const requests = rounds.reduce((sum, r) => sum + r.samples.latencies.length, 0);
      const serverMs = rounds.reduce((sum, r) => sum + r.serverMs, 0) / requests;
      const databaseMs = rounds.reduce((sum, r) => sum + r.databaseMs, 0) / requests;
      const ratios = rounds.map((r, i) => summarizeSamples([r.samples]).p99 / ceilingP99[i]!);
      console.log(
        `${name.padEnd(8)} p50 ${all.p50} p95 ${all.p95} p99 ${all.p99} ms, ${all.rps.toFixed(0)} req/s, errors ${all.errors}; ` +
          `CPU per request: server ${serverMs.toFixed(3)} ms, PostgreSQL ${databaseMs.toFixed(3)} ms; ` +
          `p99 ÷ ceiling p99 by round: ${ratios.map(times).join(', ')} (median ${times(median(ratios))})`,
      );
    }
    await admin.query('DROP TABLE bench_feed_floor_cards');
    await admin.end();
  } finally {
    child.kill('SIGTERM');
  }
}

async function until(probe: () => Promise<unknown>) {
  for (let i = 0; i < 240; i++) {
    try {
      return await probe();
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error('the server did not start');
}
