import { createHash, randomBytes } from 'node:crypto';

export const SESSION_COOKIE = 'session';
/** A session ends after 30 days without use; every use starts the 30 days again. */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * How stale a session's expiry may get before a use extends it. Extending on every request
 * would turn each read into a write (and a Set-Cookie); an hour's slack on 30 days costs a
 * user nothing and leaves at most one write per session per hour.
 */
const SESSION_RENEW_AFTER_MS = 60 * 60 * 1000;

/** 256 random bits; the browser holds the token, the database only its hash. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * SHA-256 is enough here (no salt, no stretching): the token is already 256 random bits, so a
 * leaked table can't be brute-forced back into live cookies.
 */
export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Whether a live session has gone unextended long enough to push its expiry out again. */
export function needsRenewal(expiresAt: Date, now: number): boolean {
  return expiresAt.getTime() - now < SESSION_TTL_MS - SESSION_RENEW_AFTER_MS;
}
