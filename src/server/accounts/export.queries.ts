import { and, desc, eq, sql } from 'drizzle-orm';
import type { AppDb } from '../db/database.js';
import { posts } from '../db/schema.js';
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
