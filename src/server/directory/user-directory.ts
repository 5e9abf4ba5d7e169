import { MemoCache } from '../cache/memo-cache.js';
import { systemClock, type Clock } from '../clock.js';
import type { AppDb } from '../db/database.js';
import { AppError } from '../http/app-error.js';
import { normalizeUsername } from './username.js';
import { findPublicUser, followedIds, type PublicUserRow } from './directory.queries.js';

/**
 * The reads every area shares: what anyone may see of a user, and whom a viewer follows. Profiles,
 * post pages, follow lists and searches all ask, so the answers are shared for readCacheMs: this
 * process forgets one the moment it changes (changed(), followsChanged()); other processes see a
 * change within readCacheMs. One home for these reads is what lets posts, follows and users use
 * them without importing each other.
 */
export class UserDirectory {
  private readonly publicRows: MemoCache<PublicUserRow>;
  /** Whom each viewer follows, by viewer id: every profile and post page asks. */
  private readonly followed: MemoCache<Set<string>>;

  constructor(
    private readonly db: AppDb,
    readCacheMs = 0,
    clock: Clock = systemClock,
  ) {
    this.publicRows = new MemoCache(readCacheMs, 10_000, clock);
    this.followed = new MemoCache(readCacheMs, 10_000, clock);
  }

  /** What anyone may see of a user; 404 for nobody (never remembered: they may sign up). */
  async publicUser(rawUsername: string): Promise<PublicUserRow> {
    const username = normalizeUsername(rawUsername);
    return this.publicRows.get(username, async () => {
      const row = await findPublicUser(this.db, username);
      if (!row) throw new AppError(404, 'USER_NOT_FOUND');
      return row;
    });
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

  /** The viewer followed or unfollowed someone. */
  followsChanged(viewerId: string) {
    this.followed.delete(viewerId);
  }

  /** The user's public row changed (icon, bio, follow counts). */
  changed(username: string) {
    this.publicRows.delete(username);
  }
}
