import { and, eq, gt, lte } from 'drizzle-orm';
import type { AppDb } from '../db/database.js';
import { ssoAttempts, ssoIdentities, ssoSignups } from '../db/schema.js';

export type SsoAttempt = typeof ssoAttempts.$inferSelect;
export type SsoSignup = typeof ssoSignups.$inferSelect;
export type SsoIdentity = typeof ssoIdentities.$inferSelect;

/** A sign-in or link begun; attempts and sign-ups that ran out, anyone's, are swept first. */
export async function insertAttempt(db: AppDb, attempt: SsoAttempt, now: Date): Promise<void> {
  await db.delete(ssoAttempts).where(lte(ssoAttempts.expiresAt, now));
  await db.delete(ssoSignups).where(lte(ssoSignups.expiresAt, now));
  await db.insert(ssoAttempts).values(attempt);
}

/** Uses an attempt up (one statement: of two callbacks with its state, one gets it); undefined when gone or run out. */
export async function consumeAttempt(db: AppDb, stateHash: string, now: Date): Promise<SsoAttempt | undefined> {
  const [row] = await db
    .delete(ssoAttempts)
    .where(and(eq(ssoAttempts.stateHash, stateHash), gt(ssoAttempts.expiresAt, now)))
    .returning();
  return row;
}

export async function findIdentity(db: AppDb, issuer: string, subject: string): Promise<SsoIdentity | undefined> {
  const [row] = await db
    .select()
    .from(ssoIdentities)
    .where(and(eq(ssoIdentities.issuer, issuer), eq(ssoIdentities.subject, subject)))
    .limit(1);
  return row;
}

/** The account's link to this provider, if any. */
export async function identityOf(db: AppDb, userId: string, issuer: string): Promise<SsoIdentity | undefined> {
  const [row] = await db
    .select()
    .from(ssoIdentities)
    .where(and(eq(ssoIdentities.userId, userId), eq(ssoIdentities.issuer, issuer)))
    .limit(1);
  return row;
}

export async function insertIdentity(db: AppDb, identity: { issuer: string; subject: string; userId: string; email: string | null }) {
  await db.insert(ssoIdentities).values(identity);
}

/** A sign-in through the provider: when, and the address it gave; a refusal before it no longer counts. */
export async function touchIdentity(db: AppDb, issuer: string, subject: string, email: string | null, now: Date): Promise<void> {
  await db
    .update(ssoIdentities)
    .set({ lastSignInAt: now, email, refusedAt: null })
    .where(and(eq(ssoIdentities.issuer, issuer), eq(ssoIdentities.subject, subject)));
}

/** The provider refused a sign-in meant for the account (never a deletion: see migration 18). */
export async function markRefused(db: AppDb, userId: string, issuer: string, now: Date): Promise<void> {
  await db
    .update(ssoIdentities)
    .set({ refusedAt: now })
    .where(and(eq(ssoIdentities.userId, userId), eq(ssoIdentities.issuer, issuer)));
}

/** Unlinks the account from this provider; whether there was a link. */
export async function deleteIdentity(db: AppDb, userId: string, issuer: string): Promise<boolean> {
  const rows = await db
    .delete(ssoIdentities)
    .where(and(eq(ssoIdentities.userId, userId), eq(ssoIdentities.issuer, issuer)))
    .returning({ subject: ssoIdentities.subject });
  return rows.length > 0;
}

export async function insertSignup(db: AppDb, signup: SsoSignup): Promise<void> {
  await db.insert(ssoSignups).values(signup);
}

export async function findSignup(db: AppDb, tokenHash: string, now: Date): Promise<SsoSignup | undefined> {
  const [row] = await db
    .select()
    .from(ssoSignups)
    .where(and(eq(ssoSignups.tokenHash, tokenHash), gt(ssoSignups.expiresAt, now)))
    .limit(1);
  return row;
}

/** Uses a sign-up up, in the transaction that makes its account. */
export async function consumeSignup(db: AppDb, tokenHash: string, now: Date): Promise<SsoSignup | undefined> {
  const [row] = await db
    .delete(ssoSignups)
    .where(and(eq(ssoSignups.tokenHash, tokenHash), gt(ssoSignups.expiresAt, now)))
    .returning();
  return row;
}
