import type { BlockedAccounts, BlockState } from '../../shared/api/users.js';
import type { RateLimitConfig } from '../config.js';
import type { ChangeNotices, Note } from '../db/change-notices.js';
import type { AppDb } from '../db/database.js';
import type { Viewer } from '../http/viewer.js';
import { iconUrl } from '../directory/icon-images.js';
import type { PublicUserRow } from '../directory/directory.queries.js';
import type { UserDirectory } from '../directory/user-directory.js';
import { normalizeUsername } from '../directory/username.js';
import { forgetBetween } from '../notifications/activity.queries.js';
import { AppError } from '../http/app-error.js';
import type { RateLimiter } from '../http/rate-limiter.js';
import * as queries from './block.queries.js';

/**
 * Blocks (issue 17): a block hides each user from the other (directory/visibility.ts) and
 * removes the follows between them both ways; neither can follow the other until it is undone.
 * Undoing it restores visibility only, never the follows. Both calls are idempotent and answer
 * the state afterwards.
 */
export class BlockService {
  constructor(
    private readonly db: AppDb,
    private readonly directory: UserDirectory,
    private readonly changes: ChangeNotices,
    private readonly limiter: RateLimiter,
    private readonly limits: RateLimitConfig,
  ) {}

  /** Someone hidden from the viewer (they blocked the viewer, or are suspended) or nobody: 404. */
  async block(viewer: Viewer, username: string): Promise<BlockState> {
    const target = await this.target(viewer, username);
    await this.count(viewer);
    await this.changes.transaction(async (tx, note) => {
      await queries.insertBlock(tx, viewer.id, target.id);
      // Nothing either was told of the other stays (issue 30), nor comes back with an unblock.
      await forgetBetween(tx, viewer.id, target.id);
      await blocksChanged(note, viewer, target);
    });
    return { blocked: true };
  }

  /**
   * Someone the viewer blocked is found here even when they are otherwise hidden (they blocked
   * the viewer back, or were suspended since): the viewer's own block is theirs to undo.
   */
  async unblock(viewer: Viewer, username: string): Promise<BlockState> {
    const name = normalizeUsername(username);
    if (name === viewer.username) throw new AppError(400, 'CANNOT_BLOCK_YOURSELF');
    await this.count(viewer);
    const blockedId = await this.changes.transaction(async (tx, note) => {
      const id = await queries.deleteBlock(tx, viewer.id, name);
      if (id) await blocksChanged(note, viewer, { id, username: name });
      return id;
    });
    if (blockedId) return { blocked: false };
    // No block of theirs: the answer for anyone else, and a 404 for nobody or someone hidden.
    await this.target(viewer, username);
    return { blocked: false };
  }

  async list(viewer: Viewer): Promise<BlockedAccounts> {
    const rows = await queries.blockedUsers(this.db, viewer.id);
    return { users: rows.map((row) => ({ uid: row.id, username: row.username, icon: iconUrl(row.iconKey) })) };
  }

  private async target(viewer: Viewer, username: string): Promise<PublicUserRow> {
    if (normalizeUsername(username) === viewer.username) throw new AppError(400, 'CANNOT_BLOCK_YOURSELF');
    return this.directory.publicUser(username, viewer.id);
  }

  /** Counted once the request is known to be sensible: a typo costs nothing. */
  private count(viewer: Viewer) {
    return this.limiter.hit(`blocks:user:${viewer.id}`, this.limits.blocksPerUser, this.limits.blockWindowMs, 'BLOCKING_TOO_FAST');
  }
}

function blocksChanged(note: Note, viewer: Viewer, target: { id: string; username: string }) {
  return note(viewer, {
    kind: 'block',
    blockerId: viewer.id,
    blockerUsername: viewer.username,
    blockedId: target.id,
    blockedUsername: target.username,
  });
}
