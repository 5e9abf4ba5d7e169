import { and, asc, desc, eq, isNotNull, or, sql } from 'drizzle-orm';
import type { AppDb } from '../db/database.js';
import { alias } from 'drizzle-orm/pg-core';
import { boardMembers, boardPosts, boards, notifications, posts, pushSubscriptions, ssoIdentities, users } from '../db/schema.js';
import type { PageKey } from '../http/cursor.js';

/** What Download My Data tells of one post, with its keyset position (the newest-first sort key). */
export interface ExportPostRow {
  id: string;
  description: string;
  link: string;
  hashtags: string[];
  imageKey: string;
  createdAt: Date;
  /** Text keeps PostgreSQL's microseconds, which a JS Date would round away. */
  sortTime: string;
}

/**
 * One page of a user's own posts, newest first (posts_user_idx): after `after` (exclusive), and
 * never newer than `through` (inclusive), so a second walk over the posts sees exactly the ones
 * the first walk saw, less any deleted in between. No extra row: the caller stops on a short page.
 */
export async function ownPostsPage(
  db: AppDb,
  options: { userId: string; after?: PageKey; through?: PageKey; limit: number },
): Promise<ExportPostRow[]> {
  const key = sql`(${posts.createdAt}, ${posts.id})`;
  return db
    .select({
      id: posts.id,
      description: posts.description,
      link: posts.link,
      hashtags: posts.hashtags,
      imageKey: posts.imageKey,
      createdAt: posts.createdAt,
      sortTime: sql<string>`${posts.createdAt}::text`,
    })
    .from(posts)
    .where(
      and(
        eq(posts.userId, options.userId),
        options.after ? sql`${key} < (${options.after.sortTime}::timestamptz, ${options.after.id})` : undefined,
        options.through ? sql`${key} <= (${options.through.sortTime}::timestamptz, ${options.through.id})` : undefined,
      ),
    )
    .orderBy(desc(posts.createdAt), desc(posts.id))
    .limit(options.limit);
}

/** Issue 29: the university sign-ins linked to the account: which provider, since when (never a token). */
export async function exportSingleSignOns(db: AppDb, userId: string) {
  return db
    .select({ provider: ssoIdentities.issuer, email: ssoIdentities.email, linked: ssoIdentities.createdAt })
    .from(ssoIdentities)
    .where(eq(ssoIdentities.userId, userId))
    .orderBy(asc(ssoIdentities.createdAt));
}

/**
 * The boards the user owns or joined (issue 18), oldest first: at most 500 of their own and the
 * few they joined. Nobody else's secret board is here unless the user is a member of it.
 */
export async function exportBoards(db: AppDb, userId: string) {
  const joined = sql`exists (select 1 from ${boardMembers} where ${boardMembers.boardId} = ${boards.id} and ${boardMembers.userId} = ${userId} and ${isNotNull(boardMembers.joinedAt)})`;
  return db
    .select({
      id: boards.id,
      ownerId: boards.ownerId,
      owner: users.username,
      name: boards.name,
      slug: boards.slug,
      description: boards.description,
      secret: boards.secret,
      createdAt: boards.createdAt,
    })
    .from(boards)
    .innerJoin(users, eq(users.id, boards.ownerId))
    .where(or(eq(boards.ownerId, userId), joined))
    .orderBy(asc(boards.createdAt), asc(boards.id));
}

/** A board's members by username (the owner's record of whom they invited). */
export async function exportBoardMembers(db: AppDb, boardId: string) {
  return db
    .select({ username: users.username, joinedAt: boardMembers.joinedAt })
    .from(boardMembers)
    .innerJoin(users, eq(users.id, boardMembers.userId))
    .where(eq(boardMembers.boardId, boardId))
    .orderBy(asc(boardMembers.invitedAt), asc(users.username));
}

/** One page of a board's saves, newest first; only `savedBy`'s when given (a joined board). */
export async function exportBoardSaves(db: AppDb, options: { boardId: string; savedBy?: string; after?: PageKey; limit: number }) {
  const key = sql`(${boardPosts.savedAt}, ${boardPosts.postId})`;
  return db
    .select({
      postId: boardPosts.postId,
      savedAt: boardPosts.savedAt,
      sortTime: sql<string>`${boardPosts.savedAt}::text`,
    })
    .from(boardPosts)
    .where(
      and(
        eq(boardPosts.boardId, options.boardId),
        options.savedBy ? eq(boardPosts.savedBy, options.savedBy) : undefined,
        options.after ? sql`${key} < (${options.after.sortTime}::timestamptz, ${options.after.id})` : undefined,
      ),
    )
    .orderBy(desc(boardPosts.savedAt), desc(boardPosts.postId))
    .limit(options.limit);
}

const actors = alias(users, 'actor');

/** One page of the user's notifications (issue 30), newest first, with who did it and the board's name. */
export async function exportNotifications(db: AppDb, options: { userId: string; after?: PageKey; limit: number }) {
  const key = sql`(${notifications.createdAt}, ${notifications.id})`;
  return db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      actor: actors.username,
      postId: notifications.postId,
      board: boards.name,
      detail: notifications.detail,
      until: notifications.until,
      read: notifications.read,
      createdAt: notifications.createdAt,
      sortTime: sql<string>`${notifications.createdAt}::text`,
    })
    .from(notifications)
    .leftJoin(actors, eq(actors.id, notifications.actorId))
    .leftJoin(boards, eq(boards.id, notifications.boardId))
    .where(
      and(
        eq(notifications.userId, options.userId),
        options.after ? sql`${key} < (${options.after.sortTime}::timestamptz, ${options.after.id})` : undefined,
      ),
    )
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(options.limit);
}

/** The user's notification switches and push devices (their labels; never an endpoint or its keys). */
export async function exportNotificationSettings(db: AppDb, userId: string) {
  const [settings] = await db.select({ off: users.notificationsOff, push: users.pushOn }).from(users).where(eq(users.id, userId));
  const devices = await db
    .select({ label: pushSubscriptions.label, added: pushSubscriptions.createdAt })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(asc(pushSubscriptions.createdAt));
  return {
    offInTheApp: settings?.off ?? [],
    pushed: settings?.push ?? [],
    pushDevices: devices.map((d) => ({ ...d, added: d.added.toISOString() })),
  };
}
