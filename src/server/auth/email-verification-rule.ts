import * as COPY from '../../shared/copy.js';
import { AppError } from '../http/app-error.js';
import type { UserRow } from './auth.queries.js';

/** What decides whether accounts must verify their address (issue 29): config, read once. */
export interface VerificationPolicy {
  /** SMTP_URL is set: there is a way to verify. Without it nobody is held back. */
  readonly mail: boolean;
  /** REQUIRE_VERIFIED_EMAIL: accounts made before verification must verify too. */
  readonly requireAll: boolean;
}

export const NO_VERIFICATION: VerificationPolicy = { mail: false, requireAll: false };

type VerificationState = Pick<UserRow, 'email' | 'emailVerifiedAt' | 'verifyEmail' | 'pendingEmail'>;

/**
 * The one rule for who is held back until they verify: an account whose address was never proved,
 * made while mail was on (or any such account, with REQUIRE_VERIFIED_EMAIL), while mail is on.
 * A verified account that asked for a new address is not: it keeps the proved one meanwhile.
 */
export function mustVerify(user: VerificationState, policy: VerificationPolicy): boolean {
  return policy.mail && user.emailVerifiedAt === null && (user.verifyEmail || policy.requireAll);
}

/** The address a verification mail goes to: a pending new one, else the account's own while unproved. */
export function addressToVerify(user: VerificationState): string | undefined {
  return user.pendingEmail ?? (user.emailVerifiedAt === null ? user.email : undefined);
}

/** 'Check your inbox to verify {email}.', filled in with the address being verified. */
export function notVerifiedError(user: VerificationState): AppError {
  return new AppError(403, 'EMAIL_NOT_VERIFIED', [COPY.verify.checkInbox(user.pendingEmail ?? user.email)]);
}
