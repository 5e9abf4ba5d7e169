import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Change } from '../../src/server/cache/changes.js';
import { ReadCache } from '../../src/server/cache/read-cache.js';
import type { AppDb } from '../../src/server/db/database.js';
import { NewestPostTimes } from '../../src/server/posts/newest-post-times.js';
import { PostSearch } from '../../src/server/search/post-search.js';
import { insertPosts, insertUsers, query } from '../helpers/people.js';
import { loggingDb } from '../helpers/query-plans.js';
import { createTestApp, TestClock, type TestApp } from '../helpers/test-app.js';

/**
 * Where the newest posts' windows start and the grams' statistics are regions of the read cache
 * with a time to live of their own (issue 27): simultaneous reads share one query, an answer is
 * reused until its time to live has passed (no change makes it wrong, only older), then read again.
 */
const TTL = 60_000;
let t: TestApp;
let userId: string;
const at = (minute: number) => new Date(Date.UTC(2024, 0, 1, 0, minute)).toISOString();
const post: Change = { kind: 'post', postId: 'x', authorId: 'x', authorUsername: 'x' };

/** A read cache on a test clock (its own time to live far shorter), and the statements run through `db`. */
function setUp() {
  const clock = new TestClock();
  const cache = new ReadCache({ maxBytes: 1_000_000, ttlMs: 1000, now: clock.now });
  const statements: string[] = [];
  const db: AppDb = loggingDb(t.database, (text) => statements.push(text));
  return { clock, cache, db, statements };
}

beforeAll(async () => {
  t = await createTestApp();
  const [author] = await insertUsers(t.database, 1, 'estimates');
  userId = author!.id;
  await insertPosts(
    t.database,
    Array.from({ length: 5 }, (_, i) => ({ id: `e${i}`, userId, at: at(i) })),
  );
});
afterAll(() => t?.close());

describe('newest post times (a read-cache region)', () => {
  it('share one query, are reused for their time to live whatever changes, then read again', async () => {
    const { clock, cache, db, statements } = setUp();
    const times = new NewestPostTimes(db, cache, TTL);
    const [first, second] = await Promise.all([times.at(2), times.at(2)]);
    expect(first).toBe(second);
    expect(statements).toHaveLength(1);
    await insertPosts(t.database, [{ id: 'e-newer', userId, at: at(30) }]);
    cache.changed(post);
    clock.advance(TTL - 1);
    expect(await times.at(2)).toBe(first);
    expect(statements).toHaveLength(1);
    clock.advance(1);
    const later = await times.at(2);
    expect(later).not.toBe(first);
    expect(statements).toHaveLength(2);
    await query(t.database, "DELETE FROM posts WHERE id = 'e-newer'");
  });

  it('are kept while the cache is suspended (the change feed is down): they are never wrong, only older', async () => {
    const { cache, db, statements } = setUp();
    const times = new NewestPostTimes(db, cache, TTL);
    cache.suspend();
    await times.at(3);
    await times.at(3);
    expect(statements).toHaveLength(1);
  });
});

describe("the grams' statistics (a read-cache region)", () => {
  it('are read once per time to live by searches', async () => {
    const { clock, cache, db, statements } = setUp();
    const search = new PostSearch(db, { cache, cutoffTtlMs: TTL, windows: [2] });
    const statisticsReads = () => statements.filter((text) => text.includes('pg_stats')).length;
    await search.cards(['post'], 10);
    await search.cards(['other'], 10);
    expect(statisticsReads()).toBe(1);
    clock.advance(TTL);
    await search.cards(['post'], 10);
    expect(statisticsReads()).toBe(2);
  });
});
