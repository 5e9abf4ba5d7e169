import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { AppDb } from '../db/database.js';
import { follows, users } from '../db/schema.js';

/** What anyone may see of a user. */
export const publicUserColumns = {
  id: users.id,
  username: users.username,
  iconKey: users.iconKey,
  bio: users.bio,
  followers: users.followerCount,
  following: users.followingCount,
};

/**
 * Whether the viewer follows the user whose id is `userId` (a column or a value), as a column:
 * one primary-key probe, in the statement that reads the user, so that an uncached profile or
 * post page costs one statement.
 */
export function followedBy(viewerId: string | undefined, userId: SQL | typeof users.id): SQL<boolean> {
  if (!viewerId) return sql<boolean>`false`;
  return sql<boolean>`exists (select 1 from ${follows} where ${and(eq(follows.followerId, viewerId), eq(follows.targetId, userId))})`;
}

/** What anyone may see of a user, by username, and whether the viewer follows them. */
export async function findPublicUser(db: AppDb, username: string, viewerId?: string) {
  const [row] = await db
    .select({ user: publicUserColumns, followedByMe: followedBy(viewerId, users.id) })
    .from(users)
    .where(eq(users.username, username))
    .limit(1);
  return row;
}

export type PublicUserRow = NonNullable<Awaited<ReturnType<typeof findPublicUser>>>['user'];

/** Ids of everyone the user follows (the primary key's index alone). */
export async function followedIds(db: AppDb, followerId: string): Promise<string[]> {
  const rows = await db.select({ id: follows.targetId }).from(follows).where(eq(follows.followerId, followerId));
  return rows.map((row) => row.id);
}
