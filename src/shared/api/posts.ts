import { z } from 'zod';
import { ErrorBody } from './common.js';
import { defineRoute, PUBLIC, signedIn, verified } from './route.js';

/** One image at several sizes; cards and the detail page choose with srcset. */
export const ImageSet = z
  .object({
    width: z.number().int(),
    height: z.number().int(),
    /** A tiny blurred preview (data: URL) to show while the image loads. */
    placeholder: z.string(),
    full: z.string(),
    variants: z.array(z.object({ src: z.string(), width: z.number().int() })),
  })
  .meta({ id: 'ImageSet' });
export type ImageSet = z.infer<typeof ImageSet>;

/** What a grid card needs: the picture, and the description for its alt text. */
export const PostCard = z.object({ id: z.string(), description: z.string(), image: ImageSet }).meta({ id: 'PostCard' });
export type PostCard = z.infer<typeof PostCard>;

export const PostPage = z.object({
  posts: z.array(PostCard),
  /** Pass back as `cursor` for the next page; null at the end. */
  nextCursor: z.string().nullable(),
});
export type PostPage = z.infer<typeof PostPage>;

export const Author = z
  .object({
    uid: z.string(),
    username: z.string(),
    icon: z.string().nullable(),
    followers: z.number().int(),
    /** Whether the signed-in viewer follows the author (false when signed out). */
    followedByMe: z.boolean(),
  })
  .meta({ id: 'Author' });
export type Author = z.infer<typeof Author>;

export const PostDetail = z
  .object({
    id: z.string(),
    description: z.string(),
    link: z.string(),
    hashtags: z.array(z.string()),
    createdAt: z.string(),
    image: ImageSet,
    author: Author,
  })
  .meta({ id: 'PostDetail' });
export type PostDetail = z.infer<typeof PostDetail>;

export const PostResponse = z.object({ post: PostDetail });
export type PostResponse = z.infer<typeof PostResponse>;

export const RelatedResponse = z.object({ posts: z.array(PostCard) });
export type RelatedResponse = z.infer<typeof RelatedResponse>;

export const PostParams = z.strictObject({ id: z.string().min(1).max(64) });
export const PageQuery = z.strictObject({ cursor: z.string().max(200).optional() });

/** Multipart fields of POST /api/posts (documented; multipart is parsed by hand). */
export const CreatePostForm = z.strictObject({
  photo: z.string().meta({ format: 'binary' }),
  description: z.string().optional(),
  link: z.string().optional(),
  /** Made once per upload form (issue 26): the same key within 10 minutes answers with the first post. */
  idempotencyKey: z.string().optional(),
});

export const postsApi = {
  feed: defineRoute({
    method: 'GET',
    path: '/api/posts',
    access: PUBLIC,
    tags: ['posts'],
    summary: "Home feed: newest first, without the signed-in user's own posts",
    query: PageQuery,
    responses: { 200: PostPage, 400: ErrorBody },
  }),
  /** The spec's code for a signed-out upload is USER_DATA_NOT_FOUND. */
  createPost: defineRoute({
    method: 'POST',
    path: '/api/posts',
    access: verified('USER_DATA_NOT_FOUND'),
    tags: ['posts'],
    summary:
      'Create a post (multipart: photo, description, link, idempotencyKey). The same idempotencyKey from the same account ' +
      'within 10 minutes answers with the post it made (the same 201 and body, with Idempotent-Replayed: true), making none.',
    consumes: ['multipart/form-data'],
    body: CreatePostForm.optional(),
    responses: {
      201: PostResponse,
      400: ErrorBody,
      401: ErrorBody,
      403: ErrorBody,
      404: ErrorBody,
      413: ErrorBody,
      415: ErrorBody,
      422: ErrorBody,
    },
  }),
  post: defineRoute({
    method: 'GET',
    path: '/api/posts/:id',
    access: PUBLIC,
    tags: ['posts'],
    summary: 'One post with its author',
    params: PostParams,
    responses: { 200: PostResponse, 404: ErrorBody },
  }),
  related: defineRoute({
    method: 'GET',
    path: '/api/posts/:id/related',
    access: PUBLIC,
    tags: ['posts'],
    summary: 'Posts sharing a hashtag or keyword (Discover)',
    params: PostParams,
    responses: { 200: RelatedResponse, 404: ErrorBody },
  }),
  deletePost: defineRoute({
    method: 'DELETE',
    path: '/api/posts/:id',
    access: signedIn(),
    tags: ['posts'],
    summary: 'Delete your own post',
    params: PostParams,
    responses: { 204: z.null(), 401: ErrorBody, 404: ErrorBody },
  }),
} as const;
