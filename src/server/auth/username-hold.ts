import { createHash } from 'node:crypto';
import { and, eq, gt, lte, ne, sql } from 'drizzle-orm';
import { USERNAME_HOLD_DAYS } from '../../shared/limits.js';
import type { AppDb } from '../db/database.js';
import { releasedUsernames } from '../db/schema.js';

/**
 * The username of a deleted account is held for USERNAME_HOLD_DAYS (30), so nobody can sign up as
 * someone who just left and be taken for them by their followers ("Username has already been
 * registered.").
 * The same e-mail address may take it back at once (the owner changing their mind); the e-mail
 * address itself is free at once. Only a hash of the address is kept, never the address.
 */
const holdInterval = sql.raw(`interval '${USERNAME_HOLD_DAYS} days'`);

/** SHA-256 of an e-mail address as stored (already normalized: shared/validation/sign-up.ts). */
export function emailHash(email: string): string {
  return createHash('sha256').update(email).digest('hex');
}

/** Holds a deleted account's name (in the deletion's transaction); expired holds go with it. */
export async function holdUsername(db: AppDb, username: string, email: string): Promise<void> {
  await db.delete(releasedUsernames).where(lte(releasedUsernames.releasedAt, sql`now() - ${holdInterval}`));
  const hold = { username, emailHash: emailHash(email), releasedAt: sql`now()` };
  await db.insert(releasedUsernames).values(hold).onConflictDoUpdate({ target: releasedUsernames.username, set: hold });
}

/** Whether the name is held for someone other than this e-mail address. */
export async function isUsernameHeld(db: AppDb, username: string, email: string): Promise<boolean> {
  const [row] = await db
    .select({ username: releasedUsernames.username })
    .from(releasedUsernames)
    .where(
      and(
        eq(releasedUsernames.username, username),
        ne(releasedUsernames.emailHash, emailHash(email)),
        gt(releasedUsernames.releasedAt, sql`now() - ${holdInterval}`),
      ),
    )
    .limit(1);
  return row !== undefined;
}
