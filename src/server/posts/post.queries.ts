import { and, arrayOverlaps, desc, eq, ne, or, sql, type SQL } from 'drizzle-orm';
import type { AppDb } from '../db/database.js';
import { posts, users } from '../db/schema.js';
import type { PageKey } from '../http/cursor.js';

export type PostRow = typeof posts.$inferSelect;

/** The columns a grid card needs, plus the exact sort key for the next page's cursor. */
export const cardColumns = {
  id: posts.id,
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
  description: string;
  imageKey: string;
  width: number;
  height: number;
  placeholder: string;
  sortTime: string;
};

/** Rows strictly after the cursor in newest-first order. */
function after(key: PageKey | undefined): SQL | undefined {
  return key ? sql`(${posts.createdAt}, ${posts.id}) < (${key.sortTime}::timestamptz, ${key.id})` : undefined;
}

export async function insertPost(db: AppDb, post: typeof posts.$inferInsert): Promise<PostRow> {
  const [row] = await db.insert(posts).values(post).returning();
  return row!;
}

/** Newest first, optionally without one user's posts (the viewer's own). Fetches one extra row to know if there is more. */
export async function feedPage(db: AppDb, options: { excludeUserId?: string; after?: PageKey; limit: number }): Promise<CardRow[]> {
  return db
    .select(cardColumns)
    .from(posts)
    .where(and(options.excludeUserId ? ne(posts.userId, options.excludeUserId) : undefined, after(options.after)))
    .orderBy(desc(posts.createdAt), desc(posts.id))
    .limit(options.limit + 1);
}

/** The newest posts of everyone, with their authors (for the feed cache). */
export async function newestPosts(db: AppDb, limit: number) {
  return db
    .select({ ...cardColumns, userId: posts.userId })
    .from(posts)
    .orderBy(desc(posts.createdAt), desc(posts.id))
    .limit(limit);
}

export async function userPostsPage(db: AppDb, options: { userId: string; after?: PageKey; limit: number }): Promise<CardRow[]> {
  return db
    .select(cardColumns)
    .from(posts)
    .where(and(eq(posts.userId, options.userId), after(options.after)))
    .orderBy(desc(posts.createdAt), desc(posts.id))
    .limit(options.limit + 1);
}

/**
 * Posts sharing any of the hashtags OR any of the keywords (GIN indexes), never the post itself.
 *
 * A post has a keyword when the keyword is a substring of one of its words. The keywords given
 * are the first ones of a description in the spec's order (shared/keywords.ts): each one's first
 * two characters come before it, and are a keyword of every post that has it. So a post has
 * one of the keywords iff it has one of the two-character ones, which are search grams.
 */
export async function relatedPosts(
  db: AppDb,
  options: { postId: string; hashtags: string[]; keywords: string[]; limit: number },
): Promise<CardRow[]> {
  const pairs = options.keywords.filter((keyword) => Array.from(keyword).length === 2);
  const matches = [
    options.hashtags.length > 0 ? arrayOverlaps(posts.hashtags, options.hashtags) : undefined,
    pairs.length > 0 ? arrayOverlaps(posts.searchGrams, pairs) : undefined,
  ].filter((condition): condition is SQL => condition !== undefined);
  if (matches.length === 0) return [];
  return db
    .select(cardColumns)
    .from(posts)
    .where(and(ne(posts.id, options.postId), or(...matches)))
    .orderBy(desc(posts.createdAt), desc(posts.id))
    .limit(options.limit);
}

/**
 * A post for its page, with its author's username: neither ever changes, so the answer can be
 * shared until the post is deleted. The author's icon and counts come from their own row.
 */
export async function findPostDetail(db: AppDb, id: string) {
  const [row] = await db
    .select({
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
      authorUsername: users.username,
    })
    .from(posts)
    .innerJoin(users, eq(users.id, posts.userId))
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
