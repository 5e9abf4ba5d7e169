import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ErrorCode } from '../../shared/errors.js';
import { AppError } from '../http/app-error.js';
import type { UserRow } from './auth.queries.js';
import type { AuthService } from './auth.service.js';
import { SESSION_COOKIE } from './session-token.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, or null. Decided by the server from the session cookie alone. */
    user: UserRow | null;
  }
}

/** Loads the session's user for every API request (one indexed lookup). */
export function registerCurrentUser(app: FastifyInstance, auth: AuthService) {
  app.decorateRequest('user', null);
  app.addHook('preHandler', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    request.user = (await auth.userForToken(request.cookies[SESSION_COOKIE])) ?? null;
  });
}

/** The signed-in user, or a 401 with the given code (the spec names one for some actions). */
export function requireUser(request: FastifyRequest, code: ErrorCode = 'NOT_SIGNED_IN'): UserRow {
  if (!request.user) throw new AppError(401, code);
  return request.user;
}
