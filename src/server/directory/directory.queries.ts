import { eq } from 'drizzle-orm';
import type { AppDb } from '../db/database.js';
import { follows, users } from '../db/schema.js';

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

/** Ids of everyone the user follows (the primary key's index alone). */
export async function followedIds(db: AppDb, followerId: string): Promise<string[]> {
  const rows = await db.select({ id: follows.targetId }).from(follows).where(eq(follows.followerId, followerId));
  return rows.map((row) => row.id);
}
