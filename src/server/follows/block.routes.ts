import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorBody } from '../../shared/api/common.js';
import { BlockedAccounts, BlockState, UsernameParams } from '../../shared/api/users.js';
import { requireUser } from '../auth/current-user.js';
import type { BlockService } from './block.service.js';

export const blockRoutes =
  (blocks: BlockService): FastifyPluginAsyncZod =>
  async (app) => {
    const stateResponse = { 200: BlockState, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 429: ErrorBody };

    app.put(
      '/api/users/:username/block',
      {
        schema: {
          tags: ['people'],
          summary: 'Block a user (idempotent): each is hidden from the other, the follows between them end',
          params: UsernameParams,
          response: stateResponse,
        },
      },
      async (request) => blocks.block(requireUser(request), request.params.username),
    );

    app.delete(
      '/api/users/:username/block',
      {
        schema: {
          tags: ['people'],
          summary: 'Unblock a user (idempotent): visibility comes back, follows do not',
          params: UsernameParams,
          response: stateResponse,
        },
      },
      async (request) => blocks.unblock(requireUser(request), request.params.username),
    );

    app.get(
      '/api/me/blocks',
      {
        schema: {
          tags: ['people'],
          summary: 'The accounts you blocked, most recent first',
          response: { 200: BlockedAccounts, 401: ErrorBody },
        },
      },
      async (request) => blocks.list(requireUser(request)),
    );
  };
