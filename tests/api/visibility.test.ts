import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../src/shared/api/paths.js';
import { PERMANENT_SUSPENSION } from '../../src/shared/moderation.js';
import { encodeCursor } from '../../src/server/http/cursor.js';
import type { BoardDetail, BoardList, BoardPostPage, SaveTargets } from '../../src/shared/api/boards.js';
import { signUp } from '../helpers/accounts.js';
import { boardRoutes, boardSteps, insertPostsBy, insertSaves } from '../helpers/boards.js';
import { jpeg } from '../helpers/images.js';
import { get, query } from '../helpers/people.js';
import { createPost } from '../helpers/posts.js';
import { createTestApp, TestClock, type TestApp } from '../helpers/test-app.js';
import { readZip } from '../helpers/zip.js';

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
/** The app's time: a suspension's end is passed by moving it on, not by sleeping. */
const clock = new TestClock();
beforeAll(async () => {
  t = await createTestApp({}, { clock: clock.now });
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
    // The session rule (issue 26) signs a suspended account out: it sees what anyone signed out sees.
    name: 'viewer is the suspended user',
    viewer: 'author',
    change: (s) => suspend(s.author, new Date(Date.now() + DAY)),
    expected: 'hidden',
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
    clock.catchUp();
    // A minute ahead: still ahead of the database's now() when the set is read, however slow the machine.
    const minute = 60_000;
    await suspend(s.author, new Date(clock.now() + minute));
    expect(await PATHS[0]!.read(s)).toBe(false);
    expect(await PATHS[1]!.read(s)).toBe(false);
    clock.advance(minute + 1);
    // Nothing reported: both forms see it ended.
    expect(await PATHS[0]!.read(s)).toBe(true);
    expect(await PATHS[1]!.read(s)).toBe(true);
    expect(await ok(API.user(s.author.username), s.viewer!.cookie)).toBeDefined();
  });
});

// ---------------------------------------------------------------- boards (issue 18)

/**
 * Boards under the same rule: V sees board B when V sees B's owner and B is not secret, or V owns
 * B or is a member of it; the posts on B are filtered by their authors like any other list.
 *
 * Per case: the owner O of a board B (not secret before the change), a collaborator C (joined),
 * an author A whose post P is the newest on B (so P is the cover), O's own older post Q on B too,
 * and the viewer V: someone else, nobody, O, C, or someone O invited.
 */
interface BoardScene {
  owner: Account;
  collaborator: Account;
  author: Account;
  viewer: Account | undefined;
  board: BoardDetail;
  /** A's post, the newest saved: the cover while the viewer sees it. */
  post: string;
  postImage: string;
  /** O's own post, saved first: the cover when P is hidden. */
  ownPost: string;
}

type BoardViewer = 'other' | 'signed out' | 'owner' | 'collaborator' | 'invited';

async function boardScene(viewerKind: BoardViewer): Promise<BoardScene> {
  const steps = boardSteps(t.app);
  const [owner, collaborator, author, other] = await Promise.all([signUp(t.app), signUp(t.app), signUp(t.app), signUp(t.app)]);
  const posted = async (who: Account) => {
    const response = await createPost(t.app, who.cookie, { description: 'saved to a board', bytes: photo, type: 'image/jpeg' });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ post: { id: string; image: { full: string } } }>().post;
  };
  const ownPost = await posted(owner);
  const post = await posted(author);
  const board = await steps.create(owner, { name: 'Room ideas' });
  await steps.addMember(owner, board.id, collaborator);
  if (viewerKind === 'invited') await steps.invite(owner, board.id, other.username);
  await steps.save(owner, board.id, ownPost.id);
  await steps.save(collaborator, board.id, post.id);
  const viewer = { other, invited: other, 'signed out': undefined, owner, collaborator }[viewerKind];
  return { owner, collaborator, author, viewer, board, post: post.id, postImage: post.image.full, ownPost: ownPost.id };
}

async function boardJson<T>(url: string, cookie: string | undefined): Promise<T | undefined> {
  const response = await get(t.app, url, cookie);
  if (response.statusCode === 404) return undefined;
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return response.json<T>();
}

const tabOf = (s: BoardScene, username: string) => boardJson<BoardList>(API.userBoards(username), s.viewer?.cookie);
const inTab = (tab: BoardList | undefined, s: BoardScene) => tab?.boards.find((board) => board.id === s.board.id);
const pickerEntry = async (s: BoardScene) =>
  (await boardJson<SaveTargets>(API.saveTargets(s.post), s.viewer?.cookie))?.boards.find((board) => board.id === s.board.id);

interface BoardPath {
  name: string;
  /** Whether the path shows the viewer the board (level 'board') or the post P on it (level 'post'). */
  level: 'board' | 'post';
  read: (s: BoardScene) => Promise<boolean>;
  /** Only for these viewers (the Save picker is one's own; writes need a session). */
  only?: BoardViewer[];
}

const BOARD_PATHS: BoardPath[] = [
  { name: "Boards tab (the owner's)", level: 'board', read: async (s) => !!inTab(await tabOf(s, s.owner.username), s) },
  { name: "Boards tab (a collaborator's)", level: 'board', read: async (s) => !!inTab(await tabOf(s, s.collaborator.username), s) },
  {
    name: 'board page',
    level: 'board',
    read: async (s) => (await boardJson(API.userBoard(s.owner.username, s.board.slug), s.viewer?.cookie)) !== undefined,
  },
  {
    name: 'board posts',
    level: 'board',
    read: async (s) => (await boardJson(API.userBoardPosts(s.owner.username, s.board.slug), s.viewer?.cookie)) !== undefined,
  },
  { name: 'Save picker', level: 'board', only: ['owner', 'collaborator'], read: async (s) => !!(await pickerEntry(s)) },
  {
    // An empty edit: 403 to whoever sees the board without owning it, 404 to whoever may not see it.
    name: 'a write by id (PATCH)',
    level: 'board',
    only: ['other', 'owner', 'collaborator', 'invited'],
    read: async (s) => {
      const response = await boardRoutes(t.app).update(s.viewer?.cookie, s.board.id, {});
      expect([200, 403, 404], response.body).toContain(response.statusCode);
      return response.statusCode !== 404;
    },
  },
  {
    name: 'board posts: the saved post',
    level: 'post',
    read: async (s) =>
      !!(await boardJson<BoardPostPage>(API.userBoardPosts(s.owner.username, s.board.slug), s.viewer?.cookie))?.posts.some(
        (card) => card.id === s.post,
      ),
  },
  {
    name: 'board page: the cover',
    level: 'post',
    read: async (s) =>
      (await boardJson<{ board: BoardDetail }>(API.userBoard(s.owner.username, s.board.slug), s.viewer?.cookie))?.board.cover?.full ===
      s.postImage,
  },
  {
    name: 'Boards tab: the cover',
    level: 'post',
    read: async (s) => inTab(await tabOf(s, s.owner.username), s)?.cover?.full === s.postImage,
  },
  {
    name: 'Save picker: the cover',
    level: 'post',
    only: ['owner', 'collaborator'],
    read: async (s) => (await pickerEntry(s))?.cover?.full === s.postImage,
  },
  // Issue 26 point 18: the board holds O's post and P; a count of 2 told of P to whoever may not see it.
  {
    name: 'board page: the count',
    level: 'post',
    read: async (s) =>
      (await boardJson<{ board: BoardDetail }>(API.userBoard(s.owner.username, s.board.slug), s.viewer?.cookie))?.board.count === 2,
  },
  { name: 'Boards tab: the count', level: 'post', read: async (s) => inTab(await tabOf(s, s.owner.username), s)?.count === 2 },
  {
    name: "a collaborator's Boards tab: the count",
    level: 'post',
    read: async (s) => inTab(await tabOf(s, s.collaborator.username), s)?.count === 2,
  },
  {
    name: 'Save picker: the count',
    level: 'post',
    only: ['owner', 'collaborator'],
    read: async (s) => (await pickerEntry(s))?.count === 2,
  },
  {
    // Saving O's post again (idempotent) answers the board's count.
    name: 'a save: the count it answers',
    level: 'post',
    only: ['owner', 'collaborator'],
    read: async (s) => {
      const response = await boardRoutes(t.app).save(s.viewer?.cookie, s.board.id, s.ownPost);
      expect([200, 404], response.body).toContain(response.statusCode);
      return response.statusCode === 200 && response.json<{ count: number }>().count === 2;
    },
  },
];

interface BoardCase {
  name: string;
  viewer: BoardViewer;
  change: (s: BoardScene) => Promise<void>;
  /** Whether the viewer sees the board afterwards, and P on it. */
  board: boolean;
  post: boolean;
}

const makeSecret = async (s: BoardScene) => void (await boardSteps(t.app).update(s.owner, s.board.id, { secret: true }));

const BOARD_CASES: BoardCase[] = [
  { name: 'nothing changes', viewer: 'other', change: async () => undefined, board: true, post: true },
  { name: 'made secret: someone else', viewer: 'other', change: makeSecret, board: false, post: false },
  { name: 'made secret: signed out', viewer: 'signed out', change: makeSecret, board: false, post: false },
  { name: 'made secret: a collaborator', viewer: 'collaborator', change: makeSecret, board: true, post: true },
  { name: 'made secret: someone invited', viewer: 'invited', change: makeSecret, board: true, post: true },
  { name: 'made secret: the owner', viewer: 'owner', change: makeSecret, board: true, post: true },
  { name: 'the viewer blocks the owner', viewer: 'other', change: (s) => block(s.viewer!, s.owner), board: false, post: false },
  { name: 'the owner blocks the viewer', viewer: 'other', change: (s) => block(s.owner, s.viewer!), board: false, post: false },
  {
    name: 'the owner blocks a collaborator (the membership ends)',
    viewer: 'collaborator',
    change: (s) => block(s.owner, s.viewer!),
    board: false,
    post: false,
  },
  {
    name: 'a collaborator blocks the owner (the membership ends)',
    viewer: 'collaborator',
    change: (s) => block(s.viewer!, s.owner),
    board: false,
    post: false,
  },
  {
    name: 'the owner blocks someone invited',
    viewer: 'invited',
    change: async (s) => (await makeSecret(s), await block(s.owner, s.viewer!)),
    board: false,
    post: false,
  },
  {
    name: 'owner suspended: someone else',
    viewer: 'other',
    change: (s) => suspend(s.owner, new Date(Date.now() + DAY)),
    board: false,
    post: false,
  },
  {
    name: 'owner suspended: signed out',
    viewer: 'signed out',
    change: (s) => suspend(s.owner, new Date(Date.now() + DAY)),
    board: false,
    post: false,
  },
  {
    name: 'owner suspended: a collaborator',
    viewer: 'collaborator',
    change: (s) => suspend(s.owner, PERMANENT_SUSPENSION),
    board: false,
    post: false,
  },
  {
    name: "the viewer blocks the saved post's author",
    viewer: 'other',
    change: (s) => block(s.viewer!, s.author),
    board: true,
    post: false,
  },
  {
    name: "the saved post's author blocks the viewer",
    viewer: 'other',
    change: (s) => block(s.author, s.viewer!),
    board: true,
    post: false,
  },
  { name: "the owner blocks the saved post's author", viewer: 'owner', change: (s) => block(s.owner, s.author), board: true, post: false },
  {
    name: "the saved post's author blocks a collaborator",
    viewer: 'collaborator',
    change: (s) => block(s.author, s.viewer!),
    board: true,
    post: false,
  },
  {
    name: "saved post's author suspended: someone else",
    viewer: 'other',
    change: (s) => suspend(s.author, new Date(Date.now() + DAY)),
    board: true,
    post: false,
  },
  {
    name: "saved post's author suspended: signed out",
    viewer: 'signed out',
    change: (s) => suspend(s.author, new Date(Date.now() + DAY)),
    board: true,
    post: false,
  },
  {
    name: "saved post's author suspended: the owner",
    viewer: 'owner',
    change: (s) => suspend(s.author, PERMANENT_SUSPENSION),
    board: true,
    post: false,
  },
];

describe('boards under the one visibility rule: every board read path × every case', () => {
  for (const testCase of BOARD_CASES) {
    it(`${testCase.name}: board ${testCase.board ? 'seen' : 'hidden'}, saved post ${testCase.post ? 'seen' : 'hidden'}`, async () => {
      const s = await boardScene(testCase.viewer);
      const paths = BOARD_PATHS.filter((path) => !path.only || path.only.includes(testCase.viewer));
      // Before: everything shows (and every shared answer is now cached).
      for (const path of paths) expect(await path.read(s), `before: ${path.name}`).toBe(true);
      await testCase.change(s);
      for (const path of paths) {
        const expected = path.level === 'board' ? testCase.board : testCase.board && testCase.post;
        expect(await path.read(s), `after: ${path.name}`).toBe(expected);
      }
    });
  }

  it('someone the viewer blocked: their Boards tab is empty to the blocker, like their posts (their own boards and the ones they joined)', async () => {
    const s = await boardScene('other');
    const own = await boardSteps(t.app).create(s.collaborator, { name: 'Their own' });
    expect(inTab(await tabOf(s, s.collaborator.username), s)).toBeDefined();
    await block(s.viewer!, s.collaborator);
    // As their posts: the profile is found (it offers Unblock), everything they appear in is not.
    expect(await ok(API.userPosts(s.collaborator.username), s.viewer!.cookie)).toEqual({ posts: [], nextCursor: null });
    expect(await tabOf(s, s.collaborator.username)).toEqual({ boards: [], nextCursor: null });
    expect(own.owner.username).toBe(s.collaborator.username);
    // The board itself is the owner's, and still seen, without the blocked member in its list.
    const page = await boardJson<{ board: BoardDetail }>(API.userBoard(s.owner.username, s.board.slug), s.viewer!.cookie);
    expect(page!.board.members).toEqual([]);
  });

  it('a hidden saved post does not count (issue 26), and the cover falls back to the newest post the viewer sees', async () => {
    const s = await boardScene('other');
    await block(s.viewer!, s.author);
    const seen = await boardJson<{ board: BoardDetail }>(API.userBoard(s.owner.username, s.board.slug), s.viewer!.cookie);
    const ownImage = (await boardJson<{ post: { image: { full: string } } }>(API.post(s.ownPost), undefined))!.post.image.full;
    expect(seen!.board).toMatchObject({ count: 1, coverPostId: null });
    // To everyone else it is there: 2.
    expect((await boardJson<{ board: BoardDetail }>(API.userBoard(s.owner.username, s.board.slug), undefined))!.board.count).toBe(2);
    expect(seen!.board.cover?.full).toBe(ownImage);
    const posts = await boardJson<BoardPostPage>(API.userBoardPosts(s.owner.username, s.board.slug), s.viewer!.cookie);
    expect(posts!.posts.map((card) => card.id)).toEqual([s.ownPost]);
    // A chosen cover the viewer may not see falls back the same way.
    await boardSteps(t.app).update(s.owner, s.board.id, { coverPostId: s.post });
    const chosen = await boardJson<{ board: BoardDetail }>(API.userBoard(s.owner.username, s.board.slug), s.viewer!.cookie);
    expect(chosen!.board.cover?.full).toBe(ownImage);
    expect(inTab(await tabOf(s, s.owner.username), s)?.cover?.full).toBe(ownImage);
  });

  it("a big board's count (more saves than the cached page) leaves out each viewer's hidden authors, through saves, removals, blocks and suspensions", async () => {
    const steps = boardSteps(t.app);
    const [owner, author, neutral, viewer, other] = await Promise.all([
      signUp(t.app),
      signUp(t.app),
      signUp(t.app),
      signUp(t.app),
      signUp(t.app),
    ]);
    const board = await steps.create(owner, { name: 'Big one' });
    // The author's five posts saved first (deep, past the first page), then 70 of someone else's.
    const authors = await insertPostsBy(t.database, author.uid, 5);
    const neutrals = await insertPostsBy(t.database, neutral.uid, 71);
    await insertSaves(t.database, board.id, owner.uid, [...authors, ...neutrals.slice(0, 70)]);
    // Through the app: tells the caches.
    await steps.save(owner, board.id, neutrals[70]!);
    const counts = async () => ({
      page: await Promise.all(
        [undefined, viewer, other, owner].map(async (who) => (await steps.page(who, owner.username, board.slug)).count),
      ),
      tab: await Promise.all([undefined, viewer, other, owner].map(async (who) => inTabOf(await steps.tab(who, owner.username), board.id))),
      picker: (await steps.picker(owner)).find((entry) => entry.id === board.id)!.count,
    });
    const inTabOf = (tab: BoardList, id: string) => tab.boards.find((entry) => entry.id === id)?.count;
    const expectCounts = async (nobody: number, v: number, o: number, own: number) =>
      expect(await counts()).toEqual({ page: [nobody, v, o, own], tab: [nobody, v, o, own], picker: own });
    await expectCounts(76, 76, 76, 76);
    await block(viewer, author);
    await expectCounts(76, 71, 76, 76);
    await block(author, other);
    await expectCounts(76, 71, 71, 76);
    // The owner's own count: they blocked the author too.
    await block(owner, author);
    await expectCounts(76, 71, 71, 71);
    expect((await steps.save(owner, board.id, neutrals[0]!)).count).toBe(71);
    // A removal of one of the author's posts: 75 in all, still 71 for those who do not see them.
    expect((await steps.unsave(owner, board.id, authors[0]!)).count).toBe(71);
    await expectCounts(75, 71, 71, 71);
    expect((await steps.unsave(owner, board.id, neutrals[0]!)).count).toBe(70);
    await expectCounts(74, 70, 70, 70);
    // Suspended: hidden from everyone.
    await suspend(author, new Date(Date.now() + DAY));
    await expectCounts(70, 70, 70, 70);
    await suspend(author, null);
    await expectCounts(74, 70, 70, 70);
  });

  it('a post saved only to a secret board leaks nowhere: search, related posts, profiles, boards tabs, the feed, exports', async () => {
    const s = await scene('other');
    const [owner, bystander] = await Promise.all([signUp(t.app), signUp(t.app)]);
    const steps = boardSteps(t.app);
    const open = await steps.create(owner, { name: 'Open board' });
    const secret = await steps.create(owner, { name: 'Hush hush plans', description: 'nobody may know', secret: true });
    await steps.addMember(owner, secret.id, bystander);
    // What each of them gets from every read path that could mention the post or the board.
    const urls = [
      API.searchPosts(s.word),
      API.related(s.neutralPost),
      API.related(s.authorPost),
      API.post(s.authorPost),
      API.user(owner.username),
      API.userPosts(owner.username),
      API.userBoards(owner.username),
      API.userBoards(bystander.username),
      API.userBoard(owner.username, open.slug),
      API.user(s.author.username),
      API.userPosts(s.author.username),
      API.userBoards(s.author.username),
      API.posts,
    ];
    const readers = [s.viewer, s.author, undefined];
    const snapshot = async () => {
      const bodies: string[] = [];
      for (const reader of readers) {
        for (const url of urls) {
          const response = await get(t.app, url, reader?.cookie);
          expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
          bodies.push(`${reader?.username ?? 'signed out'} ${url} ${response.body}`);
        }
      }
      return bodies;
    };
    const before = await snapshot();
    await steps.save(owner, secret.id, s.authorPost);
    await steps.save(bystander, secret.id, s.neutralPost);
    expect(await snapshot()).toEqual(before);
    // Nobody's export but the owner's and the member's names the board: not the author's, not anyone else's.
    const exportText = async (who: Account) => {
      const response = await get(t.app, API.exportData, who.cookie);
      expect(response.statusCode, response.body).toBe(200);
      return [...(await readZip(response.rawPayload)).values()].map((entry) => entry.data.toString('utf8')).join('\n');
    };
    for (const who of [s.author, s.neutral, s.viewer!]) {
      const text = await exportText(who);
      expect(text.includes('Hush hush plans'), who.username).toBe(false);
      expect(text.includes('nobody may know'), who.username).toBe(false);
      expect(text.includes(secret.id), who.username).toBe(false);
    }
    expect(await exportText(owner)).toContain('Hush hush plans');
    expect(await exportText(bystander)).toContain('Hush hush plans');
  });
});
