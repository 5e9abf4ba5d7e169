import { and, desc, ne, sql } from 'drizzle-orm';
import type { AppDb } from '../db/database.js';
import { posts, users } from '../db/schema.js';
import { cardColumns, type CardRow } from '../posts/post.queries.js';

/** LIKE treats '_' and '%' as wildcards, and usernames may contain '_'. */
function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** Usernames starting with the prefix (B-tree, text_pattern_ops), never the viewer. */
export async function usersByPrefix(db: AppDb, prefix: string, excludeUserId: string | undefined, limit: number) {
  return db
    .select({ id: users.id, username: users.username, iconKey: users.iconKey })
    .from(users)
    .where(
      and(
        sql`${users.username} LIKE ${`${escapeLike(prefix)}%`}`,
        excludeUserId ? ne(users.id, excludeUserId) : undefined,
      ),
    )
    .orderBy(users.username)
    .limit(limit);
}

/**
 * Posts whose keywords contain any of the words (GIN index on keywords), best first: the most
 * words matched, then newest.
 */
export async function postsByKeywords(db: AppDb, words: string[], limit: number): Promise<CardRow[]> {
  const wordArray = sql`ARRAY[${sql.join(
    words.map((word) => sql`${word}`),
    sql`, `,
  )}]::text[]`;
  // One cheap array test per word (at most SEARCH_MAX_WORDS), instead of unnesting the words
  // for every candidate row.
  const matched = sql<number>`(${sql.join(
    words.map((word) => sql`(${posts.keywords} @> ARRAY[${word}]::text[])::int`),
    sql` + `,
  )})`;
  return db
    .select(cardColumns)
    .from(posts)
    .where(sql`${posts.keywords} && ${wordArray}`)
    .orderBy(desc(matched), desc(posts.createdAt), desc(posts.id))
    .limit(limit);
}
