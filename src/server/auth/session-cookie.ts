import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE, SECURE_SESSION_COOKIE } from './session-token.js';

// request.protocol honours X-Forwarded-Proto when TRUST_PROXY is set.
const isSecure = (request: FastifyRequest) => request.protocol === 'https';

/**
 * Over HTTPS the cookie is `__Host-session`: browsers take a cookie of that name only from this
 * exact host, Secure, with Path=/ and no Domain, so a page on a sibling subdomain of a shared
 * campus domain cannot plant or overwrite it (cookie tossing). Plain http (development, tests)
 * cannot use the prefix and keeps `session`.
 */
export function sessionCookieName(request: FastifyRequest): string {
  return isSecure(request) ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}

function cookieOptions(request: FastifyRequest) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: isSecure(request) };
}

/**
 * The session token the request carries. Two cookies of the session's name mean someone planted
 * one (a sibling subdomain's Domain cookie, or one with a longer Path, which the browser sends
 * first): neither can be trusted to be the user's, so the request counts as signed out.
 */
export function sessionTokenOf(request: FastifyRequest): { token: string | undefined; tossed: boolean } {
  const name = sessionCookieName(request);
  const header = request.headers.cookie ?? '';
  let seen = 0;
  for (const pair of header.split(';')) if (pair.trimStart().startsWith(`${name}=`)) seen += 1;
  if (seen > 1) return { token: undefined, tossed: true };
  return { token: request.cookies[name], tossed: false };
}

/** The browser keeps the cookie exactly as long as the server keeps the session. */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date) {
  const maxAge = Math.round((expiresAt.getTime() - Date.now()) / 1000);
  reply.setCookie(sessionCookieName(request), token, { ...cookieOptions(request), expires: expiresAt, maxAge });
}

/** Cleared with the attributes it was set with, or the browser keeps it. */
export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(sessionCookieName(request), cookieOptions(request));
}

/**
 * Clears our cookie and the planted one. A browser deletes a cookie only when name, Domain and
 * Path all match, and we cannot see the planted one's: so clear it for this host, for every
 * parent domain (a sibling can only set Domain to one of those), and for every prefix of this
 * request's path (a longer Path is how a planted cookie gets sent first).
 */
export function clearTossedSessionCookies(request: FastifyRequest, reply: FastifyReply) {
  const name = sessionCookieName(request);
  const options = cookieOptions(request);
  // Only plain segments can be a cookie Path (the decoded URL may hold anything), and a few suffice.
  const segments = request.url.split('?')[0]!.split('/').filter(Boolean).slice(0, 4);
  const plain = segments.findIndex((segment) => !/^[\w.~-]+$/.test(segment));
  const usable = plain === -1 ? segments : segments.slice(0, plain);
  const paths = ['/', ...usable.map((_, index) => `/${usable.slice(0, index + 1).join('/')}`)];
  const labels = request.hostname.split('.');
  // __Host- cookies never carry a Domain; an IP address has no parent domains.
  const parents =
    name === SECURE_SESSION_COOKIE || /^[\d.]+$|:/.test(request.hostname)
      ? []
      : labels.slice(1, -1).map((_, index) => labels.slice(index + 1).join('.'));
  for (const path of paths) {
    reply.clearCookie(name, { ...options, path });
    for (const domain of parents) reply.clearCookie(name, { ...options, path, domain });
  }
}
