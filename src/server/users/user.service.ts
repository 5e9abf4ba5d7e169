import type { FastifyBaseLogger } from 'fastify';
import type { Me } from '../../shared/api/auth.js';
import type { PostPage } from '../../shared/api/posts.js';
import type { Profile } from '../../shared/api/users.js';
import { ICON_MAX_BYTES, PROFILE_POSTS_PAGE_SIZE } from '../../shared/limits.js';
import { isImageType } from '../../shared/validation/post.js';
import { validateBio } from '../../shared/validation/profile.js';
import type { UserRow } from '../auth/auth.queries.js';
import type { SessionCache } from '../auth/session-cache.js';
import type { AppDb } from '../db/database.js';
import { AppError } from '../http/app-error.js';
import { decodeCursor, toPage } from '../http/cursor.js';
import type { UploadedFile } from '../http/multipart-form.js';
import { ImageRejected, processIcon } from '../images/image-pipeline.js';
import { userPostsPage } from '../posts/post.queries.js';
import { toCard } from '../posts/post.service.js';
import type { Storage } from '../storage/storage.js';
import { deleteIcon, iconUrl, newIconKey, storeIcon } from './icon-images.js';
import * as queries from './user.queries.js';
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

export class UserService {
  constructor(
    private readonly db: AppDb,
    private readonly storage: Storage,
    private readonly log: FastifyBaseLogger,
    private readonly sessions: SessionCache,
  ) {}

  async profile(rawUsername: string, viewer: UserRow | null): Promise<Profile> {
    const row = await queries.findProfile(this.db, normalizeUsername(rawUsername), viewer?.id ?? null);
    if (!row) throw new AppError(404, 'USER_NOT_FOUND');
    return {
      uid: row.id,
      username: row.username,
      icon: iconUrl(row.iconKey),
      bio: row.bio,
      followers: row.followers,
      following: row.following,
      followedByMe: row.followedByMe,
    };
  }

  /** A user's posts, newest first, 50 at a time. */
  async posts(rawUsername: string, cursor: string | undefined): Promise<PostPage> {
    const userId = await this.idOf(rawUsername);
    const rows = await userPostsPage(this.db, { userId, after: decodeCursor(cursor), limit: PROFILE_POSTS_PAGE_SIZE });
    const page = toPage(rows, PROFILE_POSTS_PAGE_SIZE);
    return { posts: page.rows.map(toCard), nextCursor: page.nextCursor };
  }

  async idOf(rawUsername: string): Promise<string> {
    const id = await queries.findUserIdByUsername(this.db, normalizeUsername(rawUsername));
    if (!id) throw new AppError(404, 'USER_NOT_FOUND');
    return id;
  }

  /**
   * Saves the bio (only when non-empty, spec section 5) and the icon together. The new icon's
   * files are written before the row changes and the old ones removed after, so the profile
   * never points at a missing picture.
   */
  async update(user: UserRow, changes: ProfileChanges): Promise<Me> {
    const bio = changes.bio?.trim() ? changes.bio : undefined;
    if (bio !== undefined) {
      const problem = validateBio(bio);
      if (problem) throw new AppError(400, problem);
    }
    let iconKey: string | undefined;
    if (changes.icon) {
      iconKey = await this.storeNewIcon(user.id, changes.icon);
    }
    if (bio === undefined && iconKey === undefined) return toMe(user);

    let updated: Awaited<ReturnType<typeof queries.updateProfile>>;
    try {
      updated = await queries.updateProfile(this.db, user.id, { bio, iconKey });
    } catch (error) {
      if (iconKey) await this.removeIcon(iconKey);
      throw error;
    }
    this.sessions.forgetUser(user.id);
    if (updated.replacedIconKey) await this.removeIcon(updated.replacedIconKey);
    return toMe(updated.user);
  }

  private async storeNewIcon(userId: string, icon: UploadedFile): Promise<string> {
    if (!isImageType(icon.mimetype)) throw new AppError(415, 'ICON_INVALID_FILETYPE');
    if (icon.bytes.length > ICON_MAX_BYTES) throw new AppError(413, 'ICON_TOO_LARGE');
    let sizes: Awaited<ReturnType<typeof processIcon>>;
    try {
      sizes = await processIcon(icon.bytes);
    } catch (error) {
      if (error instanceof ImageRejected) throw ICON_REJECTION[error.reason];
      throw error;
    }
    const key = newIconKey(userId);
    await storeIcon(this.storage, key, sizes);
    return key;
  }

  private async removeIcon(key: string) {
    const failed = await deleteIcon(this.storage, key);
    if (failed.length > 0) this.log.warn({ keys: failed }, 'could not delete some icon files');
  }
}
