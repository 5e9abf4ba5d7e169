import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.js';
import type { Argon2Cost } from '../../src/server/config.js';
import type { Clock } from '../../src/server/clock.js';
import { DEFAULT_RATE_LIMITS, loadConfig, type Config, type RateLimitConfig } from '../../src/server/config.js';
import type { ImageQueue } from '../../src/server/images/image-queue.js';
import type { Outbox } from '../../src/server/mail/outbox.js';
import { openDatabase, type Database } from '../../src/server/db/database.js';
import { MIGRATIONS } from '../../src/server/db/migrations/index.js';
import type { Storage } from '../../src/server/storage/storage.js';
import { migrate } from '../../src/server/db/migrate.js';
import { loggingDb } from './query-plans.js';
import { createEmptyDatabase, TEST_DATABASE_URL } from './services.js';

/**
 * Tests run on a real database: an in-memory PGlite cloned from one migrated template, or, when
 * TEST_DATABASE_URL is set, a fresh PostgreSQL database created for each app and dropped
 * afterwards.
 *
 * Creating a PGlite and migrating it takes ~4 s of CPU, loading a dump of one ~0.7 s: the
 * migrated template is dumped once into the temporary folder (named by the migrations and the
 * PGlite version, so a change of either makes a new one) and every test file loads that.
 */
let template: Promise<PGlite> | undefined;

function templateFile(): string {
  const pgliteVersion = (
    JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../node_modules/@electric-sql/pglite/package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  const hash = createHash('sha256').update(pgliteVersion).update(JSON.stringify(MIGRATIONS)).digest('hex').slice(0, 16);
  return path.join(os.tmpdir(), `dormboard-pglite-template-${hash}.tar.gz`);
}

async function migratedTemplate(): Promise<PGlite> {
  const file = templateFile();
  if (fs.existsSync(file)) {
    const client = new PGlite({ loadDataDir: new Blob([fs.readFileSync(file)]) });
    await client.waitReady;
    return client;
  }
  const client = new PGlite();
  await migrate(await openDatabase({ pglite: client }));
  const dump = Buffer.from(await (await client.dumpDataDir('gzip')).arrayBuffer());
  // Written aside and renamed: test files in other workers may be reading or writing it too.
  const staging = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  fs.writeFileSync(staging, dump);
  fs.renameSync(staging, file);
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

/** ownThread: the embedded database in a thread of its own, as the server runs it (ignored on PostgreSQL). */
export async function createTestDatabase(
  options: { ownThread?: boolean } = {},
): Promise<{ database: Database; drop: () => Promise<void>; url?: string }> {
  if (TEST_DATABASE_URL) return freshPostgres(TEST_DATABASE_URL);
  template ??= migratedTemplate();
  if (options.ownThread) {
    await template;
    const database = await openDatabase({ ownThread: true, loadDump: new Blob([fs.readFileSync(templateFile())]) });
    return { database, drop: async () => undefined };
  }
  // clone() is typed as the interface but returns a PGlite.
  const database = await openDatabase({ pglite: (await (await template).clone()) as PGlite });
  return { database, drop: async () => undefined };
}

/**
 * argon2id at its smallest cost: a sign-up in a test costs microseconds, not ~15 ms of a core.
 * Only through config.passwordHashing, which a server never takes from its environment; the
 * OWASP parameters servers use are checked in tests/api/auth.test.ts.
 */
export const TEST_ARGON2ID: Argon2Cost = { memoryCost: 64, timeCost: 1 };

/** Generous limits, so tests that are not about a limit never meet one; a test about one sets its own. */
export const TEST_RATE_LIMITS: RateLimitConfig = {
  ...DEFAULT_RATE_LIMITS,
  loginPerIp: 10_000,
  registerPerIp: 10_000,
  postsPerUser: 10_000,
  iconChangesPerUser: 10_000,
  searchPerIp: 10_000,
  searchPerUser: 10_000,
  boardWritesPerUser: 10_000,
  reportsPerIp: 10_000,
  // Verified addresses (issue 29): link and code checks, and verification mails.
  verifyPerIp: 10_000,
  verifyMailsPerAccount: 10_000,
  verifyMailsPerAddress: 10_000,
  pushDevicesPerUser: 10_000,
};

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  close(): Promise<void>;
}

/** The configuration a test's app runs with: production's, quiet, fast to hash, every cache on. */
export function testConfig(dataDir: string, overrides: Partial<Config> = {}): Config {
  const PRODUCTION = loadConfig({});
  return {
    ...PRODUCTION,
    dataDir,
    logLevel: 'silent',
    clientDir: '/nonexistent',
    // Every cache on, as in production: a read the app should have known was stale fails a test.
    cacheTtlMs: 60_000,
    // The session cache too, as the embedded default runs it (issue 26: with it off, a suspension
    // that forgot to clear it passed every test). Where it cannot be on (PostgreSQL), the app
    // turns it off itself.
    sessionCacheMs: PRODUCTION.sessionCacheMs,
    rateLimits: TEST_RATE_LIMITS,
    passwordHashing: TEST_ARGON2ID,
    ...overrides,
  };
}

/**
 * A complete app on its own empty database. Rate limits are generous unless a test sets them;
 * `deps.clock` is the caches' time (see TestClock).
 */
export async function createTestApp(
  overrides: Partial<Config> = {},
  deps: {
    storage?: Storage;
    logStream?: { write(line: string): void };
    images?: ImageQueue;
    clock?: Clock;
    ownThread?: boolean;
    /** Where mail goes out: a test that keeps it can wait until every mail promised has gone. */
    outbox?: Outbox;
    /** Told the SQL of every statement the app's query builder sends (which reads hit the database). */
    onStatement?: (sql: string) => void;
    /** The push sender's first retry wait (notifications/push-sender.ts). */
    pushRetryBaseMs?: number;
  } = {},
): Promise<TestApp> {
  const opened = await createTestDatabase({ ownThread: deps.ownThread });
  const { drop } = opened;
  const { onStatement } = deps;
  const database = onStatement ? { ...opened.database, orm: loggingDb(opened.database, (sql) => onStatement(sql)) } : opened.database;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dormboard-test-'));
  const config = testConfig(dataDir, overrides);
  const app = await buildApp({
    config,
    database,
    storage: deps.storage,
    logStream: deps.logStream,
    images: deps.images,
    clock: deps.clock,
    outbox: deps.outbox,
    pushRetryBaseMs: deps.pushRetryBaseMs,
  });
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
