import { createHash, randomBytes } from 'node:crypto';

export const SESSION_COOKIE = 'session';
/** The name over HTTPS (see auth/session-cookie.ts). */
export const SECURE_SESSION_COOKIE = '__Host-session';
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

/**
 * However often it is used, a session ends a year after its sign-in (ASVS V7.3.2): a cookie
 * copied off a shared computer does not live for ever, and once a year is a small ask.
 */
export const SESSION_MAX_AGE_MS = 365 * 24 * 60 * 60 * 1000;

/** Whether a session has ended: unused for 30 days, or a year past its sign-in. */
export function hasEnded(session: { expiresAt: Date; createdAt: Date }, now: number): boolean {
  return Math.min(session.expiresAt.getTime(), session.createdAt.getTime() + SESSION_MAX_AGE_MS) <= now;
}

/**
 * The expiry a use of a live session moves it to: 30 days from now, but never past a year after
 * sign-in. Undefined when that gains less than SESSION_RENEW_AFTER_MS (no write needed).
 */
export function renewedExpiry(session: { expiresAt: Date; createdAt: Date }, now: number): Date | undefined {
  const next = Math.min(now + SESSION_TTL_MS, session.createdAt.getTime() + SESSION_MAX_AGE_MS);
  return next - session.expiresAt.getTime() > SESSION_RENEW_AFTER_MS ? new Date(next) : undefined;
}

/**
 * How stale "last active" in the Sessions list may get: a use writes it at most this often, so
 * a busy session costs one small write every few minutes, not one per request.
 */
export const LAST_SEEN_EVERY_MS = 5 * 60 * 1000;

/** What a use of a live session writes: a later expiry and/or "last active", or nothing. */
export function sessionTouch(
  session: { expiresAt: Date; createdAt: Date; lastSeenAt: Date },
  now: number,
): { expiresAt?: Date; lastSeenAt: Date } | undefined {
  const expiresAt = renewedExpiry(session, now);
  if (!expiresAt && now - session.lastSeenAt.getTime() < LAST_SEEN_EVERY_MS) return undefined;
  return { ...(expiresAt && { expiresAt }), lastSeenAt: new Date(now) };
}

/** The User-Agent as stored with a session: bounded (the column holds 512 characters). */
export function storedUserAgent(header: string | undefined): string {
  // PostgreSQL text cannot hold NUL.
  return Array.from((header ?? '').replaceAll('\0', ''))
    .slice(0, 512)
    .join('');
}
