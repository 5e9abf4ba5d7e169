import { and, eq, gt, lte } from 'drizzle-orm';
import type { AppDb } from '../db/database.js';
import { usernameClaims } from '../db/schema.js';

export type UsernameClaim = typeof usernameClaims.$inferSelect;

/** A claim mailed; the ones that ran out, anyone's, are swept first. */
export async function insertClaim(db: AppDb, claim: UsernameClaim, now: Date): Promise<void> {
  await db.delete(usernameClaims).where(lte(usernameClaims.expiresAt, now));
  await db.insert(usernameClaims).values(claim);
}

export async function findClaim(db: AppDb, tokenHash: string, now: Date): Promise<UsernameClaim | undefined> {
  const [row] = await db
    .select()
    .from(usernameClaims)
    .where(and(eq(usernameClaims.tokenHash, tokenHash), gt(usernameClaims.expiresAt, now)))
    .limit(1);
  return row;
}

/** Uses a claim up, in the transaction that makes its account; undefined when gone or run out. */
export async function consumeClaim(db: AppDb, tokenHash: string, now: Date): Promise<UsernameClaim | undefined> {
  const [row] = await db
    .delete(usernameClaims)
    .where(and(eq(usernameClaims.tokenHash, tokenHash), gt(usernameClaims.expiresAt, now)))
    .returning();
  return row;
}
