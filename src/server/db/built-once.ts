import type { AppDb } from './database.js';

/**
 * A statement that drizzle builds once per database handle (give it placeholders and prepare it),
 * for the reads that run on every request. Building a select is not free: the session read's
 * SQL took ~120 µs of CPU to build, more than PostgreSQL took to run it prepared (2026-11-26).
 * A transaction is a handle of its own, so a statement run inside one is built for it.
 */
export function builtOnce<T extends object>(build: (db: AppDb) => T): (db: AppDb) => T {
  const built = new WeakMap<AppDb, T>();
  return (db) => {
    let statement = built.get(db);
    if (!statement) {
      statement = build(db);
      built.set(db, statement);
    }
    return statement;
  };
}
