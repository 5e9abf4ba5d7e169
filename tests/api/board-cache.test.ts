import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../src/shared/api/paths.js';
import { signUp } from '../helpers/accounts.js';
import { boardSteps, insertPostsBy, insertSaves } from '../helpers/boards.js';
import { get, query } from '../helpers/people.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Board pages and Boards tabs are answered from the shared read cache (boards/board-reads.ts)
 * and filtered per viewer. A row written behind the app's back shows that an answer came from
 * memory; every write through the app (a save, a removal, an edit, a member, a deleted post,
 * a block) must still show at once. What each answer hides from whom is visibility.test.ts.
 */
let t: TestApp;
let steps: ReturnType<typeof boardSteps>;
beforeAll(async () => {
  t = await createTestApp();
  steps = boardSteps(t.app);
});
afterAll(() => t?.close());

const people = (count: number) => Promise.all(Array.from({ length: count }, () => signUp(t.app)));

async function scene() {
  const [owner, friend] = await people(2);
  const posts = await insertPostsBy(t.database, friend!.uid, 4);
  const board = await steps.create(owner!, { name: 'Cached' });
  await steps.save(owner!, board.id, posts[0]!);
  return { owner: owner!, friend: friend!, posts, board };
}

const postIds = async (username: string, slug: string, cookie?: string) =>
  (await steps.posts(cookie ? { uid: '', username: '', cookie } : undefined, username, slug)).posts.map((post) => post.id);

describe('cached board reads', () => {
  it('a warm board page, its posts and the Boards tab are read from memory', async () => {
    const { owner, posts, board } = await scene();
    expect(await postIds(owner.username, board.slug)).toEqual([posts[0]]);
    expect((await steps.tab(undefined, owner.username)).boards[0]).toMatchObject({ id: board.id, count: 1 });
    // Behind the app's back: the triggers move the count, but nothing told the caches.
    await insertSaves(t.database, board.id, owner.uid, [posts[1]!], [Date.now() / 1000]);
    expect(await postIds(owner.username, board.slug)).toEqual([posts[0]]);
    expect((await steps.page(undefined, owner.username, board.slug)).count).toBe(1);
    expect((await steps.tab(undefined, owner.username)).boards[0]).toMatchObject({ count: 1 });
  });

  it('later pages too: kept with the board, forgotten with it', async () => {
    const { owner, friend, board } = await scene();
    const many = await insertPostsBy(t.database, friend.uid, 70);
    await insertSaves(t.database, board.id, owner.uid, many);
    await steps.save(owner, board.id, many[0]!); // tells the caches (already there: nothing moves)
    const first = await steps.posts(undefined, owner.username, board.slug);
    const second = async () => (await steps.posts(undefined, owner.username, board.slug, first.nextCursor!)).posts.map((p) => p.id);
    const before = await second();
    expect(before.length).toBeGreaterThan(0);
    await query(t.database, 'DELETE FROM board_posts WHERE board_id = $1 AND post_id = $2', [board.id, before[0]]);
    expect(await second()).toEqual(before);
    await steps.unsave(owner, board.id, many[1]!);
    expect(await second()).not.toContain(before[0]);
  });

  it('a save, a removal and an edit through the app show at once, on the page, its posts and the tab', async () => {
    const { owner, posts, board } = await scene();
    await postIds(owner.username, board.slug);
    await steps.tab(undefined, owner.username);
    await steps.save(owner, board.id, posts[1]!);
    expect(await postIds(owner.username, board.slug)).toEqual([posts[1], posts[0]]);
    expect((await steps.tab(undefined, owner.username)).boards[0]).toMatchObject({ count: 2 });
    await steps.unsave(owner, board.id, posts[0]!);
    expect(await postIds(owner.username, board.slug)).toEqual([posts[1]]);
    const renamed = await steps.update(owner, board.id, { name: 'Renamed', secret: true });
    // The old address is gone, the new one answers, and the secret board leaves the public tab.
    expect((await get(t.app, API.userBoard(owner.username, board.slug))).statusCode).toBe(404);
    expect((await steps.page(owner, owner.username, renamed.slug)).name).toBe('Renamed');
    expect((await steps.tab(undefined, owner.username)).boards).toEqual([]);
  });

  it("a collaborator joining shows in the board's members and in their own Boards tab", async () => {
    const { owner, friend, board } = await scene();
    expect((await steps.page(undefined, owner.username, board.slug)).members).toEqual([]);
    expect((await steps.tab(undefined, friend.username)).boards).toEqual([]);
    await steps.addMember(owner, board.id, friend);
    expect((await steps.page(undefined, owner.username, board.slug)).members.map((m) => m.username)).toEqual([friend.username]);
    expect((await steps.tab(undefined, friend.username)).boards.map((b) => b.id)).toEqual([board.id]);
  });

  it('a deleted post leaves the cached page, its cover and the tab at once', async () => {
    const [owner, author] = await people(2);
    const board = await steps.create(owner!, { name: 'Gone soon' });
    const [post] = await insertPostsBy(t.database, author!.uid, 1);
    await steps.save(owner!, board.id, post!);
    expect((await steps.page(undefined, owner!.username, board.slug)).cover).not.toBeNull();
    expect((await steps.tab(undefined, owner!.username)).boards[0]!.cover).not.toBeNull();
    expect((await t.app.inject({ method: 'DELETE', url: API.post(post!), headers: { cookie: author!.cookie } })).statusCode).toBe(204);
    expect(await postIds(owner!.username, board.slug)).toEqual([]);
    expect(await steps.page(undefined, owner!.username, board.slug)).toMatchObject({ count: 0, cover: null });
    expect((await steps.tab(undefined, owner!.username)).boards[0]).toMatchObject({ count: 0, cover: null });
  });

  it('the same answers with every cache off', async () => {
    const off = await createTestApp({ cacheTtlMs: 0 });
    try {
      const offSteps = boardSteps(off.app);
      const [owner, friend] = await Promise.all([signUp(off.app), signUp(off.app)]);
      const posts = await insertPostsBy(off.database, friend.uid, 2);
      const board = await offSteps.create(owner, { name: 'Uncached', secret: true });
      await offSteps.save(owner, board.id, posts[0]!);
      await insertSaves(off.database, board.id, owner.uid, [posts[1]!], [Date.now() / 1000]);
      // Written behind the app's back, and seen at once: nothing is remembered.
      expect((await offSteps.posts(owner, owner.username, board.slug)).posts.map((p) => p.id)).toEqual([posts[1], posts[0]]);
      expect((await offSteps.tab(owner, owner.username)).boards[0]).toMatchObject({ id: board.id, count: 2, secret: true });
      expect((await offSteps.tab(friend, owner.username)).boards).toEqual([]);
      expect(
        (await off.app.inject({ method: 'GET', url: API.userBoard(owner.username, board.slug), headers: { cookie: friend.cookie } }))
          .statusCode,
      ).toBe(404);
    } finally {
      await off.close();
    }
  });
});

describe('a hidden board and a missing one (issue 26)', () => {
  /**
   * A secret board answered from memory in 3.6 ms and a missing one from the database in 6.3 ms:
   * the difference told anyone that a secret board is at that address. Both now take the same
   * steps, counted here as the statements each request sends: the same one the first time, none after.
   */
  it('take the same steps: the same one statement on a cold address, none once warm, signed out or in', async () => {
    const statements: string[] = [];
    const counted = await createTestApp({}, { onStatement: (sql) => statements.push(sql) });
    try {
      const routes = boardSteps(counted.app);
      const [owner, stranger] = await Promise.all([signUp(counted.app), signUp(counted.app)]);
      const secret = await routes.create(owner, { name: 'Crush list', secret: true });
      const missing = `${secret.slug.slice(0, -6)}zzzzzz`;
      const stepsOf = async (viewer: typeof owner | undefined, slug: string, what: 'page' | 'posts') => {
        statements.length = 0;
        const url = what === 'page' ? API.userBoard(owner.username, slug) : API.userBoardPosts(owner.username, slug);
        const response = await counted.app.inject({ method: 'GET', url, headers: viewer ? { cookie: viewer.cookie } : {} });
        expect(response.statusCode, response.body).toBe(404);
        expect(response.json()).toMatchObject({ code: 'BOARD_NOT_FOUND' });
        return [...statements];
      };
      const boardStatements = (list: string[]) => list.filter((sql) => /\bboards?\b|board_/.test(sql));
      /** `cold`: whether the addresses are still unread (answers are shared by every viewer). */
      const compare = async (viewer: typeof owner | undefined, cold: boolean) => {
        // The viewer's visibility sets, read once: not what this compares.
        await stepsOf(viewer, 'warm-up', 'page');
        const first = [await stepsOf(viewer, secret.slug, 'page'), await stepsOf(viewer, missing, 'page')];
        expect(first[0]).toEqual(first[1]);
        expect(boardStatements(first[0]!)).toHaveLength(cold ? 1 : 0);
        for (const what of ['page', 'posts'] as const) {
          const warm = [await stepsOf(viewer, secret.slug, what), await stepsOf(viewer, missing, what)];
          expect(warm[0]).toEqual(warm[1]);
          expect(boardStatements(warm[0]!)).toEqual([]);
        }
      };
      await compare(undefined, true);
      await compare(stranger, false);
      // A change that empties the board caches (a block anywhere): both cold again, alike.
      const blocked = await signUp(counted.app);
      const blocking = await counted.app.inject({ method: 'PUT', url: API.block(blocked.username), headers: { cookie: stranger.cookie } });
      expect(blocking.statusCode, blocking.body).toBe(200);
      await compare(stranger, true);
    } finally {
      await counted.close();
    }
  });

  it('a remembered "no board here" is forgotten when a board comes to the address, or a hidden one is shown', async () => {
    const [owner, stranger] = await people(2);
    const board = await steps.create(owner!, { name: 'Here', secret: true });
    const status = async (slug: string, viewer?: { cookie: string }) =>
      (await get(t.app, API.userBoard(owner!.username, slug), viewer?.cookie)).statusCode;
    expect(await status(board.slug, stranger)).toBe(404);
    // Shown to them: an invitation, then no longer secret.
    await steps.invite(owner!, board.id, stranger!.username);
    expect(await status(board.slug, stranger)).toBe(200);
    expect(await status(board.slug)).toBe(404);
    await steps.update(owner!, board.id, { secret: false });
    expect(await status(board.slug)).toBe(200);
    // Renamed away, the old address is nothing (and remembered so); renamed back, it is the board again.
    const away = await steps.update(owner!, board.id, { name: 'There' });
    expect(await status(board.slug)).toBe(404);
    expect(await status(board.slug)).toBe(404);
    expect((await steps.update(owner!, board.id, { name: 'Here' })).slug).toBe(board.slug);
    expect(await status(board.slug)).toBe(200);
    expect(await status(away.slug)).toBe(404);
    // Deleted: nothing at its address.
    expect((await t.app.inject({ method: 'DELETE', url: API.board(board.id), headers: { cookie: owner!.cookie } })).statusCode).toBe(204);
    expect(await status(board.slug)).toBe(404);
  });
});
