import { and, eq, gt, lt, lte, sql } from 'drizzle-orm';
import type { AppDb } from '../db/database.js';
import { emailVerifications, users } from '../db/schema.js';
import { lookalikeKey } from '../lookalikes/skeleton.js';
import type { UserRow } from './auth.queries.js';

export type VerificationRow = typeof emailVerifications.$inferSelect;

/**
 * The account's one verification: a new one replaces (and so voids) the one before. Expired
 * ones, anyone's, are swept first, as reset links are.
 */
export async function replaceVerification(
  db: AppDb,
  row: { userId: string; email: string; tokenHash: string; codeHash: string; expiresAt: Date },
  now: Date,
): Promise<void> {
  await db.delete(emailVerifications).where(lte(emailVerifications.expiresAt, now));
  const values = { ...row, codeAttempts: 0, createdAt: now };
  await db.insert(emailVerifications).values(values).onConflictDoUpdate({ target: emailVerifications.userId, set: values });
}

/**
 * Uses a live link up: deletes its row and returns it, or undefined (no such link, or it ran
 * out). One statement, so of two simultaneous uses exactly one gets the row.
 */
export async function consumeByToken(db: AppDb, tokenHash: string, now: Date): Promise<VerificationRow | undefined> {
  const [row] = await db
    .delete(emailVerifications)
    .where(and(eq(emailVerifications.tokenHash, tokenHash), gt(emailVerifications.expiresAt, now)))
    .returning();
  return row;
}

/** Uses the account's live code up when it is `codeHash` and has attempts left; else undefined. */
export async function consumeByCode(db: AppDb, userId: string, codeHash: string, attempts: number, now: Date) {
  const [row] = await db
    .delete(emailVerifications)
    .where(
      and(
        eq(emailVerifications.userId, userId),
        eq(emailVerifications.codeHash, codeHash),
        lt(emailVerifications.codeAttempts, attempts),
        gt(emailVerifications.expiresAt, now),
      ),
    )
    .returning();
  return row;
}

/** Counts a wrong code against the account's live verification. */
export async function countWrongCode(db: AppDb, userId: string): Promise<void> {
  await db
    .update(emailVerifications)
    .set({ codeAttempts: sql`${emailVerifications.codeAttempts} + 1` })
    .where(eq(emailVerifications.userId, userId));
}

/**
 * The address the verification proved becomes the account's, proved now: its own (a new
 * account's), or its pending new one, which replaces it. Undefined when it is neither any more
 * (the account asked for yet another since). Throws the unique violation when another account
 * took the new address meanwhile.
 */
export async function markVerified(db: AppDb, userId: string, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({
      email,
      emailSkeleton: lookalikeKey(email),
      emailVerifiedAt: sql`now()`,
      pendingEmail: sql`CASE WHEN ${users.pendingEmail} = ${email} THEN NULL ELSE ${users.pendingEmail} END`,
    })
    .where(and(eq(users.id, userId), sql`(${users.email} = ${email} OR ${users.pendingEmail} = ${email})`))
    .returning();
  return row;
}

/** A new address waiting to be proved (null: none); a pending verification for the one it replaces goes with it. */
export async function setPendingEmail(db: AppDb, userId: string, email: string | null): Promise<UserRow> {
  const [row] = await db.update(users).set({ pendingEmail: email }).where(eq(users.id, userId)).returning();
  if (email === null)
    await db
      .delete(emailVerifications)
      .where(and(eq(emailVerifications.userId, userId), sql`${emailVerifications.email} <> ${row!.email}`));
  return row!;
}

/** Without mail: the new address is the account's at once, unproved. */
export async function setEmail(db: AppDb, userId: string, email: string): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ email, emailSkeleton: lookalikeKey(email), emailVerifiedAt: null, pendingEmail: null })
    .where(eq(users.id, userId))
    .returning();
  return row!;
}
