import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { PreparedPGlite } from './pglite-prepared.js';
import { prepareStatements, unprepareStatements } from './postgres-prepared.js';
import { PGliteThread } from './pglite-thread.js';
import { prepareEmbedded } from './pglite-setup.js';
import { schema } from './schema.js';
import { StatementTiming, type StatementListener } from './statement-timing.js';

/** Where the embedded database lives under a data directory. */
export const pgliteDir = (dataDir: string) => path.join(dataDir, 'pglite');

/** The typed query builder; identical API on PGlite and PostgreSQL. */
export type AppDb = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Plain SQL inside one transaction, for migrations and other multi-statement work. */
export interface RawTransaction {
  exec(sql: string): Promise<void>;
  query<Row>(sql: string, params?: unknown[]): Promise<Row[]>;
}

export interface Database {
  kind: 'pglite' | 'postgres';
  orm: AppDb;
  rawTransaction<T>(work: (tx: RawTransaction) => Promise<T>): Promise<T>;
  /** A consistent gzipped tarball of the embedded database's files (PGlite only). */
  dump?(): Promise<Blob>;
  /**
   * PostgreSQL only: a query builder whose statements the server cancels after `timeoutMs`
   * (SQLSTATE 57014), over `connections` connections of their own that carry the timeout, so a
   * statement needs no transaction around it to set one. Made once; closed with the database.
   */
  withStatementTimeout?(timeoutMs: number, connections: number): AppDb;
  /** Hears how long each statement of the query builders took; returns how to stop. */
  onStatement(listener: StatementListener): () => void;
  /**
   * Connections and who waits for one, for the metrics. PostgreSQL: the main pool's. The embedded
   * database has one connection, busy while a statement runs; the others wait for it.
   */
  poolUse(): { total: number; idle: number; waiting: number };
  /** Statements sent and not yet answered. */
  statementsInFlight(): number;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres:// URL; when absent the embedded database is used. */
  databaseUrl?: string;
  /** Where the embedded database keeps its files; omitted = in memory. */
  dataDir?: string;
  /** Start the embedded database from a dump (restore). */
  loadDump?: Blob;
  /** An already open PGlite (tests clone one migrated template). */
  pglite?: PGlite;
  /**
   * The embedded database in a worker thread of its own (pglite-thread.ts), so that no statement
   * holds up the thread that serves requests: what the server does. Tools and tests that only
   * run queries keep it in their own thread.
   */
  ownThread?: boolean;
  /** PostgreSQL: a new connection taking longer than this fails instead of waiting for ever. */
  connectTimeoutMs?: number;
  /** PostgreSQL: connections in the pool (the server's DATABASE_POOL_SIZE); 10 by default. */
  poolSize?: number;
  /** PostgreSQL: each statement prepared once per connection (postgres-prepared.ts); true by default. */
  prepare?: boolean;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl)
    return openPostgres(options.databaseUrl, options.connectTimeoutMs ?? 5_000, {
      max: options.poolSize ?? 10,
      prepare: options.prepare ?? true,
    });
  let dir: string | undefined;
  if (options.dataDir && !options.pglite) {
    dir = pgliteDir(options.dataDir);
    await fs.mkdir(dir, { recursive: true });
  }
  if (options.ownThread && !options.pglite) {
    const loadDump = options.loadDump && (await options.loadDump.arrayBuffer());
    return wrapPglite(await PGliteThread.open({ dir, loadDump }));
  }
  const client = new PreparedPGlite(options.pglite ?? new PGlite({ dataDir: dir, loadDataDir: options.loadDump }));
  await prepareEmbedded(client.db);
  return wrapPglite(client);
}

/** PGlite in this thread or in its own: the same calls. */
function wrapPglite(client: Pick<PGliteThread, 'query' | 'transaction' | 'dumpDataDir' | 'close'>): Database {
  const timing = new StatementTiming();
  return {
    kind: 'pglite',
    // drizzle's PGlite driver calls only query() and transaction(), which PGliteThread has too.
    orm: drizzlePglite({ client: timing.wrap(client, { callsBackWith: 'transaction' }) as unknown as PGlite, schema }),
    rawTransaction: (work) =>
      client.transaction((tx) =>
        work({
          exec: async (sql) => void (await tx.exec(sql)),
          query: async <Row>(sql: string, params?: unknown[]) => (await tx.query<Row>(sql, params)).rows,
        }),
      ),
    dump: () => client.dumpDataDir('gzip'),
    onStatement: (listener) => timing.listen(listener),
    poolUse: () => ({ total: 1, idle: timing.inFlight === 0 ? 1 : 0, waiting: Math.max(0, timing.inFlight - 1) }),
    statementsInFlight: () => timing.inFlight,
    close: () => client.close(),
  };
}

function newPool(
  connectionString: string,
  connectTimeoutMs: number,
  { prepare, ...options }: pg.PoolConfig & { prepare: boolean },
): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    // Without it a request waits for ever for a database that does not answer.
    connectionTimeoutMillis: connectTimeoutMs,
    // Notices a peer that vanished without closing the connection (a cut network).
    keepAlive: true,
    ...options,
  });
  // An idle connection that dies (database restart, network cut) is dropped by the pool and the
  // next query opens a new one; without a listener the 'error' event would crash the process.
  // Requests that fail because of the outage are logged by the error handler.
  pool.on('error', () => undefined);
  if (prepare) prepareStatements(pool);
  else unprepareStatements(pool);
  return pool;
}

function openPostgres(connectionString: string, connectTimeoutMs: number, { max, prepare }: { max: number; prepare: boolean }): Database {
  const pool = newPool(connectionString, connectTimeoutMs, { max, prepare });
  let timed: { pool: pg.Pool; orm: AppDb } | undefined;
  const timing = new StatementTiming();
  return {
    kind: 'postgres',
    // Pooled connections (transactions) are timed too.
    orm: drizzlePg({ client: timing.wrap(pool, { returns: 'connect' }), schema }),
    rawTransaction: async (work) => {
      const conn = await pool.connect();
      try {
        await conn.query('BEGIN');
        const result = await work({
          exec: async (sql) => void (await conn.query(sql)),
          query: async <Row>(sql: string, params?: unknown[]) => (await conn.query(sql, params)).rows as Row[],
        });
        await conn.query('COMMIT');
        return result;
      } catch (error) {
        await conn.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        conn.release();
      }
    },
    withStatementTimeout: (timeoutMs, connections) => {
      if (!timed) {
        // Sent at connection start-up: every statement on these connections has the timeout.
        const timedPool = newPool(connectionString, connectTimeoutMs, { max: connections, statement_timeout: timeoutMs, prepare });
        timed = { pool: timedPool, orm: drizzlePg({ client: timing.wrap(timedPool, { returns: 'connect' }), schema }) };
      }
      return timed.orm;
    },
    onStatement: (listener) => timing.listen(listener),
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    statementsInFlight: () => timing.inFlight,
    close: async () => {
      await Promise.all([pool.end(), timed?.pool.end()]);
    },
  };
}
