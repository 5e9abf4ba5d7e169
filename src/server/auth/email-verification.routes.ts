import type { FastifyPluginAsync } from 'fastify';
import { emailVerificationApi } from '../../shared/api/email-verification.js';
import { rateLimitAddress } from '../http/client-address.js';
import { registerRoute } from '../http/register-route.js';
import { logSecurityEvent } from '../http/security-log.js';
import type { VerificationPolicy } from './email-verification-rule.js';
import type { EmailVerificationService } from './email-verification.service.js';
import { toMe } from './me.js';
import { accountOf, signedInRecently } from './session-account.js';

/** Not in the spec (issue 29): verified addresses. The link's token travels in a JSON body, never in an API URL. */
export const emailVerificationRoutes =
  (verifications: EmailVerificationService, policy: VerificationPolicy): FastifyPluginAsync =>
  async (app) => {
    registerRoute(app, emailVerificationApi.verifyLink, async ({ request, body }) => {
      const proved = await verifications.verifyLink(body.token, rateLimitAddress(request.ip));
      logSecurityEvent(request, 'verified e-mail', { userId: proved.userId });
      return { email: proved.email };
    });

    registerRoute(app, emailVerificationApi.verifyCode, async ({ request, body }) => {
      const user = await verifications.verifyCode(accountOf(request), body.code, rateLimitAddress(request.ip));
      logSecurityEvent(request, 'verified e-mail', { userId: user.id });
      return { user: toMe(user, policy) };
    });

    registerRoute(app, emailVerificationApi.resendVerification, async ({ request }) => {
      await verifications.resend(accountOf(request), request.log);
      return null;
    });

    registerRoute(app, emailVerificationApi.changeEmail, async ({ request, body }) => {
      const user = await verifications.changeEmail(accountOf(request), body, request.log, signedInRecently(request));
      logSecurityEvent(request, 'changed e-mail', { userId: user.id });
      return { user: toMe(user, policy) };
    });
  };
