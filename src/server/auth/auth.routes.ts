import type { FastifyPluginAsync } from 'fastify';
import { authApi } from '../../shared/api/auth.js';
import { rateLimitAddress } from '../http/client-address.js';
import { registerRoute } from '../http/register-route.js';
import { logSecurityEvent } from '../http/security-log.js';
import type { AuthService } from './auth.service.js';
import type { VerificationPolicy } from './email-verification-rule.js';
import type { EmailVerificationService } from './email-verification.service.js';
import { toMe } from './me.js';
import { accountOf } from './session-account.js';
import { clearSessionCookie, clearTossedSessionCookies, sessionTokenOf } from './session-cookie.js';
import { replaceSession } from './sign-in-cookie.js';
import type { UsernameClaims } from './username-claim.service.js';

export const authRoutes =
  (auth: AuthService, verifications: EmailVerificationService, claims: UsernameClaims, policy: VerificationPolicy): FastifyPluginAsync =>
  async (app) => {
    registerRoute(app, authApi.register, async ({ request, reply, body }) => {
      const session = await auth.register(body, rateLimitAddress(request.ip), request.headers['user-agent']).catch((error: unknown) => {
        // Issue 29: a held name asked for with its own address is mailed a claim link, after this answer.
        claims.afterRefusedSignUp(error, body, request.log);
        throw error;
      });
      logSecurityEvent(request, 'signed up', { userId: session.user.id });
      await replaceSession(auth, request, reply, session);
      if (session.user.verifyEmail) verifications.afterSignUp(session.user, request.log);
      return { user: toMe(session.user, policy) };
    });

    registerRoute(app, authApi.login, async ({ request, reply, body }) => {
      const session = await auth.login(body, rateLimitAddress(request.ip), request.headers['user-agent']);
      logSecurityEvent(request, 'signed in', { userId: session.user.id });
      await replaceSession(auth, request, reply, session);
      return { user: toMe(session.user, policy) };
    });

    registerRoute(app, authApi.logout, async ({ request, reply, viewer }) => {
      const { token, tossed } = sessionTokenOf(request);
      await auth.logout(token);
      if (tossed) clearTossedSessionCookies(request, reply);
      if (viewer) logSecurityEvent(request, 'signed out', { userId: viewer.id });
      clearSessionCookie(request, reply);
      return null;
    });

    registerRoute(app, authApi.logoutAll, async ({ request, reply, viewer }) => {
      await auth.logoutEverywhere(viewer);
      logSecurityEvent(request, 'signed out everywhere', { userId: viewer.id });
      clearSessionCookie(request, reply);
      return null;
    });

    registerRoute(app, authApi.me, async ({ request }) => ({ user: toMe(accountOf(request), policy) }));
  };
