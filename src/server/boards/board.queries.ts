import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AppDb } from '../db/database.js';
import { boardMembers, boardPosts, boards, posts, users } from '../db/schema.js';
import { textArray } from '../db/text-array.js';
import { amongVisible, type SeenBy } from '../directory/visibility.js';
import type { PageKey } from '../http/cursor.js';
import { lookalikeKey } from '../lookalikes/skeleton.js';
import { cardColumns } from '../posts/post.queries.js';

type Tx = Parameters<Parameters<AppDb['transaction']>[0]>[0];
type Db = AppDb | Tx;

/** A board with its owner, as every read and write starts from it. */
const boardColumns = {
  id: boards.id,
  ownerId: boards.ownerId,
  name: boards.name,
  slug: boards.slug,
  description: boards.description,
  secret: boards.secret,
  coverPostId: boards.coverPostId,
  postCount: boards.postCount,
  ownerUsername: users.username,
  ownerIconKey: users.iconKey,
  // Text keeps PostgreSQL's microseconds for the Boards tab's cursor.
  sortTime: sql<string>`${boards.lastSavedAt}::text`,
};

export type BoardRow = {
  id: string;
  ownerId: string;
  name: string;
  slug: string;
  description: string;
  secret: boolean;
  coverPostId: string | null;
  postCount: number;
  ownerUsername: string;
  ownerIconKey: string | null;
  sortTime: string;
};

/** The viewer's membership of the board in the same statement: null, 'invited' or 'joined'. */
function membershipOf(viewerId: string | undefined): SQL<'invited' | 'joined' | null> {
  if (!viewerId) return sql`null`;
  return sql`(select case when ${boardMembers.joinedAt} is null then 'invited' else 'joined' end from ${boardMembers} where ${boardMembers.boardId} = ${boards.id} and ${boardMembers.userId} = ${viewerId})`;
}

export type Membership = 'invited' | 'joined' | null;

/**
 * A board by id, with the viewer's membership and the usernames of all its members (whose Boards
 * tabs a write to it changes).
 */
export async function findBoard(db: Db, id: string, viewerId: string | undefined) {
  const [row] = await db
    .select({
      board: boardColumns,
      membership: membershipOf(viewerId),
      memberUsernames: sql<
        string[]
      >`coalesce((select array_agg(member.username) from ${boardMembers} join ${users} as member on member.id = ${boardMembers.userId} where ${boardMembers.boardId} = ${boards.id}), '{}')`,
    })
    .from(boards)
    .innerJoin(users, eq(users.id, boards.ownerId))
    .where(eq(boards.id, id));
  return row;
}

/** What decides who may see a board, found by its address: its id, owner, secrecy and members. */
export interface BoardAddress {
  id: string;
  ownerId: string;
  secret: boolean;
  memberIds: string[];
}

/** A board by its owner's username and slug, with what the visibility rule needs; one statement. */
export async function findBoardAddress(db: AppDb, ownerUsername: string, slug: string): Promise<BoardAddress | null> {
  const [row] = await db
    .select({
      id: boards.id,
      ownerId: boards.ownerId,
      secret: boards.secret,
      memberIds: sql<
        string[]
      >`coalesce((select array_agg(${boardMembers.userId}) from ${boardMembers} where ${boardMembers.boardId} = ${boards.id}), '{}')`,
    })
    .from(boards)
    .innerJoin(users, eq(users.id, boards.ownerId))
    .where(and(eq(users.username, ownerUsername), eq(boards.slug, slug)));
  return row ?? null;
}

/** A board row with its sort key as a number (microseconds), for ordering in memory. */
export type TabBoardRow = BoardRow & { sortMicros: number };

/**
 * Every board a user owns or joined, most recently saved to first (then by id): at most 500 of
 * their own and the boards they joined. Two index walks (the owner's boards, the memberships)
 * joined after: an OR of the two made the planner read every board.
 */
export async function allBoardsOfUser(db: AppDb, userId: string): Promise<TabBoardRow[]> {
  const result = await db.execute<TabBoardRow>(sql`select b.id, b.owner_id as "ownerId", b.name, b.slug, b.description, b.secret,
      b.cover_post_id as "coverPostId", b.post_count as "postCount", u.username as "ownerUsername", u.icon_key as "ownerIconKey",
      b.last_saved_at::text as "sortTime", (extract(epoch from b.last_saved_at) * 1000000)::float8 as "sortMicros"
    from (
      (select * from ${boards} where ${boards.ownerId} = ${userId})
      union all
      (select ${boards}.* from ${boardMembers} join ${boards} on ${boards.id} = ${boardMembers.boardId}
        where ${boardMembers.userId} = ${userId} and ${boardMembers.joinedAt} is not null)
    ) as b
    join ${users} u on u.id = b.owner_id
    order by b.last_saved_at desc, b.id desc`);
  return (result as { rows: TabBoardRow[] }).rows;
}

/** Who is a member (invited or joined) of each of the boards: what decides who sees a secret one. */
export async function memberIdsOf(db: AppDb, boardIds: string[]): Promise<Map<string, string[]>> {
  const members = new Map<string, string[]>();
  if (boardIds.length === 0) return members;
  const rows = await db
    .select({ boardId: boardMembers.boardId, userId: boardMembers.userId })
    .from(boardMembers)
    .where(inArray(boardMembers.boardId, boardIds));
  for (const row of rows) members.set(row.boardId, [...(members.get(row.boardId) ?? []), row.userId]);
  return members;
}

/**
 * The Save picker: the boards the viewer owns or joined (whose owner they still see), the ones
 * they last saved to, joined or made most recently first; and whether `postId` is on each.
 */
export async function saveTargets(db: AppDb, viewerId: string, seen: SeenBy, postId: string | undefined, limit: number) {
  const visibleOwner = andAmongVisible(seen, sql.raw('b.owner_id'));
  // The viewer's own boards and the ones they joined: two index walks, as allBoardsOfUser.
  const result = await db.execute<BoardRow & { hasPost: boolean }>(sql`select b.id, b.owner_id as "ownerId", b.name, b.slug,
      b.description, b.secret, b.cover_post_id as "coverPostId", b.post_count as "postCount", u.username as "ownerUsername",
      u.icon_key as "ownerIconKey", b.last_saved_at::text as "sortTime",
      ${postId ? sql`exists (select 1 from board_posts where board_id = b.id and post_id = ${postId})` : sql`false`} as "hasPost"
    from (
      (select *, null::timestamptz as joined_at from ${boards} where ${boards.ownerId} = ${viewerId})
      union all
      (select ${boards}.*, ${boardMembers.joinedAt} from ${boardMembers} join ${boards} on ${boards.id} = ${boardMembers.boardId}
        where ${boardMembers.userId} = ${viewerId} and ${boardMembers.joinedAt} is not null)
    ) as b
    join ${users} u on u.id = b.owner_id
    where true ${visibleOwner}
    -- A board just joined counts as just used: it is the one the new collaborator is about to use.
    order by greatest((select max(saved_at) from board_posts where saved_by = ${viewerId} and board_id = b.id), b.joined_at, b.created_at) desc,
      b.id desc
    limit ${limit}`);
  return (result as { rows: Array<BoardRow & { hasPost: boolean }> }).rows.map(({ hasPost, ...board }) => ({ board, hasPost }));
}

/**
 * How many of each board's saved posts are by `authorIds` (those hidden from a viewer: a few).
 * From the authors' side (posts_user_idx, then a probe of board_posts' key per post): a
 * 10,000-post board costs what the hidden authors posted, not its size.
 */
export async function postsByAuthors(db: AppDb, boardIds: string[], authorIds: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (boardIds.length === 0 || authorIds.length === 0) return counts;
  // A probe of board_posts per post of theirs: as a plain join (or a LATERAL the planner flattens
  // into one; OFFSET 0 keeps it apart) PGlite hashed all of a 10,000-post board's saves: 11 ms, not 1.
  const result = await db.execute<{ boardId: string; n: number }>(sql`select bp.board_id as "boardId", count(*)::int as n
    from posts p
    cross join lateral (
      select board_id from board_posts where post_id = p.id and board_id = any(${textArray(boardIds)}) offset 0
    ) as bp
    where p.user_id = any(${textArray(authorIds)})
    group by bp.board_id`);
  for (const row of (result as { rows: Array<{ boardId: string; n: number }> }).rows) counts.set(row.boardId, row.n);
  return counts;
}

/** What a cover needs: the picture and the description (alt text). */
export type CoverRow = {
  boardId: string;
  description: string;
  imageKey: string;
  width: number;
  height: number;
  placeholder: string;
};

/**
 * Each board's cover as the viewer may see it: the chosen post, else the newest saved post
 * (both only when their author is visible to the viewer). Two index probes per board.
 */
export async function coversOf(db: AppDb, boardIds: string[], seen: SeenBy): Promise<Map<string, CoverRow>> {
  const covers = new Map<string, CoverRow>();
  for (const [id, { chosen, newest }] of await coverCandidates(db, boardIds, 1, seen)) {
    const cover = chosen ?? newest[0];
    if (cover) covers.set(id, cover);
  }
  return covers;
}

/** `and` the visibility rule over a column the raw statements below name, or nothing when nobody is hidden. */
function andAmongVisible(seen: SeenBy, userId: SQL): SQL {
  const condition = amongVisible(seen, userId);
  return condition ? sql`and ${condition}` : sql``;
}

/** A cover as cached for every viewer: with its author, to be filtered per viewer. */
export type CoverCandidate = CoverRow & { userId: string };

/**
 * Each board's possible covers: the chosen post, and the `newest` most recently saved; only those
 * whose authors `seen` sees when given, else for every viewer (a cache filters them per viewer).
 * Two statements in all, a lateral probe per board walking board_posts_board_recent_idx.
 */
export async function coverCandidates(db: AppDb, boardIds: string[], newest: number, seen?: SeenBy) {
  const candidates = new Map<string, { chosen?: CoverCandidate; newest: CoverCandidate[] }>();
  if (boardIds.length === 0) return candidates;
  for (const id of boardIds) candidates.set(id, { newest: [] });
  const chosen = await db
    .select({
      boardId: boards.id,
      userId: posts.userId,
      description: posts.description,
      imageKey: posts.imageKey,
      width: posts.width,
      height: posts.height,
      placeholder: posts.placeholder,
    })
    .from(boards)
    .innerJoin(posts, eq(posts.id, boards.coverPostId))
    .where(and(inArray(boards.id, boardIds), seen && amongVisible(seen, posts.userId)));
  for (const row of chosen) candidates.get(row.boardId)!.chosen = row;
  if (newest === 0) return candidates;
  const notHidden = seen ? andAmongVisible(seen, sql.raw('p.user_id')) : sql``;
  const result = await db.execute<CoverCandidate>(sql`select b.id as "boardId", c.user_id as "userId", c.description,
      c.image_key as "imageKey", c.width, c.height, c.placeholder
    from unnest(${textArray(boardIds)}) as b(id)
    cross join lateral (
      select p.user_id, p.description, p.image_key, p.width, p.height, p.placeholder
      from board_posts bp join posts p on p.id = bp.post_id
      where bp.board_id = b.id ${notHidden}
      order by bp.saved_at desc, bp.post_id desc
      limit ${newest}
    ) as c`);
  for (const row of (result as { rows: CoverCandidate[] }).rows) candidates.get(row.boardId)!.newest.push(row);
  return candidates;
}

/** A page of a board's posts, newest saved first: only those whose authors `seen` sees, when given. */
export async function boardPostsPage(db: AppDb, options: { boardId: string; seen?: SeenBy; after?: PageKey; limit: number }) {
  return db
    .select({
      ...cardColumns,
      // The page's order and cursor: when it was saved, not when it was posted.
      sortTime: sql<string>`${boardPosts.savedAt}::text`,
      savedBy: boardPosts.savedBy,
    })
    .from(boardPosts)
    .innerJoin(posts, eq(posts.id, boardPosts.postId))
    .where(
      and(
        eq(boardPosts.boardId, options.boardId),
        options.seen && amongVisible(options.seen, posts.userId),
        options.after
          ? sql`(${boardPosts.savedAt}, ${boardPosts.postId}) < (${options.after.sortTime}::timestamptz, ${options.after.id})`
          : undefined,
      ),
    )
    .orderBy(desc(boardPosts.savedAt), desc(boardPosts.postId))
    .limit(options.limit + 1);
}

/** A board's members with who they are (the board's owner sees the invited ones too). */
export async function membersOf(db: Db, boardId: string) {
  return db
    .select({ userId: users.id, username: users.username, iconKey: users.iconKey, joinedAt: boardMembers.joinedAt })
    .from(boardMembers)
    .innerJoin(users, eq(users.id, boardMembers.userId))
    .where(eq(boardMembers.boardId, boardId))
    .orderBy(boardMembers.invitedAt, users.username);
}

/**
 * Locks the owner's row for the rest of the transaction: making and renaming boards count the
 * owner's boards and pick a free slug, which two requests at once must not both do.
 */
export async function lockOwner(tx: Tx, ownerId: string) {
  await tx.execute(sql`select 1 from ${users} where ${users.id} = ${ownerId} for no key update`);
}

export async function boardCount(tx: Tx, ownerId: string): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(boards).where(eq(boards.ownerId, ownerId));
  return row?.n ?? 0;
}

/** Whether another of the owner's boards has this slug. */
export async function slugTaken(tx: Tx, ownerId: string, slug: string, exceptBoardId: string): Promise<boolean> {
  const [row] = await tx
    .select({ one: sql<number>`1` })
    .from(boards)
    .where(and(eq(boards.ownerId, ownerId), eq(boards.slug, slug), sql`${boards.id} <> ${exceptBoardId}`));
  return row !== undefined;
}

/** A new board; its name's look-alike key is added here (lookalikes/skeleton.ts), so no write goes without it. */
export async function insertBoard(tx: Tx, values: Omit<typeof boards.$inferInsert, 'nameSkeleton'>) {
  await tx.insert(boards).values({ ...values, nameSkeleton: lookalikeKey(values.name) });
}

export async function updateBoard(
  tx: Tx,
  id: string,
  values: Partial<Pick<typeof boards.$inferInsert, 'name' | 'slug' | 'description' | 'secret' | 'coverPostId'>>,
) {
  const named = values.name === undefined ? values : { ...values, nameSkeleton: lookalikeKey(values.name) };
  const changed = Object.fromEntries(Object.entries(named).filter(([, value]) => value !== undefined));
  if (Object.keys(changed).length > 0) await tx.update(boards).set(changed).where(eq(boards.id, id));
}

export async function deleteBoard(db: AppDb, id: string) {
  await db.delete(boards).where(eq(boards.id, id));
}

/** The author of a post, or undefined when there is no such post. */
export async function authorOfPost(db: AppDb, postId: string): Promise<string | undefined> {
  const [row] = await db.select({ userId: posts.userId }).from(posts).where(eq(posts.id, postId));
  return row?.userId;
}

export async function isOnBoard(db: Db, boardId: string, postId: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(boardPosts)
    .where(and(eq(boardPosts.boardId, boardId), eq(boardPosts.postId, postId)));
  return row !== undefined;
}

/** Saves the post (nothing when it is there already); the triggers move the board's count. */
/** Whether the post was not on the board before. */
export async function insertSave(db: AppDb, boardId: string, postId: string, savedBy: string): Promise<boolean> {
  const rows = await db
    .insert(boardPosts)
    .values({ boardId, postId, savedBy })
    .onConflictDoNothing()
    .returning({ postId: boardPosts.postId });
  return rows.length > 0;
}

/** Removes the post from the board, only if `savedBy` saved it when given. Whether a row went. */
export async function deleteSave(db: AppDb, boardId: string, postId: string, savedBy?: string): Promise<boolean> {
  const rows = await db
    .delete(boardPosts)
    .where(and(eq(boardPosts.boardId, boardId), eq(boardPosts.postId, postId), savedBy ? eq(boardPosts.savedBy, savedBy) : undefined))
    .returning({ postId: boardPosts.postId });
  return rows.length > 0;
}

/** Who saved the post to the board, or undefined when it is not there. */
export async function saverOf(db: AppDb, boardId: string, postId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ savedBy: boardPosts.savedBy })
    .from(boardPosts)
    .where(and(eq(boardPosts.boardId, boardId), eq(boardPosts.postId, postId)));
  return row?.savedBy;
}

export async function postCountOf(db: AppDb, boardId: string): Promise<number> {
  const [row] = await db.select({ n: boards.postCount }).from(boards).where(eq(boards.id, boardId));
  return row?.n ?? 0;
}

/** Locks the board's row: invitations count its members first. */
export async function lockBoard(tx: Tx, boardId: string) {
  await tx.execute(sql`select 1 from ${boards} where ${boards.id} = ${boardId} for no key update`);
}

export async function memberCount(tx: Tx, boardId: string): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(boardMembers).where(eq(boardMembers.boardId, boardId));
  return row?.n ?? 0;
}

export async function insertMember(tx: Tx, boardId: string, userId: string) {
  await tx.insert(boardMembers).values({ boardId, userId }).onConflictDoNothing();
}

export async function isMember(tx: Tx, boardId: string, userId: string): Promise<boolean> {
  const [row] = await tx
    .select({ one: sql<number>`1` })
    .from(boardMembers)
    .where(and(eq(boardMembers.boardId, boardId), eq(boardMembers.userId, userId)));
  return row !== undefined;
}

export async function deleteMember(db: AppDb, boardId: string, username: string): Promise<void> {
  const member = db.select({ id: users.id }).from(users).where(eq(users.username, username));
  await db.delete(boardMembers).where(and(eq(boardMembers.boardId, boardId), eq(boardMembers.userId, member)));
}

export async function joinBoard(db: AppDb, boardId: string, userId: string) {
  await db
    .update(boardMembers)
    .set({ joinedAt: sql`coalesce(${boardMembers.joinedAt}, now())` })
    .where(and(eq(boardMembers.boardId, boardId), eq(boardMembers.userId, userId)));
}
