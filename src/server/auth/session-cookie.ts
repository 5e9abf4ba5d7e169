import type { FastifyReply, FastifyRequest } from 'fastify';
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

/** The browser keeps the cookie exactly as long as the server keeps the session. */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date) {
  const maxAge = Math.round((expiresAt.getTime() - Date.now()) / 1000);
  reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(request), expires: expiresAt, maxAge });
}

/** Cleared with the attributes it was set with, or the browser keeps it. */
export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
}
