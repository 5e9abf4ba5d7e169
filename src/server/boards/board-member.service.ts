import type { BoardMembers } from '../../shared/api/boards.js';
import { BOARD_MEMBERS_MAX } from '../../shared/limits.js';
import type { RateLimitConfig } from '../config.js';
import type { ChangeNotices } from '../db/change-notices.js';
import type { AppDb } from '../db/database.js';
import type { Viewer } from '../http/viewer.js';
import type { UserDirectory } from '../directory/user-directory.js';
import { normalizeUsername } from '../directory/username.js';
import { AppError } from '../http/app-error.js';
import type { RateLimiter } from '../http/rate-limiter.js';
import { BoardAccess, boardChange, eventBoard, type BoardSeen } from './board-access.js';
import type { Notifier } from '../notifications/notifier.js';
import { visibleMembers } from './board-json.js';
import { countBoardWrite } from './board-writes.js';
import * as queries from './board.queries.js';

/**
 * Shared boards (issue 18): the owner invites people by username; an invitee joins (or declines
 * by leaving); a collaborator may leave; the owner removes anyone. Each answers the members as
 * the caller now sees them.
 */
export class BoardMemberService {
  private readonly access: BoardAccess;

  constructor(
    private readonly db: AppDb,
    private readonly directory: UserDirectory,
    private readonly changes: ChangeNotices,
    private readonly limiter: RateLimiter,
    private readonly limits: RateLimitConfig,
    private readonly notifier: Notifier,
  ) {
    this.access = new BoardAccess(db, directory.visibility);
  }

  /**
   * Owner only; inviting a member again changes nothing. The invitee must be someone the owner
   * sees (a blocked or suspended account is not found), and never the owner.
   */
  async invite(viewer: Viewer, id: string, rawUsername: string): Promise<BoardMembers> {
    const found = await this.access.forAction(id, viewer.id, ['owner']);
    if (normalizeUsername(rawUsername) === viewer.username) throw new AppError(400, 'CANNOT_INVITE_YOURSELF');
    const invitee = await this.directory.publicUser(rawUsername, viewer.id);
    if (!found.seen.sees(invitee.id)) throw new AppError(404, 'USER_NOT_FOUND');
    await this.count(viewer);
    await this.changes.transaction(async (tx, note) => {
      await queries.lockBoard(tx, id);
      if (await queries.isMember(tx, id, invitee.id)) return;
      if ((await queries.memberCount(tx, id)) >= BOARD_MEMBERS_MAX) throw new AppError(409, 'TOO_MANY_COLLABORATORS');
      await queries.insertMember(tx, id, invitee.id);
      await note(viewer, boardChange(viewer, found));
      await this.notifier.tell(tx, note, { kind: 'board_invite', to: invitee.id, actor: viewer, board: eventBoard(found.board) });
    });
    return this.members(found);
  }

  /**
   * Leaving (or declining) is the member's own name; removing someone else is the owner's. The
   * owner cannot leave. Idempotent for the owner: removing someone who is not a member is fine.
   */
  async remove(viewer: Viewer, id: string, rawUsername: string): Promise<BoardMembers> {
    const username = normalizeUsername(rawUsername);
    const found = await this.access.byId(id, viewer.id);
    if (username === viewer.username) {
      if (found.role === 'owner') throw new AppError(400, 'OWNER_CANNOT_LEAVE');
      // Someone who only sees a public board has no membership to leave.
      if (found.role === 'viewer') throw new AppError(404, 'BOARD_NOT_FOUND');
    } else if (found.role !== 'owner') {
      throw new AppError(403, 'FORBIDDEN');
    }
    await this.count(viewer);
    await this.changes.transaction(async (tx, note) => {
      await queries.deleteMember(tx, id, username);
      await note(viewer, boardChange(viewer, found));
      // An invitation gone, or a secret board left: what they were told of it goes too.
      await this.notifier.forgetUnseenBoardRows(tx, note, viewer, id);
      if (username === viewer.username) {
        const kind = found.role === 'invited' ? 'board_declined' : 'board_left';
        await this.notifier.tell(tx, note, { kind, to: found.board.ownerId, actor: viewer, board: eventBoard(found.board) });
      }
    });
    if (username !== viewer.username) return this.members(found);
    // Who left sees the board as anyone else now: a public one's joined members; a secret one not at all.
    const now = await this.access.byId(id, viewer.id).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'BOARD_NOT_FOUND') return undefined;
      throw error;
    });
    return now ? this.members(now) : { members: [] };
  }

  /** An invitee joins; joining again changes nothing. Without an invitation: 403. */
  async join(viewer: Viewer, id: string): Promise<BoardMembers> {
    const found = await this.access.byId(id, viewer.id);
    if (found.role === 'viewer') throw new AppError(403, 'NOT_INVITED');
    if (found.role === 'invited') {
      await this.count(viewer);
      await this.changes.transaction(async (tx, note) => {
        await queries.joinBoard(tx, id, viewer.id);
        await note(viewer, boardChange(viewer, found));
        // Answered, from the row or the board's page alike: the invitation is read.
        await this.notifier.invitationAnswered(tx, note, viewer, id);
        await this.notifier.tell(tx, note, {
          kind: 'board_joined',
          to: found.board.ownerId,
          actor: viewer,
          board: eventBoard(found.board),
        });
      });
    }
    return this.members({ ...found, role: found.role === 'invited' ? 'collaborator' : found.role });
  }

  private async members({ board, role, seen }: BoardSeen): Promise<BoardMembers> {
    return { members: visibleMembers(await queries.membersOf(this.db, board.id), role, seen) };
  }

  private count(viewer: Viewer) {
    return countBoardWrite(this.limiter, this.limits, viewer.id);
  }
}
