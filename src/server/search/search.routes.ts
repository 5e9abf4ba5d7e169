import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorBody } from '../../shared/api/common.js';
import { PostSearchResponse, SearchQuery, UserSearchResponse } from '../../shared/api/search.js';
import type { SearchService } from './search.service.js';
import { rateLimitAddress } from '../http/client-address.js';

/** Two endpoints, so the page can show people even if the post search fails, and vice versa. */
export const searchRoutes =
  (search: SearchService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/search/users',
      {
        schema: {
          tags: ['search'],
          summary: 'People whose username starts with q (up to 10, never you)',
          querystring: SearchQuery,
          response: { 200: UserSearchResponse, 400: ErrorBody, 429: ErrorBody, 503: ErrorBody },
        },
      },
      async (request) => ({ users: await search.users(request.query.q, { address: rateLimitAddress(request.ip), viewer: request.user }) }),
    );

    app.get(
      '/api/search/posts',
      {
        schema: {
          tags: ['search'],
          summary: 'Posts matching any word of q (up to 100, best match first)',
          querystring: SearchQuery,
          response: { 200: PostSearchResponse, 400: ErrorBody, 429: ErrorBody, 503: ErrorBody },
        },
      },
      async (request, reply) => {
        const json = await search.postsJson(request.query.q, { address: rateLimitAddress(request.ip), viewer: request.user });
        // Already-serialized JSON (cached answers are serialized once); see the feed route.
        return reply.type('application/json; charset=utf-8').send(json as never);
      },
    );
  };
