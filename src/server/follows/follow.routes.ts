import type { FastifyPluginAsync } from 'fastify';
import { usersApi } from '../../shared/api/users.js';
import { registerRoute } from '../http/register-route.js';
import type { FollowService } from './follow.service.js';

export const followRoutes =
  (follows: FollowService): FastifyPluginAsync =>
  async (app) => {
    registerRoute(app, usersApi.follow, async ({ params, viewer }) => follows.follow(viewer, params.username));
    registerRoute(app, usersApi.unfollow, async ({ params, viewer }) => follows.unfollow(viewer, params.username));
    registerRoute(app, usersApi.followers, async ({ params, query, viewer }) =>
      follows.list(params.username, viewer, 'followers', query.cursor),
    );
    registerRoute(app, usersApi.following, async ({ params, query, viewer }) =>
      follows.list(params.username, viewer, 'following', query.cursor),
    );
  };
