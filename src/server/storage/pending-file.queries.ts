import { inArray, sql } from 'drizzle-orm';
import type { AppDb } from '../db/database.js';
import { pendingFiles } from '../db/schema.js';

/**
 * Keys per statement: a deleted account releases every file it had (thousands of posts, a few
 * files each), and one statement for them all could pass PostgreSQL's 65,535 parameters.
 */
const KEYS_PER_STATEMENT = 1_000;

function* batches(keys: string[]): Generator<string[]> {
  for (let start = 0; start < keys.length; start += KEYS_PER_STATEMENT) yield keys.slice(start, start + KEYS_PER_STATEMENT);
}

export async function addPendingFiles(db: AppDb, keys: string[]): Promise<void> {
  for (const batch of batches(keys)) {
    await db
      .insert(pendingFiles)
      .values(batch.map((key) => ({ key })))
      .onConflictDoNothing();
  }
}

export async function clearPendingFiles(db: AppDb, keys: string[]): Promise<void> {
  for (const batch of batches(keys)) await db.delete(pendingFiles).where(inArray(pendingFiles.key, batch));
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
