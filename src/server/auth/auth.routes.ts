import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LoginBody, MeResponse, RegisterBody } from '../../shared/api/auth.js';
import { ErrorBody } from '../../shared/api/common.js';
import { API } from '../../shared/api/paths.js';
import { toMe } from './me.js';
import { rateLimitAddress } from '../http/client-address.js';
import { logSecurityEvent } from '../http/security-log.js';
import type { AuthService } from './auth.service.js';
import { requireUser } from './current-user.js';
import { clearSessionCookie, clearTossedSessionCookies, sessionTokenOf } from './session-cookie.js';
import { replaceSession } from './sign-in-cookie.js';

export const authRoutes =
  (auth: AuthService): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      API.register,
      {
        schema: {
          tags: ['accounts'],
          summary: 'Create an account and sign in',
          body: RegisterBody,
          response: { 201: MeResponse, 400: ErrorBody, 409: ErrorBody, 429: ErrorBody },
        },
      },
      async (request, reply) => {
        const session = await auth.register(request.body, rateLimitAddress(request.ip), request.headers['user-agent']);
        logSecurityEvent(request, 'signed up', { userId: session.user.id });
        await replaceSession(auth, request, reply, session);
        return reply.code(201).send({ user: toMe(session.user) });
      },
    );

    app.post(
      API.login,
      {
        schema: {
          tags: ['accounts'],
          summary: 'Sign in with a username or an e-mail address',
          body: LoginBody,
          response: { 200: MeResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 429: ErrorBody },
        },
      },
      async (request, reply) => {
        const session = await auth.login(request.body, rateLimitAddress(request.ip), request.headers['user-agent']);
        logSecurityEvent(request, 'signed in', { userId: session.user.id });
        await replaceSession(auth, request, reply, session);
        return { user: toMe(session.user) };
      },
    );

    app.post(
      API.logout,
      { schema: { tags: ['accounts'], summary: 'Sign out this browser', response: { 204: z.null() } } },
      async (request, reply) => {
        const { token, tossed } = sessionTokenOf(request);
        await auth.logout(token);
        if (tossed) clearTossedSessionCookies(request, reply);
        if (request.user) logSecurityEvent(request, 'signed out', { userId: request.user.id });
        clearSessionCookie(request, reply);
        return reply.code(204).send(null);
      },
    );

    app.post(
      API.logoutAll,
      {
        schema: {
          tags: ['accounts'],
          summary: 'Sign out everywhere: end every session of the signed-in user',
          response: { 204: z.null(), 401: ErrorBody },
        },
      },
      async (request, reply) => {
        const user = requireUser(request);
        await auth.logoutEverywhere(user);
        logSecurityEvent(request, 'signed out everywhere', { userId: user.id });
        clearSessionCookie(request, reply);
        return reply.code(204).send(null);
      },
    );

    app.get(
      API.me,
      { schema: { tags: ['accounts'], summary: 'The signed-in user', response: { 200: MeResponse, 401: ErrorBody } } },
      async (request) => ({ user: toMe(requireUser(request)) }),
    );
  };
