import { ERRORS } from '../errors.js';
import { parseEmail } from './email.js';

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

/**
 * An identifier that parses as an e-mail address signs in by that address (parseEmail's
 * spelling); anything else is a username.
 */
export function parseIdentifier(identifier: string): SignInIdentity {
  const email = parseEmail(identifier.trim());
  return email ? { by: 'email', email: email.address } : { by: 'username', username: identifier.trim().toLowerCase() };
}
