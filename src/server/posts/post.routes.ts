import type { FastifyPluginAsync } from 'fastify';
import { postsApi } from '../../shared/api/posts.js';
import { usersApi } from '../../shared/api/users.js';
import { POST_IMAGE_MAX_BYTES } from '../../shared/limits.js';
import { readForm } from '../http/multipart-form.js';
import { registerRoute } from '../http/register-route.js';
import type { PostService } from './post.service.js';

export const postRoutes =
  (posts: PostService): FastifyPluginAsync =>
  async (app) => {
    // Already-serialized JSON (the cache serializes each card once).
    registerRoute(app, postsApi.feed, async ({ query, viewer }) => posts.feedJson(viewer, query.cursor));

    registerRoute(app, usersApi.userPosts, async ({ params, query, viewer }) => posts.byAuthor(params.username, viewer, query.cursor));

    registerRoute(app, postsApi.createPost, async ({ request, reply, viewer }) => {
      const { fields, file } = await readForm(request, {
        fileField: 'photo',
        textFields: ['description', 'link', 'idempotencyKey'],
        maxFileBytes: POST_IMAGE_MAX_BYTES,
        tooLarge: 'IMAGE_TOO_LARGE',
      });
      const { post, replayed } = await posts.create(viewer, {
        description: fields.description ?? '',
        link: (fields.link ?? '').trim(),
        photo: file,
        idempotencyKey: fields.idempotencyKey,
      });
      // A replay answers as the first submission did: a form that sent twice shows one post.
      if (replayed) void reply.header('idempotent-replayed', 'true');
      return { post };
    });

    registerRoute(app, postsApi.post, async ({ params, viewer }) => ({ post: await posts.get(params.id, viewer) }));

    // Already-serialized JSON (shared answers are serialized once).
    registerRoute(app, postsApi.related, async ({ params, viewer }) => posts.relatedJson(params.id, viewer));

    registerRoute(app, postsApi.deletePost, async ({ params, viewer }) => {
      await posts.delete(viewer, params.id);
      return null;
    });
  };
