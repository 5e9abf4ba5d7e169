import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody } from '../../shared/api/common.js';
import { DeleteAccountBody } from '../../shared/api/delete-account.js';
import { API } from '../../shared/api/paths.js';
import { requireUser } from '../auth/current-user.js';
import { clearSessionCookie } from '../auth/session-cookie.js';
import { rateLimitAddress } from '../http/client-address.js';
import { logSecurityEvent } from '../http/security-log.js';
import type { AccountDeletion } from './delete-account.js';

/** Not in the spec (issue 16): Settings → Security → Delete Account. */
export const deleteAccountRoutes =
  (deletion: AccountDeletion): FastifyPluginAsyncZod =>
  async (app) => {
    app.delete(
      API.me,
      {
        schema: {
          tags: ['accounts'],
          summary: 'Delete your account: posts, photos, follows and sessions, for good',
          body: DeleteAccountBody,
          response: { 204: z.null(), 400: ErrorBody, 401: ErrorBody, 429: ErrorBody },
        },
      },
      async (request, reply) => {
        const user = requireUser(request);
        await deletion.delete(user, request.body, rateLimitAddress(request.ip));
        logSecurityEvent(request, 'deleted account', { userId: user.id });
        clearSessionCookie(request, reply);
        return reply.code(204).send(null);
      },
    );
  };
