import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LoginBody, MeResponse, RegisterBody } from '../../shared/api/auth.js';
import { ErrorBody } from '../../shared/api/common.js';
import { API } from '../../shared/api/paths.js';
import { toMe } from '../users/user.mapper.js';
import type { AuthService, SignedIn } from './auth.service.js';
import { requireUser } from './current-user.js';
import { SESSION_COOKIE } from './session-token.js';

function cookieOptions(request: FastifyRequest) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    // request.protocol honours X-Forwarded-Proto when TRUST_PROXY is set.
    secure: request.protocol === 'https',
  };
}

function setSessionCookie(request: FastifyRequest, reply: FastifyReply, session: SignedIn) {
  reply.setCookie(SESSION_COOKIE, session.token, { ...cookieOptions(request), expires: session.expiresAt });
}

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
        const session = await auth.register(request.body, request.ip);
        setSessionCookie(request, reply, session);
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
        const session = await auth.login(request.body, request.ip);
        setSessionCookie(request, reply, session);
        return { user: toMe(session.user) };
      },
    );

    app.post(
      API.logout,
      { schema: { tags: ['accounts'], summary: 'Sign out this browser', response: { 204: z.null() } } },
      async (request, reply) => {
        await auth.logout(request.cookies[SESSION_COOKIE]);
        reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
        return reply.code(204).send(null);
      },
    );

    app.get(
      API.me,
      { schema: { tags: ['accounts'], summary: 'The signed-in user', response: { 200: MeResponse, 401: ErrorBody } } },
      async (request) => ({ user: toMe(requireUser(request)) }),
    );
  };
