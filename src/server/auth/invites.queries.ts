import { and, asc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { AppDb } from '../db/database.js';
import { invites, users } from '../db/schema.js';

/** An invite that still lets someone in: uses left, and not past its expiry (the database's clock). */
const live = () => and(gt(invites.usesLeft, 0), or(isNull(invites.expiresAt), gt(invites.expiresAt, sql`now()`)));

export async function insertInvite(db: AppDb, invite: typeof invites.$inferInsert) {
  const [row] = await db.insert(invites).values(invite).returning();
  return row!;
}

/** Read only: lets the sign-up form list a bad code with its other problems; redeemInvite decides. */
export async function isInviteLive(db: AppDb, codeHash: string): Promise<boolean> {
  const rows = await db
    .select({ codeHash: invites.codeHash })
    .from(invites)
    .where(and(eq(invites.codeHash, codeHash), live()));
  return rows.length > 0;
}

/**
 * Takes one use, in the caller's transaction (the one creating the account, so a failed sign-up
 * gives it back). One statement: PostgreSQL locks the row, and a sign-up racing for the last use
 * re-checks uses_left after the winner commits and finds none; PGlite runs one at a time.
 */
export async function redeemInvite(db: AppDb, codeHash: string): Promise<boolean> {
  const rows = await db
    .update(invites)
    .set({ usesLeft: sql`${invites.usesLeft} - 1` })
    .where(and(eq(invites.codeHash, codeHash), live()))
    .returning({ codeHash: invites.codeHash });
  return rows.length > 0;
}

/** The invites that still work, soonest to expire first, with their maker's name (null: the admin command, or a deleted account). */
export async function listLiveInvites(db: AppDb) {
  return db
    .select({
      codeHash: invites.codeHash,
      usesLeft: invites.usesLeft,
      expiresAt: invites.expiresAt,
      createdAt: invites.createdAt,
      createdBy: users.username,
    })
    .from(invites)
    .leftJoin(users, eq(users.id, invites.createdBy))
    .where(live())
    .orderBy(asc(invites.expiresAt), asc(invites.createdAt));
}

export async function deleteInvite(db: AppDb, codeHash: string): Promise<boolean> {
  const rows = await db.delete(invites).where(eq(invites.codeHash, codeHash)).returning({ codeHash: invites.codeHash });
  return rows.length > 0;
}
