import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { AppDb } from '../db/database.js';
import { follows, users } from '../db/schema.js';
import { amongVisible, type SeenBy } from '../directory/visibility.js';
import { blockBetween } from './block.queries.js';
import type { PageKey } from '../http/cursor.js';

/**
 * One edge per pair, even when two clicks race: the primary key decides, the loser does nothing.
 * Never between two users one of whom blocked the other, whatever a cache said. True when a new
 * edge was made.
 */
export async function insertFollow(db: AppDb, followerId: string, targetId: string): Promise<boolean> {
  const result = await db.execute(sql`
    INSERT INTO ${follows} (follower_id, target_id)
    SELECT ${followerId}, ${targetId} WHERE NOT ${blockBetween(followerId, targetId)}
    ON CONFLICT DO NOTHING
    RETURNING follower_id`);
  return (result as { rows: unknown[] }).rows.length > 0;
}

export async function deleteFollow(db: AppDb, followerId: string, targetId: string) {
  await db.delete(follows).where(and(eq(follows.followerId, followerId), eq(follows.targetId, targetId)));
}

export async function followState(db: AppDb, followerId: string, targetId: string) {
  const [row] = await db
    .select({
      following: sql<boolean>`EXISTS (SELECT 1 FROM ${follows} WHERE ${follows.followerId} = ${followerId} AND ${follows.targetId} = ${targetId})`,
      followers: sql<number>`(SELECT ${users.followerCount} FROM ${users} WHERE ${users.id} = ${targetId})`,
    })
    .from(sql`(SELECT 1) AS one`);
  return row!;
}

export type FollowListRow = { id: string; username: string; iconKey: string | null; followers: number; sortTime: string };

/**
 * The users on one side of someone's edges (their followers, or whom they follow), newest
 * edge first, each with their own follower count: one query for the whole page. Users hidden
 * from the viewer (`seen`; everyone listed without it) are not listed (the counts stay as
 * stored: they still count).
 */
export async function followList(
  db: AppDb,
  options: { userId: string; seen: SeenBy | undefined; side: 'followers' | 'following'; after?: PageKey; limit: number },
): Promise<FollowListRow[]> {
  const [anchor, other] = options.side === 'followers' ? [follows.targetId, follows.followerId] : [follows.followerId, follows.targetId];
  const after: SQL | undefined = options.after
    ? sql`(${follows.createdAt}, ${other}) < (${options.after.sortTime}::timestamptz, ${options.after.id})`
    : undefined;
  return db
    .select({
      id: users.id,
      username: users.username,
      iconKey: users.iconKey,
      followers: users.followerCount,
      sortTime: sql<string>`${follows.createdAt}::text`,
    })
    .from(follows)
    .innerJoin(users, eq(users.id, other))
    .where(and(eq(anchor, options.userId), options.seen && amongVisible(options.seen, users.id), after))
    .orderBy(desc(follows.createdAt), desc(other))
    .limit(options.limit + 1);
}
