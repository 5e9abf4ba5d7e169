import type { Me } from '../../shared/api/auth.js';
import type { PostPage } from '../../shared/api/posts.js';
import type { Profile } from '../../shared/api/users.js';
import { ICON_MAX_BYTES, PROFILE_POSTS_PAGE_SIZE } from '../../shared/limits.js';
import { isImageType } from '../../shared/validation/post.js';
import { validateBio } from '../../shared/validation/profile.js';
import type { UserRow } from '../auth/auth.queries.js';
import type { SessionCache } from '../auth/session-cache.js';
import { MemoCache } from '../cache/memo-cache.js';
import { systemClock, type Clock } from '../clock.js';
import type { RateLimitConfig } from '../config.js';
import type { AppDb } from '../db/database.js';
import { AppError } from '../http/app-error.js';
import { decodeCursor, toPage } from '../http/cursor.js';
import type { RateLimiter } from '../http/rate-limiter.js';
import type { UploadedFile } from '../http/multipart-form.js';
import { ImageRejected, processIcon } from '../images/image-pipeline.js';
import type { ImageQueue } from '../images/image-queue.js';
import { followedIds } from '../follows/follow.queries.js';
import { userPostsPage } from '../posts/post.queries.js';
import { toCard } from '../posts/post.service.js';
import type { TrackedFiles } from '../storage/tracked-files.js';
import { iconFileKeys, iconFiles, iconUrl, newIconKey } from './icon-images.js';
import * as queries from './user.queries.js';
import type { PublicUserRow } from './user.queries.js';
import { toMe } from './user.mapper.js';
import { normalizeUsername } from './username.js';

export interface ProfileChanges {
  bio: string | undefined;
  icon: UploadedFile | undefined;
}

const ICON_REJECTION: Record<ImageRejected['reason'], AppError> = {
  'not-an-image': new AppError(415, 'ICON_INVALID_FILETYPE'),
  'too-large': new AppError(413, 'ICON_TOO_LARGE'),
  corrupt: new AppError(422, 'ICON_PROCESSING_FAILED'),
};

/**
 * Profiles, their posts and profile edits. What anyone may see of a user (the public row) and
 * the first page of their posts are read by every profile, post page and follow, so they are
 * shared for readCacheMs: this process forgets them the moment they change (changed(),
 * postsChanged()); other processes see a change within readCacheMs.
 */
export class UserService {
  private readonly publicRows: MemoCache<PublicUserRow>;
  private readonly firstPages: MemoCache<PostPage>;
  /** Whom each viewer follows, by viewer id: every profile and post page asks. */
  private readonly followed: MemoCache<Set<string>>;

  constructor(
    private readonly db: AppDb,
    private readonly files: TrackedFiles,
    private readonly sessions: SessionCache,
    private readonly limiter: RateLimiter,
    private readonly limits: RateLimitConfig,
    private readonly images: ImageQueue,
    readCacheMs = 0,
    clock: Clock = systemClock,
  ) {
    this.publicRows = new MemoCache(readCacheMs, 10_000, clock);
    this.firstPages = new MemoCache(readCacheMs, 1000, clock);
    this.followed = new MemoCache(readCacheMs, 10_000, clock);
  }

  async profile(rawUsername: string, viewer: UserRow | null): Promise<Profile> {
    const user = await this.publicUser(rawUsername);
    return {
      uid: user.id,
      username: user.username,
      icon: iconUrl(user.iconKey),
      bio: user.bio,
      followers: user.followers,
      following: user.following,
      followedByMe: await this.isFollowedBy(user.id, viewer),
    };
  }

  /** A user's posts, newest first, 50 at a time. */
  async posts(rawUsername: string, cursor: string | undefined): Promise<PostPage> {
    const user = await this.publicUser(rawUsername);
    const page = async () => {
      const rows = await userPostsPage(this.db, { userId: user.id, after: decodeCursor(cursor), limit: PROFILE_POSTS_PAGE_SIZE });
      const { rows: shown, nextCursor } = toPage(rows, PROFILE_POSTS_PAGE_SIZE);
      return { posts: shown.map(toCard), nextCursor };
    };
    return cursor ? page() : this.firstPages.get(user.username, page);
  }

  async idOf(rawUsername: string): Promise<string> {
    return (await this.publicUser(rawUsername)).id;
  }

  /** What anyone may see of a user; 404 for nobody (never remembered: they may sign up). */
  async publicUser(rawUsername: string): Promise<PublicUserRow> {
    const username = normalizeUsername(rawUsername);
    return this.publicRows.get(username, async () => {
      const row = await queries.findPublicUser(this.db, username);
      if (!row) throw new AppError(404, 'USER_NOT_FOUND');
      return row;
    });
  }

  async isFollowedBy(userId: string, viewer: UserRow | null): Promise<boolean> {
    if (!viewer) return false;
    const followed = await this.followed.get(viewer.id, async () => new Set(await followedIds(this.db, viewer.id)));
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

  /** The user created or deleted a post. */
  postsChanged(username: string) {
    this.firstPages.delete(username);
  }

  /**
   * Saves the bio (only when non-empty, spec section 5) and the icon together. The new icon's
   * files are written before the row changes and the old ones removed after, so the profile
   * never points at a missing picture; a failure or a crash leaves no stray files
   * (TrackedFiles).
   */
  async update(user: UserRow, changes: ProfileChanges): Promise<Me> {
    const bio = changes.bio?.trim() ? changes.bio : undefined;
    if (bio !== undefined) {
      const problem = validateBio(bio);
      if (problem) throw new AppError(400, problem);
    }
    if (!changes.icon) {
      if (bio === undefined) return toMe(user);
      const { user: updated } = await queries.updateProfile(this.db, user.id, { bio });
      this.sessions.forgetUser(user.id);
      this.changed(user.username);
      return toMe(updated);
    }

    const iconKey = newIconKey(user.id);
    const sizes = await this.processIcon(user.id, changes.icon);
    const updated = await this.files.store(iconFiles(iconKey, sizes), async (tx) => {
      const { user: row, replacedIconKey } = await queries.updateProfile(tx, user.id, { bio, iconKey });
      return { result: row, released: replacedIconKey ? iconFileKeys(replacedIconKey) : [] };
    });
    this.sessions.forgetUser(user.id);
    this.changed(user.username);
    return toMe(updated);
  }

  private async processIcon(userId: string, icon: UploadedFile) {
    if (!isImageType(icon.mimetype)) throw new AppError(415, 'ICON_INVALID_FILETYPE');
    if (icon.bytes.length > ICON_MAX_BYTES) throw new AppError(413, 'ICON_TOO_LARGE');
    await this.limiter.hit(`icons:user:${userId}`, this.limits.iconChangesPerUser, this.limits.uploadWindowMs, 'ICON_CHANGES_TOO_FAST');
    try {
      return await this.images.run(() => processIcon(icon.bytes));
    } catch (error) {
      if (error instanceof ImageRejected) throw ICON_REJECTION[error.reason];
      throw error;
    }
  }
}
