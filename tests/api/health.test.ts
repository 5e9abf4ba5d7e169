import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { loadConfig, type Config } from '../../src/server/config.js';
import { openDatabase } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrate.js';
import { DiskStorage } from '../../src/server/storage/disk-storage.js';
import type { Storage } from '../../src/server/storage/storage.js';
import { tempDir } from '../helpers/processes.js';
import { createEmptyDatabase, freePort, noPostgres, noRedis, redisTestPrefix, redisUrl } from '../helpers/services.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { createTestApp, TEST_ARGON2ID, TestClock, TEST_RATE_LIMITS, type TestApp } from '../helpers/test-app.js';

/**
 * GET /healthz and GET /readyz (issue 28): 200 or 503 and a small body naming each check,
 * nothing more (no versions, no error text), never rate limited, never logged per request.
 */

const healthz = (app: FastifyInstance) => app.inject({ method: 'GET', url: '/healthz' });
const readyz = (app: FastifyInstance) => app.inject({ method: 'GET', url: '/readyz' });

/** The answer as a balancer sees it, with what it must not carry checked on the way. */
function bodyOf(response: LightMyRequestResponse) {
  expect(response.headers['cache-control']).toBe('no-store');
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.headers).not.toHaveProperty('server');
  expect(response.headers).not.toHaveProperty('x-powered-by');
  // Short and plain: status words only, no stack, message, version or path.
  expect(response.body).toMatch(/^[{}":,a-zA-Z]*$/);
  return response.json<{ status: string; checks?: Record<string, string> }>();
}

async function waitFor(condition: () => Promise<boolean>, what: string) {
  // A hang guard only.
  const deadline = Date.now() + 60_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('health endpoints', () => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    // Logging on, as a server runs: per-request lines would show here.
    t = await createTestApp({ logLevel: 'info' }, { logStream: { write: (line) => void lines.push(line) } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('/healthz answers 200 without looking at anything', async () => {
    const response = await healthz(t.app);
    expect(response.statusCode).toBe(200);
    expect(bodyOf(response)).toEqual({ status: 'ok' });
    expect((await t.app.inject({ method: 'HEAD', url: '/healthz' })).statusCode).toBe(200);
  });

  it('/readyz answers 200 naming each check that applies (no Redis, no change feed here)', async () => {
    const response = await readyz(t.app);
    expect(response.statusCode).toBe(200);
    expect(bodyOf(response)).toEqual({ status: 'ok', checks: { database: 'ok', migrations: 'ok', storage: 'ok' } });
  });

  it('leaves no probe file behind in storage', async () => {
    expect((await readyz(t.app)).statusCode).toBe(200);
    const media = path.join(t.config.dataDir, 'media');
    const left = fs.existsSync(media) ? fs.readdirSync(media, { recursive: true }) : [];
    expect(left).toEqual([]);
  });

  it('is never rate limited', async () => {
    for (let round = 0; round < 10; round += 1) {
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? healthz(t.app) : readyz(t.app))));
      expect(answers.map((answer) => answer.statusCode).filter((status) => status !== 200)).toEqual([]);
    }
  });

  it('logs nothing per request (other requests are logged)', async () => {
    const before = lines.length;
    for (let i = 0; i < 5; i += 1) {
      await healthz(t.app);
      await readyz(t.app);
    }
    expect(lines.slice(before)).toEqual([]);
    // The control: an ordinary request does leave its lines.
    await t.app.inject({ method: 'GET', url: '/api/no-such-route' });
    expect(lines.length).toBeGreaterThan(before);
  });
});

describe('readiness when something fails', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close().catch(() => undefined);
  });
  const testApp = async (...args: Parameters<typeof createTestApp>) => {
    const app = await createTestApp(...args);
    apps.push(app);
    return app;
  };

  it('storage that takes no write: 503 naming storage, and no error text', async () => {
    // A media directory that cannot be made (its parent is a file): writable by nobody, root included.
    const file = path.join(tempDir('health-storage'), 'not-a-directory');
    fs.writeFileSync(file, '');
    const t = await testApp({}, { storage: new DiskStorage(path.join(file, 'media')) });
    const response = await readyz(t.app);
    expect(response.statusCode).toBe(503);
    expect(bodyOf(response)).toEqual({ status: 'fail', checks: { database: 'ok', migrations: 'ok', storage: 'fail' } });
    expect(response.body).not.toMatch(/ENOTDIR|not-a-directory/);
    // Liveness does not depend on it.
    expect((await healthz(t.app)).statusCode).toBe(200);
  });

  it('a check that hangs fails by its timeout instead of hanging the probe', async () => {
    const hung: Storage = {
      put: () => new Promise(() => undefined),
      get: async () => undefined,
      delete: async () => undefined,
    };
    const t = await testApp({}, { storage: hung });
    const response = await readyz(t.app);
    expect(response.statusCode).toBe(503);
    expect(bodyOf(response).checks).toEqual({ database: 'ok', migrations: 'ok', storage: 'fail' });
  });

  it('writes to storage at most once in a few seconds, however often it is probed', async () => {
    const dir = tempDir('health-counted');
    const disk = new DiskStorage(dir);
    let puts = 0;
    const counted: Storage = {
      put: (key, body, type) => {
        puts += 1;
        return disk.put(key, body, type);
      },
      get: (key) => disk.get(key),
      delete: (key) => disk.delete(key),
    };
    // Time stands still until the test moves it on.
    const clock = new TestClock();
    const t = await testApp({}, { storage: counted, clock: clock.now });
    for (let i = 0; i < 20; i += 1) expect((await readyz(t.app)).statusCode).toBe(200);
    expect(puts).toBe(1);
    clock.advance(60_000);
    expect((await readyz(t.app)).statusCode).toBe(200);
    expect(puts).toBe(2);
    expect(fs.readdirSync(dir, { recursive: true })).toEqual([]);
  });

  it('a closed database: 503 naming the database and the migrations', async () => {
    const t = await testApp();
    await t.database.close();
    const response = await readyz(t.app);
    expect(response.statusCode).toBe(503);
    expect(bodyOf(response)).toEqual({ status: 'fail', checks: { database: 'fail', migrations: 'fail', storage: 'ok' } });
  });

  it('Redis configured but not answering: 503 naming redis', async () => {
    const t = await testApp({ redisUrl: `redis://127.0.0.1:${await freePort()}` });
    const response = await readyz(t.app);
    expect(response.statusCode).toBe(503);
    expect(bodyOf(response).checks).toEqual({ database: 'ok', migrations: 'ok', storage: 'ok', redis: 'fail' });
  });
});

describe.skipIf(noRedis)('readiness with Redis', () => {
  it('names redis, ok when it answers', async () => {
    const t = await createTestApp({ redisUrl: redisUrl(), redisKeyPrefix: redisTestPrefix('health') });
    try {
      const response = await readyz(t.app);
      expect(response.statusCode).toBe(200);
      expect(bodyOf(response).checks).toEqual({ database: 'ok', migrations: 'ok', storage: 'ok', redis: 'ok' });
    } finally {
      await t.close();
    }
  });
});

/** The app as it runs on PostgreSQL (DATABASE_URL set: the change feed listens), reached through a proxy the test can cut. */
describe.skipIf(noPostgres)('readiness on PostgreSQL', { timeout: 120_000 }, () => {
  let created: Awaited<ReturnType<typeof createEmptyDatabase>>;
  let proxy: TcpProxy;
  let app: FastifyInstance;
  let closeDatabase: () => Promise<void>;
  beforeAll(async () => {
    created = await createEmptyDatabase();
    const target = new URL(created.url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(created.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const databaseUrl = viaProxy.toString();
    const database = await openDatabase({ databaseUrl, connectTimeoutMs: 2_000 });
    closeDatabase = () => database.close();
    await migrate(database);
    const config: Config = {
      ...loadConfig({}),
      databaseUrl,
      databaseConnectTimeoutMs: 2_000,
      dataDir: tempDir('health-pg'),
      logLevel: 'silent',
      clientDir: '/nonexistent',
      rateLimits: TEST_RATE_LIMITS,
      passwordHashing: TEST_ARGON2ID,
    };
    app = await buildApp({ config, database });
    await app.ready();
  });
  afterAll(async () => {
    await proxy?.set('up');
    await app?.close();
    await closeDatabase?.();
    await proxy?.close();
    await created?.drop();
  });

  it('names the change feed, ok while it listens', async () => {
    const response = await readyz(app);
    expect(response.statusCode).toBe(200);
    expect(bodyOf(response).checks).toEqual({ database: 'ok', migrations: 'ok', storage: 'ok', changeFeed: 'ok' });
  });

  it('a database that does not answer gives 503 (not a hung probe); ready again once it is back', async () => {
    await proxy.set('stall');
    const stalled = await readyz(app);
    expect(stalled.statusCode).toBe(503);
    expect(bodyOf(stalled).checks?.database).toBe('fail');

    await proxy.set('down');
    // The change feed notices its connection is gone.
    await waitFor(async () => bodyOf(await readyz(app)).checks?.changeFeed === 'fail', 'the change feed reported down');

    await proxy.set('up');
    await waitFor(async () => (await readyz(app)).statusCode === 200, 'ready again');
  });
});
