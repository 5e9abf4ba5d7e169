import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS, defaultSearchCost, type Config } from '../../src/server/config.js';
import { PostSearch } from '../../src/server/search/post-search.js';
import * as queries from '../../src/server/search/search.queries.js';
import { API } from '../../src/shared/api/paths.js';
import { queryGrams, searchGrams, searchText } from '../../src/shared/keywords.js';
import { signUp } from '../helpers/accounts.js';
import { expectError, insertPosts, insertUsers, query } from '../helpers/people.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * What a search may cost (issue 12): searches are limited per address and per account, a
 * process runs a few at a time and refuses more than it can queue, a ranking examines a
 * bounded number of rows, and on PostgreSQL a statement that runs too long is cancelled. A
 * refusal is a 429 or a 503 with Retry-After, never a 500.
 */

const search = (app: FastifyInstance, kind: 'posts' | 'users', q: string, options: { ip?: string; cookie?: string } = {}) =>
  app.inject({
    method: 'GET',
    url: kind === 'posts' ? API.searchPosts(q) : API.searchUsers(q),
    remoteAddress: options.ip ?? '10.0.0.1',
    headers: options.cookie ? { cookie: options.cookie } : {},
  });

function expectLimited(response: LightMyRequestResponse) {
  expectError(response, 429, 'SEARCHING_TOO_FAST');
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(60);
}

const limits = (searchPerIp: number, searchPerUser: number): Partial<Config> => ({
  rateLimits: { ...DEFAULT_RATE_LIMITS, loginPerIp: 10_000, registerPerIp: 10_000, searchPerIp, searchPerUser },
});

describe('search rate limits', () => {
  it('per address: posts and people searches share the count; other addresses are not affected', async () => {
    const t = await createTestApp(limits(3, 100));
    try {
      expect((await search(t.app, 'posts', 'library')).statusCode).toBe(200);
      expect((await search(t.app, 'users', 'al')).statusCode).toBe(200);
      // Reordered or different words are no way around it.
      expect((await search(t.app, 'posts', 'dorm library')).statusCode).toBe(200);
      expectLimited(await search(t.app, 'posts', 'library dorm'));
      expectLimited(await search(t.app, 'users', 'bo'));
      expect((await search(t.app, 'posts', 'library', { ip: '10.0.0.2' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('per account: a signed-in searcher is limited from any address', async () => {
    const t = await createTestApp(limits(100, 2));
    try {
      const account = await signUp(t.app);
      expect((await search(t.app, 'posts', 'a1', { cookie: account.cookie })).statusCode).toBe(200);
      expect((await search(t.app, 'users', 'a2', { cookie: account.cookie, ip: '10.0.0.3' })).statusCode).toBe(200);
      expectLimited(await search(t.app, 'posts', 'a3', { cookie: account.cookie, ip: '10.0.0.4' }));
      expectLimited(await search(t.app, 'users', 'a4', { cookie: account.cookie }));
      // The same address without the account, and other accounts, may still search.
      expect((await search(t.app, 'posts', 'a5')).statusCode).toBe(200);
      const other = await signUp(t.app);
      expect((await search(t.app, 'posts', 'a6', { cookie: other.cookie })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('default limits: a minute of searching as fast as one can type is fine, a script is stopped', async () => {
    const t = await createTestApp(limits(DEFAULT_RATE_LIMITS.searchPerIp, DEFAULT_RATE_LIMITS.searchPerUser));
    try {
      const account = await signUp(t.app);
      for (let i = 0; i < DEFAULT_RATE_LIMITS.searchPerUser; i++) {
        expect((await search(t.app, 'posts', `w${i}`, { cookie: account.cookie })).statusCode).toBe(200);
      }
      expectLimited(await search(t.app, 'posts', 'more', { cookie: account.cookie }));
      expect(DEFAULT_RATE_LIMITS.searchWindowMs).toBe(60_000);
    } finally {
      await t.close();
    }
  });
});

describe('searches at once', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ searchCost: { ...defaultSearchCost(true), concurrency: 1, queue: 2 } });
    const [author] = await insertUsers(t.database, 1, 'gate');
    await insertPosts(
      t.database,
      Array.from({ length: 200 }, (_, i) => ({ id: `g${i}`, userId: author!.id, at: new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString() })),
    );
    await query(t.database, `UPDATE posts SET search_grams = $1, search_text = $2`, [
      searchGrams('library study room'),
      searchText('library study room'),
    ]);
  });
  afterAll(() => t?.close());

  it('one runs, two wait, the rest are refused with 503 SEARCH_BUSY and Retry-After; then all is served again', async () => {
    const queries = ['library', 'study', 'room', 'libr', 'stud', 'roo', 'brary'];
    const responses = await Promise.all(queries.map((q) => search(t.app, 'posts', q)));
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
    for (const response of responses.filter((r) => r.statusCode !== 200)) {
      expectError(response, 503, 'SEARCH_BUSY');
      expect(response.headers['retry-after']).toBe('1');
    }
    for (const q of queries) expect((await search(t.app, 'posts', q)).json().posts).toHaveLength(100);
  });

  it('people search is cheap by construction and never waits at the gate', async () => {
    const responses = await Promise.all(['ga', 'gat', 'gate', 'g', 'gx', 'gat0', 'ga1'].map((q) => search(t.app, 'users', q)));
    expect(responses.map((response) => response.statusCode)).toEqual(Array(7).fill(200));
  });
});

describe('cost cap: a ranking examines a bounded number of rows', () => {
  let t: TestApp;
  const ids = Array.from({ length: 100 }, (_, i) => `c${String(i).padStart(3, '0')}`);

  beforeAll(async () => {
    t = await createTestApp();
    const [author] = await insertUsers(t.database, 1, 'cap');
    await insertPosts(
      t.database,
      ids.map((id, i) => ({ id, userId: author!.id, at: new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString() })),
    );
    // Every post says "common"; only the oldest also says "rare" and "unique".
    for (const [i, id] of ids.entries()) {
      const description = i === 0 ? 'common rare unique' : 'common';
      await query(t.database, `UPDATE posts SET search_grams = $1, search_text = $2 WHERE id = $3`, [
        searchGrams(description),
        searchText(description),
        id,
      ]);
    }
    // The cap is estimated from the statistics of the grams.
    await query(t.database, 'ANALYZE posts');
  });
  afterAll(() => t?.close());

  const newest = (n: number) => [...ids].reverse().slice(0, n);

  it('within the cap the answer is exact: the oldest post matches most words and comes first', async () => {
    const exact = new PostSearch(t.database.orm, { windows: [10, 60] });
    expect((await exact.cards(['common', 'rare', 'unique'], 5)).map((card) => card.id)).toEqual([ids[0], ...newest(4)]);
    // Two words: only posts matching both can still get in, and one bounded lookup finds them.
    const capped = new PostSearch(t.database.orm, { windows: [10, 60], maxExamined: 40 });
    expect((await capped.cards(['common', 'rare'], 5)).map((card) => card.id)).toEqual([ids[0], ...newest(4)]);
  });

  it('the posts with every word are read up to the cap, and not used when there are more', async () => {
    const db = t.database.orm;
    // 100 posts say "common": past a cap of 40, no page; within a cap of 100, the newest first.
    expect(await queries.postsWithAllWordsIfFew(db, ['common'], 5, queryGrams, 40)).toBeUndefined();
    expect((await queries.postsWithAllWordsIfFew(db, ['common'], 5, queryGrams, 100))?.map((card) => card.id)).toEqual(newest(5));
    expect((await queries.postsWithAllWordsIfFew(db, ['common', 'rare'], 5, queryGrams, 40))?.map((card) => card.id)).toEqual([ids[0]]);
    expect(await queries.postsWithAllWordsIfFew(db, ['common', 'nowhere'], 5, queryGrams, 40)).toEqual([]);
  });

  it('past the cap, the best matches among the newest posts ranked', async () => {
    // "common" is in every post: 40 rows afford a window of ~38 posts, not the 100 of the whole table.
    const capped = new PostSearch(t.database.orm, { windows: [10, 60], maxExamined: 40 });
    expect((await capped.cards(['common', 'rare', 'unique'], 5)).map((card) => card.id)).toEqual(newest(5));
    // A rare word alone is cheap to find anywhere.
    expect((await capped.cards(['unique'], 5)).map((card) => card.id)).toEqual([ids[0]]);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('statement timeout (PostgreSQL)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ searchCost: { ...defaultSearchCost(false), statementTimeoutMs: 1 } });
    const [author] = await insertUsers(t.database, 1, 'slow');
    await query(
      t.database,
      `INSERT INTO posts (id, user_id, description, search_grams, search_text, image_key, width, height, created_at)
       SELECT 's' || i, $1, 'x', $2, $3, 'images/s', 1, 1, now() - i * interval '1 second' FROM generate_series(1, 20000) AS i`,
      [author!.id, searchGrams('abcdefghijklmnop'), searchText('abcdefghijklmnop')],
    );
  });
  afterAll(() => t?.close());

  it('a search statement cancelled by the timeout is a 503 SEARCH_BUSY, never a 500', async () => {
    const response = await search(t.app, 'posts', 'ab bc cd de ef fg gh hi ij jk');
    expectError(response, 503, 'SEARCH_BUSY');
    expect(response.headers['retry-after']).toBe('1');
  });
});
