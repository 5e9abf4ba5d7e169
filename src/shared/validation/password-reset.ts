import { ERRORS } from '../errors.js';

/** "Forgot password?" needs a username or an e-mail address (what the sign-in form takes). */
export function validateForgotPassword({ identifier }: { identifier: string }): string[] {
  return identifier.trim() ? [] : [ERRORS.FILL_IN_ALL_FIELDS];
}
