import type { Profile } from '../../shared/api/users.js';
import { ICON_MAX_BYTES } from '../../shared/limits.js';
import { isImageType } from '../../shared/validation/post.js';
import { validateBio } from '../../shared/validation/profile.js';
import type { UserRow } from '../auth/auth.queries.js';
import type { Viewer } from '../http/viewer.js';
import type { RateLimitConfig } from '../config.js';
import type { ChangeNotices } from '../db/change-notices.js';
import type { AppDb } from '../db/database.js';
import { iconFileKeys, iconFiles, iconUrl, newIconKey } from '../directory/icon-images.js';
import type { UserDirectory } from '../directory/user-directory.js';
import { AppError } from '../http/app-error.js';
import type { UploadedFile } from '../http/multipart-form.js';
import type { RateLimiter } from '../http/rate-limiter.js';
import { ImageRejected, inspectImage, processIcon } from '../images/image-pipeline.js';
import type { ImageQueue } from '../images/image-queue.js';
import type { TrackedFiles } from '../storage/tracked-files.js';
import * as queries from './user.queries.js';

export interface ProfileChanges {
  bio: string | undefined;
  icon: UploadedFile | undefined;
}

const ICON_REJECTION: Record<ImageRejected['reason'], AppError> = {
  'not-an-image': new AppError(415, 'ICON_INVALID_FILETYPE'),
  'too-large': new AppError(413, 'ICON_TOO_LARGE'),
  corrupt: new AppError(422, 'ICON_PROCESSING_FAILED'),
};

/** Profiles and profile edits. */
export class UserService {
  constructor(
    private readonly db: AppDb,
    private readonly directory: UserDirectory,
    private readonly files: TrackedFiles,
    private readonly changes: ChangeNotices,
    private readonly limiter: RateLimiter,
    private readonly limits: RateLimitConfig,
    private readonly images: ImageQueue,
  ) {}

  async profile(rawUsername: string, viewer: Viewer | null): Promise<Profile> {
    const { user, followedByMe, blockedByMe } = await this.directory.publicUserSeenBy(rawUsername, viewer?.id);
    return {
      uid: user.id,
      username: user.username,
      icon: iconUrl(user.iconKey),
      bio: user.bio,
      followers: user.followers,
      following: user.following,
      followedByMe,
      blockedByMe,
    };
  }

  /**
   * Saves the bio (only when non-empty, spec section 5) and the icon together. The new icon's
   * files are written before the row changes and the old ones removed after, so the profile
   * never points at a missing picture; a failure or a crash leaves no stray files
   * (TrackedFiles).
   */
  async update(user: UserRow, edits: ProfileChanges): Promise<UserRow> {
    const bio = edits.bio?.trim() ? edits.bio : undefined;
    if (bio !== undefined) {
      const problem = validateBio(bio);
      if (problem) throw new AppError(400, problem);
    }
    if (!edits.icon) {
      if (bio === undefined) return user;
      const updated = await this.changes.transaction(async (tx, note) => {
        const { user: row } = await queries.updateProfile(tx, user.id, { bio });
        await note(user, { kind: 'profile', userId: user.id, username: user.username });
        return row;
      });
      return updated;
    }

    const iconKey = newIconKey(user.id);
    const sizes = await this.processIcon(user.id, edits.icon);
    const updated = await this.files.store(iconFiles(iconKey, sizes), async (tx, note) => {
      const { user: row, replacedIconKey } = await queries.updateProfile(tx, user.id, { bio, iconKey });
      await note(user, { kind: 'profile', userId: user.id, username: user.username });
      return { result: row, released: replacedIconKey ? iconFileKeys(replacedIconKey) : [] };
    });
    return updated;
  }

  private async processIcon(userId: string, icon: UploadedFile) {
    if (!isImageType(icon.mimetype)) throw new AppError(415, 'ICON_INVALID_FILETYPE');
    if (icon.bytes.length > ICON_MAX_BYTES) throw new AppError(413, 'ICON_TOO_LARGE');
    await this.limiter.hit(`icons:user:${userId}`, this.limits.iconChangesPerUser, this.limits.uploadWindowMs, 'ICON_CHANGES_TOO_FAST');
    try {
      const work = await inspectImage(icon.bytes);
      return await this.images.run({ account: userId, ...work }, () => processIcon(icon.bytes));
    } catch (error) {
      if (error instanceof ImageRejected) throw ICON_REJECTION[error.reason];
      throw error;
    }
  }
}
