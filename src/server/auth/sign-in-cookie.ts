import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthService, SignedIn } from './auth.service.js';
import { sessionTokenOf, setSessionCookie } from './session-cookie.js';

/**
 * A new session's cookie (sign-up, sign-in, a password reset) replaces whatever this browser
 * held, so the session behind the old cookie ends too instead of living on unseen (ASVS V7.2.4).
 */
export async function replaceSession(auth: AuthService, request: FastifyRequest, reply: FastifyReply, session: SignedIn) {
  await auth.logout(sessionTokenOf(request).token);
  setSessionCookie(request, reply, session.token, session.expiresAt);
}
