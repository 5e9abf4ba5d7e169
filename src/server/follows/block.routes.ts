import type { FastifyPluginAsync } from 'fastify';
import { usersApi } from '../../shared/api/users.js';
import { registerRoute } from '../http/register-route.js';
import type { BlockService } from './block.service.js';

export const blockRoutes =
  (blocks: BlockService): FastifyPluginAsync =>
  async (app) => {
    registerRoute(app, usersApi.block, async ({ params, viewer }) => blocks.block(viewer, params.username));
    registerRoute(app, usersApi.unblock, async ({ params, viewer }) => blocks.unblock(viewer, params.username));
    registerRoute(app, usersApi.blocks, async ({ viewer }) => blocks.list(viewer));
  };
