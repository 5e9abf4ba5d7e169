import { ALL, type ReadCache, type Region } from '../cache/read-cache.js';
import type { AppDb } from '../db/database.js';
import { AppError } from '../http/app-error.js';
import { normalizeUsername } from './username.js';
import { findPublicUser, followedIds, type PublicUserRow } from './directory.queries.js';

/**
 * The reads every area shares: what anyone may see of a user, and whom a viewer follows. Profiles,
 * post pages, follow lists and searches all ask, so the answers are shared (ReadCache) until a
 * change makes them stale. One home for these reads is what lets posts,
 * follows and users use them without importing each other.
 */
export class UserDirectory {
  private readonly publicRows: Region<PublicUserRow>;
  /** Whom each viewer follows, by viewer id: every profile and post page asks. */
  private readonly followed: Region<Set<string>>;

  constructor(
    private readonly db: AppDb,
    cache: ReadCache,
  ) {
    this.publicRows = cache.region('public user', {
      // Follower and following counts live in the row. A deleted account moved the counts of
      // everyone it followed or was followed by: all of them (rare; listing them would cost a
      // query before the deletion).
      staleAfter: (change) => {
        if (change.kind === 'account-deleted') return ALL;
        return change.kind === 'profile'
          ? [change.username]
          : change.kind === 'follow'
            ? [change.followerUsername, change.targetUsername]
            : [];
      },
    });
    this.followed = cache.region('followed by viewer', {
      // Others' sets may still hold a deleted account's id: harmless, as nobody can ask about it.
      staleAfter: (change) => (change.kind === 'follow' ? [change.followerId] : change.kind === 'account-deleted' ? [change.userId] : []),
      bytes: (ids) => 64 + ids.size * 48,
    });
  }

  /** What anyone may see of a user; 404 for nobody (never remembered: they may sign up). */
  async publicUser(rawUsername: string): Promise<PublicUserRow> {
    return (await this.publicUserSeenBy(rawUsername, undefined)).user;
  }

  /**
   * What anyone may see of a user, and whether the viewer follows them. When the user's row is
   * not cached, one statement reads both (the row is then shared, whether the viewer follows is
   * not); otherwise the viewer's follows answer.
   */
  async publicUserSeenBy(rawUsername: string, viewerId: string | undefined): Promise<{ user: PublicUserRow; followedByMe: boolean }> {
    const username = normalizeUsername(rawUsername);
    let followedByMe: boolean | undefined;
    const user = await this.publicRows.get(username, async () => {
      const row = await findPublicUser(this.db, username, viewerId);
      if (!row) throw new AppError(404, 'USER_NOT_FOUND');
      followedByMe = row.followedByMe;
      return row.user;
    });
    // Another request's read filled the row (or it was cached): ask the viewer's follows.
    return { user, followedByMe: followedByMe ?? (await this.isFollowedBy(user.id, viewerId)) };
  }

  async idOf(rawUsername: string): Promise<string> {
    return (await this.publicUser(rawUsername)).id;
  }

  /** Whether the viewer (nobody when signed out) follows the user. */
  async isFollowedBy(userId: string, viewerId: string | undefined): Promise<boolean> {
    if (!viewerId) return false;
    const followed = await this.followed.get(viewerId, async () => new Set(await followedIds(this.db, viewerId)));
    return followed.has(userId);
  }
}
