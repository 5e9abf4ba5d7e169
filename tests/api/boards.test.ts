import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slugOf } from '../../src/server/boards/board-slug.js';
import { encodeCursor } from '../../src/server/http/cursor.js';
import type { BoardDetail, BoardMember, BoardSummary } from '../../src/shared/api/boards.js';
import { API } from '../../src/shared/api/paths.js';
import type { ImageSet } from '../../src/shared/api/posts.js';
import type { ErrorCode } from '../../src/shared/errors.js';
import {
  BOARD_DESCRIPTION_MAX_LENGTH,
  BOARD_MEMBERS_MAX,
  BOARD_NAME_MAX_LENGTH,
  BOARD_POSTS_MAX,
  BOARD_POSTS_PAGE_SIZE,
  BOARDS_PAGE_SIZE,
  BOARDS_PER_USER_MAX,
  TEXT_FIELD_HARD_MAX,
} from '../../src/shared/limits.js';
import { newAccount, signUp } from '../helpers/accounts.js';
import { boardCount, boardRoutes, boardRows, boardSteps, insertBoards, insertPostsBy, insertSaves, type Actor } from '../helpers/boards.js';
import { jpeg } from '../helpers/images.js';
import { expectClientError, expectError, get, insertUsers, query } from '../helpers/people.js';
import { createPost } from '../helpers/posts.js';
import { createTestApp, TEST_RATE_LIMITS, type TestApp } from '../helpers/test-app.js';

/**
 * Boards (issue 18 points 2, 4, 5 and 6), from docs/boards.md and src/shared/api/boards.ts: every
 * route's success, every error it names, bad input (a clear 400, never a 500, nothing half
 * written), the role table, slugs, orders and paging, counts and covers, and what happens to
 * boards when posts, blocks and accounts go. What each read path hides from whom is
 * tests/api/visibility.test.ts; who may call which route, tests/api/authorization.test.ts.
 */

let t: TestApp;
let routes: ReturnType<typeof boardRoutes>;
let steps: ReturnType<typeof boardSteps>;
let photo: Buffer;
beforeAll(async () => {
  t = await createTestApp();
  routes = boardRoutes(t.app);
  steps = boardSteps(t.app);
  photo = await jpeg(48, 36);
});
afterAll(async () => {
  await t?.close();
});

type Account = Awaited<ReturnType<typeof signUp>>;
const people = (count: number): Promise<Account[]> => Promise.all(Array.from({ length: count }, () => signUp(t.app, newAccount('bd'))));

/** A real post through the upload route (its photo files exist: deleting it works end to end). */
async function realPost(author: Account, description = 'a post to save'): Promise<string> {
  const response = await createPost(t.app, author.cookie, { bytes: photo, description });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ post: { id: string } }>().post.id;
}

/** The image set a post shows everywhere (its detail page): what a cover must be. */
async function imageOf(postId: string): Promise<ImageSet> {
  const response = await get(t.app, API.post(postId));
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ post: { image: ImageSet } }>().post.image;
}

const ids = (list: Array<{ id: string }>) => list.map((item) => item.id);

async function suspend(user: Account) {
  await query(t.database, `UPDATE users SET suspended_until = now() + interval '1 day' WHERE id = $1`, [user.uid]);
  // As the moderation service does after its write.
  await t.app.changes.changed({ kind: 'suspension', userId: user.uid, username: user.username });
}

async function block(blocker: Account, blocked: Account) {
  const response = await t.app.inject({ method: 'PUT', url: API.block(blocked.username), headers: { cookie: blocker.cookie } });
  expect(response.statusCode, response.body).toBe(200);
}

/** Every page of a board's posts, to the end. */
async function allBoardPosts(viewer: Actor | undefined, username: string, slug: string) {
  const pages = [];
  let cursor: string | undefined;
  for (let i = 0; i < 20; i += 1) {
    const page = await steps.posts(viewer, username, slug, cursor);
    pages.push(page);
    if (page.nextCursor === null) return pages;
    cursor = page.nextCursor;
  }
  throw new Error('board posts never ended');
}

async function wholeTab(viewer: Actor | undefined, username: string) {
  const pages = [];
  let cursor: string | undefined;
  for (let i = 0; i < 30; i += 1) {
    const page = await steps.tab(viewer, username, cursor);
    pages.push(page);
    if (page.nextCursor === null) return pages;
    cursor = page.nextCursor;
  }
  throw new Error('boards tab never ended');
}

/** Bodies that are not a board at all: the wrong types, unknown fields, overlong text, not JSON. */
const BAD_BODIES: Array<[string, unknown]> = [
  ['name is a number', { name: 5 }],
  ['name is null', { name: null }],
  ['name is an array', { name: ['a'] }],
  ['secret is a string', { name: 'ok', secret: 'yes' }],
  ['secret is a number', { name: 'ok', secret: 1 }],
  ['description is an object', { name: 'ok', description: {} }],
  ['an unknown field', { name: 'ok', owner: 'someone' }],
  ['an unknown field named like a column', { name: 'ok', post_count: 9 }],
  ['a name over the hard cap', { name: 'n'.repeat(TEXT_FIELD_HARD_MAX + 1) }],
  ['a description over the hard cap', { name: 'ok', description: 'd'.repeat(TEXT_FIELD_HARD_MAX + 1) }],
  ['an array body', [{ name: 'ok' }]],
  ['a string body', '"ok"'],
  ['broken JSON', '{"name": "ok"'],
  ['a prototype key', '{"name":"ok","__proto__":{"secret":true}}'],
];

// ---------------------------------------------------------------- create

describe('POST /api/boards', () => {
  it('creates a board: 201 with the whole board, as its page then shows it', async () => {
    const [owner] = await people(1);
    const response = await routes.create(owner!.cookie, { name: 'Dorm Room Ideas!', description: 'Small rooms, big plans.' });
    expect(response.statusCode, response.body).toBe(201);
    const board = response.json<{ board: BoardDetail }>().board;
    expect(board).toEqual({
      id: expect.any(String),
      name: 'Dorm Room Ideas!',
      slug: expect.stringMatching(/^dorm-room-ideas-[a-z2-7]{6}$/),
      secret: false,
      count: 0,
      cover: null,
      owner: { username: owner!.username, icon: null },
      description: 'Small rooms, big plans.',
      coverPostId: null,
      role: 'owner',
      members: [],
    });
    expect(board.slug).toBe(slugOf('Dorm Room Ideas!', board.id));
    expect(await steps.page(owner, owner!.username, board.slug)).toEqual(board);
    // Anyone sees a board that is not secret, as a viewer.
    expect(await steps.page(undefined, owner!.username, board.slug)).toEqual({ ...board, role: 'viewer' });
    expect((await steps.tab(undefined, owner!.username)).boards.map((b) => b.id)).toEqual([board.id]);
  });

  it('creates a secret board when asked, with the description optional', async () => {
    const [owner] = await people(1);
    const board = await steps.create(owner!, { name: 'Gift ideas', secret: true });
    expect(board).toMatchObject({ name: 'Gift ideas', slug: slugOf('Gift ideas', board.id), secret: true, description: '' });
    expect((await boardRows(t.database, board.id)).board).toMatchObject({ secret: true, description: '' });
  });

  it('stores the name trimmed with inner runs of spaces made one; 50 characters as people count them', async () => {
    const [owner] = await people(1);
    expect((await steps.create(owner!, { name: '  Study \t  spots\n ' })).name).toBe('Study spots');
    const fifty = 'x'.repeat(BOARD_NAME_MAX_LENGTH);
    expect((await steps.create(owner!, { name: fifty })).name).toBe(fifty);
    // 50 emoji are 100 UTF-16 units, but 50 characters.
    const emoji = '🪴'.repeat(BOARD_NAME_MAX_LENGTH);
    expect((await steps.create(owner!, { name: emoji })).name).toBe(emoji);
    // Spaces around do not count toward the 50.
    expect((await steps.create(owner!, { name: `   ${'y'.repeat(BOARD_NAME_MAX_LENGTH)}   ` })).name).toBe('y'.repeat(50));
    const description = 'd'.repeat(BOARD_DESCRIPTION_MAX_LENGTH);
    expect((await steps.create(owner!, { name: 'long description', description })).description).toBe(description);
  });

  it('slugs: the words of the name and a tail from the board\'s own id; "board" for a name of emoji only; any script', async () => {
    const [owner, other] = await people(2);
    const made = [];
    for (const [name, words] of [
      ['Dorm Room Ideas', 'dorm-room-ideas'],
      ['Dorm room ideas!', 'dorm-room-ideas'],
      ['dorm-room ideas?', 'dorm-room-ideas'],
      ['🛏️🪴', 'board'],
      ['📚', 'board'],
      ['Комната мечты', 'комната-мечты'],
    ] as const) {
      const board = await steps.create(owner!, { name });
      expect(board.slug).toMatch(new RegExp(`^${words}-[a-z2-7]{6}$`, 'u'));
      expect(board.slug).toBe(slugOf(name, board.id));
      made.push(board);
    }
    expect(new Set(made.map((board) => board.slug)).size).toBe(made.length);
    // Another owner's slugs are their own.
    expect((await steps.create(other!, { name: 'Dorm Room Ideas' })).slug).toMatch(/^dorm-room-ideas-[a-z2-7]{6}$/);
    // Each slug is the board's address, typed in any case.
    for (const board of made) {
      expect((await steps.page(undefined, owner!.username, board.slug)).name).toBe(board.name);
      expect((await steps.page(undefined, owner!.username, board.slug.toUpperCase())).id).toBe(board.id);
    }
  });

  it("a board's slug tells nothing of the owner's other boards (issue 26: a secret 'Crush list' made the next one crush-list-2)", async () => {
    const [owner, other] = await people(2);
    const secret = await steps.create(owner!, { name: 'Crush list', secret: true });
    const shown = await steps.create(owner!, { name: 'Crush-list!' });
    const alone = await steps.create(other!, { name: 'Crush-list!' });
    // Each slug is its own name's words and its own id's tail: the same rule whatever else exists.
    expect(shown.slug).toBe(slugOf('Crush-list!', shown.id));
    expect(alone.slug).toBe(slugOf('Crush-list!', alone.id));
    expect(shown.slug).not.toMatch(/-\d+$/);
    expect(shown.slug).not.toBe(secret.slug);
    // Renamed to the secret board's words, the public one still names only itself.
    const renamed = await steps.update(owner!, shown.id, { name: 'crush list?' });
    expect(renamed.slug).toBe(shown.slug);
    const elsewhere = await steps.update(owner!, shown.id, { name: 'Crushes' });
    expect(elsewhere.slug).toBe(slugOf('Crushes', shown.id));
    expect((await steps.update(owner!, shown.id, { name: 'Crush list.' })).slug).toBe(slugOf('Crush list.', shown.id));
  });

  it('keeps the slugs of boards made before issue 26 (the bare words, a counter); a tail an older slug has gets the long one', async () => {
    const [owner] = await people(1);
    const older = await steps.create(owner!, { name: 'Older' });
    const counted = await steps.create(owner!, { name: 'Counted' });
    await query(t.database, `UPDATE boards SET slug = 'older' WHERE id = $1`, [older.id]);
    await query(t.database, `UPDATE boards SET slug = 'counted-2' WHERE id = $1`, [counted.id]);
    await steps.update(owner!, older.id, { description: 'tells the caches' });
    await steps.update(owner!, counted.id, { description: 'tells the caches' });
    expect((await steps.page(undefined, owner!.username, 'older')).id).toBe(older.id);
    // A change of case keeps either address; other words give the new kind.
    expect((await steps.update(owner!, older.id, { name: 'OLDER' })).slug).toBe('older');
    expect((await steps.update(owner!, counted.id, { name: 'counted' })).slug).toBe('counted-2');
    expect((await steps.update(owner!, older.id, { name: 'Newer' })).slug).toBe(slugOf('Newer', older.id));
    // An older board named with exactly the short slug another board would get: the long tail.
    const third = await steps.create(owner!, { name: 'Third' });
    const clash = slugOf('Wanted', third.id);
    const squatter = await steps.create(owner!, { name: clash });
    expect(squatter.slug).not.toBe(clash);
    await query(t.database, `UPDATE boards SET slug = $2 WHERE id = $1`, [squatter.id, clash]);
    const moved = await steps.update(owner!, third.id, { name: 'Wanted' });
    expect(moved.slug).toBe(slugOf('Wanted', third.id, true));
    expect(moved.slug).toMatch(/^wanted-[a-z2-7]{16}$/);
    expect((await steps.page(undefined, owner!.username, moved.slug)).id).toBe(third.id);
  });

  it('stores a name without the control characters pasted into it', async () => {
    const [owner] = await people(1);
    expect((await steps.create(owner!, { name: '\u0007Bell\u001b' })).name).toBe('Bell');
  });

  it('refuses: an empty name, one over 50, a description over 200 (400); each with its message; nothing written', async () => {
    const [owner] = await people(1);
    expectError(await routes.create(owner!.cookie, { name: '' }), 400, 'BOARD_NAME_REQUIRED');
    expectError(await routes.create(owner!.cookie, { name: ' \t\n ' }), 400, 'BOARD_NAME_REQUIRED');
    // Nothing visible is no name either.
    expectError(await routes.create(owner!.cookie, { name: '\u200B\u2060' }), 400, 'BOARD_NAME_REQUIRED');
    expectError(await routes.create(owner!.cookie, { description: 'no name' }), 400, 'BAD_REQUEST');
    expectError(await routes.create(owner!.cookie, { name: 'x'.repeat(BOARD_NAME_MAX_LENGTH + 1) }), 400, 'BOARD_NAME_TOO_LONG');
    expectError(await routes.create(owner!.cookie, { name: '🪴'.repeat(BOARD_NAME_MAX_LENGTH + 1) }), 400, 'BOARD_NAME_TOO_LONG');
    expectError(
      await routes.create(owner!.cookie, { name: 'ok', description: 'd'.repeat(BOARD_DESCRIPTION_MAX_LENGTH + 1) }),
      400,
      'BOARD_DESCRIPTION_TOO_LONG',
    );
    expect(await boardCount(t.database, owner!.uid)).toBe(0);
  });

  it('refuses a name the owner has already, ignoring case and spacing (409), but another owner may use it', async () => {
    const [owner, other] = await people(2);
    await steps.create(owner!, { name: 'Recipes' });
    expectError(await routes.create(owner!.cookie, { name: 'recipes' }), 409, 'BOARD_NAME_TAKEN');
    expectError(await routes.create(owner!.cookie, { name: '  RECIPES ' }), 409, 'BOARD_NAME_TAKEN');
    expectError(await routes.create(owner!.cookie, { name: 'Recipes', secret: true }), 409, 'BOARD_NAME_TAKEN');
    expect(await boardCount(t.database, owner!.uid)).toBe(1);
    expect((await steps.create(other!, { name: 'Recipes' })).name).toBe('Recipes');
  });

  it('is refused signed out (401) and with a cookie of no session', async () => {
    expectError(await routes.create(undefined, { name: 'Nope' }), 401, 'NOT_SIGNED_IN');
    expectError(await routes.create('session=not-a-real-token', { name: 'Nope' }), 401, 'NOT_SIGNED_IN');
    expect(await query(t.database, `SELECT 1 FROM boards WHERE name = 'Nope'`)).toEqual([]);
  });

  it.each(BAD_BODIES)('bad input (%s): a clear 400, nothing written', async (_, body) => {
    const [owner] = await people(1);
    const response = await routes.create(owner!.cookie, body as string);
    expect(response.statusCode, response.body).toBe(400);
    expectClientError(response);
    expect(await boardCount(t.database, owner!.uid)).toBe(0);
  });

  it(`allows ${BOARDS_PER_USER_MAX} boards per owner, then TOO_MANY_BOARDS (409); deleting one makes room`, async () => {
    const [owner, other] = await people(2);
    await insertBoards(t.database, owner!.uid, BOARDS_PER_USER_MAX - 1);
    // Two at once for the last place: exactly one wins (on PostgreSQL they really race).
    const raced = await Promise.all([
      routes.create(owner!.cookie, { name: 'Racer one' }),
      routes.create(owner!.cookie, { name: 'Racer two' }),
    ]);
    expect(raced.map((response) => response.statusCode).sort()).toEqual([201, 409]);
    expectError(
      raced.find((response) => response.statusCode === 409)!,
      409,
      'TOO_MANY_BOARDS',
    );
    const last = raced.find((response) => response.statusCode === 201)!.json<{ board: BoardDetail }>().board;
    expectError(await routes.create(owner!.cookie, { name: 'One too many' }), 409, 'TOO_MANY_BOARDS');
    expect(await boardCount(t.database, owner!.uid)).toBe(BOARDS_PER_USER_MAX);
    // Per owner: someone else is not affected.
    await steps.create(other!, { name: 'One too many' });
    expect((await routes.delete(owner!.cookie, last.id)).statusCode).toBe(204);
    await steps.create(owner!, { name: 'One too many' });
  });
});

// ---------------------------------------------------------------- edit

describe('PATCH /api/boards/:id', () => {
  it('renames: a new slug (the old address is gone), only the fields sent change', async () => {
    const [owner] = await people(1);
    const board = await steps.create(owner!, { name: 'Trips', description: 'Where next', secret: false });
    const renamed = await steps.update(owner!, board.id, { name: '  Road   trips ' });
    expect(renamed).toMatchObject({
      id: board.id,
      name: 'Road trips',
      slug: slugOf('Road trips', board.id),
      description: 'Where next',
      secret: false,
    });
    expect(await steps.page(owner, owner!.username, renamed.slug)).toEqual(renamed);
    expectError(await routes.page(owner!.cookie, owner!.username, board.slug), 404, 'BOARD_NOT_FOUND');
    // Another board with the same words has its own tail.
    const third = await steps.create(owner!, { name: 'Other' });
    expect((await steps.update(owner!, third.id, { name: 'Road Trips!' })).slug).toBe(slugOf('Road Trips!', third.id));
  });

  it('may change only the case of its own name (it is not "taken" by itself); not to another board\'s name', async () => {
    const [owner] = await people(1);
    const board = await steps.create(owner!, { name: 'snacks' });
    await steps.create(owner!, { name: 'Drinks' });
    expect((await steps.update(owner!, board.id, { name: 'Snacks' })).name).toBe('Snacks');
    expectError(await routes.update(owner!.cookie, board.id, { name: 'DRINKS' }), 409, 'BOARD_NAME_TAKEN');
    expect((await boardRows(t.database, board.id)).board?.name).toBe('Snacks');
  });

  it('edits the description and switches Secret either way; an empty body changes nothing', async () => {
    const [owner] = await people(1);
    const board = await steps.create(owner!, { name: 'Plans' });
    expect(await steps.update(owner!, board.id, { description: 'Fall term' })).toMatchObject({ description: 'Fall term', secret: false });
    expect(await steps.update(owner!, board.id, { secret: true })).toMatchObject({ description: 'Fall term', secret: true });
    expectError(await routes.page(undefined, owner!.username, board.slug), 404, 'BOARD_NOT_FOUND');
    expect(await steps.update(owner!, board.id, { secret: false })).toMatchObject({ secret: false });
    expect((await steps.page(undefined, owner!.username, board.slug)).secret).toBe(false);
    const same = await steps.update(owner!, board.id, {});
    expect(same).toMatchObject({ name: 'Plans', slug: board.slug, description: 'Fall term', secret: false });
    expect(await steps.update(owner!, board.id, { description: '' })).toMatchObject({ description: '' });
  });

  it('refuses the same bad names and descriptions as creating (400, 409), changing nothing', async () => {
    const [owner] = await people(1);
    const board = await steps.create(owner!, { name: 'Keep', description: 'kept' });
    await steps.create(owner!, { name: 'Taken' });
    expectError(await routes.update(owner!.cookie, board.id, { name: '   ' }), 400, 'BOARD_NAME_REQUIRED');
    expectError(await routes.update(owner!.cookie, board.id, { name: 'x'.repeat(51) }), 400, 'BOARD_NAME_TOO_LONG');
    expectError(await routes.update(owner!.cookie, board.id, { description: 'd'.repeat(201) }), 400, 'BOARD_DESCRIPTION_TOO_LONG');
    expectError(await routes.update(owner!.cookie, board.id, { name: 'taken' }), 409, 'BOARD_NAME_TAKEN');
    // One bad field refuses the whole edit: the good one sent with it is not written either.
    expectError(await routes.update(owner!.cookie, board.id, { secret: true, name: '' }), 400, 'BOARD_NAME_REQUIRED');
    expectError(await routes.update(owner!.cookie, board.id, { description: 'new', name: 'taken' }), 409, 'BOARD_NAME_TAKEN');
    for (const [, body] of BAD_BODIES.filter(([name]) => name !== 'a string body')) {
      const response = await routes.update(owner!.cookie, board.id, body as string);
      expect(response.statusCode, response.body).toBe(400);
      expectClientError(response);
    }
    expectError(await routes.update(owner!.cookie, board.id, { coverPostId: 5 }), 400, 'BAD_REQUEST');
    expectError(await routes.update(owner!.cookie, board.id, { coverPostId: 'x'.repeat(65) }), 400, 'BAD_REQUEST');
    expect((await boardRows(t.database, board.id)).board).toMatchObject({
      name: 'Keep',
      slug: board.slug,
      description: 'kept',
      secret: false,
    });
  });

  it("chooses a cover among the board's posts; COVER_NOT_ON_BOARD otherwise; null goes back to the newest", async () => {
    const [owner, author] = await people(2);
    const [older, newer, elsewhere] = await insertPostsBy(t.database, author!.uid, 3);
    const board = await steps.create(owner!, { name: 'Covers' });
    await steps.save(owner!, board.id, older!);
    await steps.save(owner!, board.id, newer!);
    expect((await steps.page(owner, owner!.username, board.slug)).cover).toEqual(await imageOf(newer!));
    const chosen = await steps.update(owner!, board.id, { coverPostId: older! });
    expect(chosen).toMatchObject({ coverPostId: older, cover: await imageOf(older!) });
    // Everywhere the board shows: the Boards tab and the Save picker too.
    expect((await steps.tab(undefined, owner!.username)).boards[0]!.cover).toEqual(await imageOf(older!));
    expect((await steps.picker(owner!)).find((b) => b.id === board.id)!.cover).toEqual(await imageOf(older!));
    expectError(await routes.update(owner!.cookie, board.id, { coverPostId: elsewhere! }), 400, 'COVER_NOT_ON_BOARD');
    expectError(await routes.update(owner!.cookie, board.id, { coverPostId: 'nosuchpost' }), 400, 'COVER_NOT_ON_BOARD');
    expect((await boardRows(t.database, board.id)).board?.cover_post_id).toBe(older);
    expect(await steps.update(owner!, board.id, { coverPostId: null })).toMatchObject({ coverPostId: null, cover: await imageOf(newer!) });
  });

  it('a chosen cover removed from the board: the cover falls back to the newest saved post', async () => {
    const [owner] = await people(1);
    const [a, b, c] = await insertPostsBy(t.database, owner!.uid, 3);
    const board = await steps.create(owner!, { name: 'Fallback' });
    for (const id of [a!, b!, c!]) await steps.save(owner!, board.id, id);
    await steps.update(owner!, board.id, { coverPostId: a! });
    expect(await steps.unsave(owner!, board.id, a!)).toEqual({ saved: false, count: 2 });
    expect(await steps.page(owner, owner!.username, board.slug)).toMatchObject({ coverPostId: null, cover: await imageOf(c!), count: 2 });
    // Removing the newest moves the cover to the next newest; removing the last leaves none.
    await steps.unsave(owner!, board.id, c!);
    expect((await steps.page(owner, owner!.username, board.slug)).cover).toEqual(await imageOf(b!));
    await steps.unsave(owner!, board.id, b!);
    expect(await steps.page(owner, owner!.username, board.slug)).toMatchObject({ cover: null, count: 0 });
    expect((await steps.tab(owner, owner!.username)).boards[0]).toMatchObject({ cover: null, count: 0 });
  });

  it('unknown boards, and boards the editor may not see, are 404 BOARD_NOT_FOUND; signed out 401', async () => {
    const [owner, other] = await people(2);
    const secret = await steps.create(owner!, { name: 'Hidden', secret: true });
    const open = await steps.create(owner!, { name: 'Open' });
    expectError(await routes.update(other!.cookie, 'nosuchboard', { name: 'x' }), 404, 'BOARD_NOT_FOUND');
    expectError(await routes.update(other!.cookie, secret.id, { name: 'x' }), 404, 'BOARD_NOT_FOUND');
    expectError(await routes.update(other!.cookie, open.id, { name: 'x' }), 403, 'FORBIDDEN');
    expectError(await routes.update(undefined, open.id, { name: 'x' }), 401, 'NOT_SIGNED_IN');
    expectError(await routes.update(owner!.cookie, 'x'.repeat(65), { name: 'x' }), 400, 'BAD_REQUEST');
    // A secret board and a missing one answer exactly alike: nothing tells them apart.
    const missing = await routes.update(other!.cookie, 'nosuchboard', { name: 'x' });
    const hidden = await routes.update(other!.cookie, secret.id, { name: 'x' });
    expect([hidden.statusCode, hidden.body]).toEqual([missing.statusCode, missing.body]);
    expect((await boardRows(t.database, secret.id)).board?.name).toBe('Hidden');
  });
});

// ---------------------------------------------------------------- delete

describe('DELETE /api/boards/:id', () => {
  it("deletes the board, its saves and its memberships; the posts themselves stay, and so do the owner's other boards", async () => {
    const [owner, member, author] = await people(3);
    const postIds = await insertPostsBy(t.database, author!.uid, 2);
    const board = await steps.create(owner!, { name: 'Doomed' });
    const kept = await steps.create(owner!, { name: 'Kept' });
    await steps.addMember(owner!, board.id, member!);
    for (const id of postIds) await steps.save(owner!, board.id, id);
    await steps.save(owner!, kept.id, postIds[0]!);
    // Read (and cache) first: the delete must make these stale.
    expect((await steps.tab(undefined, owner!.username)).boards).toHaveLength(2);
    expect((await steps.tab(undefined, member!.username)).boards.map((b) => b.id)).toEqual([board.id]);

    const response = await routes.delete(owner!.cookie, board.id);
    expect(response.statusCode, response.body).toBe(204);
    expect(await boardRows(t.database, board.id)).toEqual({ board: undefined, saves: [], members: [] });
    expectError(await routes.page(owner!.cookie, owner!.username, 'doomed'), 404, 'BOARD_NOT_FOUND');
    expectError(await routes.posts(undefined, owner!.username, 'doomed'), 404, 'BOARD_NOT_FOUND');
    expect(ids((await steps.tab(undefined, owner!.username)).boards)).toEqual([kept.id]);
    expect((await steps.tab(undefined, member!.username)).boards).toEqual([]);
    expect(ids(await steps.picker(member!))).toEqual([]);
    for (const id of postIds) expect((await get(t.app, API.post(id))).statusCode).toBe(200);
    expect((await boardRows(t.database, kept.id)).saves).toHaveLength(1);
    // Gone: a second delete finds nothing.
    expectError(await routes.delete(owner!.cookie, board.id), 404, 'BOARD_NOT_FOUND');
  });

  it('refuses: signed out 401, a collaborator or anyone else 403, a board they may not see 404', async () => {
    const [owner, member, other] = await people(3);
    const board = await steps.create(owner!, { name: 'Mine' });
    const secret = await steps.create(owner!, { name: 'Secret', secret: true });
    await steps.addMember(owner!, board.id, member!);
    expectError(await routes.delete(undefined, board.id), 401, 'NOT_SIGNED_IN');
    expectError(await routes.delete(member!.cookie, board.id), 403, 'FORBIDDEN');
    expectError(await routes.delete(other!.cookie, board.id), 403, 'FORBIDDEN');
    expectError(await routes.delete(other!.cookie, secret.id), 404, 'BOARD_NOT_FOUND');
    expectError(await routes.delete(other!.cookie, 'nosuchboard'), 404, 'BOARD_NOT_FOUND');
    expect(await boardCount(t.database, owner!.uid)).toBe(2);
  });
});

// ---------------------------------------------------------------- saving

describe('PUT and DELETE /api/boards/:id/posts/:postId', () => {
  it("saves anyone's post, and your own; idempotent both ways, answering the state and the count", async () => {
    const [owner, author] = await people(2);
    const [theirs] = await insertPostsBy(t.database, author!.uid, 1);
    const [mine] = await insertPostsBy(t.database, owner!.uid, 1);
    const board = await steps.create(owner!, { name: 'Saves' });
    expect(await steps.save(owner!, board.id, theirs!)).toEqual({ saved: true, count: 1 });
    expect(await steps.save(owner!, board.id, theirs!)).toEqual({ saved: true, count: 1 });
    expect(await steps.save(owner!, board.id, mine!)).toEqual({ saved: true, count: 2 });
    expect((await boardRows(t.database, board.id)).saves).toEqual([
      { post_id: mine, saved_by: owner!.uid },
      { post_id: theirs, saved_by: owner!.uid },
    ]);
    expect((await steps.page(undefined, owner!.username, board.slug)).count).toBe(2);
    expect(await steps.unsave(owner!, board.id, theirs!)).toEqual({ saved: false, count: 1 });
    expect(await steps.unsave(owner!, board.id, theirs!)).toEqual({ saved: false, count: 1 });
    // A post that was never there, or does not exist at all: nothing to remove.
    expect(await steps.unsave(owner!, board.id, 'nosuchpost')).toEqual({ saved: false, count: 1 });
    expect((await boardRows(t.database, board.id)).board?.post_count).toBe(1);
    expect((await steps.tab(undefined, owner!.username)).boards[0]!.count).toBe(1);
  });

  it('saves to a second board leave the first alone; the Save picker says where the post is', async () => {
    const [owner, author] = await people(2);
    const [post] = await insertPostsBy(t.database, author!.uid, 1);
    const a = await steps.create(owner!, { name: 'A' });
    const b = await steps.create(owner!, { name: 'B' });
    await steps.save(owner!, a.id, post!);
    expect((await steps.picker(owner!, post)).map((x) => [x.name, x.hasPost])).toEqual([
      ['A', true],
      ['B', false],
    ]);
    await steps.save(owner!, b.id, post!);
    expect((await steps.picker(owner!, post)).map((x) => [x.name, x.hasPost])).toEqual([
      ['B', true],
      ['A', true],
    ]);
  });

  it('POST_NOT_FOUND (404) for a post that does not exist or the saver may not see; nothing saved', async () => {
    const [owner, blocker, blocked, suspended] = await people(4);
    const board = await steps.create(owner!, { name: 'Strict' });
    const [byBlocker] = await insertPostsBy(t.database, blocker!.uid, 1);
    const [byBlocked] = await insertPostsBy(t.database, blocked!.uid, 1);
    const [bySuspended] = await insertPostsBy(t.database, suspended!.uid, 1);
    await block(blocker!, owner!);
    await block(owner!, blocked!);
    await suspend(suspended!);
    expectError(await routes.save(owner!.cookie, board.id, 'nosuchpost'), 404, 'POST_NOT_FOUND');
    expectError(await routes.save(owner!.cookie, board.id, byBlocker!), 404, 'POST_NOT_FOUND');
    expectError(await routes.save(owner!.cookie, board.id, byBlocked!), 404, 'POST_NOT_FOUND');
    expectError(await routes.save(owner!.cookie, board.id, bySuspended!), 404, 'POST_NOT_FOUND');
    expectError(await routes.save(owner!.cookie, board.id, 'x'.repeat(65)), 400, 'BAD_REQUEST');
    expect((await boardRows(t.database, board.id)).saves).toEqual([]);
    expect((await boardRows(t.database, board.id)).board?.post_count).toBe(0);
  });

  it('BOARD_NOT_FOUND (404) for an unknown board or one the saver may not see, before anything about the post', async () => {
    const [owner, other] = await people(2);
    const secret = await steps.create(owner!, { name: 'Secret', secret: true });
    const [post] = await insertPostsBy(t.database, other!.uid, 1);
    expectError(await routes.save(other!.cookie, 'nosuchboard', post!), 404, 'BOARD_NOT_FOUND');
    expectError(await routes.save(other!.cookie, secret.id, post!), 404, 'BOARD_NOT_FOUND');
    expectError(await routes.save(other!.cookie, secret.id, 'nosuchpost'), 404, 'BOARD_NOT_FOUND');
    expectError(await routes.unsave(other!.cookie, secret.id, post!), 404, 'BOARD_NOT_FOUND');
    expectError(await routes.save(other!.cookie, 'x'.repeat(65), post!), 400, 'BAD_REQUEST');
    expectError(await routes.save(undefined, secret.id, post!), 401, 'NOT_SIGNED_IN');
    expectError(await routes.unsave(undefined, secret.id, post!), 401, 'NOT_SIGNED_IN');
    expect((await boardRows(t.database, secret.id)).saves).toEqual([]);
  });

  it(`holds ${BOARD_POSTS_MAX} posts, then BOARD_FULL (409); the count is the trigger's`, async () => {
    const [owner] = await people(1);
    const board = await steps.create(owner!, { name: 'Full' });
    const postIds = await insertPostsBy(t.database, owner!.uid, BOARD_POSTS_MAX + 1);
    await insertSaves(t.database, board.id, owner!.uid, postIds.slice(0, BOARD_POSTS_MAX - 1));
    expect((await boardRows(t.database, board.id)).board?.post_count).toBe(BOARD_POSTS_MAX - 1);
    // Two saves at once for the last place: exactly one wins (the CHECK is the backstop of the race).
    const raced = await Promise.all([
      routes.save(owner!.cookie, board.id, postIds[BOARD_POSTS_MAX - 1]!),
      routes.save(owner!.cookie, board.id, postIds[BOARD_POSTS_MAX]!),
    ]);
    expect(raced.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    expect(raced.find((response) => response.statusCode === 200)!.json()).toEqual({ saved: true, count: BOARD_POSTS_MAX });
    expectError(
      raced.find((response) => response.statusCode === 409)!,
      409,
      'BOARD_FULL',
    );
    const loser = raced[0].statusCode === 409 ? postIds[BOARD_POSTS_MAX - 1]! : postIds[BOARD_POSTS_MAX]!;
    expectError(await routes.save(owner!.cookie, board.id, loser), 409, 'BOARD_FULL');
    // Saving one that is there already is still the same answer, full or not.
    expect(await steps.save(owner!, board.id, postIds[0]!)).toEqual({ saved: true, count: BOARD_POSTS_MAX });
    expect((await boardRows(t.database, board.id)).board?.post_count).toBe(BOARD_POSTS_MAX);
    // Removing one makes room.
    await steps.unsave(owner!, board.id, postIds[0]!);
    expect(await steps.save(owner!, board.id, loser)).toEqual({ saved: true, count: BOARD_POSTS_MAX });
    expect((await steps.page(undefined, owner!.username, board.slug)).count).toBe(BOARD_POSTS_MAX);
    // About a minute unloaded; 267 s at a load average of 28 on 2 cores.
  }, 300_000);

  it('a deleted post leaves every board at once, counts and covers too (a chosen cover goes back to the newest)', async () => {
    const [author, a, b, c] = await people(4);
    const doomed = await realPost(author!, 'doomed');
    const other = await realPost(author!, 'stays');
    const boards = [
      await steps.create(a!, { name: 'A' }),
      await steps.create(b!, { name: 'B' }),
      await steps.create(c!, { name: 'C', secret: true }),
    ];
    for (const [owner, board] of [
      [a!, boards[0]!],
      [b!, boards[1]!],
      [c!, boards[2]!],
    ] as const) {
      await steps.save(owner, board.id, other);
      await steps.save(owner, board.id, doomed);
    }
    await steps.update(b!, boards[1]!.id, { coverPostId: doomed });
    // Read (and cache) every board first.
    for (const [owner, board] of [
      [a!, boards[0]!],
      [b!, boards[1]!],
      [c!, boards[2]!],
    ] as const) {
      expect(await steps.page(owner, owner.username, board.slug)).toMatchObject({ count: 2, cover: await imageOf(doomed) });
      expect(ids((await steps.posts(owner, owner.username, board.slug)).posts)).toEqual([doomed, other]);
    }

    expect((await t.app.inject({ method: 'DELETE', url: API.post(doomed), headers: { cookie: author!.cookie } })).statusCode).toBe(204);
    expect(await query(t.database, 'SELECT 1 FROM board_posts WHERE post_id = $1', [doomed])).toEqual([]);
    for (const [owner, board] of [
      [a!, boards[0]!],
      [b!, boards[1]!],
      [c!, boards[2]!],
    ] as const) {
      expect(await steps.page(owner, owner.username, board.slug)).toMatchObject({
        count: 1,
        cover: await imageOf(other),
        coverPostId: null,
      });
      expect(ids((await steps.posts(owner, owner.username, board.slug)).posts)).toEqual([other]);
      expect((await steps.tab(owner, owner.username)).boards[0]).toMatchObject({ count: 1, cover: await imageOf(other) });
      expect((await boardRows(t.database, board.id)).board?.post_count).toBe(1);
    }
  });

  it("a moderator's Remove Post takes the post off every board the same way", async () => {
    const [author, owner, moderator] = await people(3);
    await query(t.database, `UPDATE users SET role = 'moderator' WHERE id = $1`, [moderator!.uid]);
    const removed = await realPost(author!, 'against the rules');
    const board = await steps.create(owner!, { name: 'Mod' });
    const second = await steps.create(owner!, { name: 'Mod 2' });
    await steps.save(owner!, board.id, removed);
    await steps.save(owner!, second.id, removed);
    expect((await steps.page(undefined, owner!.username, board.slug)).count).toBe(1);
    const response = await t.app.inject({
      method: 'POST',
      url: API.moderationRemovePost,
      payload: { postId: removed },
      headers: { cookie: moderator!.cookie },
    });
    expect(response.statusCode, response.body).toBe(204);
    for (const b of [board, second]) {
      expect(await steps.page(undefined, owner!.username, b.slug)).toMatchObject({ count: 0, cover: null });
      expect((await steps.posts(undefined, owner!.username, b.slug)).posts).toEqual([]);
    }
    expect(await steps.picker(owner!)).toEqual(expect.arrayContaining([expect.objectContaining({ id: board.id, count: 0, cover: null })]));
  });

  it('SAVING_TOO_FAST (429) past RATE_LIMIT_BOARD_WRITES_PER_USER an hour: saves, removals and board edits together, per account', async () => {
    const limited = await createTestApp({ rateLimits: { ...TEST_RATE_LIMITS, boardWritesPerUser: 4 } });
    try {
      const lr = boardRoutes(limited.app);
      const [owner, other] = [await signUp(limited.app), await signUp(limited.app)];
      const [p1, p2] = await insertPostsBy(limited.database, owner.uid, 2);
      const made = await lr.create(owner.cookie, { name: 'Fast' });
      expect(made.statusCode, made.body).toBe(201);
      const { id, slug } = made.json<{ board: BoardDetail }>().board;
      expect((await lr.save(owner.cookie, id, p1!)).statusCode).toBe(200);
      expect((await lr.unsave(owner.cookie, id, p1!)).statusCode).toBe(200);
      expect((await lr.update(owner.cookie, id, { description: 'x' })).statusCode).toBe(200);
      expectError(await lr.save(owner.cookie, id, p2!), 429, 'SAVING_TOO_FAST');
      expectError(await lr.create(owner.cookie, { name: 'Another' }), 429, 'SAVING_TOO_FAST');
      expect(await query(limited.database, 'SELECT 1 FROM board_posts WHERE board_id = $1', [id])).toEqual([]);
      expect(await boardCount(limited.database, owner.uid)).toBe(1);
      // Someone else's saves are their own.
      const theirs = await lr.create(other.cookie, { name: 'Theirs' });
      expect(theirs.statusCode, theirs.body).toBe(201);
      // Reads are not writes.
      expect((await lr.page(owner.cookie, owner.username, slug)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

// ---------------------------------------------------------------- reading

describe('GET /api/users/:username/boards/:slug and its posts', () => {
  it("a board's posts: newest saved first (not newest posted), 50 at a time with a cursor, each with savedByMe", async () => {
    const [owner, member, author] = await people(3);
    const board = await steps.create(owner!, { name: 'Paged' });
    await steps.addMember(owner!, board.id, member!);
    const total = BOARD_POSTS_PAGE_SIZE * 2 + 7;
    const postIds = await insertPostsBy(t.database, author!.uid, total);
    // Saved in the reverse order of posting: the oldest post is the newest save. Every third by the member.
    const seconds = postIds.map((_, i) => total - i);
    const byMember = postIds.filter((_, i) => i % 3 === 0);
    const byOwner = postIds.filter((_, i) => i % 3 !== 0);
    await insertSaves(
      t.database,
      board.id,
      member!.uid,
      byMember,
      seconds.filter((_, i) => i % 3 === 0),
    );
    await insertSaves(
      t.database,
      board.id,
      owner!.uid,
      byOwner,
      seconds.filter((_, i) => i % 3 !== 0),
    );

    const pages = await allBoardPosts(member, owner!.username, board.slug);
    expect(pages.map((page) => page.posts.length)).toEqual([BOARD_POSTS_PAGE_SIZE, BOARD_POSTS_PAGE_SIZE, 7]);
    const cards = pages.flatMap((page) => page.posts);
    expect(ids(cards)).toEqual(postIds);
    expect(cards.filter((card) => card.savedByMe).map((card) => card.id)).toEqual(byMember);
    expect(cards[0]).toEqual({ id: postIds[0], description: `post ${postIds[0]}`, image: await imageOf(postIds[0]!), savedByMe: true });
    // Signed out: nobody saved anything.
    expect((await steps.posts(undefined, owner!.username, board.slug)).posts.every((card) => !card.savedByMe)).toBe(true);
    expect((await steps.page(undefined, owner!.username, board.slug)).count).toBe(total);
  });

  it('equal save times page by post id, never repeating or skipping a post', async () => {
    const [owner] = await people(1);
    const board = await steps.create(owner!, { name: 'Ties' });
    const postIds = await insertPostsBy(t.database, owner!.uid, BOARD_POSTS_PAGE_SIZE + 5);
    await insertSaves(
      t.database,
      board.id,
      owner!.uid,
      postIds,
      postIds.map(() => 0),
    );
    const cards = (await allBoardPosts(owner, owner!.username, board.slug)).flatMap((page) => page.posts);
    expect(ids(cards)).toEqual([...postIds].reverse());
  });

  it('bad cursors are a clear 400, never a 500; unknown query fields too', async () => {
    const [owner] = await people(1);
    const board = await steps.create(owner!, { name: 'Cursors' });
    const bad = [
      'not-a-cursor',
      Buffer.from('[1,2]').toString('base64url'),
      Buffer.from('["2024-02-30 00:00:00+00","x"]').toString('base64url'),
      Buffer.from('["2024-01-01 00:00:00+16","x"]').toString('base64url'),
      Buffer.from('{"a":1}').toString('base64url'),
      '%',
    ];
    for (const cursor of bad) {
      expectError(await routes.posts(undefined, owner!.username, board.slug, cursor), 400, 'BAD_REQUEST');
      expectError(await routes.tab(undefined, owner!.username, cursor), 400, 'BAD_REQUEST');
    }
    expectError(await get(t.app, `${API.userBoardPosts(owner!.username, board.slug)}?limit=1000`), 400, 'BAD_REQUEST');
    expectError(await get(t.app, `${API.userBoards(owner!.username)}?limit=1000`), 400, 'BAD_REQUEST');
    // A well-formed cursor past the end is an empty page.
    const end = encodeCursor({ sortTime: '1970-01-02 00:00:00+00', id: '' });
    expect(await steps.posts(undefined, owner!.username, board.slug, end)).toEqual({ posts: [], nextCursor: null });
  });

  it('404 BOARD_NOT_FOUND for an unknown slug; an unknown user is 404 too; overlong names are 400', async () => {
    const [owner] = await people(1);
    await steps.create(owner!, { name: 'Real' });
    expectError(await routes.page(undefined, owner!.username, 'not-real'), 404, 'BOARD_NOT_FOUND');
    expectError(await routes.posts(undefined, owner!.username, 'not-real'), 404, 'BOARD_NOT_FOUND');
    expect((await routes.page(undefined, 'nobody_here', 'real')).statusCode).toBe(404);
    expect((await routes.posts(undefined, 'nobody_here', 'real')).statusCode).toBe(404);
    expect((await routes.tab(undefined, 'nobody_here')).statusCode).toBe(404);
    // Over the router's parameter length (100) it answers 414 before the schema's 400: both are BAD_REQUEST.
    for (const response of [
      await routes.page(undefined, owner!.username, 's'.repeat(201)),
      await routes.posts(undefined, owner!.username, 's'.repeat(101)),
    ]) {
      expect([400, 414], response.body).toContain(response.statusCode);
      expect(response.json()).toMatchObject({ code: 'BAD_REQUEST' });
    }
    expectError(await routes.tab(undefined, 'u'.repeat(65)), 400, 'BAD_REQUEST');
    // The slug is the address, the name is not (a slug is matched ignoring case, like a username).
    const twoWords = await steps.create(owner!, { name: 'Two words' });
    expectError(await routes.page(undefined, owner!.username, 'Two words'), 404, 'BOARD_NOT_FOUND');
    expect((await steps.page(undefined, owner!.username, twoWords.slug.toUpperCase())).name).toBe('Two words');
  });

  it('says who the viewer is to the board; the owner and members see who is invited, others only who joined', async () => {
    const [owner, joined, invited, other] = await people(4);
    const board = await steps.create(owner!, { name: 'Roles' });
    await steps.addMember(owner!, board.id, joined!);
    await steps.invite(owner!, board.id, invited!.username);
    const everyone = [
      { username: joined!.username, icon: null, joined: true },
      { username: invited!.username, icon: null, joined: false },
    ];
    const sorted = (members: BoardDetail['members']) => [...members].sort((x, y) => x.username.localeCompare(y.username));
    for (const [viewer, role, members] of [
      [owner, 'owner', everyone],
      [joined, 'collaborator', everyone],
      [invited, 'invited', everyone],
      [other, 'viewer', everyone.slice(0, 1)],
      [undefined, 'viewer', everyone.slice(0, 1)],
    ] as const) {
      const seen = await steps.page(viewer, owner!.username, board.slug);
      expect(seen.role, String(viewer?.username)).toBe(role);
      expect(sorted(seen.members), String(viewer?.username)).toEqual(sorted([...members]));
    }
  });
});

describe('GET /api/users/:username/boards (the Boards tab)', () => {
  it('one statement saving to several boards moves each board by its own saves (count and last save), as migrate-data and the seed write', async () => {
    const [owner] = await people(1);
    const [early, late] = await insertBoards(t.database, owner!.uid, 2, 'multi');
    const posts = await insertPostsBy(t.database, owner!.uid, 3);
    await query(
      t.database,
      `INSERT INTO board_posts (board_id, post_id, saved_by, saved_at) VALUES
         ($1, $3, $5, '2030-01-01T00:00:00Z'), ($1, $4, $5, '2030-01-02T00:00:00Z'), ($2, $6, $5, '2030-03-01T00:00:00Z')`,
      [early, late, posts[0], posts[1], owner!.uid, posts[2]],
    );
    const rows = await query<{ id: string; post_count: number; last: string }>(
      t.database,
      `SELECT id, post_count, to_char(last_saved_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS last FROM boards WHERE id = ANY($1) ORDER BY id`,
      [[early, late]],
    );
    expect(rows).toEqual([
      { id: early, post_count: 2, last: '2030-01-02' },
      { id: late, post_count: 1, last: '2030-03-01' },
    ]);
  });

  it('the boards they own or joined, most recently saved to first (then by id), 24 at a time with a cursor', async () => {
    const [owner, friend] = await people(2);
    const total = BOARDS_PAGE_SIZE + 6;
    const boardIds = await insertBoards(t.database, owner!.uid, total, 'tab');
    // Two boards with the same last save, across the page boundary (the 24th and 25th): the larger id first.
    await query(t.database, 'UPDATE boards SET last_saved_at = (SELECT last_saved_at FROM boards WHERE id = $1) WHERE id = $2', [
      boardIds[6],
      boardIds[20],
    ]);
    // A board of the friend's, joined by the owner, saved to most recently of all.
    const joined = await steps.create(friend!, { name: 'Shared' });
    await steps.addMember(friend!, joined.id, owner!);
    const [post] = await insertPostsBy(t.database, friend!.uid, 1);
    await steps.save(friend!, joined.id, post!);

    const pages = await wholeTab(undefined, owner!.username);
    expect(pages.map((page) => page.boards.length)).toEqual([BOARDS_PAGE_SIZE, total + 1 - BOARDS_PAGE_SIZE]);
    const expectedOrder = [
      joined.id,
      ...[...boardIds].reverse().flatMap((id) => (id === boardIds[20] ? [] : id === boardIds[6] ? [boardIds[20]!, id] : [id])),
    ];
    expect(expectedOrder.indexOf(boardIds[20]!)).toBe(BOARDS_PAGE_SIZE - 1);
    expect(pages.flatMap((page) => ids(page.boards))).toEqual(expectedOrder);
    expect(pages[0]!.boards[0]).toEqual({
      id: joined.id,
      name: 'Shared',
      slug: joined.slug,
      secret: false,
      count: 1,
      cover: await imageOf(post!),
      owner: { username: friend!.username, icon: null },
    } satisfies BoardSummary);
    // A save moves a board to the front.
    await steps.save(owner!, boardIds[0]!, post!);
    expect((await steps.tab(undefined, owner!.username)).boards[0]!.id).toBe(boardIds[0]);
  });

  it('lists secret boards only to their owner and members, marked as secret', async () => {
    const [owner, member, invited, other] = await people(4);
    const open = await steps.create(owner!, { name: 'Open' });
    const secret = await steps.create(owner!, { name: 'Secret', secret: true });
    await steps.addMember(owner!, secret.id, member!);
    await steps.invite(owner!, secret.id, invited!.username);
    const tabOf = async (viewer: Account | undefined) => (await steps.tab(viewer, owner!.username)).boards.map((b) => [b.id, b.secret]);
    expect(await tabOf(owner)).toEqual([
      [secret.id, true],
      [open.id, false],
    ]);
    expect(await tabOf(member)).toEqual([
      [secret.id, true],
      [open.id, false],
    ]);
    expect(await tabOf(invited)).toEqual([
      [secret.id, true],
      [open.id, false],
    ]);
    expect(await tabOf(other)).toEqual([[open.id, false]]);
    expect(await tabOf(undefined)).toEqual([[open.id, false]]);
    // The member's own tab lists the secret board they joined only to those who may see it.
    expect(ids((await steps.tab(member, member!.username)).boards)).toEqual([secret.id]);
    expect((await steps.tab(other, member!.username)).boards).toEqual([]);
    expect((await steps.tab(undefined, member!.username)).boards).toEqual([]);
  });
});

describe('GET /api/me/boards (the Save picker)', () => {
  it('your own and joined boards (not ones you are only invited to), most recently saved to first, then newest made; hasPost', async () => {
    const [me, friend, stranger] = await people(3);
    const [post, other] = await insertPostsBy(t.database, stranger!.uid, 2);
    const first = await steps.create(me!, { name: 'First made' });
    const second = await steps.create(me!, { name: 'Second made', secret: true });
    const third = await steps.create(me!, { name: 'Third made' });
    const joined = await steps.create(friend!, { name: 'Joined' });
    const invitedOnly = await steps.create(friend!, { name: 'Invited only' });
    await steps.addMember(friend!, joined.id, me!);
    await steps.invite(friend!, invitedOnly.id, me!.username);
    await steps.create(stranger!, { name: 'Not mine' });

    // Nothing saved yet: newest made first.
    expect(ids(await steps.picker(me!))).toEqual([joined.id, third.id, second.id, first.id]);
    await steps.save(me!, first.id, post!);
    await steps.save(me!, joined.id, other!);
    const picker = await steps.picker(me!, post);
    expect(picker.map((b) => [b.id, b.hasPost])).toEqual([
      [joined.id, false],
      [first.id, true],
      [third.id, false],
      [second.id, false],
    ]);
    expect(picker[1]).toMatchObject({ name: 'First made', count: 1, secret: false, owner: { username: me!.username } });
    expect(picker[3]).toMatchObject({ secret: true });
    // Without ?post, hasPost is false everywhere.
    expect((await steps.picker(me!)).every((b) => !b.hasPost)).toBe(true);
    // A new save makes a board the most recently used.
    await steps.save(me!, third.id, post!);
    expect(ids(await steps.picker(me!, post)).slice(0, 1)).toEqual([third.id]);
    // "The ones THEY most recently saved to": someone else's save to a board shared with you does not move it.
    await steps.save(friend!, joined.id, post!);
    expect(ids(await steps.picker(me!, post))).toEqual([third.id, joined.id, first.id, second.id]);
  });

  it('counts making or joining a board as using it: one made or joined after your last save comes first', async () => {
    const [me, friend] = await people(2);
    const [post] = await insertPostsBy(t.database, friend!.uid, 1);
    const savedTo = await steps.create(me!, { name: 'Saved to' });
    await steps.save(me!, savedTo.id, post!);
    const friends = await steps.create(friend!, { name: 'Friends board' });
    const madeLater = await steps.create(me!, { name: 'Made later' });
    // Joined last: the board a new collaborator is about to save to.
    await steps.addMember(friend!, friends.id, me!);
    expect(ids(await steps.picker(me!))).toEqual([friends.id, madeLater.id, savedTo.id]);
  });

  it('is yours alone: 401 signed out; bad queries are 400', async () => {
    const [me] = await people(1);
    expectError(await routes.picker(undefined), 401, 'NOT_SIGNED_IN');
    expectError(await get(t.app, `${API.saveTargets()}?post=`, me!.cookie), 400, 'BAD_REQUEST');
    expectError(await get(t.app, `${API.saveTargets()}?post=${'x'.repeat(65)}`, me!.cookie), 400, 'BAD_REQUEST');
    expectError(await get(t.app, `${API.saveTargets()}?cursor=abc`, me!.cookie), 400, 'BAD_REQUEST');
    expect(await steps.picker(me!)).toEqual([]);
  });
});

// ---------------------------------------------------------------- members

describe('PUT /api/boards/:id/members/:username (invite), POST …/join, DELETE …/members/:username', () => {
  it("invites by username, joins, and saves: a collaborator saves and removes what they saved, not others' saves", async () => {
    const [owner, member, author] = await people(3);
    const [a, b] = await insertPostsBy(t.database, author!.uid, 2);
    const board = await steps.create(owner!, { name: 'Shared' });
    expect(await steps.invite(owner!, board.id, member!.username)).toEqual([{ username: member!.username, icon: null, joined: false }]);
    // Inviting again changes nothing.
    expect(await steps.invite(owner!, board.id, member!.username)).toEqual([{ username: member!.username, icon: null, joined: false }]);
    expect((await boardRows(t.database, board.id)).members).toEqual([{ user_id: member!.uid, joined: false }]);
    expectError(await routes.save(member!.cookie, board.id, a!), 403, 'FORBIDDEN');
    expect(await steps.join(member!, board.id)).toEqual([{ username: member!.username, icon: null, joined: true }]);
    // Joining again is a no-op.
    expect(await steps.join(member!, board.id)).toEqual([{ username: member!.username, icon: null, joined: true }]);
    // Inviting a member who joined does not un-join them.
    expect(await steps.invite(owner!, board.id, member!.username)).toEqual([{ username: member!.username, icon: null, joined: true }]);

    expect(await steps.save(member!, board.id, a!)).toEqual({ saved: true, count: 1 });
    await steps.save(owner!, board.id, b!);
    expect((await boardRows(t.database, board.id)).saves).toEqual([
      { post_id: b, saved_by: owner!.uid },
      { post_id: a, saved_by: member!.uid },
    ]);
    expectError(await routes.unsave(member!.cookie, board.id, b!), 403, 'FORBIDDEN');
    expect(await steps.unsave(member!, board.id, a!)).toEqual({ saved: false, count: 1 });
    await steps.save(member!, board.id, a!);
    // The owner removes anything.
    expect(await steps.unsave(owner!, board.id, a!)).toEqual({ saved: false, count: 1 });
    // A member saving a post someone else saved already: still theirs, not the member's.
    expect(await steps.save(member!, board.id, b!)).toEqual({ saved: true, count: 1 });
    expect((await boardRows(t.database, board.id)).saves).toEqual([{ post_id: b, saved_by: owner!.uid }]);
    // The member's tab and picker list the board.
    expect(ids((await steps.tab(undefined, member!.username)).boards)).toEqual([board.id]);
    expect(ids(await steps.picker(member!))).toEqual([board.id]);
  });

  it('invite refusals: yourself (400), nobody or someone hidden from the owner (404), a collaborator or stranger (403), signed out (401)', async () => {
    const [owner, member, blocker, suspended, other] = await people(5);
    const board = await steps.create(owner!, { name: 'Invites' });
    await steps.addMember(owner!, board.id, member!);
    await block(blocker!, owner!);
    await suspend(suspended!);
    expectError(await routes.invite(owner!.cookie, board.id, owner!.username), 400, 'CANNOT_INVITE_YOURSELF');
    expectError(await routes.invite(owner!.cookie, board.id, `@${owner!.username.toUpperCase()}`), 400, 'CANNOT_INVITE_YOURSELF');
    // Someone the owner blocked is found on their profile (to unblock them), but cannot be invited.
    const [blockedByOwner] = await people(1);
    await block(owner!, blockedByOwner!);
    expectError(await routes.invite(owner!.cookie, board.id, blockedByOwner!.username), 404, 'USER_NOT_FOUND');
    expectError(await routes.invite(owner!.cookie, board.id, 'nobody_here'), 404, 'USER_NOT_FOUND');
    expectError(await routes.invite(owner!.cookie, board.id, blocker!.username), 404, 'USER_NOT_FOUND');
    expectError(await routes.invite(owner!.cookie, board.id, suspended!.username), 404, 'USER_NOT_FOUND');
    expectError(await routes.invite(owner!.cookie, board.id, 'u'.repeat(65)), 400, 'BAD_REQUEST');
    expectError(await routes.invite(member!.cookie, board.id, other!.username), 403, 'FORBIDDEN');
    expectError(await routes.invite(other!.cookie, board.id, other!.username), 403, 'FORBIDDEN');
    expectError(await routes.invite(undefined, board.id, other!.username), 401, 'NOT_SIGNED_IN');
    expectError(await routes.invite(owner!.cookie, 'nosuchboard', other!.username), 404, 'BOARD_NOT_FOUND');
    expect((await boardRows(t.database, board.id)).members).toEqual([{ user_id: member!.uid, joined: true }]);
  });

  it(`${BOARD_MEMBERS_MAX} members at most, invited and joined together: TOO_MANY_COLLABORATORS (409)`, async () => {
    const [owner, extra] = await people(2);
    const board = await steps.create(owner!, { name: 'Crowded' });
    const crowd = await insertUsers(t.database, BOARD_MEMBERS_MAX, 'bdm');
    // Half joined, half only invited.
    await query(
      t.database,
      `INSERT INTO board_members (board_id, user_id, joined_at)
       SELECT $1, user_id, CASE WHEN n % 2 = 0 THEN now() END FROM unnest($2::text[]) WITH ORDINALITY AS t(user_id, n)`,
      [board.id, crowd.map((user) => user.id)],
    );
    expectError(await routes.invite(owner!.cookie, board.id, extra!.username), 409, 'TOO_MANY_COLLABORATORS');
    // One place free, two invitations at once: exactly one gets it.
    const [spare] = await people(1);
    expect((await routes.removeMember(owner!.cookie, board.id, crowd[2]!.username)).statusCode).toBe(200);
    const raced = await Promise.all([
      routes.invite(owner!.cookie, board.id, extra!.username),
      routes.invite(owner!.cookie, board.id, spare!.username),
    ]);
    expect(raced.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    expectError(
      raced.find((response) => response.statusCode === 409)!,
      409,
      'TOO_MANY_COLLABORATORS',
    );
    // Inviting someone already there is still no change, full or not.
    expect((await routes.invite(owner!.cookie, board.id, crowd[0]!.username)).statusCode).toBe(200);
    expect((await boardRows(t.database, board.id)).members).toHaveLength(BOARD_MEMBERS_MAX);
    // One leaves the list: room for one.
    expect((await routes.removeMember(owner!.cookie, board.id, crowd[1]!.username)).statusCode).toBe(200);
    expect(await steps.invite(owner!, board.id, extra!.username)).toEqual(
      expect.arrayContaining([{ username: extra!.username, icon: null, joined: false }]),
    );
  });

  it('join: NOT_INVITED (403) without an invitation, 401 signed out, 404 for a board one may not see', async () => {
    const [owner, other] = await people(2);
    const open = await steps.create(owner!, { name: 'Open' });
    const secret = await steps.create(owner!, { name: 'Secret', secret: true });
    expectError(await routes.join(other!.cookie, open.id), 403, 'NOT_INVITED');
    expectError(await routes.join(undefined, open.id), 401, 'NOT_SIGNED_IN');
    expectError(await routes.join(other!.cookie, secret.id), 404, 'BOARD_NOT_FOUND');
    expectError(await routes.join(other!.cookie, 'nosuchboard'), 404, 'BOARD_NOT_FOUND');
    expect((await boardRows(t.database, open.id)).members).toEqual([]);
  });

  it('an invitee sees a secret board (and may join it); declining or leaving is one DELETE of their own name', async () => {
    const [owner, invitee, member] = await people(3);
    const board = await steps.create(owner!, { name: 'Secret', secret: true });
    await steps.invite(owner!, board.id, invitee!.username);
    await steps.addMember(owner!, board.id, member!);
    expect((await steps.page(invitee, owner!.username, board.slug)).role).toBe('invited');
    // Declining: the invitation is gone, and with it the board.
    const declined = await routes.removeMember(invitee!.cookie, board.id, invitee!.username);
    expect(declined.statusCode, declined.body).toBe(200);
    expectError(await routes.page(invitee!.cookie, owner!.username, board.slug), 404, 'BOARD_NOT_FOUND');
    expectError(await routes.join(invitee!.cookie, board.id), 404, 'BOARD_NOT_FOUND');
    // Leaving: the same for a member; what they saved stays.
    const [post] = await insertPostsBy(t.database, member!.uid, 1);
    await steps.save(member!, board.id, post!);
    const left = await routes.removeMember(member!.cookie, board.id, member!.username);
    expect(left.statusCode, left.body).toBe(200);
    expectError(await routes.page(member!.cookie, owner!.username, board.slug), 404, 'BOARD_NOT_FOUND');
    expect(await steps.picker(member!)).toEqual([]);
    expect((await boardRows(t.database, board.id)).saves).toEqual([{ post_id: post, saved_by: member!.uid }]);
    expect((await boardRows(t.database, board.id)).members).toEqual([]);
  });

  it('the owner cannot leave (400 OWNER_CANNOT_LEAVE); someone not a member cannot "leave" (404); a member cannot remove another (403)', async () => {
    const [owner, a, b, other] = await people(4);
    const board = await steps.create(owner!, { name: 'Stay' });
    await steps.addMember(owner!, board.id, a!);
    await steps.addMember(owner!, board.id, b!);
    expectError(await routes.removeMember(owner!.cookie, board.id, owner!.username), 400, 'OWNER_CANNOT_LEAVE');
    // Someone who only sees the board has no membership: to them it is as if it were not theirs to leave.
    expectError(await routes.removeMember(other!.cookie, board.id, other!.username), 404, 'BOARD_NOT_FOUND');
    expectError(await routes.removeMember(a!.cookie, board.id, b!.username), 403, 'FORBIDDEN');
    expectError(await routes.removeMember(other!.cookie, board.id, b!.username), 403, 'FORBIDDEN');
    expectError(await routes.removeMember(undefined, board.id, b!.username), 401, 'NOT_SIGNED_IN');
    expect((await boardRows(t.database, board.id)).members).toHaveLength(2);
    // The owner removes a collaborator: what they saved stays on the board.
    const [post] = await insertPostsBy(t.database, b!.uid, 1);
    await steps.save(b!, board.id, post!);
    const removed = await routes.removeMember(owner!.cookie, board.id, b!.username);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ members: [{ username: a!.username, icon: null, joined: true }] });
    expect((await boardRows(t.database, board.id)).saves).toEqual([{ post_id: post, saved_by: b!.uid }]);
    expectError(await routes.save(b!.cookie, board.id, post!), 403, 'FORBIDDEN');
  });

  it.each(['owner blocks the member', 'member blocks the owner'] as const)(
    'a block between the owner and a member ends the membership (%s); what they saved stays',
    async (who) => {
      const [owner, member] = await people(2);
      const board = await steps.create(owner!, { name: 'Blocked' });
      await steps.addMember(owner!, board.id, member!);
      const [post] = await insertPostsBy(t.database, member!.uid, 1);
      await steps.save(member!, board.id, post!);
      // Read (and cache) first.
      expect(ids(await steps.picker(member!))).toEqual([board.id]);
      expect(ids((await steps.tab(undefined, member!.username)).boards)).toEqual([board.id]);
      if (who === 'owner blocks the member') await block(owner!, member!);
      else await block(member!, owner!);
      expect((await boardRows(t.database, board.id)).members).toEqual([]);
      expect(await steps.picker(member!)).toEqual([]);
      expect((await steps.tab(undefined, member!.username)).boards).toEqual([]);
      expect((await boardRows(t.database, board.id)).saves).toEqual([{ post_id: post, saved_by: member!.uid }]);
      // The owner still has the board; the member's saved post is hidden from the owner now, and not counted for them.
      expect((await steps.page(owner, owner!.username, board.slug)).count).toBe(0);
      expect((await steps.page(undefined, owner!.username, board.slug)).count).toBe(1);
      expect((await steps.posts(owner, owner!.username, board.slug)).posts).toEqual([]);
    },
  );

  it('members hidden from the viewer are left out of the members list', async () => {
    const [owner, member, viewer] = await people(3);
    const board = await steps.create(owner!, { name: 'Hidden members' });
    await steps.addMember(owner!, board.id, member!);
    expect((await steps.page(viewer, owner!.username, board.slug)).members).toHaveLength(1);
    await block(viewer!, member!);
    expect((await steps.page(viewer, owner!.username, board.slug)).members).toEqual([]);
    expect((await steps.page(owner, owner!.username, board.slug)).members).toHaveLength(1);
  });
});

describe('every write by id', () => {
  it('an unknown board and one the caller may not see answer the same 404 BOARD_NOT_FOUND; an overlong id is 400; signed out 401', async () => {
    const [owner, other] = await people(2);
    const secret = await steps.create(owner!, { name: 'Unseen', secret: true });
    const [post] = await insertPostsBy(t.database, other!.uid, 1);
    const writes: Array<[string, (cookie: string | undefined, id: string) => Promise<LightMyRequestResponse>]> = [
      ['PATCH', (cookie, id) => routes.update(cookie, id, { name: 'x' })],
      ['DELETE', (cookie, id) => routes.delete(cookie, id)],
      ['PUT post', (cookie, id) => routes.save(cookie, id, post!)],
      ['DELETE post', (cookie, id) => routes.unsave(cookie, id, post!)],
      ['PUT member', (cookie, id) => routes.invite(cookie, id, owner!.username)],
      ['DELETE member (someone)', (cookie, id) => routes.removeMember(cookie, id, owner!.username)],
      ['DELETE member (oneself)', (cookie, id) => routes.removeMember(cookie, id, other!.username)],
      ['POST join', (cookie, id) => routes.join(cookie, id)],
    ];
    for (const [name, write] of writes) {
      const missing = await write(other!.cookie, 'nosuchboard');
      expectError(missing, 404, 'BOARD_NOT_FOUND');
      const hidden = await write(other!.cookie, secret.id);
      expect([hidden.statusCode, hidden.body], name).toEqual([missing.statusCode, missing.body]);
      expectError(await write(other!.cookie, 'x'.repeat(65)), 400, 'BAD_REQUEST');
      expectError(await write(undefined, secret.id), 401, 'NOT_SIGNED_IN');
    }
    expect(await boardRows(t.database, secret.id)).toMatchObject({ board: { name: 'Unseen' }, saves: [], members: [] });
  });
});

// ---------------------------------------------------------------- the role table

type Role = 'owner' | 'collaborator' | 'invited' | 'other' | 'signed out';
const ROLES: Role[] = ['owner', 'collaborator', 'invited', 'other', 'signed out'];

/** One board with one of each: its owner, a collaborator, an invitee, a second collaborator (a bystander) and a stranger. */
interface RoleScene {
  owner: Account;
  collaborator: Account;
  invited: Account;
  bystander: Account;
  other: Account;
  board: BoardDetail;
  ownersSave: string;
  collaboratorsSave: string;
  fresh: string;
}

async function roleScene(): Promise<RoleScene> {
  const [owner, collaborator, invited, bystander, other] = await people(5);
  const board = await steps.create(owner!, { name: 'Roles', description: 'before' });
  await steps.addMember(owner!, board.id, collaborator!);
  await steps.addMember(owner!, board.id, bystander!);
  await steps.invite(owner!, board.id, invited!.username);
  const [ownersSave, collaboratorsSave, fresh] = await insertPostsBy(t.database, other!.uid, 3);
  await steps.save(owner!, board.id, ownersSave!);
  await steps.save(collaborator!, board.id, collaboratorsSave!);
  return {
    owner: owner!,
    collaborator: collaborator!,
    invited: invited!,
    bystander: bystander!,
    other: other!,
    board,
    ownersSave: ownersSave!,
    collaboratorsSave: collaboratorsSave!,
    fresh: fresh!,
  };
}

const actorOf = (s: RoleScene, role: Role): Account | undefined =>
  role === 'signed out' ? undefined : role === 'other' ? s.other : s[role];

type Expect = [status: number, code?: ErrorCode];
interface RoleAction {
  action: string;
  send(s: RoleScene, actor: Account | undefined): Promise<LightMyRequestResponse>;
  /** undefined: not an action this role has (the table's "—"). */
  expected: Partial<Record<Role, Expect>>;
  /** What must be stored afterwards, given whether the action went through (and who tried). */
  then(s: RoleScene, done: boolean, role: Role): Promise<void>;
}

const OK: Expect = [200];
const FORBIDDEN: Expect = [403, 'FORBIDDEN'];
const SIGNED_OUT: Expect = [401, 'NOT_SIGNED_IN'];

const savesOf = async (s: RoleScene) => (await boardRows(t.database, s.board.id)).saves.map((row) => row.post_id).sort();
const membersOf = async (s: RoleScene) =>
  (await boardRows(t.database, s.board.id)).members.map((row) => `${row.user_id}:${row.joined}`).sort();
const initialMembers = (s: RoleScene) => [`${s.collaborator.uid}:true`, `${s.bystander.uid}:true`, `${s.invited.uid}:false`].sort();

const ROLE_TABLE: RoleAction[] = [
  {
    action: 'read the board',
    send: (s, actor) => routes.page(actor?.cookie, s.owner.username, s.board.slug),
    expected: { owner: OK, collaborator: OK, invited: OK, other: OK, 'signed out': OK },
    then: async () => undefined,
  },
  {
    action: "read the board's posts",
    send: (s, actor) => routes.posts(actor?.cookie, s.owner.username, s.board.slug),
    expected: { owner: OK, collaborator: OK, invited: OK, other: OK, 'signed out': OK },
    then: async () => undefined,
  },
  {
    action: 'save a post to it',
    send: (s, actor) => routes.save(actor?.cookie, s.board.id, s.fresh),
    expected: { owner: OK, collaborator: OK, invited: FORBIDDEN, other: FORBIDDEN, 'signed out': SIGNED_OUT },
    then: async (s, done) => expect((await savesOf(s)).includes(s.fresh)).toBe(done),
  },
  {
    action: "remove the owner's save",
    send: (s, actor) => routes.unsave(actor?.cookie, s.board.id, s.ownersSave),
    expected: { owner: OK, collaborator: FORBIDDEN, invited: FORBIDDEN, other: FORBIDDEN, 'signed out': SIGNED_OUT },
    then: async (s, done) => expect((await savesOf(s)).includes(s.ownersSave)).toBe(!done),
  },
  {
    action: "remove the collaborator's save",
    send: (s, actor) => routes.unsave(actor?.cookie, s.board.id, s.collaboratorsSave),
    expected: { owner: OK, collaborator: OK, invited: FORBIDDEN, other: FORBIDDEN, 'signed out': SIGNED_OUT },
    then: async (s, done) => expect((await savesOf(s)).includes(s.collaboratorsSave)).toBe(!done),
  },
  {
    action: 'edit name, description, secret and cover',
    send: (s, actor) =>
      routes.update(actor?.cookie, s.board.id, { name: 'Edited', description: 'after', secret: true, coverPostId: s.ownersSave }),
    expected: { owner: OK, collaborator: FORBIDDEN, invited: FORBIDDEN, other: FORBIDDEN, 'signed out': SIGNED_OUT },
    then: async (s, done) =>
      expect((await boardRows(t.database, s.board.id)).board).toMatchObject(
        done
          ? { name: 'Edited', description: 'after', secret: true, cover_post_id: s.ownersSave }
          : { name: 'Roles', description: 'before', secret: false, cover_post_id: null },
      ),
  },
  {
    action: 'delete the board',
    send: (s, actor) => routes.delete(actor?.cookie, s.board.id),
    expected: { owner: [204], collaborator: FORBIDDEN, invited: FORBIDDEN, other: FORBIDDEN, 'signed out': SIGNED_OUT },
    then: async (s, done) => {
      const rows = await boardRows(t.database, s.board.id);
      expect(rows.board === undefined).toBe(done);
      expect(rows.saves).toHaveLength(done ? 0 : 2);
    },
  },
  {
    action: 'invite someone',
    send: (s, actor) => routes.invite(actor?.cookie, s.board.id, s.other.username),
    expected: { owner: OK, collaborator: FORBIDDEN, invited: FORBIDDEN, other: FORBIDDEN, 'signed out': SIGNED_OUT },
    then: async (s, done) =>
      expect(await membersOf(s)).toEqual(done ? [...initialMembers(s), `${s.other.uid}:false`].sort() : initialMembers(s)),
  },
  {
    action: 'remove a member',
    send: (s, actor) => routes.removeMember(actor?.cookie, s.board.id, s.bystander.username),
    expected: { owner: OK, collaborator: FORBIDDEN, invited: FORBIDDEN, other: FORBIDDEN, 'signed out': SIGNED_OUT },
    then: async (s, done) =>
      expect(await membersOf(s)).toEqual(done ? initialMembers(s).filter((m) => !m.startsWith(s.bystander.uid)) : initialMembers(s)),
  },
  {
    action: 'join',
    send: (s, actor) => routes.join(actor?.cookie, s.board.id),
    // The owner's cell is "—": not an action they have.
    expected: { collaborator: OK, invited: OK, other: [403, 'NOT_INVITED'], 'signed out': SIGNED_OUT },
    then: async (s, done, role) => {
      // Only the invitee's row changes (a collaborator joining again is a no-op).
      const joinedNow = initialMembers(s).map((m) => (m === `${s.invited.uid}:false` ? `${s.invited.uid}:true` : m));
      expect(await membersOf(s)).toEqual(done && role === 'invited' ? joinedNow.sort() : initialMembers(s));
    },
  },
  {
    action: 'leave (DELETE their own membership)',
    send: (s, actor) => routes.removeMember(actor?.cookie, s.board.id, (actor ?? s.collaborator).username),
    expected: {
      owner: [400, 'OWNER_CANNOT_LEAVE'],
      collaborator: OK,
      invited: OK,
      other: [404, 'BOARD_NOT_FOUND'],
      'signed out': SIGNED_OUT,
    },
    then: async (s, done, role) => {
      const leaver = done && (role === 'collaborator' || role === 'invited') ? s[role].uid : undefined;
      expect(await membersOf(s)).toEqual(initialMembers(s).filter((m) => !leaver || !m.startsWith(leaver)));
    },
  },
];

describe('the role table (docs/boards.md): every action × owner / collaborator / invited / anyone else / signed out', () => {
  describe.each(ROLE_TABLE)('$action', (row) => {
    it.each(ROLES.filter((role) => row.expected[role]))('as %s', async (role) => {
      const s = await roleScene();
      const [status, code] = row.expected[role]!;
      const response = await row.send(s, actorOf(s, role));
      if (code) expectError(response, status, code);
      else {
        expect(response.statusCode, response.body).toBe(status);
        if (status >= 400) expectClientError(response);
      }
      await row.then(s, status < 300, role);
    });
  });

  it("leaving answers the members as the leaver now sees them: a public board's joined ones, a secret board's none", async () => {
    const [owner, stays, leaves] = await people(3);
    for (const secret of [false, true]) {
      const board = await steps.create(owner!, { secret });
      await steps.addMember(owner!, board.id, stays!);
      await steps.addMember(owner!, board.id, leaves!);
      const response = await routes.removeMember(leaves!.cookie, board.id, leaves!.username);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<{ members: BoardMember[] }>().members.map((m) => m.username)).toEqual(secret ? [] : [stays!.username]);
    }
  });

  it('leaving takes exactly the leaver off the board', async () => {
    for (const role of ['collaborator', 'invited'] as const) {
      const s = await roleScene();
      expect((await routes.removeMember(s[role].cookie, s.board.id, s[role].username)).statusCode).toBe(200);
      expect(await membersOf(s)).toEqual(initialMembers(s).filter((m) => !m.startsWith(s[role].uid)));
    }
  });
});

// ---------------------------------------------------------------- accounts

describe('Delete Account and boards', () => {
  it("deletes the account's boards, its saves on others' boards and its memberships; others' boards stay", async () => {
    const [leaver, friend, author] = await people(3);
    const [post] = await insertPostsBy(t.database, author!.uid, 1);
    const own = await steps.create(leaver!, { name: 'Own' });
    const friends = await steps.create(friend!, { name: 'Friends' });
    await steps.addMember(friend!, friends.id, leaver!);
    await steps.addMember(leaver!, own.id, friend!);
    const [leaversPost] = await insertPostsBy(t.database, leaver!.uid, 1);
    await steps.save(leaver!, friends.id, post!);
    await steps.save(friend!, own.id, post!);
    // The leaver's own post, saved by the friend: it goes with the account, and off the board.
    await steps.save(friend!, friends.id, leaversPost!);
    expect((await steps.page(undefined, friend!.username, friends.slug)).count).toBe(2);

    const response = await t.app.inject({
      method: 'DELETE',
      url: API.me,
      payload: { password: leaver!.password },
      headers: { cookie: leaver!.cookie },
    });
    expect(response.statusCode, response.body).toBe(204);
    expect(await boardRows(t.database, own.id)).toEqual({ board: undefined, saves: [], members: [] });
    expect(await boardRows(t.database, friends.id)).toMatchObject({ saves: [], members: [] });
    expect(await steps.page(undefined, friend!.username, friends.slug)).toMatchObject({ count: 0, cover: null, members: [] });
    expect(ids((await steps.tab(undefined, friend!.username)).boards)).toEqual([friends.id]);
    expect(ids(await steps.picker(friend!))).toEqual([friends.id]);
  });
});
