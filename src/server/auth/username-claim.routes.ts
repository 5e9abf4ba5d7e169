import type { FastifyPluginAsync } from 'fastify';
import { usernameClaimApi } from '../../shared/api/username-claim.js';
import { rateLimitAddress } from '../http/client-address.js';
import { registerRoute } from '../http/register-route.js';
import { logSecurityEvent } from '../http/security-log.js';
import type { AuthService } from './auth.service.js';
import type { VerificationPolicy } from './email-verification-rule.js';
import { toMe } from './me.js';
import { replaceSession } from './sign-in-cookie.js';
import type { UsernameClaims } from './username-claim.service.js';

/** Not in the spec (issue 29): a held name back early. The link's token travels in a JSON body, never in an API URL. */
export const usernameClaimRoutes =
  (claims: UsernameClaims, auth: AuthService, policy: VerificationPolicy): FastifyPluginAsync =>
  async (app) => {
    registerRoute(app, usernameClaimApi.claimCheck, async ({ request, body }) => claims.check(body.token, rateLimitAddress(request.ip)));

    registerRoute(app, usernameClaimApi.claimUsername, async ({ request, reply, body }) => {
      const user = await claims.claim(body.token, rateLimitAddress(request.ip));
      logSecurityEvent(request, 'signed up', { userId: user.id });
      const session = await auth.startSession(user, request.headers['user-agent']);
      await replaceSession(auth, request, reply, session);
      return { user: toMe(user, policy) };
    });
  };
