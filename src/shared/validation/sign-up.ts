import { ERRORS } from '../errors.js';
import { domainsMessage, emailDomainAllowed } from '../registration.js';
import { EMAIL_MAX_LENGTH, USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH, USERNAME_PATTERN } from '../limits.js';
import { passwordProblems } from './password.js';

export interface SignUpInput {
  username: string;
  email: string;
  password: string;
}

/** A standard e-mail shape: something@domain.tld, no spaces, one '@'. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/**
 * Characters that do not show: controls, format characters (zero-width space and joiners,
 * bidi marks), separators and the other default-ignorable code points (Hangul fillers, variation
 * selectors). In an address they only serve to make a second account look like the first.
 */
const INVISIBLE = /[\p{C}\p{Z}\p{Default_Ignorable_Code_Point}]/u;

export function looksLikeEmail(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(value) && !INVISIBLE.test(value);
}

/**
 * The one spelling of an address that is stored and compared: NFKC folds compatibility forms
 * (full-width ａｌｉｃｅ＠ｃａｍｐｕｓ．ｅｄｕ, ligatures, circled letters) into the plain ones, so a
 * variant of a taken address is the taken address; then lower case (spec section 5).
 */
export function normalizeEmail(value: string): string {
  return value.normalize('NFKC').toLowerCase();
}

/** Username and e-mail are lower-cased before they are checked and stored (spec section 5). */
export function normalizeSignUp(input: SignUpInput): SignUpInput {
  return {
    username: input.username.toLowerCase(),
    email: normalizeEmail(input.email),
    password: input.password,
  };
}

const hasOuterWhitespace = (value: string) => value !== value.trim();

/**
 * What only the server knows: which of the username and e-mail are registered already, and
 * whether the password is one of the most common ones (a list too big for the client's bundle).
 */
export interface ServerFindings {
  usernameTaken?: boolean;
  emailTaken?: boolean;
  commonPassword?: boolean;
}

/** Who may sign up, where REGISTRATION limits it (issue 17). */
export interface SignUpPolicy {
  /** REGISTRATION=domains: the addresses must be at one of these (REGISTRATION_EMAIL_DOMAINS). */
  emailDomains?: readonly string[];
}

/**
 * The sign-up rules of spec section 5, in the spec's order. Every failing rule adds its
 * message; a field left empty gets "Fill in all the fields." and its own rules are skipped
 * (an empty box is not also "too short"). Uniqueness and common passwords need the server: it
 * passes `found`, and those messages join the others in the spec's order (a common password
 * right after the spec's password rules). An address outside REGISTRATION_EMAIL_DOMAINS is told
 * right after the e-mail's own rule (a malformed one is told only that). Takes normalized input.
 */
export function validateSignUp(
  { username, email, password }: SignUpInput,
  found: ServerFindings = {},
  policy: SignUpPolicy = {},
): string[] {
  const messages: string[] = [];
  if (!username || !email || !password) messages.push(ERRORS.FILL_IN_ALL_FIELDS);

  if (username) {
    if (hasOuterWhitespace(username)) messages.push(ERRORS.USERNAME_SPACES);
    if (username.length < USERNAME_MIN_LENGTH || username.length > USERNAME_MAX_LENGTH) {
      messages.push(ERRORS.USERNAME_LENGTH);
    }
    if (!USERNAME_PATTERN.test(username)) messages.push(ERRORS.USERNAME_INVALID);
    if (found.usernameTaken) messages.push(ERRORS.USERNAME_TAKEN);
  }

  if (email && !looksLikeEmail(email)) messages.push(ERRORS.EMAIL_INVALID);
  else if (email && policy.emailDomains && !emailDomainAllowed(email, policy.emailDomains)) {
    messages.push(domainsMessage(policy.emailDomains));
  }

  if (password) messages.push(...passwordProblems(password, found));
  // The auth service reports a taken e-mail after the form itself passed (spec section 8). A
  // malformed address is told only that, though it may look like a registered one (issue 26).
  if (email && found.emailTaken && looksLikeEmail(email)) messages.push(ERRORS.EMAIL_TAKEN);
  return messages;
}
