import { and, arrayContains, desc, eq, ne, or, sql, type SQL } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import { gramsDecide, queryGrams } from '../../shared/keywords.js';
import type { AppDb } from '../db/database.js';
import { posts, users } from '../db/schema.js';
import { amongVisible, type SeenBy } from '../directory/visibility.js';
import { boundedMatchesNewestFirst, cardColumns, fewMatchesNewestFirst, newestCards, type CardRow } from '../posts/post.queries.js';

/** LIKE treats '_' and '%' as wildcards, and usernames may contain '_'. */
function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** Usernames starting with the prefix (B-tree, text_pattern_ops), never the viewer nor anyone hidden from them. */
export async function usersByPrefix(db: AppDb, prefix: string, excludeUserId: string | undefined, limit: number, seen?: SeenBy) {
  return (
    db
      .select({ id: users.id, username: users.username, iconKey: users.iconKey })
      .from(users)
      .where(
        and(
          sql`${users.username} LIKE ${`${escapeLike(prefix)}%`}`,
          excludeUserId ? ne(users.id, excludeUserId) : undefined,
          seen && amongVisible(seen, users.id),
        ),
      )
      // Byte order, which no index on username provides: otherwise, under a database collation
      // like en_US, PostgreSQL walks the whole UNIQUE index in its order to find the first ten
      // matches of a common prefix (6,000 rows for "ma" here) instead of reading the prefix
      // range. Usernames are a-z, 0-9, '_' and '.', so byte order is also the natural one.
      .orderBy(sql`${users.username} COLLATE "C"`)
      .limit(limit)
  );
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

/** The grams a GIN lookup asks for, as queryGrams gives them (every gram of the words) or fewer. */
export type GramPick = (words: string[]) => { triples: string[]; pairs: string[] };

/**
 * How a query finds the posts it reads the words of: through the GIN index, by the grams
 * `grams` picks (all of the words' grams when absent), or, with `walk`, every post of the time
 * range in feed order (the range must have a start: the walk reads each post in it).
 */
export type Lookup = { walk: true } | { walk?: false; grams?: GramPick };

const hasWord = (word: string) => sql`strpos(${posts.searchText}, ${word}) > 0`;

/**
 * Posts with a word containing every one of the query words (spec section 3: the query word
 * is one of the post's keywords). The GIN index finds the posts holding the grams the words
 * need (shared/keywords.ts queryGrams); words longer than a pair are then checked against the
 * post's words (search_text, a few hundred bytes stored inline), read only for the rows found.
 * A walk checks every word against the words of each post instead.
 */
function containsAll(words: string[], lookup: Lookup): SQL {
  if (lookup.walk) return and(...words.map(hasWord))!;
  const checks = words.filter((word) => !gramsDecide(word)).map(hasWord);
  return and(candidates(words, lookup.grams), ...checks)!;
}

function checkWalk(range: TimeRange, lookup: Lookup) {
  if (lookup.walk && !range.since) throw new Error('A walk reads every post of its range: give the range a start');
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
export async function rankedPosts(
  db: AppDb,
  words: string[],
  limit: number,
  range: TimeRange = {},
  lookup: Lookup = {},
): Promise<RankedCard[]> {
  if (words.length === 1) {
    const rows = await postsWithAllWords(db, words, limit, range, lookup);
    return rows.map((row) => ({ ...row, matched: 1 }));
  }
  if (lookup.walk) return walkRanked(db, words, limit, range);
  const [first, ...rest] = words.map((word) =>
    db
      .select({ id: posts.id, createdAt: posts.createdAt })
      .from(posts)
      .where(and(containsAll([word], lookup), inRange(range))),
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

/**
 * The ranking of a time range read in one pass over its posts (the feed index finds them):
 * each post's words checked for every query word. No GIN lookup, whose cost grows with the
 * posts of the whole table holding the grams (10 ms for a word in 8 % of 1M posts).
 */
function walkRanked(db: AppDb, words: string[], limit: number, range: TimeRange): Promise<RankedCard[]> {
  checkWalk(range, { walk: true });
  const matched = sql<number>`(${sql.join(
    words.map((word) => sql`(${hasWord(word)})::int`),
    sql` + `,
  )})`;
  return db
    .select({ ...cardColumns, matched })
    .from(posts)
    .where(and(or(...words.map(hasWord)), inRange(range)))
    .orderBy(desc(matched), desc(posts.createdAt), desc(posts.id))
    .limit(limit);
}

/**
 * Cards of the newest posts in the range that have every one of the words: a walk of the range
 * that stops at the limit, or one GIN lookup whose matches are then sorted.
 *
 * WARNING: given the ORDER BY and LIMIT, the planner may walk the feed index instead of the GIN
 * lookup when it expects many matches, and for grams missing from its statistics it does (it
 * takes each to be in about half the least common listed share): "qx", in no post, walked all
 * 1M posts in 1.5 s on PostgreSQL. The subquery with OFFSET 0 is planned on its own, without them.
 */
export async function postsWithAllWords(
  db: AppDb,
  words: string[],
  limit: number,
  range: TimeRange,
  lookup: Lookup = {},
): Promise<CardRow[]> {
  return newestMatches(db, and(containsAll(words, lookup), inRange(range)), limit, range, lookup);
}

/**
 * Cards of the newest posts that have every one of the words, through the GIN index, when at
 * most `readAtMost` posts do (their words read, then sorted); else undefined, after reading that many.
 */
export function postsWithAllWordsIfFew(
  db: AppDb,
  words: string[],
  limit: number,
  grams: GramPick,
  readAtMost: number,
): Promise<CardRow[] | undefined> {
  return boundedMatchesNewestFirst(db, containsAll(words, { grams }), limit, readAtMost);
}

/** Cards of the newest posts in the range that have any of the words, read as postsWithAllWords reads them. */
export async function postsWithAnyWord(
  db: AppDb,
  words: string[],
  limit: number,
  range: TimeRange,
  lookup: Lookup = {},
): Promise<CardRow[]> {
  return newestMatches(db, and(or(...words.map((word) => containsAll([word], lookup))), inRange(range)), limit, range, lookup);
}

function newestMatches(db: AppDb, where: SQL | undefined, limit: number, range: TimeRange, lookup: Lookup): Promise<CardRow[]> {
  checkWalk(range, lookup);
  if (lookup.walk) return newestCards(db, where, limit);
  return fewMatchesNewestFirst(db, where, limit);
}

/** What the GIN index finds for the words, before the check against the post's words. */
function candidates(words: string[], pick: GramPick = queryGrams): SQL {
  const { triples, pairs } = pick(words);
  if (words.every(gramsDecide)) return arrayContains(posts.searchGrams, triples);
  return or(arrayContains(posts.searchGrams, triples), arrayContains(posts.searchGrams, pairs))!;
}

export interface GramStatistics {
  /** Posts in the table, as of the last ANALYZE (0 when never analyzed). */
  posts: number;
  /** The share of posts holding each of the most common grams. */
  frequencies: Map<string, number>;
  /** At most the share of posts holding any gram not listed (the least listed share); 1 when unknown. */
  otherwise: number;
}

/**
 * What ANALYZE found about the grams: the most common ones and the share of posts holding each
 * (pg_stats most_common_elems and most_common_elem_freqs, whose last three numbers are the
 * least and greatest share and the share of nulls). No query of the posts themselves.
 */
export async function gramStatistics(db: AppDb): Promise<GramStatistics> {
  const [row] = await db
    .execute<{ posts: number; elems: string[] | null; freqs: number[] | null }>(
      sql`
    SELECT greatest(c.reltuples, 0)::float8 AS posts, s.most_common_elems::text::text[] AS elems, s.most_common_elem_freqs::float8[] AS freqs
    FROM pg_class AS c
    LEFT JOIN pg_stats AS s ON s.schemaname = current_schema() AND s.tablename = 'posts' AND s.attname = 'search_grams'
    WHERE c.oid = 'posts'::regclass`,
    )
    .then((result) => (result as { rows: Array<{ posts: number; elems: string[] | null; freqs: number[] | null }> }).rows);
  const elems = row?.elems ?? [];
  const freqs = row?.freqs ?? [];
  if (!row || elems.length === 0 || freqs.length < elems.length + 3)
    return { posts: row?.posts ?? 0, frequencies: new Map(), otherwise: 1 };
  return {
    posts: row.posts,
    frequencies: new Map(elems.map((elem, i) => [elem, freqs[i]!])),
    otherwise: freqs[elems.length]!,
  };
}
