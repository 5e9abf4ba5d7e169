import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ErrorCode } from '../../shared/errors.js';
import type { Role } from '../../shared/moderation.js';
import { AppError } from '../http/app-error.js';
import { isApiUrl } from '../http/url-space.js';
import type { UserRow } from './auth.queries.js';
import type { AuthService } from './auth.service.js';
import { clearTossedSessionCookies, sessionTokenOf, setSessionCookie } from './session-cookie.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, or null. Decided by the server from the session cookie alone. */
    user: UserRow | null;
    /** The public id of the session the request was made in (null when signed out). */
    sessionId: string | null;
  }
}

/**
 * Loads the session's user for every API request (one indexed lookup). When the use extended
 * the session, the browser's cookie is extended with it. A request carrying two session cookies
 * is signed out, and both are cleared (see sessionTokenOf).
 */
export function registerCurrentUser(app: FastifyInstance, auth: AuthService) {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  app.addHook('preHandler', async (request, reply) => {
    if (!isApiUrl(request.url)) return;
    const { token, tossed } = sessionTokenOf(request);
    if (tossed) return clearTossedSessionCookies(request, reply);
    const session = await auth.sessionForToken(token);
    request.user = session?.user ?? null;
    request.sessionId = session?.sessionId ?? null;
    if (token && session?.renewedUntil) setSessionCookie(request, reply, token, session.renewedUntil);
  });
}

/** The signed-in user, or a 401 with the given code (the spec names one for some actions). */
export function requireUser(request: FastifyRequest, code: ErrorCode = 'NOT_SIGNED_IN'): UserRow {
  if (!request.user) throw new AppError(401, code);
  return request.user;
}

/**
 * The signed-in user when their role is one of `roles` (issue 17: moderation is for moderators
 * and admins). To anyone else, signed in or not, the route does not exist: 404, as for a page
 * they may not know about. Services check again what the user may touch.
 */
export function requireRole(request: FastifyRequest, roles: readonly Role[]): UserRow {
  if (!request.user || !roles.includes(request.user.role)) throw new AppError(404, 'NOT_FOUND');
  return request.user;
}
