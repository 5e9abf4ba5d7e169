import type { Database } from './database.js';
import { MIGRATIONS } from './migrations/index.js';

/** Any constant works; it only has to be the same in every process of one deployment. */
const MIGRATION_LOCK_KEY = 7_340_112;

/**
 * Applies pending migrations in one transaction. The advisory lock makes processes that start
 * together wait for each other, so each migration runs exactly once.
 */
export async function migrate(db: Database): Promise<number[]> {
  return db.rawTransaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    integer PRIMARY KEY,
      name       text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const done = new Set((await tx.query<{ version: number }>('SELECT version FROM schema_migrations')).map((row) => row.version));
    const applied: number[] = [];
    for (const migration of MIGRATIONS) {
      if (done.has(migration.version)) continue;
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      applied.push(migration.version);
    }
    return applied;
  });
}
