import { AppError } from '../http/app-error.js';
import type { UserRow } from './auth.queries.js';
import { verifyPassword } from './password.js';

/**
 * Where an account proves it is its owner before a change (a new password, a new address,
 * deleting itself): by its password (the one typed, or a check of its own that also limits
 * guesses), or, for an account made through single sign-on that has none, by having signed in
 * within RECENT_SIGN_IN_MS (issue 29; session-account.ts).
 */
export async function proveOwner(user: UserRow, signedInRecently: boolean, password: string | (() => Promise<void>)): Promise<void> {
  if (!user.hasPassword) {
    if (!signedInRecently) throw new AppError(401, 'SSO_REAUTH_NEEDED').withAudit({ accountId: user.id });
    return;
  }
  if (typeof password !== 'string') return password();
  if (!(await verifyPassword(user.passwordHash, password))) throw new AppError(401, 'INCORRECT_PASSWORD').withAudit({ accountId: user.id });
}
