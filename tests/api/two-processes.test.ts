import fs from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/server/db/migrations/index.js';
import { activityApi, type ActivityPage } from '../../src/shared/api/activity.js';
import { API } from '../../src/shared/api/paths.js';
import { jpeg } from '../helpers/images.js';
import { spawnGroup, tempDir, type Spawned } from '../helpers/processes.js';
import { startLocalS3, type LocalS3 } from '../helpers/s3.js';
import { childEnv } from '../helpers/server-process.js';
import {
  createEmptyDatabase,
  deleteRedisKeys,
  freePort,
  noPostgres,
  noRedis,
  redisKeys,
  redisTestPrefix,
  redisUrl,
} from '../helpers/services.js';

/**
 * Two real server processes (the production entry point) on different ports, sharing one
 * PostgreSQL database, one S3 bucket (a local s3rver) and one Redis: one system, whichever
 * process a request reaches. They start at the same moment, so they also migrate concurrently.
 * Their Redis keys live under a prefix of this run's own (REDIS_KEY_PREFIX), deleted afterwards.
 */
const REDIS_PREFIX = redisTestPrefix('two-processes');
const S3_PREFIX = 'two-processes/';
const LOGIN_FAILURES = 4;

interface Server {
  name: string;
  base: string;
  process: Spawned;
}

function startServer(name: string, port: number, env: Record<string, string>): Server {
  const server = spawnGroup(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: childEnv({ ...env, PORT: String(port), HOST: '127.0.0.1' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { name, base: `http://127.0.0.1:${port}`, process: server };
}

async function waitUntilUp(server: Server): Promise<void> {
  let exited = false;
  void server.process.exited.then(() => (exited = true));
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline && !exited) {
    try {
      const response = await fetch(`${server.base}${API.me}`);
      if (response.status === 401) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server ${server.name} did not start${exited ? ' (it exited)' : ''}:\n${server.process.output()}`);
}

/** The session cookie a response set, ready for the next request's Cookie header. */
function sessionOf(response: Response): string {
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('session='));
  if (!cookie) throw new Error(`no session cookie (status ${response.status})`);
  return cookie.split(';')[0]!;
}

const json = (server: Server, url: string, body: unknown, cookie?: string) =>
  fetch(`${server.base}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });

const get = (server: Server, url: string, cookie?: string) => fetch(`${server.base}${url}`, { headers: cookie ? { cookie } : {} });

let accounts = 0;
function newAccount(prefix: string) {
  accounts += 1;
  const tag = `${process.pid % 1000}${accounts}`;
  return { username: `${prefix}${tag}`.slice(0, 20), email: `${prefix}${tag}@example.com`, password: 'correct horse 1' };
}

async function register(server: Server, prefix: string) {
  const account = newAccount(prefix);
  const response = await json(server, API.register, account);
  expect(response.status, await response.clone().text()).toBe(201);
  const { user } = (await response.json()) as { user: { uid: string } };
  return { ...account, uid: user.uid, cookie: sessionOf(response) };
}

describe.skipIf(noPostgres || noRedis)('two app processes, one system', { timeout: 120_000 }, () => {
  let database: Awaited<ReturnType<typeof createEmptyDatabase>>;
  let s3: LocalS3;
  let redis: Redis;
  let dataDir: string;
  let a: Server;
  let b: Server;

  beforeAll(async () => {
    [database, s3] = await Promise.all([createEmptyDatabase(), startLocalS3()]);
    redis = new Redis(redisUrl(), { maxRetriesPerRequest: 1 });
    dataDir = tempDir('two');
    const env = {
      DATABASE_URL: database.url,
      ...s3.env(S3_PREFIX),
      REDIS_URL: redisUrl(),
      REDIS_KEY_PREFIX: REDIS_PREFIX,
      RATE_LIMIT_LOGIN_FAILURES: String(LOGIN_FAILURES),
      // Neither may fall back to a shared folder: media must go to the bucket.
      DATA_DIR: dataDir,
      CLIENT_DIR: '/nonexistent',
      LOG_LEVEL: 'warn',
      TRUST_PROXY: '',
    };
    const [portA, portB] = [await freePort(), await freePort()];
    // Both at once: they race to migrate the empty database.
    a = startServer('A', portA, env);
    b = startServer('B', portB, env);
    await Promise.all([waitUntilUp(a), waitUntilUp(b)]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a, b].map((server) => server?.process.kill()));
    await s3?.stop();
    await database?.drop();
    if (redis) {
      // Only this run's keys: the Redis may be a developer's own.
      await deleteRedisKeys(redis, REDIS_PREFIX);
      await redis.quit();
    }
  }, 60_000);

  it('both came up on the same database, migrated exactly once', async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
      expect(rows.map((row) => row.version)).toEqual(MIGRATIONS.map((m) => m.version));
    } finally {
      await client.end();
    }
  });

  it('an account made on A signs in on B, and a session from either works on both', async () => {
    const account = await register(a, 'twoacct');

    // The session made by A's sign-up is good on B.
    const meOnB = await get(b, API.me, account.cookie);
    expect(meOnB.status).toBe(200);
    expect(((await meOnB.json()) as { user: { uid: string } }).user.uid).toBe(account.uid);

    // Sign in on B (by username and by e-mail); B's session is good on A.
    for (const identifier of [account.username, account.email]) {
      const login = await json(b, API.login, { identifier, password: account.password });
      expect(login.status, identifier).toBe(200);
      const cookie = sessionOf(login);
      const meOnA = await get(a, API.me, cookie);
      expect(meOnA.status).toBe(200);
      expect(((await meOnA.json()) as { user: { username: string } }).user.username).toBe(account.username);
    }

    // Signing out on B ends the session on A too.
    expect((await json(b, API.logout, {}, account.cookie)).status).toBeLessThan(300);
    expect((await get(a, API.me, account.cookie)).status).toBe(401);
    expect((await get(b, API.me, account.cookie)).status).toBe(401);

    // The username is taken everywhere.
    const again = { username: account.username, email: 'someone.else@example.com', password: account.password };
    expect((await json(b, API.register, again)).status).toBe(409);
  });

  it('a session signed out from the Sessions list on B stops working on A at its next request; a password change on A ends the rest on B', async () => {
    const account = await register(a, 'twosess');
    const iphone =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1';
    const phoneLogin = await fetch(`${b.base}${API.login}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': iphone },
      body: JSON.stringify({ identifier: account.username, password: account.password }),
    });
    const phone = sessionOf(phoneLogin);
    expect((await get(a, API.me, phone)).status).toBe(200);

    const listed = (await (await get(b, API.sessions, account.cookie)).json()) as {
      sessions: Array<{ id: string; browser: string | null }>;
    };
    const phoneSession = listed.sessions.find((session) => session.browser === 'Safari 17')!;
    const ended = await fetch(`${b.base}${API.session(phoneSession.id)}`, { method: 'DELETE', headers: { cookie: account.cookie } });
    expect(ended.status).toBe(204);
    expect((await get(a, API.me, phone)).status).toBe(401);
    expect((await get(b, API.me, phone)).status).toBe(401);
    expect((await get(a, API.me, account.cookie)).status).toBe(200);

    // A password change on A ends every other session, also for requests to B.
    const tablet = sessionOf(await json(b, API.login, { identifier: account.username, password: account.password }));
    expect((await get(b, API.me, tablet)).status).toBe(200);
    const changed = await json(
      a,
      API.password,
      { currentPassword: account.password, newPassword: 'a new one for two', confirmPassword: 'a new one for two' },
      account.cookie,
    );
    expect(changed.status).toBe(204);
    expect((await get(b, API.me, tablet)).status).toBe(401);
    expect((await get(b, API.me, account.cookie)).status).toBe(200);
  });

  it('a post made on B shows in the feed on A, A serves its images from the shared bucket, and deleting on A removes them everywhere', async () => {
    const author = await register(b, 'twoauth');
    const reader = await register(a, 'tworead');

    const form = new FormData();
    form.append('photo', new Blob([new Uint8Array(await jpeg(900, 600))], { type: 'image/jpeg' }), 'photo.jpg');
    form.append('description', 'made on B #twoprocesses');
    const created = await fetch(`${b.base}${API.posts}`, { method: 'POST', headers: { cookie: author.cookie }, body: form });
    expect(created.status, await created.clone().text()).toBe(201);
    const { post } = (await created.json()) as { post: { id: string; image: { full: string; variants: Array<{ src: string }> } } };

    const feed = await get(a, API.posts, reader.cookie);
    expect(feed.status).toBe(200);
    const { posts } = (await feed.json()) as { posts: Array<{ id: string; description: string }> };
    expect(posts.map((p) => p.id)).toContain(post.id);
    expect((await get(a, API.post(post.id))).status).toBe(200);

    const urls = [post.image.full, ...post.image.variants.map((v) => v.src)];
    const objects = urls.map((url) => `${S3_PREFIX}${url.slice('/media/'.length)}`);
    expect(await s3.keys()).toEqual(expect.arrayContaining(objects));
    // Nothing went to a local folder.
    expect(fs.existsSync(path.join(dataDir, 'media'))).toBe(false);

    for (const url of urls) {
      const fromA = await get(a, url);
      expect(fromA.status, url).toBe(200);
      expect(fromA.headers.get('content-type')).toBe(url.endsWith('.jpg') ? 'image/jpeg' : 'image/webp');
      expect(fromA.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(fromA.headers.get('x-content-type-options')).toBe('nosniff');
      const fromB = await get(b, url);
      expect(Buffer.from(await fromA.arrayBuffer()).equals(Buffer.from(await fromB.arrayBuffer())), url).toBe(true);
    }

    const deleted = await fetch(`${a.base}${API.post(post.id)}`, { method: 'DELETE', headers: { cookie: author.cookie } });
    expect(deleted.status).toBe(204);
    // B shared the post's page when it was created there; A's change feed tells it of the
    // deletion within milliseconds (tests/api/read-your-writes.test.ts measures how soon).
    const deadline = Date.now() + 10_000;
    let status = (await get(b, API.post(post.id))).status;
    while (status === 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await get(b, API.post(post.id))).status;
    }
    expect(status).toBe(404);
    for (const url of urls) expect((await get(b, url)).status, url).toBe(404);
    expect((await s3.keys()).filter((key) => objects.includes(key))).toEqual([]);
  });

  it('a follow on A shows at once in the first page B kept; Mark all as read on B, in the one A kept', async () => {
    const [me, fan] = [await register(a, 'twome'), await register(b, 'twofan')];
    const firstPage = async (server: Server) => {
      const response = await get(server, activityApi.activity.path, me.cookie);
      expect(response.status).toBe(200);
      return ((await response.json()) as ActivityPage).groups;
    };
    // Both kept it empty.
    expect(await firstPage(a)).toEqual([]);
    expect(await firstPage(b)).toEqual([]);
    const followed = await fetch(`${a.base}${API.follow(me.username)}`, { method: 'PUT', headers: { cookie: fan.cookie } });
    expect(followed.status).toBe(200);
    expect(await firstPage(b)).toEqual([expect.objectContaining({ kind: 'follow', unread: true })]);
    expect(await firstPage(a)).toEqual([expect.objectContaining({ kind: 'follow', unread: true })]);
    expect((await json(b, activityApi.markRead.path, {}, me.cookie)).status).toBe(200);
    expect(await firstPage(a)).toEqual([expect.objectContaining({ kind: 'follow', unread: false })]);
  });

  it(`wrong passwords alternating between A and B hit 429 after ${LOGIN_FAILURES} failures in total`, async () => {
    const account = await register(a, 'twolimit');
    const wrong = { identifier: account.email, password: 'not the password' };
    for (let i = 0; i < LOGIN_FAILURES; i++) {
      const server = i % 2 === 0 ? a : b;
      expect((await json(server, API.login, wrong)).status, `failure ${i + 1} on ${server.name}`).toBe(401);
    }
    // Each process saw only half the failures; together they used up the limit.
    for (const server of [a, b]) {
      const limited = await json(server, API.login, wrong);
      expect(limited.status, server.name).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      // Even the right password waits for the window now.
      expect((await json(server, API.login, { ...wrong, password: account.password })).status, server.name).toBe(429);
    }
    // The counters live in Redis, under the prefix the servers were given.
    expect((await redisKeys(redis, REDIS_PREFIX)).filter((key) => key.startsWith(`${REDIS_PREFIX}rl:login:fail:`)).length).toBeGreaterThan(
      0,
    );
  });

  it('both exit cleanly on SIGTERM', async () => {
    const codes = await Promise.all([a.process.stop('SIGTERM'), b.process.stop('SIGTERM')]);
    expect(codes, a.process.output() + b.process.output()).toEqual([0, 0]);
  });
});
