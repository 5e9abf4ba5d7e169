import type { FastifyPluginAsync } from 'fastify';
import { passwordResetApi } from '../../shared/api/password-reset.js';
import { rateLimitAddress } from '../http/client-address.js';
import { registerRoute } from '../http/register-route.js';
import { logSecurityEvent } from '../http/security-log.js';
import type { AuthService } from './auth.service.js';
import type { VerificationPolicy } from './email-verification-rule.js';
import { toMe } from './me.js';
import type { PasswordResetService } from './password-reset.service.js';
import { replaceSession } from './sign-in-cookie.js';

/**
 * Not in the spec (issue 16): a reset link's page checks and uses its link; "Forgot password?"
 * mails one. The token travels in JSON bodies only, never in an API URL, so no log line holds it.
 */
export const passwordResetRoutes =
  (resets: PasswordResetService, auth: AuthService, policy: VerificationPolicy): FastifyPluginAsync =>
  async (app) => {
    registerRoute(app, passwordResetApi.resetCheck, async ({ request, body }) => resets.check(body.token, rateLimitAddress(request.ip)));

    registerRoute(app, passwordResetApi.reset, async ({ request, reply, body }) => {
      const session = await resets.reset(body, rateLimitAddress(request.ip), request.headers['user-agent']);
      logSecurityEvent(request, 'reset password', { userId: session.user.id });
      await replaceSession(auth, request, reply, session);
      return { user: toMe(session.user, policy) };
    });

    registerRoute(app, passwordResetApi.forgotPassword, async ({ request, body }) => {
      await resets.forgot(body.identifier, rateLimitAddress(request.ip), {
        log: request.log,
        report: (event, userId) => logSecurityEvent(request, event, { userId }),
      });
      return null;
    });
  };
