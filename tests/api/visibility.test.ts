import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../src/shared/api/paths.js';
import { PERMANENT_SUSPENSION } from '../../src/shared/moderation.js';
import { encodeCursor } from '../../src/server/http/cursor.js';
import { signUp } from '../helpers/accounts.js';
import { jpeg } from '../helpers/images.js';
import { get, query } from '../helpers/people.js';
import { createPost } from '../helpers/posts.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The one visibility rule (design.md; src/server/directory/visibility.ts), table-driven: every
 * read path × every case. Each path is read once BEFORE the change (so a shared answer is
 * cached, and must not outlive the change), then after it. Runs on PGlite, and on PostgreSQL
 * with TEST_DATABASE_URL.
 *
 * Per case: the author A, a neutral user N whose post shares A's hashtag (related posts) and who
 * follows A and is followed by A (lists), and the viewer V (signed out in one case).
 */

let t: TestApp;
let photo: Buffer;
beforeAll(async () => {
  t = await createTestApp();
  photo = await jpeg(64, 48);
});
afterAll(async () => {
  await t?.close();
});

type Account = Awaited<ReturnType<typeof signUp>>;

interface Scene {
  author: Account;
  neutral: Account;
  /** undefined: signed out. */
  viewer: Account | undefined;
  authorPost: string;
  neutralPost: string;
  word: string;
}

/** What the viewer finds of the author: everything, nothing, or (they blocked them) the profile alone. */
type Seen = 'visible' | 'hidden' | 'blocked';

const DAY = 24 * 60 * 60 * 1000;

async function suspend(user: Account, until: Date | null) {
  await query(t.database, 'UPDATE users SET suspended_until = $1 WHERE id = $2', [until?.toISOString() ?? null, user.uid]);
  // As the moderation service does after its write.
  await t.app.changes.changed({ kind: 'suspension', userId: user.uid, username: user.username });
}

async function block(blocker: Account, blocked: Account) {
  const response = await t.app.inject({ method: 'PUT', url: `/api/users/${blocked.username}/block`, headers: { cookie: blocker.cookie } });
  expect(response.statusCode, response.body).toBe(200);
}

interface Case {
  name: string;
  /** The viewer: a new account, nobody, or the author themself. */
  viewer: 'other' | 'signed out' | 'author';
  change: (scene: Scene) => Promise<void>;
  expected: Seen;
}

const CASES: Case[] = [
  { name: 'normal', viewer: 'other', change: async () => undefined, expected: 'visible' },
  { name: 'author suspended', viewer: 'other', change: (s) => suspend(s.author, new Date(Date.now() + DAY)), expected: 'hidden' },
  {
    name: 'suspension ended',
    viewer: 'other',
    change: async (s) => {
      await suspend(s.author, new Date(Date.now() + DAY));
      // It ended a moment ago (as time passing would leave it: no change is reported for that).
      await query(t.database, 'UPDATE users SET suspended_until = $1 WHERE id = $2', [
        new Date(Date.now() - 1000).toISOString(),
        s.author.uid,
      ]);
      await t.app.changes.changed({ kind: 'suspension', userId: s.author.uid, username: s.author.username });
    },
    expected: 'visible',
  },
  { name: 'suspended permanently', viewer: 'other', change: (s) => suspend(s.author, PERMANENT_SUSPENSION), expected: 'hidden' },
  { name: 'viewer blocked author', viewer: 'other', change: (s) => block(s.viewer!, s.author), expected: 'blocked' },
  { name: 'author blocked viewer', viewer: 'other', change: (s) => block(s.author, s.viewer!), expected: 'hidden' },
  {
    name: 'viewer is the suspended user',
    viewer: 'author',
    change: (s) => suspend(s.author, new Date(Date.now() + DAY)),
    expected: 'visible',
  },
  {
    name: 'signed-out viewer, author suspended',
    viewer: 'signed out',
    change: (s) => suspend(s.author, new Date(Date.now() + DAY)),
    expected: 'hidden',
  },
  { name: 'signed-out viewer, normal', viewer: 'signed out', change: async () => undefined, expected: 'visible' },
];

let sceneCount = 0;
const letters = (n: number) => n.toString(26).replace(/./g, (digit) => String.fromCharCode(97 + parseInt(digit, 26)));

async function scene(viewerKind: Case['viewer']): Promise<Scene> {
  sceneCount += 1;
  const [author, neutral, other] = await Promise.all([signUp(t.app), signUp(t.app), signUp(t.app)]);
  // A word no other scene's posts hold: the search finds this scene's two posts alone.
  const word = `zvq${letters(sceneCount + 100)}`;
  const post = async (who: Account) => {
    const response = await createPost(t.app, who.cookie, { description: `${word} #tag${word}`, bytes: photo, type: 'image/jpeg' });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ post: { id: string } }>().post.id;
  };
  const authorPost = await post(author);
  const neutralPost = await post(neutral);
  for (const [follower, target] of [
    [neutral, author],
    [author, neutral],
  ] as const) {
    const response = await t.app.inject({ method: 'PUT', url: API.follow(target.username), headers: { cookie: follower.cookie } });
    expect(response.statusCode).toBe(200);
  }
  const viewer = viewerKind === 'other' ? other : viewerKind === 'author' ? author : undefined;
  return { author, neutral, viewer, authorPost, neutralPost, word };
}

interface ReadPath {
  name: string;
  /** Whether the author's content shows (true) or not (false) to the viewer, by reading the path. */
  read: (s: Scene) => Promise<boolean>;
  /** What a viewer who blocked the author finds (the default: nothing). */
  whenBlocked?: boolean;
  /** Paths that never show a viewer their own content (the home feed, people search). */
  notForOwn?: boolean;
}

async function ok(url: string, cookie: string | undefined) {
  const response = await get(t.app, url, cookie);
  if (response.statusCode === 404) return undefined;
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return response.json();
}

const hasPost = (body: { posts: Array<{ id: string }> } | undefined, id: string) => !!body?.posts.some((post) => post.id === id);
const hasUser = (body: { users: Array<{ username: string }> } | undefined, username: string) =>
  !!body?.users.some((user) => user.username === username);

/** A cursor before every post there is: the feed's later pages, read from the database (the SQL form). */
const FAR_FUTURE = encodeCursor({ sortTime: '2999-01-01 00:00:00+00', id: 'zzzzzzzzzzzzzzzz' });

const PATHS: ReadPath[] = [
  {
    name: 'home feed (first page, cached window)',
    notForOwn: true,
    read: async (s) => hasPost(await ok(API.posts, s.viewer?.cookie), s.authorPost),
  },
  {
    name: 'home feed (later page, database)',
    notForOwn: true,
    read: async (s) => hasPost(await ok(`${API.posts}?cursor=${FAR_FUTURE}`, s.viewer?.cookie), s.authorPost),
  },
  { name: 'profile', whenBlocked: true, read: async (s) => (await ok(API.user(s.author.username), s.viewer?.cookie)) !== undefined },
  { name: 'profile posts', read: async (s) => hasPost(await ok(API.userPosts(s.author.username), s.viewer?.cookie), s.authorPost) },
  { name: 'post detail', read: async (s) => (await ok(API.post(s.authorPost), s.viewer?.cookie)) !== undefined },
  {
    name: "related posts (another's post)",
    read: async (s) => hasPost(await ok(API.related(s.neutralPost), s.viewer?.cookie), s.authorPost),
  },
  { name: 'related posts (of the post itself)', read: async (s) => (await ok(API.related(s.authorPost), s.viewer?.cookie)) !== undefined },
  { name: 'post search', read: async (s) => hasPost(await ok(API.searchPosts(s.word), s.viewer?.cookie), s.authorPost) },
  {
    name: 'people search',
    notForOwn: true,
    read: async (s) => hasUser(await ok(API.searchUsers(s.author.username), s.viewer?.cookie), s.author.username),
  },
  {
    name: "followers (another's list)",
    read: async (s) => hasUser(await ok(API.followers(s.neutral.username), s.viewer?.cookie), s.author.username),
  },
  {
    name: "following (another's list)",
    read: async (s) => hasUser(await ok(API.following(s.neutral.username), s.viewer?.cookie), s.author.username),
  },
  {
    name: "the author's own lists",
    whenBlocked: true,
    read: async (s) => (await ok(API.followers(s.author.username), s.viewer?.cookie)) !== undefined,
  },
];

describe('the one visibility rule: every read path × every case', () => {
  for (const testCase of CASES) {
    it(`${testCase.name}: ${testCase.expected}`, async () => {
      const s = await scene(testCase.viewer);
      const paths = PATHS.filter((path) => !(testCase.viewer === 'author' && path.notForOwn));
      // Before: everything shows (and every shared answer is now cached).
      for (const path of paths) expect(await path.read(s), `before: ${path.name}`).toBe(true);
      await testCase.change(s);
      for (const path of paths) {
        const expected = testCase.expected === 'visible' || (testCase.expected === 'blocked' && !!path.whenBlocked);
        expect(await path.read(s), `after: ${path.name}`).toBe(expected);
      }
    });
  }

  it('a blocked author’s profile says so to the blocker, who sees none of their posts', async () => {
    const s = await scene('other');
    await block(s.viewer!, s.author);
    const profile = await ok(API.user(s.author.username), s.viewer!.cookie);
    expect(profile.user).toMatchObject({ username: s.author.username, blockedByMe: true, followedByMe: false });
    expect(await ok(API.userPosts(s.author.username), s.viewer!.cookie)).toEqual({ posts: [], nextCursor: null });
  });

  it('a suspension that ends by itself needs no change: the cached set of suspended users compares with the clock', async () => {
    const s = await scene('other');
    await suspend(s.author, new Date(Date.now() + 1500));
    expect(await PATHS[0]!.read(s)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    // Nothing reported: both forms see it ended.
    expect(await PATHS[0]!.read(s)).toBe(true);
    expect(await PATHS[1]!.read(s)).toBe(true);
    expect(await ok(API.user(s.author.username), s.viewer!.cookie)).toBeDefined();
  });
});
