import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../src/shared/api/paths.js';
import type { PostDetail, PostPage } from '../../src/shared/api/posts.js';
import type { Profile } from '../../src/shared/api/users.js';
import { signUp } from '../helpers/accounts.js';
import { jpeg } from '../helpers/images.js';
import { expectError, follow, get, query, unfollow } from '../helpers/people.js';
import { createPost } from '../helpers/posts.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * With every cache off (CACHE_TTL_MS=0), a profile, a post page and a profile's posts are each
 * one statement that reads the user or post together with whether the viewer follows its author
 * (issue 14: cold paths fast enough that caches are an optimization). The same answers as with
 * the caches on, which the other suites check.
 */
let t: TestApp;
let alice: Awaited<ReturnType<typeof signUp>>;
let bob: Awaited<ReturnType<typeof signUp>>;
let postId: string;

beforeAll(async () => {
  t = await createTestApp({ cacheTtlMs: 0 });
  [alice, bob] = await Promise.all([signUp(t.app), signUp(t.app)]);
  const created = await createPost(t.app, alice.cookie, { description: 'desk lamp #dorm', bytes: await jpeg(60, 40) });
  expect(created.statusCode, created.body).toBe(201);
  postId = created.json<{ post: PostDetail }>().post.id;
});
afterAll(() => t?.close());

const profile = async (username: string, cookie?: string) => (await get(t.app, API.user(username), cookie)).json<{ user: Profile }>().user;
const author = async (cookie?: string) => (await get(t.app, API.post(postId), cookie)).json<{ post: PostDetail }>().post.author;

describe('uncached reads', () => {
  it('a profile says whether this viewer follows, on every request', async () => {
    expect(await profile(alice.username, bob.cookie)).toMatchObject({ followers: 0, followedByMe: false });
    expect((await follow(t.app, alice.username, bob.cookie)).statusCode).toBe(200);
    expect(await profile(`@${alice.username.toUpperCase()}`, bob.cookie)).toMatchObject({ followers: 1, followedByMe: true });
    expect(await profile(alice.username, alice.cookie)).toMatchObject({ followers: 1, followedByMe: false });
    expect(await profile(alice.username)).toMatchObject({ followers: 1, followedByMe: false });
    expect(await profile(bob.username, alice.cookie)).toMatchObject({ following: 1, followedByMe: false });
    expect((await unfollow(t.app, alice.username, bob.cookie)).statusCode).toBe(200);
    expect(await profile(alice.username, bob.cookie)).toMatchObject({ followers: 0, followedByMe: false });
    expectError(await get(t.app, API.user('nobody_here'), bob.cookie), 404, 'USER_NOT_FOUND');
  });

  it('a post page shows its author as they are now, and whether this viewer follows them', async () => {
    expect(await author(bob.cookie)).toEqual({ uid: alice.uid, username: alice.username, icon: null, followers: 0, followedByMe: false });
    expect((await follow(t.app, alice.username, bob.cookie)).statusCode).toBe(200);
    expect(await author(bob.cookie)).toMatchObject({ followers: 1, followedByMe: true });
    expect(await author(alice.cookie)).toMatchObject({ followers: 1, followedByMe: false });
    expect(await author()).toMatchObject({ followers: 1, followedByMe: false });
    expectError(await get(t.app, API.post('nope'), bob.cookie), 404, 'POST_NOT_FOUND');
  });

  it("a profile's posts by any spelling of the username; nobody is a 404, nothing posted an empty page", async () => {
    const page = (await get(t.app, API.userPosts(`@${alice.username.toUpperCase()}`))).json<PostPage>();
    expect(page.posts.map((post) => post.id)).toEqual([postId]);
    expect(page.nextCursor).toBeNull();
    expect((await get(t.app, API.userPosts(bob.username))).json<PostPage>()).toEqual({ posts: [], nextCursor: null });
    expectError(await get(t.app, API.userPosts('nobody_here')), 404, 'USER_NOT_FOUND');
  });

  it('a feed page reads who is hidden from its viewer once, signed in or out', async () => {
    const statements: string[] = [];
    const counted = await createTestApp({ cacheTtlMs: 0 }, { onStatement: (sql) => statements.push(sql) });
    try {
      const viewer = await signUp(counted.app);
      for (const cookie of [viewer.cookie, undefined]) {
        statements.length = 0;
        const response = await get(counted.app, API.posts, cookie);
        expect(response.statusCode, response.body).toBe(200);
        // Each read is a statement of its own when nothing is cached: twice was twice the statements.
        expect(statements.filter((sql) => /from "blocks"/.test(sql))).toHaveLength(cookie ? 1 : 0);
        expect(statements.filter((sql) => /"suspended_until" > now\(\)/.test(sql))).toHaveLength(1);
      }
    } finally {
      await counted.close();
    }
  });

  it('blocks either way and suspensions hide on every request, with no cache to tell', async () => {
    const [carol, dave] = await Promise.all([signUp(t.app), signUp(t.app)]);
    const seesPost = async (cookie?: string) => (await get(t.app, API.post(postId), cookie)).statusCode === 200;
    const setBlock = (method: 'PUT' | 'DELETE', blocker: typeof alice, blocked: typeof alice) =>
      t.app.inject({ method, url: `/api/users/${blocked.username}/block`, headers: { cookie: blocker.cookie } });
    const suspendAlice = (until: Date | null) =>
      query(t.database, 'UPDATE users SET suspended_until = $1 WHERE id = $2', [until?.toISOString() ?? null, alice.uid]);

    expect(await Promise.all([seesPost(bob.cookie), seesPost(carol.cookie), seesPost()])).toEqual([true, true, true]);
    // Alice blocks Bob: he no longer sees her post; Carol and nobody still do.
    expect((await setBlock('PUT', alice, bob)).statusCode).toBe(200);
    expect(await Promise.all([seesPost(bob.cookie), seesPost(carol.cookie), seesPost()])).toEqual([false, true, true]);
    // Carol blocks Alice: she sees Alice's profile, saying so, but not her post.
    expect((await setBlock('PUT', carol, alice)).statusCode).toBe(200);
    expect(await seesPost(carol.cookie)).toBe(false);
    expect(await profile(alice.username, carol.cookie)).toMatchObject({ blockedByMe: true });
    // Alice suspended: hidden from everyone.
    expect(await seesPost(dave.cookie)).toBe(true);
    await suspendAlice(new Date(Date.now() + 60_000));
    expect(await Promise.all([seesPost(dave.cookie), seesPost()])).toEqual([false, false]);
    // All undone: everyone sees it again, with no change told to any cache.
    await suspendAlice(null);
    expect((await setBlock('DELETE', alice, bob)).statusCode).toBe(200);
    expect((await setBlock('DELETE', carol, alice)).statusCode).toBe(200);
    expect(await Promise.all([seesPost(bob.cookie), seesPost(carol.cookie), seesPost(dave.cookie), seesPost()])).toEqual([
      true,
      true,
      true,
      true,
    ]);
  });
});
