import { isSuspended } from '../../shared/moderation.js';
import { hasEnded } from './session-token.js';

/**
 * The session rule (issue 26), the one home of "may this session act": checked on every
 * authenticated request, from the database and from the embedded session cache alike.
 *
 * A session is live while its account exists (the row join), is not suspended, and the session
 * was made in the account's current session epoch: every credential or status change (password
 * change, reset, signing out everywhere, suspension) moves the epoch on, so whatever sessions it
 * meant to end are over even if a racing sign-in slipped one in, and it has neither run out
 * (30 days unused) nor reached its first birthday.
 */
export function sessionIsLive(
  session: { epoch: number; expiresAt: Date; createdAt: Date },
  account: { sessionEpoch: number; suspendedUntil: Date | null },
  now: number,
): boolean {
  return session.epoch === account.sessionEpoch && !isSuspended(account.suspendedUntil, new Date(now)) && !hasEnded(session, now);
}
