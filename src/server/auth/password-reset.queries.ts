import { and, eq, gt, lte } from 'drizzle-orm';
import type { AppDb } from '../db/database.js';
import { passwordResets, users } from '../db/schema.js';
import type { UserRow } from './auth.queries.js';

/**
 * The account's one reset link: a new one replaces (and so voids) the one before. Links that ran
 * out, anyone's, are swept first: links are rare, and the table stays as small as its live links.
 */
export async function replaceReset(db: AppDb, reset: { userId: string; tokenHash: string; expiresAt: Date }, now: Date) {
  await db.delete(passwordResets).where(lte(passwordResets.expiresAt, now));
  await db
    .insert(passwordResets)
    .values({ ...reset, createdAt: now })
    .onConflictDoUpdate({
      target: passwordResets.userId,
      set: { tokenHash: reset.tokenHash, createdAt: now, expiresAt: reset.expiresAt },
    });
}

/** The account a live link belongs to, or undefined (no such link, or it has run out). */
export async function findResetUser(db: AppDb, tokenHash: string, now: Date): Promise<UserRow | undefined> {
  const [row] = await db
    .select({ user: users })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(and(eq(passwordResets.tokenHash, tokenHash), gt(passwordResets.expiresAt, now)))
    .limit(1);
  return row?.user;
}

/**
 * Uses a live link up: deletes it and returns its account's id, or undefined when it is gone or
 * has run out. One statement, so of two simultaneous uses exactly one gets the row.
 */
export async function consumeReset(db: AppDb, tokenHash: string, now: Date): Promise<string | undefined> {
  const [row] = await db
    .delete(passwordResets)
    .where(and(eq(passwordResets.tokenHash, tokenHash), gt(passwordResets.expiresAt, now)))
    .returning({ userId: passwordResets.userId });
  return row?.userId;
}
