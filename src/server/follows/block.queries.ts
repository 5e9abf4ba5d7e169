import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { AppDb } from '../db/database.js';
import { boardMembers, boards, blocks, follows, users } from '../db/schema.js';

/**
 * The block and the end of the follows between the two, both ways, in one transaction: nobody
 * ever sees the block with a follow still standing. The follow-count triggers move both users'
 * counts. Blocking twice changes nothing (the primary key decides). Memberships of each other's
 * boards (issue 18) end too; what either saved to the other's boards stays.
 */
export async function insertBlock(db: AppDb, blockerId: string, blockedId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(blocks).values({ blockerId, blockedId }).onConflictDoNothing();
    await tx
      .delete(follows)
      .where(
        or(
          and(eq(follows.followerId, blockerId), eq(follows.targetId, blockedId)),
          and(eq(follows.followerId, blockedId), eq(follows.targetId, blockerId)),
        ),
      );
    const ownedBy = (ownerId: string) => tx.select({ id: boards.id }).from(boards).where(eq(boards.ownerId, ownerId));
    await tx
      .delete(boardMembers)
      .where(
        or(
          and(eq(boardMembers.userId, blockedId), inArray(boardMembers.boardId, ownedBy(blockerId))),
          and(eq(boardMembers.userId, blockerId), inArray(boardMembers.boardId, ownedBy(blockedId))),
        ),
      );
  });
}

/** Undoes the blocker's block of the user named `username`: their id, or undefined when there was none. */
export async function deleteBlock(db: AppDb, blockerId: string, username: string): Promise<string | undefined> {
  const blocked = db.select({ id: users.id }).from(users).where(eq(users.username, username));
  const [row] = await db
    .delete(blocks)
    .where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, blocked)))
    .returning({ id: blocks.blockedId });
  return row?.id;
}

/** Whether either of the two blocked the other (the primary key, then the blocked_id index). */
export function blockBetween(userA: string, userB: string) {
  return sql`exists (select 1 from ${blocks} where ${or(
    and(eq(blocks.blockerId, userA), eq(blocks.blockedId, userB)),
    and(eq(blocks.blockerId, userB), eq(blocks.blockedId, userA)),
  )})`;
}

/** Everyone the user blocked, most recent first (a handful: not paged). */
export async function blockedUsers(db: AppDb, blockerId: string) {
  return db
    .select({ id: users.id, username: users.username, iconKey: users.iconKey })
    .from(blocks)
    .innerJoin(users, eq(users.id, blocks.blockedId))
    .where(eq(blocks.blockerId, blockerId))
    .orderBy(desc(blocks.createdAt), desc(blocks.blockedId));
}
