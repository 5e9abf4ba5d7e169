import type { FastifyPluginAsync } from 'fastify';
import { sessionsApi } from '../../shared/api/sessions.js';
import { registerRoute } from '../http/register-route.js';
import { logSecurityEvent } from '../http/security-log.js';
import type { AuthService } from './auth.service.js';
import { accountOf, signedInRecently } from './session-account.js';
import { clearSessionCookie, sessionTokenOf } from './session-cookie.js';

/** Not in the spec (issue 16): Change Password and the Sessions list of Settings → Security. */
export const accountSecurityRoutes =
  (auth: AuthService): FastifyPluginAsync =>
  async (app) => {
    registerRoute(app, sessionsApi.changePassword, async ({ request, body, viewer }) => {
      // A signed-in request has a token: the account came from it.
      await auth.changePassword(accountOf(request), sessionTokenOf(request).token!, body, signedInRecently(request));
      logSecurityEvent(request, 'changed password', { userId: viewer.id });
      return null;
    });

    registerRoute(app, sessionsApi.sessions, async ({ request }) => ({
      sessions: await auth.sessionsOf(accountOf(request), request.sessionId),
    }));

    registerRoute(app, sessionsApi.endSession, async ({ request, reply, params, viewer }) => {
      await auth.endSession(viewer, params.id);
      logSecurityEvent(request, 'ended a session', { userId: viewer.id });
      if (params.id === request.sessionId) clearSessionCookie(request, reply);
      return null;
    });
  };
