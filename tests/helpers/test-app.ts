import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.js';
import type { Clock } from '../../src/server/clock.js';
import { DEFAULT_RATE_LIMITS, loadConfig, type Config } from '../../src/server/config.js';
import type { ImageQueue } from '../../src/server/images/image-queue.js';
import { openDatabase, type Database } from '../../src/server/db/database.js';
import type { Storage } from '../../src/server/storage/storage.js';
import { migrate } from '../../src/server/db/migrate.js';
import { createEmptyDatabase, TEST_DATABASE_URL } from './services.js';

/**
 * Tests run on a real database: an in-memory PGlite cloned from one migrated template (opening
 * a new PGlite costs seconds, a clone half a second), or, when TEST_DATABASE_URL is set, a fresh
 * PostgreSQL database created for each app and dropped afterwards.
 */
let template: Promise<PGlite> | undefined;

async function migratedTemplate(): Promise<PGlite> {
  const client = new PGlite();
  await migrate(await openDatabase({ pglite: client }));
  return client;
}

/** A new, empty database on the PostgreSQL server of `adminUrl`; drop() removes it. */
export async function emptyPostgres(adminUrl: string): Promise<{ database: Database; drop: () => Promise<void>; url: string }> {
  const fresh = await createEmptyDatabase(adminUrl);
  return { database: await openDatabase({ databaseUrl: fresh.url }), url: fresh.url, drop: fresh.drop };
}

async function freshPostgres(adminUrl: string): Promise<{ database: Database; drop: () => Promise<void>; url: string }> {
  const fresh = await emptyPostgres(adminUrl);
  await migrate(fresh.database);
  return fresh;
}

export async function createTestDatabase(): Promise<{ database: Database; drop: () => Promise<void>; url?: string }> {
  if (TEST_DATABASE_URL) return freshPostgres(TEST_DATABASE_URL);
  template ??= migratedTemplate();
  // clone() is typed as the interface but returns a PGlite.
  const database = await openDatabase({ pglite: (await (await template).clone()) as PGlite });
  return { database, drop: async () => undefined };
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  close(): Promise<void>;
}

/**
 * A complete app on its own empty database. Rate limits are generous unless a test sets them;
 * `deps.clock` is the caches' time (see TestClock).
 */
export async function createTestApp(
  overrides: Partial<Config> = {},
  deps: { storage?: Storage; logStream?: { write(line: string): void }; images?: ImageQueue; clock?: Clock } = {},
): Promise<TestApp> {
  const { database, drop } = await createTestDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dormboard-test-'));
  const config: Config = {
    ...loadConfig({}),
    dataDir,
    logLevel: 'silent',
    clientDir: '/nonexistent',
    // Tests write rows behind the app's back; the caches have their own tests.
    feedCacheMs: 0,
    searchCacheMs: 0,
    readCacheMs: 0,
    sessionCacheMs: 0,
    rateLimits: {
      ...DEFAULT_RATE_LIMITS,
      loginPerIp: 10_000,
      registerPerIp: 10_000,
      postsPerUser: 10_000,
      iconChangesPerUser: 10_000,
      searchPerIp: 10_000,
      searchPerUser: 10_000,
    },
    ...overrides,
  };
  const app = await buildApp({ config, database, storage: deps.storage, logStream: deps.logStream, images: deps.images, clock: deps.clock });
  await app.ready();
  return {
    app,
    database,
    config,
    close: async () => {
      await app.close();
      await database.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The caches' time for a test: it stands still until the test moves it on, so "within the time
 * to live" and "after it" do not depend on how fast two requests happen to run.
 */
export class TestClock {
  private time = Date.now();
  readonly now: Clock = () => this.time;

  advance(ms: number) {
    this.time += ms;
  }

  /** Moves on to the real time (never back): for comparisons with times taken from Date.now(). */
  catchUp() {
    this.time = Math.max(this.time, Date.now());
  }
}
