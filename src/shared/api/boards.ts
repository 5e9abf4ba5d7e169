import { z } from 'zod';
import { ErrorBody, text } from './common.js';
import { ImageSet, PageQuery, PostCard } from './posts.js';
import { defineRoute, PUBLIC, signedIn, verified } from './route.js';
import { UsernameParams } from './users.js';

/**
 * Boards (issue 18). A board belongs to its owner and lives at /@{owner}/boards/{slug}; the API
 * names it by id for writes. Anything the viewer may not see (a secret board they are not a
 * member of, a board of someone hidden from them) is a 404, exactly like one that does not exist.
 */

/** Who the viewer is to a board: what they may do there. */
export const BoardRole = z.enum(['owner', 'collaborator', 'invited', 'viewer']);
export type BoardRole = z.infer<typeof BoardRole>;

export const BoardOwner = z.object({ username: z.string(), icon: z.string().nullable() }).meta({ id: 'BoardOwner' });

/** A board as a tile: the Boards tab and the Save picker. */
export const BoardSummary = z
  .object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    secret: z.boolean(),
    /** Posts on the board (as stored: posts hidden from the viewer still count). */
    count: z.number().int(),
    /** The chosen cover, else the newest saved post the viewer may see; null when none. */
    cover: ImageSet.nullable(),
    owner: BoardOwner,
  })
  .meta({ id: 'BoardSummary' });
export type BoardSummary = z.infer<typeof BoardSummary>;

export const BoardMember = z
  .object({
    username: z.string(),
    icon: z.string().nullable(),
    /** False while only invited. */
    joined: z.boolean(),
  })
  .meta({ id: 'BoardMember' });
export type BoardMember = z.infer<typeof BoardMember>;

export const BoardDetail = BoardSummary.extend({
  description: z.string(),
  /** The post the owner chose as cover, or null for "the newest saved". */
  coverPostId: z.string().nullable(),
  role: BoardRole,
  /**
   * Collaborators: joined ones for everyone who sees the board; the owner and members also see
   * who is invited. Members hidden from the viewer are left out.
   */
  members: z.array(BoardMember),
}).meta({ id: 'BoardDetail' });
export type BoardDetail = z.infer<typeof BoardDetail>;

export const BoardResponse = z.object({ board: BoardDetail });
export type BoardResponse = z.infer<typeof BoardResponse>;

/** GET /api/users/:username/boards: the boards they own or joined, most recently saved to first. */
export const BoardList = z.object({ boards: z.array(BoardSummary), nextCursor: z.string().nullable() });
export type BoardList = z.infer<typeof BoardList>;

/** A post on a board: a grid card, and whether the viewer saved it there (they may then remove it). */
export const BoardPostCard = PostCard.extend({ savedByMe: z.boolean() }).meta({ id: 'BoardPostCard' });
export type BoardPostCard = z.infer<typeof BoardPostCard>;

/** GET /api/users/:username/boards/:slug/posts: newest saved first, with a cursor. */
export const BoardPostPage = z.object({ posts: z.array(BoardPostCard), nextCursor: z.string().nullable() });
export type BoardPostPage = z.infer<typeof BoardPostPage>;

/** One board of the Save picker: the viewer's own and joined boards, most recently used first. */
export const SaveTarget = BoardSummary.extend({
  /** Whether the post asked about (`?post=`) is on this board; false without `post`. */
  hasPost: z.boolean(),
}).meta({ id: 'SaveTarget' });
export type SaveTarget = z.infer<typeof SaveTarget>;

export const SaveTargets = z.object({ boards: z.array(SaveTarget) });
export type SaveTargets = z.infer<typeof SaveTargets>;

export const SaveTargetsQuery = z.strictObject({ post: z.string().min(1).max(64).optional() });

export const CreateBoardBody = z.strictObject({
  name: text(),
  description: text().optional(),
  secret: z.boolean().optional(),
});
export type CreateBoardBody = z.infer<typeof CreateBoardBody>;

/** Only the fields sent change. `coverPostId: null` goes back to "the newest saved post". */
export const UpdateBoardBody = z.strictObject({
  name: text().optional(),
  description: text().optional(),
  secret: z.boolean().optional(),
  coverPostId: z.string().min(1).max(64).nullable().optional(),
});
export type UpdateBoardBody = z.infer<typeof UpdateBoardBody>;

export const BoardParams = z.strictObject({ id: z.string().min(1).max(64) });
export const BoardPostParams = z.strictObject({ id: z.string().min(1).max(64), postId: z.string().min(1).max(64) });
export const BoardMemberParams = z.strictObject({ id: z.string().min(1).max(64), username: z.string().min(1).max(64) });
export const BoardSlugParams = z.strictObject({ username: z.string().min(1).max(64), slug: z.string().min(1).max(200) });

/** After saving or removing a post: whether it is on the board now, and the board's count. */
export const SaveState = z.object({ saved: z.boolean(), count: z.number().int() }).meta({ id: 'SaveState' });
export type SaveState = z.infer<typeof SaveState>;

/** After inviting, removing a member, joining or leaving: the board's members now. */
export const BoardMembers = z.object({ members: z.array(BoardMember) });
export type BoardMembers = z.infer<typeof BoardMembers>;

const tags = ['boards'];
/** Every write: the board may be unseen (404), not the caller's to change (403), or too fast (429). */
const writeErrors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody } as const;

/** Boards (issue 18; docs/boards.md). Reads by owner and slug, writes by id. */
export const boardsApi = {
  userBoards: defineRoute({
    method: 'GET',
    path: '/api/users/:username/boards',
    access: PUBLIC,
    tags,
    summary: 'The boards a user owns or joined that you may see, most recently saved to first (24 a page)',
    params: UsernameParams,
    query: PageQuery,
    responses: { 200: BoardList, 400: ErrorBody, 404: ErrorBody },
  }),
  userBoard: defineRoute({
    method: 'GET',
    path: '/api/users/:username/boards/:slug',
    access: PUBLIC,
    tags,
    summary: 'A board by its owner and slug, with your role on it',
    params: BoardSlugParams,
    responses: { 200: BoardResponse, 400: ErrorBody, 404: ErrorBody },
  }),
  userBoardPosts: defineRoute({
    method: 'GET',
    path: '/api/users/:username/boards/:slug/posts',
    access: PUBLIC,
    tags,
    summary: "A board's posts, newest saved first (50 a page)",
    params: BoardSlugParams,
    query: PageQuery,
    responses: { 200: BoardPostPage, 400: ErrorBody, 404: ErrorBody },
  }),
  saveTargets: defineRoute({
    method: 'GET',
    path: '/api/me/boards',
    access: signedIn(),
    tags,
    summary: 'The Save picker: your own and joined boards, most recently used first, and whether `post` is on each',
    query: SaveTargetsQuery,
    responses: { 200: SaveTargets, 400: ErrorBody, 401: ErrorBody },
  }),
  createBoard: defineRoute({
    method: 'POST',
    path: '/api/boards',
    access: signedIn(),
    tags,
    summary: 'Make a board',
    body: CreateBoardBody,
    responses: { 201: BoardResponse, 400: ErrorBody, 401: ErrorBody, 409: ErrorBody, 429: ErrorBody },
  }),
  updateBoard: defineRoute({
    method: 'PATCH',
    path: '/api/boards/:id',
    access: signedIn(),
    tags,
    summary: 'Rename, describe, make secret or not, choose the cover (owner)',
    params: BoardParams,
    body: UpdateBoardBody,
    responses: { 200: BoardResponse, ...writeErrors, 409: ErrorBody },
  }),
  deleteBoard: defineRoute({
    method: 'DELETE',
    path: '/api/boards/:id',
    access: signedIn(),
    tags,
    summary: 'Delete a board (owner); the posts on it stay',
    params: BoardParams,
    responses: { 204: z.null(), ...writeErrors },
  }),
  savePost: defineRoute({
    method: 'PUT',
    path: '/api/boards/:id/posts/:postId',
    access: verified(),
    tags,
    summary: 'Save a post to a board (owner, collaborators); idempotent',
    params: BoardPostParams,
    responses: { 200: SaveState, ...writeErrors, 409: ErrorBody },
  }),
  unsavePost: defineRoute({
    method: 'DELETE',
    path: '/api/boards/:id/posts/:postId',
    access: signedIn(),
    tags,
    summary: 'Remove a post from a board (owner: any; collaborator: what they saved); idempotent',
    params: BoardPostParams,
    responses: { 200: SaveState, ...writeErrors },
  }),
  inviteMember: defineRoute({
    method: 'PUT',
    path: '/api/boards/:id/members/:username',
    access: verified(),
    tags,
    summary: 'Invite someone to a board (owner); idempotent',
    params: BoardMemberParams,
    responses: { 200: BoardMembers, ...writeErrors, 409: ErrorBody },
  }),
  removeMember: defineRoute({
    method: 'DELETE',
    path: '/api/boards/:id/members/:username',
    access: signedIn(),
    tags,
    summary: 'Remove a member (owner), or leave / decline with your own username',
    params: BoardMemberParams,
    responses: { 200: BoardMembers, ...writeErrors },
  }),
  joinBoard: defineRoute({
    method: 'POST',
    path: '/api/boards/:id/join',
    access: signedIn(),
    tags,
    summary: 'Join a board you were invited to',
    params: BoardParams,
    responses: { 200: BoardMembers, ...writeErrors },
  }),
} as const;
