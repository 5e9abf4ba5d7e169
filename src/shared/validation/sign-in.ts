import { ERRORS } from '../errors.js';
import { looksLikeEmail } from './sign-up.js';

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
  return looksLikeEmail(value) ? { by: 'email', email: value } : { by: 'username', username: value };
}
