import { createHash, randomBytes } from 'node:crypto';

export const SESSION_COOKIE = 'session';
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

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
