import type { BoardRole } from '../../shared/api/boards.js';
import type { Change } from '../cache/changes.js';
import type { AppDb } from '../db/database.js';
import { boardSeen, type SeenBy, type Visibility } from '../directory/visibility.js';
import { AppError } from '../http/app-error.js';
import * as queries from './board.queries.js';
import type { EventBoard } from '../notifications/notifier.js';

/** A board as one viewer found it: what it is, who they are to it, and what they see. */
export interface BoardSeen {
  board: queries.BoardRow;
  role: BoardRole;
  seen: SeenBy;
  /** Everyone invited to or joined to it (whose Boards tabs a change to it may change). */
  memberUsernames: string[];
}

export function roleOf(board: queries.BoardRow, viewerId: string | undefined, membership: queries.Membership): BoardRole {
  if (board.ownerId === viewerId) return 'owner';
  if (membership === 'joined') return 'collaborator';
  return membership === 'invited' ? 'invited' : 'viewer';
}

/**
 * Finds a board for a write, from the database (never a cache), through the one visibility rule:
 * a board that does not exist and a board the viewer may not see are the same 404, so a secret
 * board's existence never leaks. Reads go through BoardReads.
 */
export class BoardAccess {
  constructor(
    private readonly db: AppDb,
    private readonly visibility: Visibility,
  ) {}

  async byId(id: string, viewerId: string | undefined): Promise<BoardSeen> {
    return this.decide(await queries.findBoard(this.db, id, viewerId), viewerId);
  }

  /** The board if the viewer's role is one of `roles`; else 403 (they see it, but may not do that). */
  async forAction(id: string, viewerId: string, roles: readonly BoardRole[]): Promise<BoardSeen> {
    const found = await this.byId(id, viewerId);
    if (!roles.includes(found.role)) throw new AppError(403, 'FORBIDDEN');
    return found;
  }

  private async decide(
    row: { board: queries.BoardRow; membership: queries.Membership; memberUsernames: string[] } | undefined,
    viewerId: string | undefined,
  ): Promise<BoardSeen> {
    const seen = await this.visibility.seenBy(viewerId);
    if (!row || !boardSeen(seen, viewerId, row.board, row.membership !== null)) throw new AppError(404, 'BOARD_NOT_FOUND');
    return { board: row.board, role: roleOf(row.board, viewerId, row.membership), seen, memberUsernames: row.memberUsernames };
  }
}

/** A board as a change to it names it: the board and everyone invited to or joined to it. */
export type ChangedBoard = {
  board: Pick<queries.BoardRow, 'id' | 'slug' | 'ownerId' | 'ownerUsername'>;
  memberUsernames: string[];
};

/**
 * What a write to a board changes, for the caches (and the other processes): its entry, its
 * addresses before and after a rename, and the Boards tabs of its owner and everyone invited or
 * joined.
 */
export function boardChange(actor: { id: string }, found: ChangedBoard, newSlug?: string): Change {
  const { board } = found;
  return {
    kind: 'board',
    boardId: board.id,
    actorId: actor.id,
    ownerId: board.ownerId,
    ownerUsername: board.ownerUsername,
    slugs: newSlug ? [board.slug, newSlug] : [board.slug],
    usernames: [board.ownerUsername, ...found.memberUsernames],
  };
}

/** A board as a notification of it names it (notifications/notifier.ts). */
export function eventBoard(board: Pick<queries.BoardRow, 'id' | 'name' | 'slug' | 'ownerUsername' | 'secret'>): EventBoard {
  return { id: board.id, name: board.name, slug: board.slug, ownerUsername: board.ownerUsername, secret: board.secret };
}
