import { sql } from 'drizzle-orm';
import type { AppDb } from '../db/database.js';

/** The cheapest statement that proves the database answers. */
export async function selectOne(db: AppDb): Promise<void> {
  await db.execute(sql`SELECT 1`);
}

/** The versions in schema_migrations (db/migrate.ts). */
export async function appliedMigrations(db: AppDb): Promise<Set<number>> {
  const result = await db.execute<{ version: number }>(sql`SELECT version FROM schema_migrations`);
  return new Set((result as { rows: Array<{ version: number }> }).rows.map((row) => Number(row.version)));
}
