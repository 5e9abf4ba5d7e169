import type { FollowState, UserPage } from '../../shared/api/users.js';
import { FOLLOW_LIST_PAGE_SIZE } from '../../shared/limits.js';
import type { ChangeNotices, Note } from '../db/change-notices.js';
import type { Notifier } from '../notifications/notifier.js';
import type { AppDb } from '../db/database.js';
import type { Viewer } from '../http/viewer.js';
import { decodeCursor, toPage } from '../http/cursor.js';
import { iconUrl } from '../directory/icon-images.js';
import type { PublicUserRow } from '../directory/directory.queries.js';
import type { UserDirectory } from '../directory/user-directory.js';
import { AppError } from '../http/app-error.js';
import * as queries from './follow.queries.js';

/**
 * Follows are directed edges: B following A never stops A following B (the original app's
 * "a reverse follow blocks a new one" made following back impossible). Both calls are
 * idempotent and following yourself does nothing; the answer is always the state afterwards.
 * Nobody follows someone hidden from them (404, as for nobody); someone you blocked, you
 * unblock first (BlockService removed the follows both ways when the block was made).
 */
export class FollowService {
  constructor(
    private readonly db: AppDb,
    private readonly directory: UserDirectory,
    private readonly changes: ChangeNotices,
    private readonly notifier: Notifier,
  ) {}

  async follow(viewer: Viewer, username: string): Promise<FollowState> {
    const { user: target, blockedByMe } = await this.directory.publicUserSeenBy(username, viewer.id);
    if (blockedByMe) throw new AppError(409, 'UNBLOCK_TO_FOLLOW');
    await this.write(viewer, target, async (tx, note) => {
      // Only a new edge is news to the one followed (and a repeat within a day is not: notifier.ts).
      if (target.id !== viewer.id && (await queries.insertFollow(tx, viewer.id, target.id)))
        await this.notifier.tell(tx, note, { kind: 'follow', to: target.id, actor: viewer });
    });
    return queries.followState(this.db, viewer.id, target.id);
  }

  async unfollow(viewer: Viewer, username: string): Promise<FollowState> {
    const target = await this.directory.publicUser(username, viewer.id);
    await this.write(viewer, target, (tx) => queries.deleteFollow(tx, viewer.id, target.id));
    return queries.followState(this.db, viewer.id, target.id);
  }

  /** Both users' counts may have moved: the edge and the notice commit together. */
  private write(viewer: Viewer, target: PublicUserRow, edge: (tx: AppDb, note: Note) => Promise<void>): Promise<void> {
    return this.changes.transaction(async (tx, note) => {
      await edge(tx, note);
      await note(viewer, {
        kind: 'follow',
        followerId: viewer.id,
        followerUsername: viewer.username,
        targetId: target.id,
        targetUsername: target.username,
      });
    });
  }

  /** Someone's followers or followees as the viewer may see them: a 404 when the user is hidden from them. */
  async list(username: string, viewer: Viewer | null, side: 'followers' | 'following', cursor: string | undefined): Promise<UserPage> {
    const userId = await this.directory.idOf(username, viewer?.id);
    const rows = await queries.followList(this.db, {
      userId,
      seen: await this.directory.visibility.seenBy(viewer?.id),
      side,
      after: decodeCursor(cursor),
      limit: FOLLOW_LIST_PAGE_SIZE,
    });
    const page = toPage(rows, FOLLOW_LIST_PAGE_SIZE);
    return {
      users: page.rows.map((row) => ({ uid: row.id, username: row.username, icon: iconUrl(row.iconKey), followers: row.followers })),
      nextCursor: page.nextCursor,
    };
  }
}
