import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody } from '../../shared/api/common.js';
import { CreatePostForm, PageQuery, PostPage, PostParams, PostResponse, RelatedResponse } from '../../shared/api/posts.js';
import { UsernameParams } from '../../shared/api/users.js';
import { POST_IMAGE_MAX_BYTES } from '../../shared/limits.js';
import { requireUser } from '../auth/current-user.js';
import { readForm } from '../http/multipart-form.js';
import { multipartValidator } from '../http/strict-input.js';
import type { PostService } from './post.service.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody, 422: ErrorBody };

export const postRoutes =
  (posts: PostService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/posts',
      {
        schema: {
          tags: ['posts'],
          summary: "Home feed: newest first, without the signed-in user's own posts",
          querystring: PageQuery,
          response: { 200: PostPage, 400: ErrorBody },
        },
      },
      async (request, reply) => {
        const json = await posts.feedJson(request.user, request.query.cursor);
        // Already-serialized JSON (the cache serializes each card once); Fastify sends strings as
        // they are, which the typed reply can't express.
        return reply.type('application/json; charset=utf-8').send(json as never);
      },
    );

    app.get(
      '/api/users/:username/posts',
      {
        schema: {
          tags: ['people'],
          summary: "A user's posts, newest first (50 a page)",
          params: UsernameParams,
          querystring: PageQuery,
          response: { 200: PostPage, 400: ErrorBody, 404: ErrorBody },
        },
      },
      async (request) => posts.byAuthor(request.params.username, request.user, request.query.cursor),
    );

    app.post(
      '/api/posts',
      {
        schema: {
          tags: ['posts'],
          summary:
            'Create a post (multipart: photo, description, link, idempotencyKey). The same idempotencyKey from the same account ' +
            'within 10 minutes answers with the post it made (the same 201 and body, with Idempotent-Replayed: true), making none.',
          consumes: ['multipart/form-data'],
          body: CreatePostForm.optional(),
          response: { 201: PostResponse, ...errors },
        },
        // The multipart parser reads the body itself; params and query are validated as usual.
        validatorCompiler: multipartValidator,
      },
      async (request, reply) => {
        const author = requireUser(request, 'USER_DATA_NOT_FOUND');
        const { fields, file } = await readForm(request, {
          fileField: 'photo',
          textFields: ['description', 'link', 'idempotencyKey'],
          maxFileBytes: POST_IMAGE_MAX_BYTES,
          tooLarge: 'IMAGE_TOO_LARGE',
        });
        const { post, replayed } = await posts.create(author, {
          description: fields.description ?? '',
          link: (fields.link ?? '').trim(),
          photo: file,
          idempotencyKey: fields.idempotencyKey,
        });
        // A replay answers as the first submission did: a form that sent twice shows one post.
        if (replayed) void reply.header('idempotent-replayed', 'true');
        return reply.code(201).send({ post });
      },
    );

    app.get(
      '/api/posts/:id',
      {
        schema: {
          tags: ['posts'],
          summary: 'One post with its author',
          params: PostParams,
          response: { 200: PostResponse, 404: ErrorBody },
        },
      },
      async (request) => ({ post: await posts.get(request.params.id, request.user) }),
    );

    app.get(
      '/api/posts/:id/related',
      {
        schema: {
          tags: ['posts'],
          summary: 'Posts sharing a hashtag or keyword (Discover)',
          params: PostParams,
          response: { 200: RelatedResponse, 404: ErrorBody },
        },
      },
      async (request, reply) => {
        const json = await posts.relatedJson(request.params.id, request.user);
        // Already-serialized JSON (shared answers are serialized once); see the feed route.
        return reply.type('application/json; charset=utf-8').send(json as never);
      },
    );

    app.delete(
      '/api/posts/:id',
      {
        schema: {
          tags: ['posts'],
          summary: 'Delete your own post',
          params: PostParams,
          response: { 204: z.null(), 401: ErrorBody, 404: ErrorBody },
        },
      },
      async (request, reply) => {
        await posts.delete(requireUser(request), request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
