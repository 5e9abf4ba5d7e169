import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { openDatabase, type Database } from '../../src/server/db/database.js';
import { limitName } from '../../src/server/http/rate-limiter.js';
import { listenMetrics } from '../../src/server/metrics/metrics-endpoint.js';
import { DiskStorage } from '../../src/server/storage/disk-storage.js';
import { API } from '../../src/shared/api/paths.js';
import { newAccount, signUp } from '../helpers/accounts.js';
import { HeldStorage } from '../helpers/held-storage.js';
import { jpeg } from '../helpers/images.js';
import { createPost } from '../helpers/posts.js';
import { TEST_DATABASE_URL } from '../helpers/services.js';
import { createTestApp, createTestDatabase, TEST_RATE_LIMITS, type TestApp } from '../helpers/test-app.js';

/**
 * Prometheus metrics (issue 28 point 2): served only with the token or on the loopback port;
 * each family moves when its path is exercised; labels stay bounded.
 */

const TOKEN = 'metrics-token-for-tests-0123456789';

/** One sample line of the text format: `name{a="x",b="y"} value`. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, key, value]) => [key!, value!]));
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The sum of the samples of `name` whose labels include `labels`. */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((sample) => sample.name === name && Object.entries(labels).every(([key, wanted]) => sample.labels[key] === wanted))
    .reduce((sum, sample) => sum + sample.value, 0);
}

async function scrape(app: FastifyInstance): Promise<Sample[]> {
  const response = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.statusCode, response.body).toBe(200);
  return parse(response.body);
}

describe('who may read /metrics', () => {
  it('nobody, when neither METRICS_TOKEN nor METRICS_PORT is set: a 404 like any missing path', async () => {
    const t = await createTestApp();
    try {
      expect(t.app.metrics).toBeUndefined();
      for (const authorization of [undefined, `Bearer ${TOKEN}`]) {
        const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
        expect(response.statusCode).toBe(404);
        expect(response.body).not.toContain('process_cpu');
      }
    } finally {
      await t.close();
    }
  });

  it('with METRICS_TOKEN: the bearer of that token only; anyone else gets a 404', async () => {
    const t = await createTestApp({ metricsToken: TOKEN });
    try {
      const tries = [undefined, 'Bearer wrong-token-of-the-same-size-xxxx', `Bearer ${TOKEN}x`, TOKEN, `Basic ${TOKEN}`];
      for (const authorization of tries) {
        const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
        expect(response.statusCode, String(authorization)).toBe(404);
        expect(response.body).not.toContain('dormboard_');
      }
      const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.body).toContain('# TYPE dormboard_http_request_duration_seconds histogram');
      // No part of the API: not in its OpenAPI document.
      expect(Object.keys((await t.app.inject({ method: 'GET', url: API.openapi })).json().paths)).not.toContain('/metrics');
    } finally {
      await t.close();
    }
  });

  it('with METRICS_PORT: a listener on 127.0.0.1 serves it without a token; the public app still does not', async () => {
    const t = await createTestApp({ metricsPort: 1 });
    const server = await listenMetrics(t.app.metrics!, 0);
    try {
      const address = server.server.address();
      if (typeof address !== 'object' || !address) throw new Error('not listening');
      expect(address.address).toBe('127.0.0.1');
      const response = await fetch(`http://127.0.0.1:${address.port}/metrics`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.text()).toContain('dormboard_http_requests_in_flight');
      // The public port: no token set, so nothing there, whatever the caller sends.
      const publicAnswer = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(publicAnswer.statusCode).toBe(404);
    } finally {
      await server.close();
      await t.close();
    }
  });
});

describe('metric families', () => {
  let t: TestApp;
  let storage: HeldStorage;
  let mediaDir: string;

  beforeAll(async () => {
    mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dormboard-metrics-'));
    storage = new HeldStorage(new DiskStorage(mediaDir));
    t = await createTestApp({ metricsToken: TOKEN, rateLimits: { ...TEST_RATE_LIMITS, searchPerIp: 2 } }, { storage });
  });
  afterAll(async () => {
    storage.release();
    await t?.close();
    fs.rmSync(mediaDir, { recursive: true, force: true });
  });

  const REQUESTS = 'dormboard_http_request_duration_seconds_count';

  it('requests: counted by route pattern and status class, never by the raw path', async () => {
    const account = await signUp(t.app);
    const before = await scrape(t.app);
    const userRoute = { route: '/api/users/:username', method: 'GET' };
    expect((await t.app.inject({ method: 'GET', url: API.user(account.username) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/nonexistent/xyz' })).statusCode).toBe(404);
    const after = await scrape(t.app);
    expect(
      value(after, REQUESTS, { ...userRoute, status_class: '2xx' }) - value(before, REQUESTS, { ...userRoute, status_class: '2xx' }),
    ).toBe(1);
    expect(
      value(after, REQUESTS, { route: 'unmatched', status_class: '4xx' }) -
        value(before, REQUESTS, { route: 'unmatched', status_class: '4xx' }),
    ).toBe(1);
    expect(after.some((sample) => Object.values(sample.labels).some((label) => label.includes('nonexistent')))).toBe(false);
    expect(after.some((sample) => Object.values(sample.labels).some((label) => label.includes(account.username)))).toBe(false);
    // The scrape that is answering is the one request in flight.
    expect(value(after, 'dormboard_http_requests_in_flight')).toBe(1);
  });

  it('label sets do not grow with the users asked for', async () => {
    const labelSets = async () =>
      new Set((await scrape(t.app)).filter((sample) => sample.name === REQUESTS).map((sample) => JSON.stringify(sample.labels))).size;
    // Every route and status this test will ask for, once, so only new users could add label sets.
    await t.app.inject({ method: 'GET', url: API.user('nobody-here-0') });
    await t.app.inject({ method: 'GET', url: API.userPosts('nobody-here-0') });
    const before = await labelSets();
    for (let i = 0; i < 50; i++) {
      const name = newAccount('card').username;
      expect((await t.app.inject({ method: 'GET', url: API.user(name) })).statusCode).toBe(404);
      await t.app.inject({ method: 'GET', url: API.userPosts(name) });
    }
    expect(await labelSets()).toBe(before);
  });

  it('database: statements are timed, and the pool and statements in flight are shown', async () => {
    const before = await scrape(t.app);
    await signUp(t.app);
    const after = await scrape(t.app);
    expect(value(after, 'dormboard_db_statement_duration_seconds_count')).toBeGreaterThan(
      value(before, 'dormboard_db_statement_duration_seconds_count'),
    );
    expect(value(after, 'dormboard_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(after.some((sample) => sample.name === 'dormboard_db_statements_in_flight')).toBe(true);
  });

  it('read cache: a second read of a region is a hit of that region; its bytes are shown', async () => {
    const account = await signUp(t.app);
    const region = { region: 'public user' };
    const before = await scrape(t.app);
    for (let i = 0; i < 2; i++) expect((await t.app.inject({ method: 'GET', url: API.user(account.username) })).statusCode).toBe(200);
    const after = await scrape(t.app);
    expect(
      value(after, 'dormboard_cache_misses_total', region) - value(before, 'dormboard_cache_misses_total', region),
    ).toBeGreaterThanOrEqual(1);
    expect(value(after, 'dormboard_cache_hits_total', region) - value(before, 'dormboard_cache_hits_total', region)).toBeGreaterThanOrEqual(
      1,
    );
    expect(value(after, 'dormboard_cache_bytes', region)).toBeGreaterThan(0);
  });

  it('image queue: an upload is timed, and the queue depth is shown', async () => {
    const account = await signUp(t.app);
    const before = await scrape(t.app);
    const response = await createPost(t.app, account.cookie, { bytes: await jpeg(640, 480), description: 'metrics' });
    expect(response.statusCode, response.body).toBe(201);
    const after = await scrape(t.app);
    expect(value(after, 'dormboard_image_processing_seconds_count') - value(before, 'dormboard_image_processing_seconds_count')).toBe(1);
    expect(value(after, 'dormboard_image_queue_uploads', { state: 'active' })).toBe(0);
    expect(after.some((sample) => sample.name === 'dormboard_image_queue_uploads' && sample.labels.state === 'waiting')).toBe(true);
  });

  it('export slots: one in use while an export is written, none after', async () => {
    const account = await signUp(t.app);
    expect((await createPost(t.app, account.cookie, { bytes: await jpeg(320, 240), description: 'to export' })).statusCode).toBe(201);
    const slots = (samples: Sample[], state: string) => value(samples, 'dormboard_export_slots', { state });
    expect(slots(await scrape(t.app), 'in_use')).toBe(0);
    storage.hold();
    const reading = storage.reading();
    const download = t.app.inject({ method: 'GET', url: API.exportData, headers: { cookie: account.cookie } });
    await reading;
    const during = await scrape(t.app);
    expect(slots(during, 'in_use')).toBe(1);
    expect(slots(during, 'capacity')).toBe(t.config.exportConcurrency);
    storage.release();
    expect((await download).statusCode).toBe(200);
    expect(slots(await scrape(t.app), 'in_use')).toBe(0);
  });

  it('rate limits: a refusal is counted under the name of its limit, without whom it counts', async () => {
    const refused = { limit: 'search:ip' };
    const before = await scrape(t.app);
    const search = () => t.app.inject({ method: 'GET', url: API.searchUsers('someone'), remoteAddress: '10.9.8.7' });
    for (let i = 0; i < 2; i++) expect((await search()).statusCode).toBe(200);
    expect((await search()).statusCode).toBe(429);
    const after = await scrape(t.app);
    expect(
      value(after, 'dormboard_rate_limit_refusals_total', refused) - value(before, 'dormboard_rate_limit_refusals_total', refused),
    ).toBe(1);
    expect(after.some((sample) => Object.values(sample.labels).some((label) => label.includes('10.9.8.7')))).toBe(false);
  });

  it('process and event loop: the default metrics are there', async () => {
    const samples = await scrape(t.app);
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(
        samples.some((sample) => sample.name === name),
        name,
      ).toBe(true);
    }
  });
});

describe('read cache evictions', () => {
  it('are counted per region when the cache is full', async () => {
    const t = await createTestApp({ metricsToken: TOKEN, cacheMaxBytes: 500 });
    try {
      const accounts = [];
      for (let i = 0; i < 12; i++) accounts.push(await signUp(t.app));
      for (const account of accounts) expect((await t.app.inject({ method: 'GET', url: API.user(account.username) })).statusCode).toBe(200);
      const samples = await scrape(t.app);
      // A public user row is ~100 bytes: twelve do not fit in 500.
      expect(value(samples, 'dormboard_cache_evictions_total', { region: 'public user' })).toBeGreaterThan(0);
      // What is held stays within the cache's bytes.
      expect(value(samples, 'dormboard_cache_bytes')).toBeLessThanOrEqual(500);
    } finally {
      await t.close();
    }
  });
});

describe('the settings', () => {
  it('refuse a short METRICS_TOKEN and METRICS_PORT=0; unset, metrics are off', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'too-short' })).toThrow(/METRICS_TOKEN must be at least 16 characters/);
    expect(() => loadConfig({ METRICS_PORT: '0' })).toThrow(/METRICS_PORT must be at least 1/);
    expect(loadConfig({ METRICS_TOKEN: TOKEN, METRICS_PORT: '9464' })).toMatchObject({ metricsToken: TOKEN, metricsPort: 9464 });
    expect(loadConfig({})).toMatchObject({ metricsToken: undefined, metricsPort: undefined });
  });
});

describe('limit names', () => {
  it('are the key without whom it counts', () => {
    expect(limitName('login:fail:ip:10.0.0.1')).toBe('login:fail:ip');
    expect(limitName('login:fail:typed:username:alice:10.0.0.1')).toBe('login:fail:typed');
    expect(limitName('posts:user:0b5c')).toBe('posts:user');
    expect(limitName('delete-account:fail:user:0b5c')).toBe('delete-account:fail:user');
    expect(limitName('odd-key')).toBe('odd-key');
  });
});

/** Scrapes until `ready` holds: for what another connection delivers (a hang guard, not a time limit). */
async function scrapeUntil(app: FastifyInstance, ready: (samples: Sample[]) => boolean): Promise<Sample[]> {
  for (;;) {
    const samples = await scrape(app);
    if (ready(samples)) return samples;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.runIf(TEST_DATABASE_URL)('on PostgreSQL, two processes sharing a database', () => {
  let base: TestApp;
  let shared: Awaited<ReturnType<typeof createTestDatabase>>;
  const apps: Array<{ app: FastifyInstance; database: Database }> = [];

  /** An app as another server process would run it: a pool and a change feed of its own. */
  async function open() {
    const database = await openDatabase({ databaseUrl: shared.url });
    const app = await buildApp({ config: { ...base.config, databaseUrl: shared.url }, database });
    await app.ready();
    apps.push({ app, database });
    return app;
  }

  beforeAll(async () => {
    base = await createTestApp({ metricsToken: TOKEN });
    shared = await createTestDatabase();
  });
  afterAll(async () => {
    for (const { app, database } of apps) {
      await app.close();
      await database.close();
    }
    await shared?.database.close();
    await shared?.drop();
    await base?.close();
  });

  it(
    "shows the pool's connections; a change from the other process has its lag measured; a lost feed's reconnection is counted",
    { timeout: 60_000 },
    async () => {
      const [a, b] = [await open(), await open()];
      const pool = await scrape(b);
      expect(value(pool, 'dormboard_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
      expect(value(pool, 'dormboard_db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
      expect(pool.some((sample) => sample.name === 'dormboard_db_pool_connections' && sample.labels.state === 'waiting')).toBe(true);

      const LAG = 'dormboard_change_feed_lag_seconds_count';
      const heard = value(await scrape(b), LAG);
      // A's change (a new account is a change its caches hear of) reaches B through the feed.
      const [alice, bob] = [await signUp(a), await signUp(a)];
      const follow = await a.inject({ method: 'PUT', url: API.follow(bob.username), headers: { cookie: alice.cookie } });
      expect(follow.statusCode, follow.body).toBeLessThan(300);
      await scrapeUntil(b, (samples) => value(samples, LAG) > heard);

      const RECONNECTS = 'dormboard_change_feed_reconnects_total';
      const reconnected = value(await scrape(b), RECONNECTS);
      // Every listener of this database loses its connection, as in a database restart.
      const admin = new pg.Client({ connectionString: shared.url });
      await admin.connect();
      try {
        await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND query = 'SELECT now() AS now'`,
        );
      } finally {
        await admin.end();
      }
      await scrapeUntil(b, (samples) => value(samples, RECONNECTS) > reconnected);
    },
  );
});
