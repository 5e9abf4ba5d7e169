import { ERRORS } from '../errors.js';
import { looksLikeEmail, normalizeEmail } from './sign-up.js';

export interface SignInInput {
  /** A username or an e-mail address. */
  identifier: string;
  password: string;
}

export type SignInIdentity = { by: 'email'; email: string } | { by: 'username'; username: string };

/** Both fields are required (spec section 5). */
export function validateSignIn({ identifier, password }: SignInInput): string[] {
  return identifier.trim() && password ? [] : [ERRORS.FILL_IN_ALL_FIELDS];
}

/** An identifier that looks like an e-mail signs in by e-mail; anything else is a username. */
export function parseIdentifier(identifier: string): SignInIdentity {
  const value = identifier.trim().toLowerCase();
  const email = normalizeEmail(identifier.trim());
  return looksLikeEmail(email) ? { by: 'email', email } : { by: 'username', username: value };
}
