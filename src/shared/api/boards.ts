import { z } from 'zod';
import { ImageSet, PostCard } from './posts.js';
import { text } from './common.js';

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
