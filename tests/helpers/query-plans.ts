import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { expect } from 'vitest';
import type { AppDb, Database } from '../../src/server/db/database.js';
import { schema } from '../../src/server/db/schema.js';

/**
 * The SQL and parameters the real query functions send (`count` statements, the first returned),
 * captured by a logging drizzle instance on the same client: tests EXPLAIN exactly what runs.
 */
export async function captureQueries(database: Database, run: (db: AppDb) => Promise<unknown>, count = 1) {
  const logged: Array<{ sql: string; params: unknown[] }> = [];
  const logger = { logQuery: (text: string, params: unknown[]) => void logged.push({ sql: text, params }) };
  const client = (database.orm as unknown as { $client: never }).$client;
  const db = (database.kind === 'pglite'
    ? drizzlePglite({ client, schema, logger })
    : drizzlePg({ client, schema, logger })) as unknown as AppDb;
  await run(db);
  expect(logged).toHaveLength(count);
  return logged[0]!;
}
