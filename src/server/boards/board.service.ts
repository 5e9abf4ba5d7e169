import type {
  BoardList,
  BoardPostPage,
  BoardResponse,
  CreateBoardBody,
  SaveState,
  SaveTargets,
  UpdateBoardBody,
} from '../../shared/api/boards.js';
import type { ErrorCode } from '../../shared/errors.js';
import { BOARD_POSTS_MAX, BOARDS_PER_USER_MAX } from '../../shared/limits.js';
import { normalizeBoardName, validateBoardDescription, validateBoardName } from '../../shared/validation/board.js';
import type { ReadCache } from '../cache/read-cache.js';
import type { RateLimitConfig } from '../config.js';
import type { ChangeNotices } from '../db/change-notices.js';
import type { AppDb } from '../db/database.js';
import type { Viewer } from '../http/viewer.js';
import { hasSqlState } from '../db/sql-state.js';
import type { UserDirectory } from '../directory/user-directory.js';
import type { SeenBy } from '../directory/visibility.js';
import { AppError } from '../http/app-error.js';
import type { RateLimiter } from '../http/rate-limiter.js';
import { newId } from '../ids.js';
import { BoardAccess, boardChange, eventBoard, type BoardSeen } from './board-access.js';
import { BoardCounts } from './board-counts.js';
import { BoardReads } from './board-reads.js';
import { keepsAddress, slugOf } from './board-slug.js';
import { toDetail, toSummary, visibleMembers } from './board-json.js';
import { countBoardWrite } from './board-writes.js';
import * as queries from './board.queries.js';
import type { Notifier } from '../notifications/notifier.js';

const UNIQUE_VIOLATION = '23505';
const CHECK_VIOLATION = '23514';
const FOREIGN_KEY_VIOLATION = '23503';
/** The Save picker lists at most this many boards: 500 of one's own and the boards one joined. */
const SAVE_TARGETS_MAX = 1_000;

/**
 * Boards (issue 18; docs/boards.md): reading them through the one visibility rule, making and
 * editing them, saving posts to them. Members (invite, join, leave) are BoardMemberService's.
 */
export class BoardService {
  private readonly access: BoardAccess;

  private readonly reads: BoardReads;

  private readonly counts: BoardCounts;

  constructor(
    private readonly db: AppDb,
    private readonly directory: UserDirectory,
    cache: ReadCache,
    private readonly changes: ChangeNotices,
    private readonly limiter: RateLimiter,
    private readonly limits: RateLimitConfig,
    private readonly notifier: Notifier,
  ) {
    this.access = new BoardAccess(db, directory.visibility);
    this.counts = new BoardCounts(db, cache);
    this.reads = new BoardReads(db, cache, directory, this.counts);
  }

  /** The Boards tab: the boards the user owns or joined that the viewer sees, 24 at a time. */
  boardsOf(rawUsername: string, viewer: Viewer | null, cursor: string | undefined): Promise<BoardList> {
    return this.reads.boardsOf(rawUsername, viewer?.id, cursor);
  }

  board(rawUsername: string, slug: string, viewer: Viewer | null): Promise<BoardResponse> {
    return this.reads.board(rawUsername, slug, viewer?.id);
  }

  /** A board's posts whose authors the viewer sees, newest saved first, 50 at a time. */
  posts(rawUsername: string, slug: string, viewer: Viewer | null, cursor: string | undefined): Promise<BoardPostPage> {
    return this.reads.posts(rawUsername, slug, viewer?.id, cursor);
  }

  /** The Save picker: the viewer's own and joined boards, and whether the post is on each. */
  async saveTargets(viewer: Viewer, postId: string | undefined): Promise<SaveTargets> {
    const seen = await this.directory.visibility.seenBy(viewer.id);
    const rows = await queries.saveTargets(this.db, viewer.id, seen, postId, SAVE_TARGETS_MAX);
    const [covers, counts] = await Promise.all([
      queries.coversOf(
        this.db,
        rows.map((row) => row.board.id),
        seen,
      ),
      this.counts.of(
        rows.map((row) => row.board),
        seen,
      ),
    ]);
    return {
      boards: rows.map((row, i) => ({ ...toSummary(row.board, covers.get(row.board.id), counts[i]!), hasPost: row.hasPost })),
    };
  }

  async create(viewer: Viewer, body: CreateBoardBody): Promise<BoardResponse> {
    const name = normalizeBoardName(body.name);
    const description = body.description ?? '';
    refuse(validateBoardName(name) ?? validateBoardDescription(description));
    await this.count(viewer);
    const id = newId();
    await this.changes.transaction(async (tx, note) => {
      await queries.lockOwner(tx, viewer.id);
      if ((await queries.boardCount(tx, viewer.id)) >= BOARDS_PER_USER_MAX) throw new AppError(409, 'TOO_MANY_BOARDS');
      const slug = await slugFor(tx, viewer.id, name, id);
      await nameTaken(queries.insertBoard(tx, { id, ownerId: viewer.id, name, slug, description, secret: body.secret ?? false }));
      const board = { id, slug, ownerId: viewer.id, ownerUsername: viewer.username };
      await note(viewer, boardChange(viewer, { board, memberUsernames: [] }));
    });
    return this.detail(await this.access.byId(id, viewer.id));
  }

  /** Owner only. A new name gives a new slug (the client follows it to the new address). */
  async update(viewer: Viewer, id: string, body: UpdateBoardBody): Promise<BoardResponse> {
    const found = await this.access.forAction(id, viewer.id, ['owner']);
    const { board } = found;
    const name = body.name === undefined ? undefined : normalizeBoardName(body.name);
    refuse(
      (name === undefined ? null : validateBoardName(name)) ??
        (body.description === undefined ? null : validateBoardDescription(body.description)),
    );
    if (body.coverPostId && !(await queries.isOnBoard(this.db, id, body.coverPostId))) throw new AppError(400, 'COVER_NOT_ON_BOARD');
    await this.count(viewer);
    await this.changes.transaction(async (tx, note) => {
      let slug: string | undefined;
      if (name !== undefined && name !== board.name) {
        await queries.lockOwner(tx, viewer.id);
        // A new name that makes the same words (a change of case, say) keeps the address.
        slug = keepsAddress(board.slug, name, id) ? undefined : await slugFor(tx, viewer.id, name, id);
      }
      const update = queries.updateBoard(tx, id, {
        name,
        slug,
        description: body.description,
        secret: body.secret,
        coverPostId: body.coverPostId,
      });
      // The cover left the board between the check and now: the foreign key refuses it.
      await nameTaken(update).catch((error: unknown) => {
        throw hasSqlState(error, FOREIGN_KEY_VIOLATION) ? new AppError(400, 'COVER_NOT_ON_BOARD') : error;
      });
      // Made secret: who was told of a save to it and is not a member is told of it no more.
      if (body.secret === true && !board.secret) await this.notifier.forgetUnseenBoardRows(tx, note, viewer, id);
      await note(viewer, boardChange(viewer, found, slug));
    });
    return this.detail(await this.access.byId(id, viewer.id));
  }

  /** Owner only: the board, its saves and memberships go; the posts stay where they are. */
  async delete(viewer: Viewer, id: string): Promise<void> {
    const found = await this.access.forAction(id, viewer.id, ['owner']);
    await this.count(viewer);
    await this.changes.transaction(async (tx, note) => {
      await this.notifier.forgetBoard(tx, note, viewer, id);
      await queries.deleteBoard(tx, id);
      await note(viewer, boardChange(viewer, found));
    });
  }

  /**
   * Owner and collaborators; idempotent. The saver must see the post (its author is not hidden
   * from them); a post already on the board answers the same, even on a full board.
   */
  async save(viewer: Viewer, id: string, postId: string): Promise<SaveState> {
    const found = await this.access.forAction(id, viewer.id, ['owner', 'collaborator']);
    const { board, seen } = found;
    const authorId = await this.visiblePost(postId, seen);
    if (await queries.isOnBoard(this.db, id, postId)) return { saved: true, count: await this.countFor(id, seen) };
    if (board.postCount >= BOARD_POSTS_MAX) throw new AppError(409, 'BOARD_FULL');
    await this.count(viewer);
    try {
      await this.changes.transaction(async (tx, note) => {
        const added = await queries.insertSave(tx, id, postId, viewer.id);
        await note(viewer, boardChange(viewer, found));
        // A save to a secret board is never told to anyone outside it.
        if (added && (!board.secret || board.ownerId === authorId || (await queries.isMember(tx, id, authorId))))
          await this.notifier.tell(tx, note, { kind: 'save', to: authorId, actor: viewer, postId, board: eventBoard(board) });
      });
    } catch (error) {
      // Two saves raced for the last place: the CHECK on post_count let one win.
      if (hasSqlState(error, CHECK_VIOLATION)) throw new AppError(409, 'BOARD_FULL');
      // The post was deleted a moment ago.
      if (hasSqlState(error, FOREIGN_KEY_VIOLATION)) throw new AppError(404, 'POST_NOT_FOUND');
      throw error;
    }
    return { saved: true, count: await this.countFor(id, seen) };
  }

  /** The owner removes anything; a collaborator only what they saved. Idempotent. */
  async unsave(viewer: Viewer, id: string, postId: string): Promise<SaveState> {
    const found = await this.access.forAction(id, viewer.id, ['owner', 'collaborator']);
    const { role, seen } = found;
    if (role === 'collaborator') {
      const saver = await queries.saverOf(this.db, id, postId);
      if (saver !== undefined && saver !== viewer.id) throw new AppError(403, 'FORBIDDEN');
    }
    await this.count(viewer);
    await this.changes.transaction(async (tx, note) => {
      if (await queries.deleteSave(tx, id, postId, role === 'owner' ? undefined : viewer.id))
        await note(viewer, boardChange(viewer, found));
    });
    return { saved: false, count: await this.countFor(id, seen) };
  }

  /** The board's count as it is now, as the viewer may see it (the stored count, less the hidden). */
  private async countFor(id: string, seen: SeenBy): Promise<number> {
    return (await this.counts.of([{ id, postCount: await queries.postCountOf(this.db, id) }], seen))[0]!;
  }

  /** The board just written, from the database (the writer reads their own write). */
  private async detail({ board, role, seen }: BoardSeen): Promise<BoardResponse> {
    const [covers, members, [count]] = await Promise.all([
      queries.coversOf(this.db, [board.id], seen),
      queries.membersOf(this.db, board.id),
      this.counts.of([board], seen),
    ]);
    return { board: toDetail(board, covers.get(board.id), count!, role, visibleMembers(members, role, seen)) };
  }

  /** A post that exists and whose author the viewer sees; else the post's 404. */
  /** The post's author, when the viewer sees the post; else 404. */
  private async visiblePost(postId: string, seen: SeenBy): Promise<string> {
    const authorId = await queries.authorOfPost(this.db, postId);
    if (authorId === undefined || !seen.sees(authorId)) throw new AppError(404, 'POST_NOT_FOUND');
    return authorId;
  }

  private count(viewer: Viewer) {
    return countBoardWrite(this.limiter, this.limits, viewer.id);
  }
}

function refuse(problem: ErrorCode | null) {
  if (problem) throw new AppError(400, problem);
}

/**
 * The same name as another of the owner's boards, ignoring case, or one that looks like it (a
 * Cyrillic а, a full-width letter, a zero-width space: lookalikes/skeleton.ts): the unique indexes decide.
 */
async function nameTaken(write: Promise<void>): Promise<void> {
  try {
    await write;
  } catch (error) {
    if (hasSqlState(error, UNIQUE_VIOLATION)) throw new AppError(409, 'BOARD_NAME_TAKEN');
    throw error;
  }
}

/**
 * The board's slug from its name and its own id (board-slug.ts), never from the owner's other
 * boards; the long form only when an older board of theirs has the short one as its slug.
 */
async function slugFor(tx: Parameters<typeof queries.slugTaken>[0], ownerId: string, name: string, id: string): Promise<string> {
  const slug = slugOf(name, id);
  return (await queries.slugTaken(tx, ownerId, slug, id)) ? slugOf(name, id, true) : slug;
}
