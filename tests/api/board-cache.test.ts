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
