import { and, eq, gt, lte, sql } from 'drizzle-orm';
import { USERNAME_HOLD_DAYS } from '../../shared/limits.js';
import type { AppDb } from '../db/database.js';
import { releasedUsernames } from '../db/schema.js';
import { keyedHash } from '../server-secret.js';

/**
 * The username of a deleted account is held for USERNAME_HOLD_DAYS (30), so nobody can sign up as
 * someone who just left and be taken for them by their followers ("Username has already been
 * registered."). The e-mail address itself is free at once.
 *
 * Held for everyone, its own address included (issue 26): giving the name back to whoever types
 * the address would hand it to anyone who knows or guesses it, and tell them the guess was right.
 * Once addresses are verified, the owner may get it back early by proving the address: for that
 * the hold keeps the address keyed with the server's secret (server-secret.ts), so a copy of the
 * database cannot be searched for a guessed address. Never the address itself.
 */
const holdInterval = sql.raw(`interval '${USERNAME_HOLD_DAYS} days'`);

/** The held address's key (already normalized: shared/validation/sign-up.ts). */
export function heldEmailHmac(secret: Buffer, email: string): string {
  return keyedHash(secret, 'username-hold', email);
}

/** Holds a deleted account's name (in the deletion's transaction); expired holds go with it. */
export async function holdUsername(db: AppDb, secret: Buffer, username: string, email: string): Promise<void> {
  await db.delete(releasedUsernames).where(lte(releasedUsernames.releasedAt, sql`now() - ${holdInterval}`));
  const hold = { username, emailHmac: heldEmailHmac(secret, email), releasedAt: sql`now()` };
  await db.insert(releasedUsernames).values(hold).onConflictDoUpdate({ target: releasedUsernames.username, set: hold });
}

/**
 * Whether the name is held, for whoever asks. Never released to a sign-up that types the held
 * address (issue 29 tried: 201 for the right address and 409 for a wrong one told a guesser
 * whose address it was); an early release needs the address proved before anything is answered
 * (a mailed link, username-claim.service.ts; or the provider's vouching, sso.service.ts).
 */
export async function isUsernameHeld(db: AppDb, username: string): Promise<boolean> {
  return (await liveHold(db, username)) !== undefined;
}

/** Whose the live hold on the name is, if any: `owner` when it is held for exactly this address. */
export async function holdOn(db: AppDb, secret: Buffer, username: string, email: string): Promise<'none' | 'owner' | 'other'> {
  const hold = await liveHold(db, username);
  if (!hold) return 'none';
  return hold.emailHmac === heldEmailHmac(secret, email) ? 'owner' : 'other';
}

/** Gives a held name back (to its proved owner, in the transaction that makes their account). */
export async function releaseHold(db: AppDb, username: string): Promise<void> {
  await db.delete(releasedUsernames).where(eq(releasedUsernames.username, username));
}

async function liveHold(db: AppDb, username: string): Promise<{ emailHmac: string | null } | undefined> {
  const [row] = await db
    .select({ emailHmac: releasedUsernames.emailHmac })
    .from(releasedUsernames)
    .where(and(eq(releasedUsernames.username, username), gt(releasedUsernames.releasedAt, sql`now() - ${holdInterval}`)))
    .limit(1);
  return row;
}
