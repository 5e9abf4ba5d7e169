import { and, arrayContains, desc, eq, ne, sql, type SQL } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import { gramsDecide, queryGrams } from '../../shared/keywords.js';
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
    // Byte order, which no index on username provides: otherwise, under a database collation
    // like en_US, PostgreSQL walks the whole UNIQUE index in its order to find the first ten
    // matches of a common prefix (6,000 rows for "ma" here) instead of reading the prefix
    // range. Usernames are a-z, 0-9, '_' and '.', so byte order is also the natural one.
    .orderBy(sql`${users.username} COLLATE "C"`)
    .limit(limit);
}

export type RankedCard = CardRow & { matched: number };

/** Which posts a ranking looks at: those created at or after `since`, or strictly before `before`. */
export interface TimeRange {
  since?: string;
  before?: string;
}

function inRange(range: TimeRange) {
  return and(
    range.since ? sql`${posts.createdAt} >= ${range.since}::timestamptz` : undefined,
    range.before ? sql`${posts.createdAt} < ${range.before}::timestamptz` : undefined,
  );
}

/**
 * Posts with a word containing every one of the query words (spec section 3: the query word
 * is one of the post's keywords). The GIN index finds the posts holding all of their grams;
 * words longer than a gram are then checked against the post's words (search_text, a few
 * hundred bytes stored inline), which only the rows the index found are read for.
 */
function containsAll(words: string[]): SQL {
  const grams = [...new Set(words.flatMap(queryGrams))];
  const checks = words.filter((word) => !gramsDecide(word)).map((word) => sql`strpos(${posts.searchText}, ${word}) > 0`);
  return and(arrayContains(posts.searchGrams, grams), ...checks)!;
}

/**
 * Cards of the posts in the range that have any of the words, best first: the most words
 * matched, then newest.
 *
 * WARNING: anything that reads the array column for each match (`search_grams @> ...` in an
 * ORDER BY) costs a detoast per match: with hundreds of grams per post, that is seconds for a
 * word in a fifth of all posts. With several words, each is one GIN lookup returning only
 * (id, created_at), matches are counted per post, and the card columns are read for the
 * winners alone. One word needs no counting, and the planner may then walk the newest posts
 * and stop at the limit.
 */
export async function rankedPosts(db: AppDb, words: string[], limit: number, range: TimeRange = {}): Promise<RankedCard[]> {
  if (words.length === 1) {
    const rows = await postsWithAllWords(db, words, limit, range);
    return rows.map((row) => ({ ...row, matched: 1 }));
  }
  const [first, ...rest] = words.map((word) =>
    db
      .select({ id: posts.id, createdAt: posts.createdAt })
      .from(posts)
      .where(and(containsAll([word]), inRange(range))),
  );
  const hits = unionAll(first!, ...(rest as [NonNullable<typeof first>])).as('hits');
  const matched = sql<number>`count(*)::int`.as('matched');
  const ranked = db
    .select({ id: hits.id, createdAt: hits.createdAt, matched })
    .from(hits)
    .groupBy(hits.id, hits.createdAt)
    .orderBy(desc(matched), desc(hits.createdAt), desc(hits.id))
    .limit(limit)
    .as('ranked');
  return db
    .select({ ...cardColumns, matched: ranked.matched })
    .from(ranked)
    .innerJoin(posts, eq(posts.id, ranked.id))
    .orderBy(desc(ranked.matched), desc(ranked.createdAt), desc(ranked.id));
}

/** Cards of the newest posts in the range that have every one of the words (one GIN lookup). */
export async function postsWithAllWords(db: AppDb, words: string[], limit: number, range: TimeRange): Promise<CardRow[]> {
  return db
    .select(cardColumns)
    .from(posts)
    .where(and(containsAll(words), inRange(range)))
    .orderBy(desc(posts.createdAt), desc(posts.id))
    .limit(limit);
}

/**
 * Whether ranking the words over the range would examine at most `perWord` candidate rows for
 * each word (the rows its grams find, before the check against the words). Counting stops one
 * row past the limit, so this costs at most that many rows per word itself.
 */
export async function candidatesWithin(db: AppDb, words: string[][], perWord: number, range: TimeRange = {}): Promise<boolean> {
  const counts = words.map(
    (group) =>
      sql`(SELECT count(*) FROM (SELECT 1 FROM ${posts} WHERE ${and(arrayContains(posts.searchGrams, [...new Set(group.flatMap(queryGrams))]), inRange(range))} LIMIT ${perWord + 1}) AS c)`,
  );
  const [row] = await db
    .select({ over: sql<boolean>`greatest(${sql.join(counts, sql`, `)}) > ${perWord}` })
    .from(sql`(SELECT 1) AS one`);
  return row?.over === false;
}

/** The creation time of the nth newest post, or undefined when there are fewer posts. */
export async function nthNewestPostTime(db: AppDb, n: number): Promise<string | undefined> {
  const [row] = await db
    .select({ createdAt: sql<string>`${posts.createdAt}::text` })
    .from(posts)
    .orderBy(desc(posts.createdAt))
    .offset(n - 1)
    .limit(1);
  return row?.createdAt;
}
