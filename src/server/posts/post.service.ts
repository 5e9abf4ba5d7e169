import type { PostCard, PostDetail, PostPage, RelatedResponse } from '../../shared/api/posts.js';
import { serializedArray, serializedJson, serializedObject, type SerializedJson } from '../../shared/api/serialized-json.js';
import { deriveHashtags } from '../../shared/hashtags.js';
import { firstKeywords, searchGrams, searchText } from '../../shared/keywords.js';
import {
  HOME_FEED_PAGE_SIZE,
  POST_IDEMPOTENCY_WINDOW_MS,
  POST_IMAGE_MAX_BYTES,
  PROFILE_POSTS_PAGE_SIZE,
  RELATED_HASHTAGS_USED,
  RELATED_KEYWORDS_USED,
  RELATED_MAX_POSTS,
} from '../../shared/limits.js';
import { isIdempotencyKey, isImageType, validatePostText } from '../../shared/validation/post.js';
import type { Viewer } from '../http/viewer.js';
import type { RateLimitConfig } from '../config.js';
import { ALL, type ReadCache, type Region } from '../cache/read-cache.js';
import type { Note } from '../db/change-notices.js';
import type { AppDb } from '../db/database.js';
import { iconUrl } from '../directory/icon-images.js';
import type { PublicUserRow } from '../directory/directory.queries.js';
import type { UserDirectory } from '../directory/user-directory.js';
import { visibleItems, withRoomForHidden, type SeenBy, type Visibility } from '../directory/visibility.js';
import { normalizeUsername } from '../directory/username.js';
import { AppError } from '../http/app-error.js';
import { decodeCursor, toPage } from '../http/cursor.js';
import type { RateLimiter } from '../http/rate-limiter.js';
import { newId } from '../ids.js';
import { ImageRejected, inspectImage, processImage, type ProcessedImage } from '../images/image-pipeline.js';
import type { ImageQueue } from '../images/image-queue.js';
import type { TrackedFiles } from '../storage/tracked-files.js';
import { FeedCache } from './feed-cache.js';
import { imageFileKeys, imageFiles, imageSet, newImageKey } from './post-images.js';
import * as queries from './post.queries.js';
import type { NewestPostTimes } from './newest-post-times.js';
import { RelatedPosts } from './related-posts.js';

export interface NewPost {
  description: string;
  link: string;
  photo: { bytes: Buffer; mimetype: string } | undefined;
  /** The upload form's key (issue 26): the same key from the same account answers its first post. */
  idempotencyKey?: string;
}

/** A new post, or the one the same key made a moment ago (`replayed`). */
export interface CreatedPost {
  post: PostDetail;
  replayed: boolean;
}

/** Thrown inside the post's transaction to undo it: the key already names another post. */
class KeyTaken extends Error {}

export function toCard(row: queries.CardRow): PostCard {
  return { id: row.id, description: row.description, image: imageSet(row) };
}

/** A card's JSON with its author: what answers shared by every viewer hold, to filter per viewer. */
export interface SharedCard {
  userId: string;
  json: SerializedJson<PostCard>;
}

export const toSharedCard = (row: queries.CardRow): SharedCard => ({ userId: row.userId, json: serializedJson(toCard(row)) });

/** `{ posts }` JSON of the first `limit` shared cards whose authors the viewer sees. */
export function visibleCardsJson(cards: readonly SharedCard[], seen: SeenBy, limit: number): SerializedJson<{ posts: PostCard[] }> {
  const shown = visibleItems(cards, (card) => card.userId, seen, limit);
  return serializedObject<{ posts: PostCard[] }>({ posts: serializedArray(shown.map((card) => card.json)) });
}

/** The author's own post made or deleted (a moderator's removal is moderation's). */
function postChanged(note: Note, author: Viewer, postId: string, deleted = false): Promise<void> {
  return note(author, { kind: 'post', postId, authorId: author.id, authorUsername: author.username, deleted });
}

const REJECTION: Record<ImageRejected['reason'], AppError> = {
  'not-an-image': new AppError(415, 'INVALID_FILETYPE'),
  'too-large': new AppError(413, 'IMAGE_TOO_LARGE'),
  corrupt: new AppError(422, 'IMAGE_PROCESSING_FAILED'),
};

export interface PostCaches {
  cache: ReadCache;
  /** Where the windows of the newest posts start, shared with post search. */
  newestPostTimes?: NewestPostTimes;
}

type PostDetailRow = NonNullable<Awaited<ReturnType<typeof queries.findPostDetail>>>['post'];

/** Related posts shared by every viewer, filtered per viewer (and the post's own author). */
interface RelatedAnswer {
  authorId: string;
  cards: SharedCard[];
}

export class PostService {
  private readonly feedCache: FeedCache;
  /** Posts never change, only disappear: their pages are shared, by id. */
  private readonly details: Region<PostDetailRow>;
  /** Related posts, by post id: any new or deleted post may change them. */
  private readonly related: Region<RelatedAnswer>;
  /** Finds them, looking among the newest posts first. */
  private readonly relatedPosts: RelatedPosts;
  /** The first page of each author's posts, by username: every profile visit asks. */
  private readonly firstPagesByAuthor: Region<PostPage>;
  private readonly visibility: Visibility;

  constructor(
    private readonly db: AppDb,
    private readonly files: TrackedFiles,
    private readonly limiter: RateLimiter,
    private readonly limits: RateLimitConfig,
    private readonly directory: UserDirectory,
    private readonly images: ImageQueue,
    { cache, newestPostTimes }: PostCaches,
  ) {
    this.visibility = directory.visibility;
    this.details = cache.region('post', {
      // A deleted account's posts are not listed in the change (there may be thousands): all.
      staleAfter: (change) => (change.kind === 'post' ? [change.postId] : change.kind === 'account-deleted' ? ALL : []),
    });
    this.related = cache.region('related posts', {
      staleAfter: (change) => (change.kind === 'post' || change.kind === 'account-deleted' ? ALL : []),
      bytes: (answer) => answer.cards.reduce((sum, card) => sum + card.json.length + 32, 64),
    });
    this.relatedPosts = new RelatedPosts(db, { newestPostTimes });
    this.firstPagesByAuthor = cache.region('posts by author', {
      staleAfter: (change) =>
        change.kind === 'post' ? [change.authorUsername] : change.kind === 'account-deleted' ? [change.username] : [],
    });
    this.feedCache = new FeedCache(
      cache,
      (limit) => queries.newestPosts(this.db, limit),
      (row) => serializedJson(toCard(row)),
      // Room for a viewer's own recent posts, and those hidden from them, to be left out and still fill a page.
      HOME_FEED_PAGE_SIZE * 2,
    );
  }

  /**
   * Creates a post. Every rule is checked again here; then the image is decoded and re-encoded,
   * its files written, and only then the record inserted, so a post is never visible without
   * its image. Any failure, or a crash, removes whatever was already written (TrackedFiles).
   *
   * With a key (issue 26: a double-submitted form made two posts), the post that key made for
   * this account within POST_IDEMPOTENCY_WINDOW_MS is the answer, without any work; two
   * submissions at once both do the work, and the one whose post lands second is undone on
   * the key's primary key and answers with the first.
   */
  async create(author: Viewer, input: NewPost, retried = false): Promise<CreatedPost> {
    const key = input.idempotencyKey;
    if (key !== undefined && !isIdempotencyKey(key)) throw new AppError(400, 'IDEMPOTENCY_KEY_INVALID');
    const earlier = key === undefined ? undefined : await queries.postOfKey(this.db, author.id, key, POST_IDEMPOTENCY_WINDOW_MS);
    if (earlier) return { post: await this.get(earlier, author), replayed: true };
    const problem = validatePostText(input);
    if (problem) throw new AppError(400, problem);
    const { photo } = input;
    if (!photo || !isImageType(photo.mimetype)) throw new AppError(415, 'INVALID_FILETYPE');
    if (photo.bytes.length > POST_IMAGE_MAX_BYTES) throw new AppError(413, 'IMAGE_TOO_LARGE');
    // Counted before the costly part; refused uploads count too, so hammering gains nothing.
    await this.limiter.hit(`posts:user:${author.id}`, this.limits.postsPerUser, this.limits.uploadWindowMs, 'POSTING_TOO_FAST');

    let image: ProcessedImage;
    try {
      // Its cost from the header first: refused when too costly, else charged to the author's share.
      const work = await inspectImage(photo.bytes);
      image = await this.images.run({ account: author.id, ...work }, () => processImage(photo.bytes));
    } catch (error) {
      // A full image queue is already the AppError to send (503 with Retry-After).
      if (error instanceof ImageRejected) throw REJECTION[error.reason];
      throw error;
    }

    const id = newId();
    const imageKey = newImageKey(id);
    try {
      await this.files.store(imageFiles(imageKey, image), async (tx, note) => {
        const row = await queries.insertPost(tx, {
          id,
          userId: author.id,
          description: input.description,
          link: input.link,
          searchGrams: searchGrams(input.description),
          searchText: searchText(input.description),
          hashtags: deriveHashtags(input.description),
          imageKey,
          width: image.width,
          height: image.height,
          placeholder: image.placeholder,
        });
        if (key !== undefined && !(await queries.claimKey(tx, author.id, key, id, POST_IDEMPOTENCY_WINDOW_MS))) throw new KeyTaken();
        await postChanged(note, author, id);
        return { result: row };
      });
    } catch (error) {
      if (!(error instanceof KeyTaken)) throw error;
      // Undone, files and all: the other submission's post is the answer. (Gone again at once,
      // deleted by its author: this submission tries once more on its own.)
      if (retried) throw new AppError(409, 'GENERIC');
      return this.create(author, input, true);
    }
    if (key !== undefined) await queries.sweepKeys(this.db, POST_IDEMPOTENCY_WINDOW_MS);
    return { post: await this.get(id, author), replayed: false };
  }

  /**
   * A post with its author's current icon and follower count, and whether the viewer follows
   * them. A post whose author is hidden from the viewer is missing to them (the same 404).
   */
  async get(id: string, viewer: Viewer | null): Promise<PostDetail> {
    // When the post is not cached, the statement that reads it also reads its author as they are now.
    let now: { user: PublicUserRow; followedByMe: boolean } | undefined;
    const post = await this.details.get(id, async () => {
      const row = await queries.findPostDetail(this.db, id, viewer?.id);
      if (!row) throw new AppError(404, 'POST_NOT_FOUND');
      now = { user: row.author, followedByMe: row.followedByMe };
      return row.post;
    });
    if (!(await this.visibility.seenBy(viewer?.id)).sees(post.authorId)) throw new AppError(404, 'POST_NOT_FOUND');
    const { user: author, followedByMe } = now ?? (await this.directory.publicUserSeenBy(post.authorUsername, viewer?.id));
    return {
      id: post.id,
      description: post.description,
      link: post.link,
      hashtags: post.hashtags,
      createdAt: post.createdAt.toISOString(),
      image: imageSet(post),
      author: {
        uid: author.id,
        username: author.username,
        icon: iconUrl(author.iconKey),
        followers: author.followers,
        followedByMe,
      },
    };
  }

  /**
   * A user's posts, newest first, 50 at a time (their profile). Someone hidden from the viewer
   * is a 404; someone they blocked has no posts for them.
   */
  async byAuthor(rawUsername: string, viewer: Viewer | null, cursor: string | undefined): Promise<PostPage> {
    const username = normalizeUsername(rawUsername);
    // The user's row is usually cached: the check costs no statement then.
    const { user: author, seen } = await this.directory.publicUserAndRule(username, viewer?.id);
    if (!seen.sees(author.id)) return { posts: [], nextCursor: null };
    const page = async () => {
      const rows = await queries.userPostsPage(this.db, { username, after: decodeCursor(cursor), limit: PROFILE_POSTS_PAGE_SIZE });
      const { rows: shown, nextCursor } = toPage(rows, PROFILE_POSTS_PAGE_SIZE);
      return { posts: shown.map(toCard), nextCursor };
    };
    return cursor ? page() : this.firstPagesByAuthor.get(username, page);
  }

  /**
   * The home feed as JSON: everyone's posts newest first, without the viewer's own. The first
   * page usually comes from the feed cache; later pages and cache misses from the database.
   */
  async feedJson(viewer: Viewer | null, cursor: string | undefined): Promise<SerializedJson<PostPage>> {
    // Read once: with the caches off each call is two statements.
    const seen = await this.visibility.seenBy(viewer?.id);
    if (!cursor) {
      const cached = await this.feedCache.firstPage(viewer?.id, seen, HOME_FEED_PAGE_SIZE);
      if (cached) return cached;
    }
    return serializedJson(await this.feed(viewer, cursor, seen));
  }

  private async feed(viewer: Viewer | null, cursor: string | undefined, seen: SeenBy): Promise<PostPage> {
    const rows = await queries.feedPage(this.db, {
      viewerId: viewer?.id,
      seen,
      after: decodeCursor(cursor),
      limit: HOME_FEED_PAGE_SIZE,
    });
    const page = toPage(rows, HOME_FEED_PAGE_SIZE);
    return { posts: page.rows.map(toCard), nextCursor: page.nextCursor };
  }

  /**
   * Posts sharing one of the first 10 hashtags or one of the first 20 keywords, as
   * `{ posts }` JSON: everyone opening the same post within a moment shares one search, whose
   * cards are then filtered for the viewer (a post hidden from them is a 404, as its page is).
   */
  async relatedJson(id: string, viewer: Viewer | null): Promise<SerializedJson<RelatedResponse>> {
    const answer = await this.related.get(id, async () => {
      const post = await queries.findRelatedSource(this.db, id);
      if (!post) throw new AppError(404, 'POST_NOT_FOUND');
      const rows = await this.relatedPosts.cards(
        {
          postId: post.id,
          hashtags: post.hashtags.slice(0, RELATED_HASHTAGS_USED),
          keywords: firstKeywords(post.description, RELATED_KEYWORDS_USED),
        },
        withRoomForHidden(RELATED_MAX_POSTS),
      );
      return { authorId: post.userId, cards: rows.map(toSharedCard) };
    });
    const seen = await this.visibility.seenBy(viewer?.id);
    if (!seen.sees(answer.authorId)) throw new AppError(404, 'POST_NOT_FOUND');
    return visibleCardsJson(answer.cards, seen, RELATED_MAX_POSTS);
  }

  /**
   * Only the author may delete; to anyone else the post looks missing (404), so strangers learn
   * nothing. The record goes first (the post disappears at once), then its files; files storage
   * can't delete now are deleted by a later sweep, so the post is gone for users either way.
   */
  async delete(viewer: Viewer, id: string): Promise<void> {
    const post = await queries.findPost(this.db, id);
    if (!post) throw new AppError(404, 'POST_NOT_FOUND');
    // Someone else's post looks missing to them, but the log knows better.
    if (post.userId !== viewer.id) throw new AppError(404, 'POST_NOT_FOUND').withAudit({ event: 'authorization refused' });
    await this.files.release(async (tx, note) => {
      if (!(await queries.deletePost(tx, id))) throw new AppError(404, 'POST_NOT_FOUND');
      await postChanged(note, viewer, id, true);
      return { result: undefined, released: imageFileKeys(post.imageKey) };
    });
  }
}
