import type { FastifyPluginAsync } from 'fastify';
import { accountApi } from '../../shared/api/delete-account.js';
import { accountOf, signedInRecently } from '../auth/session-account.js';
import { clearSessionCookie } from '../auth/session-cookie.js';
import { rateLimitAddress } from '../http/client-address.js';
import { registerRoute } from '../http/register-route.js';
import { logSecurityEvent } from '../http/security-log.js';
import type { AccountDeletion } from './delete-account.js';

/** Not in the spec (issue 16): Settings → Security → Delete Account. */
export const deleteAccountRoutes =
  (deletion: AccountDeletion): FastifyPluginAsync =>
  async (app) => {
    registerRoute(app, accountApi.deleteAccount, async ({ request, reply, body, viewer }) => {
      await deletion.delete(accountOf(request), body, rateLimitAddress(request.ip), signedInRecently(request));
      logSecurityEvent(request, 'deleted account', { userId: viewer.id });
      clearSessionCookie(request, reply);
      return null;
    });
  };
