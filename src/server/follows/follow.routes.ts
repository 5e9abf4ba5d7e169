import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorBody } from '../../shared/api/common.js';
import { PageQuery } from '../../shared/api/posts.js';
import { FollowState, UserPage, UsernameParams } from '../../shared/api/users.js';
import { requireUser } from '../auth/current-user.js';
import type { FollowService } from './follow.service.js';

export const followRoutes =
  (follows: FollowService): FastifyPluginAsyncZod =>
  async (app) => {
    const stateResponse = { 200: FollowState, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody };

    app.put(
      '/api/users/:username/follow',
      { schema: { tags: ['people'], summary: 'Follow a user (idempotent)', params: UsernameParams, response: stateResponse } },
      async (request) => follows.follow(requireUser(request), request.params.username),
    );

    app.delete(
      '/api/users/:username/follow',
      { schema: { tags: ['people'], summary: 'Unfollow a user (idempotent)', params: UsernameParams, response: stateResponse } },
      async (request) => follows.unfollow(requireUser(request), request.params.username),
    );

    for (const side of ['followers', 'following'] as const) {
      app.get(
        `/api/users/:username/${side}`,
        {
          schema: {
            tags: ['people'],
            summary: side === 'followers' ? 'Who follows this user' : 'Whom this user follows',
            params: UsernameParams,
            querystring: PageQuery,
            response: { 200: UserPage, 400: ErrorBody, 404: ErrorBody },
          },
        },
        async (request) => follows.list(request.params.username, request.user, side, request.query.cursor),
      );
    }
  };
