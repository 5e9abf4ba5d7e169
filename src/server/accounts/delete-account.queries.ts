import { eq } from 'drizzle-orm';
import type { AppDb } from '../db/database.js';
import { posts, users } from '../db/schema.js';

/**
 * The account's row, locked until the deletion commits. A post or an icon being saved at the same
 * moment locks the same row (its foreign-key check, its UPDATE), so it either committed before
 * this and its files are counted below, or it waits and then finds no account: no file can slip
 * between the list of files and the deletion. Undefined when the account is already gone.
 */
export async function lockAccount(db: AppDb, userId: string) {
  const [row] = await db
    .select({ username: users.username, email: users.email, iconKey: users.iconKey })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  return row;
}

/** The base image key of every post of the account (one short string per post). */
export async function postImageKeys(db: AppDb, userId: string): Promise<string[]> {
  const rows = await db.select({ imageKey: posts.imageKey }).from(posts).where(eq(posts.userId, userId));
  return rows.map((row) => row.imageKey);
}

/**
 * Deletes the account. The foreign keys cascade to its posts, its follows both ways, its sessions
 * and its reset link; the follow triggers (migration 5) move the counts of everyone it followed
 * or was followed by, in the same statement.
 */
export async function deleteUser(db: AppDb, userId: string): Promise<void> {
  await db.delete(users).where(eq(users.id, userId));
}
