import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody } from '../../shared/api/common.js';
import { API } from '../../shared/api/paths.js';
import { ChangePasswordBody, SessionParams, SessionsResponse } from '../../shared/api/sessions.js';
import { logSecurityEvent } from '../http/security-log.js';
import type { AuthService } from './auth.service.js';
import { requireUser } from './current-user.js';
import { clearSessionCookie, sessionTokenOf } from './session-cookie.js';

/** Not in the spec (issue 16): Change Password and the Sessions list of Settings → Security. */
export const accountSecurityRoutes =
  (auth: AuthService): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      API.password,
      {
        schema: {
          tags: ['accounts'],
          summary: 'Change your password; every other session ends',
          body: ChangePasswordBody,
          response: { 204: z.null(), 400: ErrorBody, 401: ErrorBody, 429: ErrorBody },
        },
      },
      async (request, reply) => {
        const user = requireUser(request);
        // A signed-in request has a token: the user came from it.
        await auth.changePassword(user, sessionTokenOf(request).token!, request.body);
        logSecurityEvent(request, 'changed password', { userId: user.id });
        return reply.code(204).send(null);
      },
    );

    app.get(
      API.sessions,
      {
        schema: {
          tags: ['accounts'],
          summary: 'Where you are signed in: every live session, this one marked current',
          response: { 200: SessionsResponse, 401: ErrorBody },
        },
      },
      async (request) => {
        const user = requireUser(request);
        return { sessions: await auth.sessionsOf(user, request.sessionId) };
      },
    );

    app.delete(
      '/api/me/sessions/:id',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Sign out one session (this one too, if named)',
          params: SessionParams,
          response: { 204: z.null(), 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
        },
      },
      async (request, reply) => {
        const user = requireUser(request);
        await auth.endSession(user, request.params.id);
        logSecurityEvent(request, 'ended a session', { userId: user.id });
        if (request.params.id === request.sessionId) clearSessionCookie(request, reply);
        return reply.code(204).send(null);
      },
    );
  };
