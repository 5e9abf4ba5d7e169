import { ALL, type ReadCache, type Region } from '../cache/read-cache.js';
import type { AppDb } from '../db/database.js';
import { AppError } from '../http/app-error.js';
import { normalizeUsername } from './username.js';
import { findPublicUser, followedIds, type PublicUserRow } from './directory.queries.js';
import type { SeenBy, Visibility } from './visibility.js';

/** A user as the viewer finds them: whether they follow them, and whether they blocked them. */
export interface UserSeen {
  user: PublicUserRow;
  followedByMe: boolean;
  /** The viewer blocked them: their profile is found (it says so), nothing else of theirs. */
  blockedByMe: boolean;
}

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
    /** The one visibility rule: a user hidden from the viewer is a 404 to them. */
    readonly visibility: Visibility,
  ) {
    this.publicRows = cache.region('public user', {
      // Follower and following counts live in the row. A deleted account moved the counts of
      // everyone it followed or was followed by: all of them (rare; listing them would cost a
      // query before the deletion).
      staleAfter: (change) => {
        // Whether a suspended user is seen is decided per request (Visibility); their row is
        // forgotten anyway, so nothing read while the suspension changed outlives it.
        if (change.kind === 'account-deleted') return ALL;
        if (change.kind === 'profile' || change.kind === 'suspension') return [change.username];
        if (change.kind === 'follow') return [change.followerUsername, change.targetUsername];
        // A block removed the follows both ways: both counts moved.
        if (change.kind === 'block') return [change.blockerUsername, change.blockedUsername];
        return [];
      },
    });
    this.followed = cache.region('followed by viewer', {
      // Others' sets may still hold a deleted account's id: harmless, as nobody can ask about it.
      staleAfter: (change) =>
        change.kind === 'follow'
          ? [change.followerId]
          : change.kind === 'block'
            ? [change.blockerId, change.blockedId]
            : change.kind === 'account-deleted'
              ? [change.userId]
              : [],
      bytes: (ids) => 64 + ids.size * 48,
    });
  }

  /**
   * What the viewer (nobody when signed out) may see of a user; 404 for nobody and for someone
   * hidden from them (Visibility). Someone the viewer blocked is found: their profile says so.
   */
  async publicUser(rawUsername: string, viewerId: string | undefined): Promise<PublicUserRow> {
    return (await this.find(rawUsername, viewerId)).user;
  }

  /** The same, with the viewer's rule it was decided by, for a caller that filters more by it (one read of the rule's sets). */
  async publicUserAndRule(rawUsername: string, viewerId: string | undefined): Promise<{ user: PublicUserRow; seen: SeenBy }> {
    const { user, seen } = await this.find(rawUsername, viewerId);
    return { user, seen };
  }

  /** The same, and whether the viewer follows and blocked them. */
  async publicUserSeenBy(rawUsername: string, viewerId: string | undefined): Promise<UserSeen> {
    const { user, followedByMe, blockedByMe } = await this.find(rawUsername, viewerId);
    // Another request's read filled the row (or it was cached): ask the viewer's follows.
    return { user, blockedByMe, followedByMe: followedByMe ?? (await this.isFollowedBy(user.id, viewerId)) };
  }

  /**
   * When the user's row is not cached, one statement reads it and whether the viewer follows
   * them (the row is then shared, whether the viewer follows is not).
   */
  private async find(rawUsername: string, viewerId: string | undefined) {
    const username = normalizeUsername(rawUsername);
    let followedByMe: boolean | undefined;
    // Never remembered when missing: they may sign up.
    const user = await this.publicRows.get(username, async () => {
      const row = await findPublicUser(this.db, username, viewerId);
      if (!row) throw new AppError(404, 'USER_NOT_FOUND');
      followedByMe = row.followedByMe;
      return row.user;
    });
    const seen = await this.visibility.seenBy(viewerId);
    if (seen.hiddenOtherwise(user.id)) throw new AppError(404, 'USER_NOT_FOUND');
    return { user, followedByMe, blockedByMe: seen.blocked(user.id), seen };
  }

  async idOf(rawUsername: string, viewerId: string | undefined): Promise<string> {
    return (await this.publicUser(rawUsername, viewerId)).id;
  }

  /** Whether the viewer (nobody when signed out) follows the user. */
  async isFollowedBy(userId: string, viewerId: string | undefined): Promise<boolean> {
    if (!viewerId) return false;
    const followed = await this.followed.get(viewerId, async () => new Set(await followedIds(this.db, viewerId)));
    return followed.has(userId);
  }
}
