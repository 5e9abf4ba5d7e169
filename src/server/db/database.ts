import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { schema } from './schema.js';

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
  /** PostgreSQL: a new connection taking longer than this fails instead of waiting for ever. */
  connectTimeoutMs?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.connectTimeoutMs ?? 5_000);
  let client: PGlite | undefined = options.pglite;
  if (!client) {
    let dir: string | undefined;
    if (options.dataDir) {
      dir = pgliteDir(options.dataDir);
      await fs.mkdir(dir, { recursive: true });
    }
    client = new PGlite(dir, options.loadDump ? { loadDataDir: options.loadDump } : {});
  }
  await client.waitReady;
  // Durability: on a directory PGlite uses Emscripten's NODEFS, whose every write() is a
  // synchronous fs.writeSync. With synchronous_commit on, a COMMIT returns only after its WAL
  // record was written, so it is in the operating system's hands and survives the process being
  // killed (SIGKILL, OOM): the next open replays it. PGlite's default today, pinned here because
  // with it off an acknowledged sign-up is lost at the first kill (tests/api/crash-safety.test.ts).
  // `relaxedDurability` only skips waiting for IndexedDB flushes in browsers; never set it.
  // WARNING: PGlite runs postgres with fsync off (-F) and NODEFS has no fsync, so a power loss or
  // kernel crash can still lose the last commits; use PostgreSQL where that matters.
  await client.exec('SET synchronous_commit = on');
  return wrapPglite(client);
}

function wrapPglite(client: PGlite): Database {
  return {
    kind: 'pglite',
    orm: drizzlePglite({ client, schema }),
    rawTransaction: (work) =>
      client.transaction((tx) =>
        work({
          exec: async (sql) => void (await tx.exec(sql)),
          query: async <Row>(sql: string, params?: unknown[]) => (await tx.query<Row>(sql, params)).rows,
        }),
      ),
    dump: () => client.dumpDataDir('gzip'),
    close: () => client.close(),
  };
}

function openPostgres(connectionString: string, connectTimeoutMs: number): Database {
  const pool = new pg.Pool({
    connectionString,
    max: Number(process.env.DATABASE_POOL_SIZE) || 10,
    // Without it a request waits for ever for a database that does not answer.
    connectionTimeoutMillis: connectTimeoutMs,
    // Notices a peer that vanished without closing the connection (a cut network).
    keepAlive: true,
  });
  // An idle connection that dies (database restart, network cut) is dropped by the pool and the
  // next query opens a new one; without a listener the 'error' event would crash the process.
  // Requests that fail because of the outage are logged by the error handler.
  pool.on('error', () => undefined);
  return {
    kind: 'postgres',
    orm: drizzlePg({ client: pool, schema }),
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
    close: () => pool.end(),
  };
}
