import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../src/shared/api/paths.js';
import type { PostDetail, PostPage } from '../../src/shared/api/posts.js';
import type { Me } from '../../src/shared/api/auth.js';
import type { Profile } from '../../src/shared/api/users.js';
import { newAccount, signUp } from '../helpers/accounts.js';
import { jpeg } from '../helpers/images.js';
import { follow, patchMe, query, unfollow } from '../helpers/people.js';
import { createPost } from '../helpers/posts.js';
import { createTestApp, TestClock, type TestApp } from '../helpers/test-app.js';

/**
 * Post pages, public profiles and the first page of a user's posts are shared for a moment
 * (READ_CACHE_MS). Whatever this process changes shows on the very next read; a change made
 * elsewhere (another process; here, SQL behind the app's back) shows within the time to live.
 */
const TTL = 400;
/** The cache's time: it stands still until a test moves it on. */
const clock = new TestClock();
let t: TestApp;
type Account = Awaited<ReturnType<typeof signUp>>;

async function getJson<T>(url: string, cookie?: string): Promise<T> {
  const response = await t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<T>();
}
const profile = (account: Account, cookie?: string) =>
  getJson<{ user: Profile }>(API.user(account.username), cookie).then((body) => body.user);
const postPage = (id: string, cookie?: string) => getJson<{ post: PostDetail }>(API.post(id), cookie).then((body) => body.post);
const profilePosts = (account: Account) =>
  getJson<PostPage>(API.userPosts(account.username)).then((page) => page.posts.map((post) => post.id));

async function newPost(author: Account, description = 'Fresh from the dorm #studentliving') {
  const response = await createPost(t.app, author.cookie, { bytes: await jpeg(64, 48), type: 'image/jpeg', description });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ post: PostDetail }>().post.id;
}

describe('read cache', () => {
  let author: Account;
  let reader: Account;
  let postId: string;

  beforeAll(async () => {
    t = await createTestApp({ cacheTtlMs: TTL }, { clock: clock.now });
    [author, reader] = await Promise.all([signUp(t.app), signUp(t.app)]);
    postId = await newPost(author);
    // Everything below is read once first, so it is in the cache when the change comes.
    await Promise.all([profile(author), profile(reader), postPage(postId, reader.cookie), profilePosts(author)]);
  });
  afterAll(() => t.close());

  it('a follow and an unfollow show at once on both profiles and on the post page', async () => {
    expect((await follow(t.app, author.username, reader.cookie)).statusCode).toBe(200);
    expect(await profile(author, reader.cookie)).toMatchObject({ followers: 1, followedByMe: true });
    expect(await profile(reader)).toMatchObject({ following: 1 });
    expect((await postPage(postId, reader.cookie)).author).toMatchObject({ followers: 1, followedByMe: true });

    expect((await unfollow(t.app, author.username, reader.cookie)).statusCode).toBe(200);
    expect(await profile(author, reader.cookie)).toMatchObject({ followers: 0, followedByMe: false });
    expect(await profile(reader)).toMatchObject({ following: 0 });
    expect((await postPage(postId, reader.cookie)).author).toMatchObject({ followers: 0, followedByMe: false });
  });

  it('followedByMe is the viewer’s own, never another viewer’s cached answer', async () => {
    await follow(t.app, author.username, reader.cookie);
    expect((await profile(author, reader.cookie)).followedByMe).toBe(true);
    expect((await profile(author)).followedByMe).toBe(false);
    expect((await profile(author, author.cookie)).followedByMe).toBe(false);
    expect((await postPage(postId)).author.followedByMe).toBe(false);
    await unfollow(t.app, author.username, reader.cookie);
  });

  it('a new icon and bio show at once on the profile and on the post page', async () => {
    const response = await patchMe(t.app, author.cookie, [
      ['bio', 'Now with a picture'],
      ['icon', { bytes: await jpeg(120, 120), type: 'image/jpeg', filename: 'me.jpg' }],
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const me = response.json<{ user: Me }>().user;
    expect(await profile(author)).toMatchObject({ bio: 'Now with a picture', icon: me.icon });
    expect((await postPage(postId)).author.icon).toBe(me.icon);
  });

  it("a new post shows at once on its author's profile; a deleted one is gone at once everywhere", async () => {
    const second = await newPost(author, 'Second one');
    expect(await profilePosts(author)).toEqual([second, postId]);
    await postPage(second);
    const deleted = await t.app.inject({ method: 'DELETE', url: API.post(second), headers: { cookie: author.cookie } });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: API.post(second) })).statusCode).toBe(404);
    expect(await profilePosts(author)).toEqual([postId]);
  });

  it('related posts show a new post at once and drop a deleted one at once', async () => {
    const related = () => getJson<{ posts: Array<{ id: string }> }>(API.related(postId)).then((body) => body.posts.map((post) => post.id));
    const before = await related();
    const sibling = await newPost(reader, 'Same vibe #studentliving');
    expect(await related()).toEqual([sibling, ...before]);
    const deleted = await t.app.inject({ method: 'DELETE', url: API.post(sibling), headers: { cookie: reader.cookie } });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await related()).toEqual(before);
  });

  it('a user who was not found is not remembered: they can sign up and be found at once', async () => {
    const account = newAccount('late');
    expect((await t.app.inject({ method: 'GET', url: API.user(account.username) })).statusCode).toBe(404);
    await signUp(t.app, account);
    expect((await profile({ ...account, uid: '', cookie: '' })).username).toBe(account.username);
  });

  it('a change made elsewhere shows within the time to live', async () => {
    await profile(author);
    await query(t.database, `UPDATE users SET bio = 'Changed elsewhere' WHERE id = $1`, [author.uid]);
    expect((await profile(author)).bio).not.toBe('Changed elsewhere');
    clock.advance(TTL);
    expect((await profile(author)).bio).toBe('Changed elsewhere');
  });

  it('a follow made elsewhere shows in followedByMe within the time to live', async () => {
    expect((await profile(author, reader.cookie)).followedByMe).toBe(false);
    await query(t.database, `INSERT INTO follows (follower_id, target_id) VALUES ($1, $2)`, [reader.uid, author.uid]);
    expect((await profile(author, reader.cookie)).followedByMe).toBe(false);
    clock.advance(TTL);
    expect(await profile(author, reader.cookie)).toMatchObject({ followedByMe: true, followers: 1 });
    await unfollow(t.app, author.username, reader.cookie);
  });
});
