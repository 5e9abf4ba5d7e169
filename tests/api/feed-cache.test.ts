import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PostPage } from '../../src/shared/api/posts.js';
import { signUp } from '../helpers/accounts.js';
import { insertPosts, query } from '../helpers/people.js';
import { createTestApp, TestClock, type TestApp } from '../helpers/test-app.js';

/**
 * The home feed's first page comes from an in-memory window of the newest posts. It must give
 * exactly what the database would, for every viewer, and never hold a change for longer than
 * its time to live. The cache's time stands still until a test moves it on.
 */
const TTL = 400;
const clock = new TestClock();
let t: TestApp;
let serial = 0;

async function feed(cookie?: string, cursor?: string): Promise<PostPage> {
  const url = cursor ? `/api/posts?cursor=${encodeURIComponent(cursor)}` : '/api/posts';
  const response = await t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  return response.json<PostPage>();
}

/** Every post id the viewer sees, page after page. */
async function allPages(cookie?: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await feed(cookie, cursor);
    ids.push(...page.posts.map((post) => post.id));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return ids;
}

/** Posts inserted behind the app's back, a second apart, newest last. */
async function addPosts(userId: string, count: number, start = Date.UTC(2026, 0, 1)) {
  const seeds = Array.from({ length: count }, (_, i) => ({
    id: `fc${(serial += 1).toString().padStart(5, '0')}`,
    userId,
    at: new Date(start + serial * 1000 + i).toISOString(),
  }));
  await insertPosts(t.database, seeds);
  return seeds.map((seed) => seed.id);
}

async function newestFirst(excludeUserId?: string): Promise<string[]> {
  const rows = await query<{ id: string }>(t.database, 'SELECT id FROM posts WHERE user_id <> $1 ORDER BY created_at DESC, id DESC', [
    excludeUserId ?? '',
  ]);
  return rows.map((row) => row.id);
}

describe('home feed cache', () => {
  let alice: Awaited<ReturnType<typeof signUp>>;
  let bob: Awaited<ReturnType<typeof signUp>>;

  beforeAll(async () => {
    t = await createTestApp({ cacheTtlMs: TTL }, { clock: clock.now });
    alice = await signUp(t.app);
    bob = await signUp(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('pages from the cache equal the database, for everyone, with no gaps or repeats', async () => {
    await addPosts(alice.uid, 130);
    await addPosts(bob.uid, 120);
    clock.advance(TTL);
    for (const [cookie, exclude] of [
      [undefined, undefined],
      [alice.cookie, alice.uid],
      [bob.cookie, bob.uid],
    ] as const) {
      const first = await feed(cookie);
      expect(first.posts).toHaveLength(100);
      expect(await allPages(cookie)).toEqual(await newestFirst(exclude));
    }
  });

  it('a viewer who wrote most recent posts still gets a full page (from the database)', async () => {
    await addPosts(alice.uid, 250, Date.UTC(2026, 5, 1));
    clock.advance(TTL);
    const page = await feed(alice.cookie);
    expect(page.posts.map((post) => post.id)).toEqual((await newestFirst(alice.uid)).slice(0, 100));
    expect(page.nextCursor).not.toBeNull();
  });

  it('holds a change made elsewhere for at most its time to live', async () => {
    const before = await feed();
    const [id] = await addPosts(bob.uid, 1, Date.UTC(2027, 0, 1));
    // Within the window the cached page is served (this is what saves the database)...
    clock.advance(TTL - 1);
    expect((await feed()).posts[0]!.id).toBe(before.posts[0]!.id);
    clock.advance(1);
    // ...and after it the new post is there.
    expect((await feed()).posts[0]!.id).toBe(id);
  });

  it('a deletion through this app shows at once', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/posts' });
    const newest = response.json<PostPage>().posts[0]!;
    // Make the newest post bob's own real post so he may delete it through the API.
    await query(t.database, 'UPDATE posts SET user_id = $1 WHERE id = $2', [bob.uid, newest.id]);
    clock.advance(TTL);
    expect((await feed()).posts[0]!.id).toBe(newest.id);
    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/posts/${newest.id}`, headers: { cookie: bob.cookie } });
    expect(deleted.statusCode).toBe(204);
    expect((await feed()).posts.map((post) => post.id)).not.toContain(newest.id);
  });
});
