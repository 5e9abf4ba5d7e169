import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MeResponse } from '../../shared/api/auth.js';
import { ErrorBody } from '../../shared/api/common.js';
import { ForgotPasswordBody, ResetBody, ResetCheckBody, ResetCheckResponse } from '../../shared/api/password-reset.js';
import { API } from '../../shared/api/paths.js';
import { rateLimitAddress } from '../http/client-address.js';
import { logSecurityEvent } from '../http/security-log.js';
import type { AuthService } from './auth.service.js';
import { toMe } from './me.js';
import type { PasswordResetService } from './password-reset.service.js';
import { replaceSession } from './sign-in-cookie.js';

/**
 * Not in the spec (issue 16): a reset link's page checks and uses its link; "Forgot password?"
 * mails one. The token travels in JSON bodies only, never in an API URL, so no log line holds it.
 */
export const passwordResetRoutes =
  (resets: PasswordResetService, auth: AuthService): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      API.resetCheck,
      {
        schema: {
          tags: ['accounts'],
          summary: 'Whose a password reset link is, while it is still good',
          body: ResetCheckBody,
          response: { 200: ResetCheckResponse, 400: ErrorBody, 429: ErrorBody },
        },
      },
      async (request) => resets.check(request.body.token, rateLimitAddress(request.ip)),
    );

    app.post(
      API.reset,
      {
        schema: {
          tags: ['accounts'],
          summary: 'Set a new password with a reset link: every session of the account ends, and this browser is signed in',
          body: ResetBody,
          response: { 200: MeResponse, 400: ErrorBody, 429: ErrorBody },
        },
      },
      async (request, reply) => {
        const session = await resets.reset(request.body, rateLimitAddress(request.ip), request.headers['user-agent']);
        logSecurityEvent(request, 'reset password', { userId: session.user.id });
        await replaceSession(auth, request, reply, session);
        return { user: toMe(session.user) };
      },
    );

    app.post(
      API.forgotPassword,
      {
        schema: {
          tags: ['accounts'],
          summary: 'Mail a password reset link to the account named (the same answer whether or not there is one)',
          body: ForgotPasswordBody,
          response: { 204: z.null(), 400: ErrorBody, 404: ErrorBody, 429: ErrorBody },
        },
      },
      async (request, reply) => {
        await resets.forgot(request.body.identifier, rateLimitAddress(request.ip), {
          log: request.log,
          report: (event, userId) => logSecurityEvent(request, event, { userId }),
        });
        return reply.code(204).send(null);
      },
    );
  };
