import { inArray, sql } from 'drizzle-orm';
import type { AppDb } from '../db/database.js';
import { pendingFiles } from '../db/schema.js';

export async function addPendingFiles(db: AppDb, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db
    .insert(pendingFiles)
    .values(keys.map((key) => ({ key })))
    .onConflictDoNothing();
}

export async function clearPendingFiles(db: AppDb, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.delete(pendingFiles).where(inArray(pendingFiles.key, keys));
}

/** Keys recorded at least `ageMs` ago (all of them for 0), oldest first. */
export async function pendingFilesOlderThan(db: AppDb, ageMs: number, limit: number): Promise<string[]> {
  const rows = await db
    .select({ key: pendingFiles.key })
    .from(pendingFiles)
    .where(sql`${pendingFiles.createdAt} <= now() - make_interval(secs => ${ageMs / 1000})`)
    .orderBy(pendingFiles.createdAt)
    .limit(limit);
  return rows.map((row) => row.key);
}
