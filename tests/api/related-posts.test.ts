import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDb, Database } from '../../src/server/db/database.js';
import { posts } from '../../src/server/db/schema.js';
import * as queries from '../../src/server/posts/post.queries.js';
import { RelatedPosts } from '../../src/server/posts/related-posts.js';
import { API } from '../../src/shared/api/paths.js';
import type { PostCard } from '../../src/shared/api/posts.js';
import { deriveHashtags } from '../../src/shared/hashtags.js';
import { deriveKeywords, firstKeywords, searchGrams, searchText } from '../../src/shared/keywords.js';
import { RELATED_HASHTAGS_USED, RELATED_KEYWORDS_USED, RELATED_MAX_POSTS } from '../../src/shared/limits.js';
import { signUp } from '../helpers/accounts.js';
import { captureQueries } from '../helpers/query-plans.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Related posts looked for among the newest posts first (RelatedPosts, windows of the newest
 * posts, then the whole table) are exactly what the one query over the whole table answers: the
 * same posts in the same order, for any posts, windows and limit, even with window starts that
 * are out of date. And the queries read the indexes.
 */

interface Seed {
  id: string;
  description: string;
  /** Minutes after a fixed time: larger = newer; posts may share one. */
  minute: number;
}

const BASE_TIME = Date.parse('2024-03-01T12:00:00Z');

async function insertPosts(database: Database, userId: string, seeds: Seed[]) {
  for (let start = 0; start < seeds.length; start += 1000) {
    await database.orm.insert(posts).values(
      seeds.slice(start, start + 1000).map((seed) => ({
        id: seed.id,
        userId,
        description: seed.description,
        searchGrams: searchGrams(seed.description),
        searchText: searchText(seed.description),
        hashtags: deriveHashtags(seed.description),
        imageKey: `images/${seed.id}`,
        width: 400,
        height: 300,
        createdAt: new Date(BASE_TIME + seed.minute * 60_000),
      })),
    );
  }
}

/** What the related posts panel of a post asks for: its first hashtags and keywords. */
function relatedTo(seed: Seed, hashtagsUsed = RELATED_HASHTAGS_USED, keywordsUsed = RELATED_KEYWORDS_USED): queries.RelatedTo {
  return {
    postId: seed.id,
    hashtags: deriveHashtags(seed.description).slice(0, hashtagsUsed),
    keywords: firstKeywords(seed.description, keywordsUsed),
  };
}

/** By definition: any hashtag or any keyword in common, newest first, then the greater id (ids sort alike in every collation). */
function reference(seeds: Seed[], to: queries.RelatedTo, limit: number): string[] {
  return seeds
    .filter((seed) => seed.id !== to.postId)
    .filter((seed) => {
      const hashtags = new Set(deriveHashtags(seed.description));
      const keywords = new Set(deriveKeywords(seed.description));
      return to.hashtags.some((tag) => hashtags.has(tag)) || to.keywords.some((keyword) => keywords.has(keyword));
    })
    .sort((a, b) => b.minute - a.minute || (a.id < b.id ? 1 : -1))
    .slice(0, limit)
    .map((seed) => seed.id);
}

const ids = (rows: queries.CardRow[]) => rows.map((row) => row.id);

// ---------------------------------------------------------------- the same answer

describe('related posts: looking among the newest posts first gives the same answer as the whole table', () => {
  let t: TestApp;
  let userId: string;
  const words = ['the', 'then', 'in', 'rain', 'coffee', 'dorm', 'zq', 'qzx', 'a', '#finals', '#dorm', '#coffee', '#zz'];

  beforeAll(async () => {
    t = await createTestApp();
    userId = (await signUp(t.app)).uid;
  });
  afterAll(() => t.close());

  const description = fc.array(fc.constantFrom(...words), { maxLength: 5 }).map((chosen) => chosen.join(' '));

  it('for any posts (sharing creation times), windows, limit and post asking', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ description, minute: fc.integer({ min: 0, max: 40 }) }), { minLength: 1, maxLength: 80 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 90 }), { maxLength: 3 }).map((sizes) => sizes.sort((a, b) => a - b)),
        fc.integer({ min: 1, max: 40 }),
        fc.nat(),
        fc.integer({ min: 0, max: RELATED_HASHTAGS_USED }),
        fc.integer({ min: 0, max: RELATED_KEYWORDS_USED }),
        async (drawn, windows, limit, pick, hashtagsUsed, keywordsUsed) => {
          const seeds = drawn.map((seed, i) => ({ ...seed, id: `p${String(i).padStart(3, '0')}` }));
          await t.database.orm.delete(posts);
          await insertPosts(t.database, userId, seeds);
          const to = relatedTo(seeds[pick % seeds.length]!, hashtagsUsed, keywordsUsed);
          const expected = reference(seeds, to, limit);
          expect(ids(await queries.relatedPosts(t.database.orm, to, limit))).toEqual(expected);
          expect(ids(await new RelatedPosts(t.database.orm, { windows }).cards(to, limit))).toEqual(expected);
          expect(ids(await queries.sparseRelatedPosts(t.database.orm, to, limit))).toEqual(expected);
        },
      ),
      { numRuns: 150, seed: 14 },
    );
  });

  it('with window starts from before posts came and went', async () => {
    await t.database.orm.delete(posts);
    const seeds: Seed[] = Array.from({ length: 60 }, (_, i) => ({
      id: `s${String(i).padStart(3, '0')}`,
      description: i % 4 === 0 ? 'rain #finals' : i % 4 === 1 ? 'coffee' : 'then the dorm',
      minute: i - (i % 5 === 0 ? 1 : 0),
    }));
    await insertPosts(t.database, userId, seeds);
    const related = new RelatedPosts(t.database.orm, { windows: [4, 12], cutoffTtlMs: 3_600_000 });
    const sources = [seeds[0]!, seeds[1]!, seeds[2]!];
    const check = async (all: Seed[]) => {
      for (const source of sources)
        for (const limit of [1, 3, 10, 40]) {
          const to = relatedTo(source);
          expect(ids(await related.cards(to, limit))).toEqual(reference(all, to, limit));
        }
    };
    await check(seeds);
    // Newer posts, then the newest of all gone: the cached starts now cut elsewhere.
    const newer: Seed[] = Array.from({ length: 20 }, (_, i) => ({
      id: `t${String(i).padStart(3, '0')}`,
      description: i % 2 ? 'rain' : 'coffee #finals',
      minute: 100 + i,
    }));
    await insertPosts(t.database, userId, newer);
    await check([...seeds, ...newer]);
    await t.database.orm.delete(posts).where(sql`${posts.createdAt} >= ${new Date(BASE_TIME + 50 * 60_000)}`);
    await check(seeds.filter((seed) => seed.minute < 50));
  });

  it('is what GET /api/posts/:id/related answers', async () => {
    await t.database.orm.delete(posts);
    const seeds: Seed[] = Array.from({ length: 150 }, (_, i) => ({
      id: `a${String(i).padStart(3, '0')}`,
      description: ['then rain #finals', 'coffee in the dorm', 'zq #zz', 'qzx'][i % 4]!,
      minute: Math.floor(i / 2),
    }));
    await insertPosts(t.database, userId, seeds);
    for (const source of seeds.slice(0, 4)) {
      const response = await t.app.inject({ method: 'GET', url: API.related(source.id) });
      expect(response.statusCode, response.body).toBe(200);
      const answer = response.json<{ posts: PostCard[] }>().posts.map((post) => post.id);
      expect(answer).toEqual(reference(seeds, relatedTo(source), RELATED_MAX_POSTS));
    }
  });
});

// ---------------------------------------------------------------- query plans

async function explain(database: Database, run: (db: AppDb) => Promise<unknown>, settings = ''): Promise<string> {
  const captured = await captureQueries(database, run);
  return database.rawTransaction(async (tx) => {
    if (settings) await tx.exec(settings);
    const rows = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${captured.sql}`, captured.params);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

/** Walks the feed index newest first (and so stops at the limit), not a bitmap of it. */
const WALKS_FEED = /(?<!Bitmap )Index Scan using posts_feed_idx/;

describe('related posts: query plans', () => {
  let t: TestApp;
  let since: string;
  // Every post has the common words; one in 500 has 'zq', one in 250 '#zz'.
  const common: queries.RelatedTo = { postId: 'x', hashtags: [], keywords: ['th', 'the', 'in'] };
  const rarePair: queries.RelatedTo = { postId: 'x', hashtags: [], keywords: ['zq'] };
  const rareTag: queries.RelatedTo = { postId: 'x', hashtags: ['zz'], keywords: [] };
  // Pairs no post has, which the statistics don't know either.
  const unknownPairs: queries.RelatedTo = { postId: 'x', hashtags: [], keywords: ['qa', 'qb', 'qc', 'qd', 'qe', 'qf', 'qg', 'qh'] };

  beforeAll(async () => {
    t = await createTestApp();
    const userId = (await signUp(t.app)).uid;
    await insertPosts(
      t.database,
      userId,
      Array.from({ length: 5000 }, (_, i) => ({
        id: `g${String(i).padStart(5, '0')}`,
        description: `then the rain in dorm w${i % 97}${i % 500 === 7 ? ' zq' : ''}${i % 250 === 3 ? ' #zz' : ''}`,
        minute: i,
      })),
    );
    // What autovacuum does on a server (PGlite has none): statistics, the GIN pending list merged.
    await t.database.orm.execute(sql.raw('VACUUM ANALYZE posts'));
    since = (await queries.nthNewestPostTime(t.database.orm, 1000))!;
  });
  afterAll(() => t.close());

  it('common matches in the newest posts: the feed index, newest first, stopping at the limit', async () => {
    const plan = await explain(t.database, (db) => queries.relatedPosts(db, common, RELATED_MAX_POSTS, since));
    expect(plan).toMatch(WALKS_FEED);
    expect(plan).not.toMatch(/Sort|Seq Scan/);
  });

  it('sparse matches: every one read through the GIN indexes, never a walk of the table', async () => {
    for (const to of [rarePair, rareTag, unknownPairs])
      for (const window of [since, undefined]) {
        const plan = await explain(t.database, (db) => queries.sparseRelatedPosts(db, to, RELATED_MAX_POSTS, window));
        expect(plan).toMatch(
          to.hashtags.length > 0 ? /Bitmap Index Scan on posts_hashtags_idx/ : /Bitmap Index Scan on posts_search_grams_idx/,
        );
        expect(plan).not.toMatch(WALKS_FEED);
        expect(plan).not.toMatch(/Seq Scan/);
      }
  });

  it('even when the planner would rather walk the feed index in order', async () => {
    // Sorting made to look ruinous: the plain query then walks the feed index past every post, as
    // it does at 1M posts on PostgreSQL for pairs the statistics don't know. The subquery of
    // sparseRelatedPosts is planned without the ORDER BY, so it still reads the GIN index.
    const settings = 'SET LOCAL enable_sort = off';
    const plain = await explain(t.database, (db) => queries.relatedPosts(db, unknownPairs, RELATED_MAX_POSTS), settings);
    expect(plain).toMatch(WALKS_FEED);
    const sparse = await explain(t.database, (db) => queries.sparseRelatedPosts(db, unknownPairs, RELATED_MAX_POSTS), settings);
    expect(sparse).toMatch(/Bitmap Index Scan on posts_search_grams_idx/);
    expect(sparse).not.toMatch(WALKS_FEED);
  });
});
