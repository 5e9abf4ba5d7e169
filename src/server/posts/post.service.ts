import type { FastifyBaseLogger } from 'fastify';
import type { PostCard, PostDetail, PostPage } from '../../shared/api/posts.js';
import { deriveHashtags } from '../../shared/hashtags.js';
import { deriveKeywords } from '../../shared/keywords.js';
import {
  HOME_FEED_PAGE_SIZE,
  POST_IMAGE_MAX_BYTES,
  RELATED_HASHTAGS_USED,
  RELATED_KEYWORDS_USED,
  RELATED_MAX_POSTS,
} from '../../shared/limits.js';
import { isImageType, validatePostText } from '../../shared/validation/post.js';
import type { UserRow } from '../auth/auth.queries.js';
import type { AppDb } from '../db/database.js';
import { AppError } from '../http/app-error.js';
import { decodeCursor, toPage } from '../http/cursor.js';
import { newId } from '../ids.js';
import { ImageRejected, processImage, type ProcessedImage } from '../images/image-pipeline.js';
import type { Storage } from '../storage/storage.js';
import { iconUrl } from '../users/icon-images.js';
import { FeedCache } from './feed-cache.js';
import { deleteImage, imageSet, newImageKey, storeImage } from './post-images.js';
import * as queries from './post.queries.js';

export interface NewPost {
  description: string;
  link: string;
  photo: { bytes: Buffer; mimetype: string } | undefined;
}

export function toCard(row: queries.CardRow): PostCard {
  return { id: row.id, description: row.description, image: imageSet(row) };
}

const REJECTION: Record<ImageRejected['reason'], AppError> = {
  'not-an-image': new AppError(415, 'INVALID_FILETYPE'),
  'too-large': new AppError(413, 'IMAGE_TOO_LARGE'),
  corrupt: new AppError(422, 'IMAGE_PROCESSING_FAILED'),
};

export class PostService {
  private readonly feedCache: FeedCache;

  constructor(
    private readonly db: AppDb,
    private readonly storage: Storage,
    private readonly log: FastifyBaseLogger,
    feedCacheMs = 0,
  ) {
    this.feedCache = new FeedCache(
      (limit) => queries.newestPosts(this.db, limit),
      (row) => JSON.stringify(toCard(row)),
      feedCacheMs,
      // Room for a viewer's own recent posts to be left out and still fill a page.
      HOME_FEED_PAGE_SIZE * 2,
    );
  }

  /**
   * Creates a post. Every rule is checked again here; then the image is decoded and re-encoded,
   * its files written, and only then the record inserted, so a post is never visible without
   * its image. Any failure removes whatever was already written.
   */
  async create(author: UserRow, input: NewPost): Promise<PostDetail> {
    const problem = validatePostText(input);
    if (problem) throw new AppError(400, problem);
    const { photo } = input;
    if (!photo || !isImageType(photo.mimetype)) throw new AppError(415, 'INVALID_FILETYPE');
    if (photo.bytes.length > POST_IMAGE_MAX_BYTES) throw new AppError(413, 'IMAGE_TOO_LARGE');

    let image: ProcessedImage;
    try {
      image = await processImage(photo.bytes);
    } catch (error) {
      if (error instanceof ImageRejected) throw REJECTION[error.reason];
      throw error;
    }

    const id = newId();
    const imageKey = newImageKey(id);
    await storeImage(this.storage, imageKey, image);
    try {
      await queries.insertPost(this.db, {
        id,
        userId: author.id,
        description: input.description,
        link: input.link,
        keywords: deriveKeywords(input.description),
        hashtags: deriveHashtags(input.description),
        imageKey,
        width: image.width,
        height: image.height,
        placeholder: image.placeholder,
      });
      this.feedCache.invalidate();
    } catch (error) {
      const failed = await deleteImage(this.storage, imageKey);
      if (failed.length > 0) this.log.error({ keys: failed }, 'could not clean up files of a failed post');
      throw error;
    }
    return this.get(id, author);
  }

  async get(id: string, viewer: UserRow | null): Promise<PostDetail> {
    const row = await queries.findPostWithAuthor(this.db, id, viewer?.id ?? null);
    if (!row) throw new AppError(404, 'POST_NOT_FOUND');
    const { post, author, followers, followedByMe } = row;
    return {
      id: post.id,
      description: post.description,
      link: post.link,
      hashtags: post.hashtags,
      createdAt: post.createdAt.toISOString(),
      image: imageSet(post),
      author: { uid: author.id, username: author.username, icon: iconUrl(author.iconKey), followers, followedByMe },
    };
  }

  /**
   * The home feed as JSON: everyone's posts newest first, without the viewer's own. The first
   * page usually comes from the feed cache; later pages and cache misses from the database.
   */
  async feedJson(viewer: UserRow | null, cursor: string | undefined): Promise<string> {
    if (!cursor) {
      const cached = await this.feedCache.firstPage(viewer?.id, HOME_FEED_PAGE_SIZE);
      if (cached) return cached;
    }
    return JSON.stringify(await this.feed(viewer, cursor));
  }

  async feed(viewer: UserRow | null, cursor: string | undefined): Promise<PostPage> {
    const rows = await queries.feedPage(this.db, {
      excludeUserId: viewer?.id,
      after: decodeCursor(cursor),
      limit: HOME_FEED_PAGE_SIZE,
    });
    const page = toPage(rows, HOME_FEED_PAGE_SIZE);
    return { posts: page.rows.map(toCard), nextCursor: page.nextCursor };
  }

  /** Posts sharing one of the first 10 hashtags or one of the first 20 keywords. */
  async related(id: string): Promise<PostCard[]> {
    const post = await queries.findPost(this.db, id);
    if (!post) throw new AppError(404, 'POST_NOT_FOUND');
    const rows = await queries.relatedPosts(this.db, {
      postId: post.id,
      hashtags: post.hashtags.slice(0, RELATED_HASHTAGS_USED),
      keywords: post.keywords.slice(0, RELATED_KEYWORDS_USED),
      limit: RELATED_MAX_POSTS,
    });
    return rows.map(toCard);
  }

  /**
   * Only the author may delete; to anyone else the post looks missing (404), so strangers learn
   * nothing. The record goes first (the post disappears at once), then its files.
   */
  async delete(viewer: UserRow, id: string): Promise<void> {
    const post = await queries.findPost(this.db, id);
    if (!post || post.userId !== viewer.id) throw new AppError(404, 'POST_NOT_FOUND');
    if (!(await queries.deletePost(this.db, id))) throw new AppError(404, 'POST_NOT_FOUND');
    this.feedCache.invalidate();
    const failed = await deleteImage(this.storage, post.imageKey);
    // The post is gone for users either way; leftover files are only wasted space.
    if (failed.length > 0) this.log.warn({ keys: failed, post: id }, 'could not delete some image files');
  }
}
