import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { expect } from 'vitest';
import type { AppDb, Database } from '../../src/server/db/database.js';
import { schema } from '../../src/server/db/schema.js';

/** A drizzle instance on the database's own client that tells `log` each statement it sends. */
export function loggingDb(database: Database, log: (text: string, params: unknown[]) => void): AppDb {
  const logger = { logQuery: log };
  const client = (database.orm as unknown as { $client: never }).$client;
  return database.kind === 'pglite' ? drizzlePglite({ client, schema, logger }) : drizzlePg({ client, schema, logger });
}

/**
 * The SQL and parameters the real query functions send (`count` statements, the first returned),
 * captured by a logging drizzle instance on the same client: tests EXPLAIN exactly what runs.
 */
export async function captureQueries(database: Database, run: (db: AppDb) => Promise<unknown>, count = 1) {
  const logged: Array<{ sql: string; params: unknown[] }> = [];
  const db = loggingDb(database, (text, params) => void logged.push({ sql: text, params }));
  await run(db);
  expect(logged).toHaveLength(count);
  return logged[0]!;
}
