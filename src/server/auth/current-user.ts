import type { FastifyInstance, FastifyRequest } from 'fastify';
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

export function requireUser(request: FastifyRequest): UserRow {
  if (!request.user) throw new AppError(401, 'NOT_SIGNED_IN');
  return request.user;
}
