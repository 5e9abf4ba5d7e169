import type { BoardRole } from '../../shared/api/boards.js';
import type { AppDb } from '../db/database.js';
import { boardSeen, type SeenBy, type Visibility } from '../directory/visibility.js';
import { normalizeUsername } from '../directory/username.js';
import { AppError } from '../http/app-error.js';
import * as queries from './board.queries.js';

/** A board as one viewer found it: what it is, who they are to it, and what they see. */
export interface BoardSeen {
  board: queries.BoardRow;
  role: BoardRole;
  seen: SeenBy;
}

export function roleOf(board: queries.BoardRow, viewerId: string | undefined, membership: queries.Membership): BoardRole {
  if (board.ownerId === viewerId) return 'owner';
  if (membership === 'joined') return 'collaborator';
  return membership === 'invited' ? 'invited' : 'viewer';
}

/**
 * Finds boards for a viewer through the one visibility rule: a board that does not exist and a
 * board the viewer may not see are the same 404, so a secret board's existence never leaks.
 */
export class BoardAccess {
  constructor(
    private readonly db: AppDb,
    private readonly visibility: Visibility,
  ) {}

  async byId(id: string, viewerId: string | undefined): Promise<BoardSeen> {
    return this.decide(await queries.findBoard(this.db, id, viewerId), viewerId);
  }

  async bySlug(rawUsername: string, slug: string, viewerId: string | undefined): Promise<BoardSeen> {
    // Slugs are stored lower-case (boardSlug): an address typed with capitals still finds it.
    return this.decide(await queries.findBoardBySlug(this.db, normalizeUsername(rawUsername), slug.toLowerCase(), viewerId), viewerId);
  }

  /** The board if the viewer's role is one of `roles`; else 403 (they see it, but may not do that). */
  async forAction(id: string, viewerId: string, roles: readonly BoardRole[]): Promise<BoardSeen> {
    const found = await this.byId(id, viewerId);
    if (!roles.includes(found.role)) throw new AppError(403, 'FORBIDDEN');
    return found;
  }

  private async decide(
    row: { board: queries.BoardRow; membership: queries.Membership } | undefined,
    viewerId: string | undefined,
  ): Promise<BoardSeen> {
    const seen = await this.visibility.seenBy(viewerId);
    if (!row || !boardSeen(seen, viewerId, row.board, row.membership !== null)) throw new AppError(404, 'BOARD_NOT_FOUND');
    return { board: row.board, role: roleOf(row.board, viewerId, row.membership), seen };
  }
}
