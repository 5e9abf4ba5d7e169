import { and, arrayOverlaps, desc, eq, ne, or, sql, type SQL } from 'drizzle-orm';
import type { AppDb } from '../db/database.js';
import { followedBy, publicUserColumns } from '../directory/directory.queries.js';
import { amongVisible, type SeenBy } from '../directory/visibility.js';
import { postIdempotency, posts, users } from '../db/schema.js';
import type { PageKey } from '../http/cursor.js';

export type PostRow = typeof posts.$inferSelect;

/**
 * The columns a grid card needs, plus the exact sort key for the next page's cursor, and the
 * author (never sent: cached answers are filtered per viewer by it, directory/visibility.ts).
 */
export const cardColumns = {
  id: posts.id,
  userId: posts.userId,
  description: posts.description,
  imageKey: posts.imageKey,
  width: posts.width,
  height: posts.height,
  placeholder: posts.placeholder,
  // Text keeps PostgreSQL's microseconds, which a JS Date would round away.
  sortTime: sql<string>`${posts.createdAt}::text`,
};
export type CardRow = {
  id: string;
  userId: string;
  description: string;
  imageKey: string;
  width: number;
  height: number;
  placeholder: string;
  sortTime: string;
};

/** cardColumns as a select list of raw SQL: each column named by its key in CardRow. */
const CARD_SELECT = sql.join(
  Object.entries(cardColumns).map(([key, column]) => sql`${column} AS ${sql.identifier(key)}`),
  sql`, `,
);

/**
 * Cards of the posts matching `where`, newest first, as the driver gives the rows: drizzle's
 * select builder and its mapping of each value took ~12 % of the server's CPU for a 101-card
 * feed page (2026-11-26), for columns that need no mapping.
 */
export async function newestCards(db: AppDb, where: SQL | undefined, limit: number): Promise<CardRow[]> {
  const result = await db.execute<CardRow>(
    sql`SELECT ${CARD_SELECT} FROM ${posts} WHERE ${where ?? sql`true`} ORDER BY ${posts.createdAt} DESC, ${posts.id} DESC LIMIT ${limit}`,
  );
  return (result as { rows: CardRow[] }).rows;
}

/** Rows strictly after the cursor in newest-first order. */
function after(key: PageKey | undefined): SQL | undefined {
  return key ? sql`(${posts.createdAt}, ${posts.id}) < (${key.sortTime}::timestamptz, ${key.id})` : undefined;
}

export async function insertPost(db: AppDb, post: typeof posts.$inferInsert): Promise<PostRow> {
  const [row] = await db.insert(posts).values(post).returning();
  return row!;
}

/** The key's window as SQL: now() less POST_IDEMPOTENCY_WINDOW_MS. */
const windowStart = (windowMs: number) => sql`now() - ${windowMs} * interval '1 millisecond'`;

/** The post this user's upload key made within the window, if any. */
export async function postOfKey(db: AppDb, userId: string, key: string, windowMs: number): Promise<string | undefined> {
  const [row] = await db
    .select({ postId: postIdempotency.postId })
    .from(postIdempotency)
    .where(
      and(eq(postIdempotency.userId, userId), eq(postIdempotency.key, key), sql`${postIdempotency.createdAt} > ${windowStart(windowMs)}`),
    );
  return row?.postId;
}

/**
 * Ties the key to the new post, in the post's transaction: false when the key already names a
 * post within the window. A submission racing another with the same key waits here on the
 * primary key for the other's commit, then finds it (PostgreSQL); an older row is taken over.
 */
export async function claimKey(db: AppDb, userId: string, key: string, postId: string, windowMs: number): Promise<boolean> {
  const rows = await db
    .insert(postIdempotency)
    .values({ userId, key, postId })
    .onConflictDoUpdate({
      target: [postIdempotency.userId, postIdempotency.key],
      set: { postId, createdAt: sql`now()` },
      setWhere: sql`${postIdempotency.createdAt} <= ${windowStart(windowMs)}`,
    })
    .returning({ postId: postIdempotency.postId });
  return rows.length > 0;
}

/** Forgets keys past the window (a few rows: the posts of the last minutes make them). */
export async function sweepKeys(db: AppDb, windowMs: number): Promise<void> {
  await db.delete(postIdempotency).where(sql`${postIdempotency.createdAt} <= ${windowStart(windowMs)}`);
}

/**
 * Newest first, as the viewer (nobody when signed out) may see them, without their own. Fetches
 * one extra row to know if there is more.
 */
export async function feedPage(
  db: AppDb,
  options: { viewerId?: string; seen: SeenBy; after?: PageKey; limit: number },
): Promise<CardRow[]> {
  const { viewerId } = options;
  return newestCards(
    db,
    and(viewerId ? ne(posts.userId, viewerId) : undefined, amongVisible(options.seen, posts.userId), after(options.after)),
    options.limit + 1,
  );
}

/** The newest posts of everyone, with their authors (for the feed cache). */
export async function newestPosts(db: AppDb, limit: number) {
  return newestCards(db, undefined, limit);
}

/**
 * A user's posts by their username, newest first: the user's id is looked up inside the same
 * statement, so an uncached profile page costs one. No rows for a user who does not exist.
 */
export async function userPostsPage(db: AppDb, options: { username: string; after?: PageKey; limit: number }): Promise<CardRow[]> {
  const author = sql`(SELECT ${users.id} FROM ${users} WHERE ${users.username} = ${options.username})`;
  return newestCards(db, and(sql`${posts.userId} = ${author}`, after(options.after)), options.limit + 1);
}

/** The creation time of the nth newest post, or undefined when there are fewer posts (one walk of the feed index). */
export async function nthNewestPostTime(db: AppDb, n: number): Promise<string | undefined> {
  const [row] = await db
    .select({ createdAt: sql<string>`${posts.createdAt}::text` })
    .from(posts)
    .orderBy(desc(posts.createdAt))
    .offset(n - 1)
    .limit(1);
  return row?.createdAt;
}

/** What a post is related by: its id (never related to itself), its first hashtags and keywords. */
export interface RelatedTo {
  postId: string;
  hashtags: string[];
  keywords: string[];
}

/**
 * Posts sharing any of the hashtags OR any of the keywords (GIN indexes), never the post itself,
 * created at or after `since` when given.
 *
 * A post has a keyword when the keyword is a substring of one of its words. The keywords given
 * are the first ones of a description in the spec's order (shared/keywords.ts): each one's first
 * two characters come before it, and are a keyword of every post that has it. So a post has
 * one of the keywords iff it has one of the two-character ones, which are search grams.
 */
function relatedTo(to: RelatedTo, since: string | undefined): SQL | undefined {
  const pairs = to.keywords.filter((keyword) => Array.from(keyword).length === 2);
  const matches = [
    to.hashtags.length > 0 ? arrayOverlaps(posts.hashtags, to.hashtags) : undefined,
    pairs.length > 0 ? arrayOverlaps(posts.searchGrams, pairs) : undefined,
  ].filter((condition): condition is SQL => condition !== undefined);
  if (matches.length === 0) return undefined;
  return and(ne(posts.id, to.postId), or(...matches), since ? sql`${posts.createdAt} >= ${since}::timestamptz` : undefined);
}

/**
 * The newest related posts (created at or after `since`), as the planner sees fit: it walks the
 * feed index newest first and stops at the limit when it expects matches to be common, else it
 * reads them all through the GIN indexes and sorts them.
 *
 * WARNING: the planner guesses how common the matches are from ANALYZE's statistics, and a guess
 * too high makes it walk the whole table: it takes a pair missing from the statistics' most
 * common grams to be in about half of the least common one's share of posts, so with a few such
 * pairs it expects a full page within the newest few thousand posts. Three pairs that no post
 * has took 3.9 s at 1M posts on PostgreSQL, ten 9.3 s. Give it a `since` that bounds the walk
 * (RelatedPosts), or use sparseRelatedPosts.
 */
export async function relatedPosts(db: AppDb, to: RelatedTo, limit: number, since?: string): Promise<CardRow[]> {
  const condition = relatedTo(to, since);
  if (!condition) return [];
  return newestCards(db, condition, limit);
}

/**
 * The newest `limit` posts matching `where`, found by reading every match (through the indexes
 * `where` can use), then sorted: for matches known to be few. The subquery with OFFSET 0 is
 * planned on its own, without the ORDER BY and LIMIT that would tempt the planner into walking
 * the feed index through the whole table for grams its statistics don't know.
 */
export async function fewMatchesNewestFirst(db: AppDb, where: SQL | undefined, limit: number): Promise<CardRow[]> {
  const result = await db.execute<CardRow>(newestOf(sql`OFFSET 0`, where, limit));
  return (result as { rows: CardRow[] }).rows;
}

/**
 * The same, for matches expected to be few: reads at most `readAtMost` of them, and is
 * undefined when there are more (the newest can then be among those not read).
 */
export async function boundedMatchesNewestFirst(
  db: AppDb,
  where: SQL | undefined,
  limit: number,
  readAtMost: number,
): Promise<CardRow[] | undefined> {
  const result = await db.execute<CardRow & { matches: number }>(
    newestOf(sql`LIMIT ${readAtMost + 1}`, where, limit, sql`, count(*) OVER ()::int AS matches`),
  );
  const rows = (result as { rows: Array<CardRow & { matches: number }> }).rows;
  if (rows.length > 0 && rows[0]!.matches > readAtMost) return undefined;
  return rows.map(({ matches: _, ...card }) => card);
}

/** The newest of the matches the subquery reads: `fence` (OFFSET or LIMIT) keeps it planned on its own. */
function newestOf(fence: SQL, where: SQL | undefined, limit: number, extra = sql``): SQL {
  // Named as the table, so that CARD_SELECT reads the found rows.
  return sql`
    SELECT ${CARD_SELECT}${extra}
    FROM (
      SELECT ${posts.id}, ${posts.userId}, ${posts.description}, ${posts.imageKey}, ${posts.width}, ${posts.height}, ${posts.placeholder}, ${posts.createdAt}
      FROM ${posts} WHERE ${where ?? sql`true`} ${fence}
    ) AS posts
    ORDER BY posts.created_at DESC, posts.id DESC
    LIMIT ${limit}`;
}

/**
 * The same posts, found by reading every match through the GIN indexes (with the feed index
 * when `since` is given), then sorted: for matches known to be few among the newest posts.
 */
export async function sparseRelatedPosts(db: AppDb, to: RelatedTo, limit: number, since?: string): Promise<CardRow[]> {
  const condition = relatedTo(to, since);
  if (!condition) return [];
  return fewMatchesNewestFirst(db, condition, limit);
}

/**
 * A post for its page, with its author's username: neither ever changes, so `post` can be shared
 * until the post is deleted. The author's icon and counts, and whether the viewer follows them,
 * come in the same statement: an uncached post page costs one.
 */
export async function findPostDetail(db: AppDb, id: string, viewerId: string | undefined) {
  const [row] = await db
    .select({
      post: {
        // Not the search columns: the page never shows them.
        id: posts.id,
        description: posts.description,
        link: posts.link,
        hashtags: posts.hashtags,
        imageKey: posts.imageKey,
        width: posts.width,
        height: posts.height,
        placeholder: posts.placeholder,
        createdAt: posts.createdAt,
        authorId: posts.userId,
        authorUsername: users.username,
      },
      author: publicUserColumns,
      followedByMe: followedBy(viewerId, users.id),
    })
    .from(posts)
    .innerJoin(users, eq(users.id, posts.userId))
    .where(eq(posts.id, id))
    .limit(1);
  return row;
}

/** What related posts are found by: a post's hashtags and description, not its search columns. */
export async function findRelatedSource(db: AppDb, id: string) {
  const [row] = await db
    .select({ id: posts.id, userId: posts.userId, hashtags: posts.hashtags, description: posts.description })
    .from(posts)
    .where(eq(posts.id, id))
    .limit(1);
  return row;
}

export async function findPost(db: AppDb, id: string): Promise<PostRow | undefined> {
  const [row] = await db.select().from(posts).where(eq(posts.id, id)).limit(1);
  return row;
}

export async function deletePost(db: AppDb, id: string): Promise<boolean> {
  const rows = await db.delete(posts).where(eq(posts.id, id)).returning({ id: posts.id });
  return rows.length > 0;
}
