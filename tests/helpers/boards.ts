import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Database } from '../../src/server/db/database.js';
import type { BoardDetail, BoardList, BoardMember, BoardPostPage, SaveState, SaveTargets } from '../../src/shared/api/boards.js';
import { API } from '../../src/shared/api/paths.js';
import { insertPosts, query } from './people.js';

/**
 * Boards (issue 18) for the API tests: one function per route (the raw response, for tests of
 * refusals), the same with the success checked (for setting a scene up), and bulk rows straight
 * into the database for the limits and paging.
 */

const withCookie = (cookie: string | undefined) => (cookie ? { cookie } : {});

/** Someone who can act: a session cookie and who they are. */
export interface Actor {
  uid: string;
  username: string;
  cookie: string;
}

export interface BoardFields {
  name?: unknown;
  description?: unknown;
  secret?: unknown;
  coverPostId?: unknown;
  [extra: string]: unknown;
}

/** The raw routes: every one answers a response, whatever it is. */
export function boardRoutes(app: FastifyInstance) {
  return {
    create: (cookie: string | undefined, body: BoardFields | string) =>
      app.inject({
        method: 'POST',
        url: API.boards,
        payload: body as object,
        headers: { ...withCookie(cookie), 'content-type': 'application/json' },
      }),
    update: (cookie: string | undefined, id: string, body: BoardFields | string) =>
      app.inject({
        method: 'PATCH',
        url: API.board(id),
        payload: body as object,
        headers: { ...withCookie(cookie), 'content-type': 'application/json' },
      }),
    delete: (cookie: string | undefined, id: string) => app.inject({ method: 'DELETE', url: API.board(id), headers: withCookie(cookie) }),
    save: (cookie: string | undefined, id: string, postId: string) =>
      app.inject({ method: 'PUT', url: API.boardPost(id, postId), headers: withCookie(cookie) }),
    unsave: (cookie: string | undefined, id: string, postId: string) =>
      app.inject({ method: 'DELETE', url: API.boardPost(id, postId), headers: withCookie(cookie) }),
    invite: (cookie: string | undefined, id: string, username: string) =>
      app.inject({ method: 'PUT', url: API.boardMember(id, username), headers: withCookie(cookie) }),
    /** The owner removes a member; a member with their own name leaves (or declines). */
    removeMember: (cookie: string | undefined, id: string, username: string) =>
      app.inject({ method: 'DELETE', url: API.boardMember(id, username), headers: withCookie(cookie) }),
    join: (cookie: string | undefined, id: string) => app.inject({ method: 'POST', url: API.boardJoin(id), headers: withCookie(cookie) }),
    page: (cookie: string | undefined, username: string, slug: string) =>
      app.inject({ method: 'GET', url: API.userBoard(username, slug), headers: withCookie(cookie) }),
    posts: (cookie: string | undefined, username: string, slug: string, cursor?: string) =>
      app.inject({
        method: 'GET',
        url: `${API.userBoardPosts(username, slug)}${cursor === undefined ? '' : `?cursor=${encodeURIComponent(cursor)}`}`,
        headers: withCookie(cookie),
      }),
    tab: (cookie: string | undefined, username: string, cursor?: string) =>
      app.inject({
        method: 'GET',
        url: `${API.userBoards(username)}${cursor === undefined ? '' : `?cursor=${encodeURIComponent(cursor)}`}`,
        headers: withCookie(cookie),
      }),
    picker: (cookie: string | undefined, postId?: string) =>
      app.inject({ method: 'GET', url: API.saveTargets(postId), headers: withCookie(cookie) }),
  };
}

function ok<T>(response: LightMyRequestResponse, status = 200): T {
  expect(response.statusCode, response.body).toBe(status);
  return response.json<T>();
}

/** The same routes for setting scenes up: each checks it succeeded and answers the body. */
export function boardSteps(app: FastifyInstance) {
  const routes = boardRoutes(app);
  return {
    create: async (owner: Actor, body: BoardFields = {}) =>
      ok<{ board: BoardDetail }>(
        await routes.create(owner.cookie, { name: `Board ${Math.random().toString(36).slice(2, 10)}`, ...body }),
        201,
      ).board,
    update: async (owner: Actor, id: string, body: BoardFields) =>
      ok<{ board: BoardDetail }>(await routes.update(owner.cookie, id, body)).board,
    save: async (who: Actor, id: string, postId: string) => ok<SaveState>(await routes.save(who.cookie, id, postId)),
    unsave: async (who: Actor, id: string, postId: string) => ok<SaveState>(await routes.unsave(who.cookie, id, postId)),
    invite: async (owner: Actor, id: string, username: string) =>
      ok<{ members: BoardMember[] }>(await routes.invite(owner.cookie, id, username)).members,
    join: async (who: Actor, id: string) => ok<{ members: BoardMember[] }>(await routes.join(who.cookie, id)).members,
    /** Invited by the owner, and joined. */
    addMember: async (owner: Actor, id: string, member: Actor) => {
      ok(await routes.invite(owner.cookie, id, member.username));
      return ok<{ members: BoardMember[] }>(await routes.join(member.cookie, id)).members;
    },
    page: async (viewer: Actor | undefined, username: string, slug: string) =>
      ok<{ board: BoardDetail }>(await routes.page(viewer?.cookie, username, slug)).board,
    posts: async (viewer: Actor | undefined, username: string, slug: string, cursor?: string) =>
      ok<BoardPostPage>(await routes.posts(viewer?.cookie, username, slug, cursor)),
    tab: async (viewer: Actor | undefined, username: string, cursor?: string) =>
      ok<BoardList>(await routes.tab(viewer?.cookie, username, cursor)),
    picker: async (viewer: Actor, postId?: string) => ok<SaveTargets>(await routes.picker(viewer.cookie, postId)).boards,
  };
}

let serial = 0;
const tag = () => {
  serial += 1;
  return `${process.pid % 1000}x${serial}`;
};

/** `count` posts by `userId` in one statement, a second apart (the last is the newest); their ids in order. */
export async function insertPostsBy(database: Database, userId: string, count: number): Promise<string[]> {
  const prefix = `bp${tag()}n`;
  const ids = Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(5, '0')}`);
  const base = Date.UTC(2025, 0, 1);
  await insertPosts(
    database,
    ids.map((id, i) => ({ id, userId, at: new Date(base + i * 1000).toISOString() })),
  );
  return ids;
}

/**
 * Saves rows straight into board_posts in one statement (the triggers keep the board's count and
 * last_saved_at), `seconds` after a fixed instant each: the later, the newer.
 */
export async function insertSaves(database: Database, boardId: string, savedBy: string, postIds: string[], seconds?: number[]) {
  const base = Date.UTC(2025, 5, 1);
  await query(
    database,
    `INSERT INTO board_posts (board_id, post_id, saved_by, saved_at)
     SELECT $1, post_id, $2, saved_at FROM unnest($3::text[], $4::timestamptz[]) AS t(post_id, saved_at)`,
    [boardId, savedBy, postIds, postIds.map((_, i) => new Date(base + (seconds?.[i] ?? i) * 1000).toISOString())],
  );
}

/**
 * `count` boards of `ownerId` in one statement, named "{prefix} 0000"…, with last_saved_at a
 * second apart (the last the most recently saved to); their ids in order.
 */
export async function insertBoards(database: Database, ownerId: string, count: number, prefix = 'bulk'): Promise<string[]> {
  const idPrefix = `bb${tag()}n`;
  const rows = Array.from({ length: count }, (_, i) => {
    const n = String(i).padStart(4, '0');
    return { id: `${idPrefix}${n}`, name: `${prefix} ${n}`, slug: `${prefix}-${n}`.toLowerCase() };
  });
  const base = Date.UTC(2025, 0, 1);
  await query(
    database,
    `INSERT INTO boards (id, owner_id, name, slug, created_at, last_saved_at)
     SELECT id, $1, name, slug, at, at FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[]) AS t(id, name, slug, at)`,
    [
      ownerId,
      rows.map((row) => row.id),
      rows.map((row) => row.name),
      rows.map((row) => row.slug),
      rows.map((_, i) => new Date(base + i * 1000).toISOString()),
    ],
  );
  return rows.map((row) => row.id);
}

/** A board's rows as stored: the board (or undefined), its saves and its members. */
export async function boardRows(database: Database, id: string) {
  const [board] = await query<{
    name: string;
    slug: string;
    description: string;
    secret: boolean;
    cover_post_id: string | null;
    post_count: number;
  }>(database, 'SELECT name, slug, description, secret, cover_post_id, post_count FROM boards WHERE id = $1', [id]);
  const saves = await query<{ post_id: string; saved_by: string }>(
    database,
    'SELECT post_id, saved_by FROM board_posts WHERE board_id = $1 ORDER BY saved_at DESC, post_id DESC',
    [id],
  );
  const members = await query<{ user_id: string; joined: boolean }>(
    database,
    'SELECT user_id, joined_at IS NOT NULL AS joined FROM board_members WHERE board_id = $1 ORDER BY user_id',
    [id],
  );
  return { board, saves, members };
}

/** How many boards `ownerId` has, as stored. */
export async function boardCount(database: Database, ownerId: string): Promise<number> {
  return (await query(database, 'SELECT 1 FROM boards WHERE owner_id = $1', [ownerId])).length;
}
