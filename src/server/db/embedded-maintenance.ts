import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { registerPeriodicTask } from '../periodic-task.js';
import type { Database } from './database.js';

export interface MaintenanceConfig {
  /** How often dead rows are reclaimed (VACUUM); 0 turns it off. */
  vacuumMs: number;
  /** How often the planner's statistics are refreshed (ANALYZE); 0 turns it off. */
  analyzeMs: number;
}

/**
 * What autovacuum does on a PostgreSQL server, which PGlite does not run. Without it every
 * updated or deleted row (renewed sessions, unfollows, the pending-file ledger's churn) stays
 * on disk for good, index-only scans keep visiting the table, and the planner keeps the
 * statistics of the day the database was created. PGlite runs one statement at a time, so each
 * run holds up the requests that need the database (not those the caches answer): VACUUM takes ~40 ms on a settled database of 100k posts (about a second
 * the first time), ANALYZE ~0.7 s, hence hourly and daily.
 */
export function registerEmbeddedMaintenance(app: FastifyInstance, database: Database, config: MaintenanceConfig) {
  registerPeriodicTask(app, {
    name: 'embedded VACUUM',
    everyMs: config.vacuumMs,
    task: async () => void (await database.orm.execute(sql.raw('VACUUM'))),
  });
  registerPeriodicTask(app, {
    name: 'embedded ANALYZE',
    everyMs: config.analyzeMs,
    task: async () => void (await database.orm.execute(sql.raw('ANALYZE'))),
  });
}
