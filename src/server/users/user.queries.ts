import { eq, sql } from 'drizzle-orm';
import type { AppDb } from '../db/database.js';
import { follows, users } from '../db/schema.js';
import type { UserRow } from '../auth/auth.queries.js';

/** A profile with its counts and whether the viewer follows it, in one query. */
/** What anyone may see of a user, by username. */
export async function findPublicUser(db: AppDb, username: string) {
  const [row] = await db
    .select({
      id: users.id,
      username: users.username,
      iconKey: users.iconKey,
      bio: users.bio,
      followers: users.followerCount,
      following: users.followingCount,
    })
    .from(users)
    .where(eq(users.username, username))
    .limit(1);
  return row;
}

export type PublicUserRow = NonNullable<Awaited<ReturnType<typeof findPublicUser>>>;

export async function findUserIdByUsername(db: AppDb, username: string): Promise<string | undefined> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.username, username)).limit(1);
  return row?.id;
}

/**
 * Saves bio and icon together; undefined leaves a field as it is. Returns the icon key it
 * replaced, read under a row lock, so two simultaneous uploads each learn exactly which old
 * files are theirs to delete.
 */
export async function updateProfile(
  db: AppDb,
  userId: string,
  changes: { bio?: string; iconKey?: string },
): Promise<{ user: UserRow; replacedIconKey: string | null }> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ iconKey: users.iconKey }).from(users).where(eq(users.id, userId)).for('update');
    const [row] = await tx.update(users).set(changes).where(eq(users.id, userId)).returning();
    return { user: row!, replacedIconKey: changes.iconKey ? (before?.iconKey ?? null) : null };
  });
}
