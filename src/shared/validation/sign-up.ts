import { ERRORS } from '../errors.js';
import { domainsMessage, emailDomainAllowed } from '../registration.js';
import { USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH, USERNAME_PATTERN } from '../limits.js';
import { parseEmail } from './email.js';
import { passwordProblems } from './password.js';

export interface SignUpInput {
  username: string;
  email: string;
  password: string;
}

/**
 * Username and e-mail are lower-cased before they are checked and stored (spec section 5). The
 * address becomes parseEmail's one spelling (NFKC, lower case, no trailing dot), so a variant of
 * a taken address is the taken address; text that is no address is only folded, for
 * validateSignUp to refuse.
 */
export function normalizeSignUp(input: SignUpInput): SignUpInput {
  return {
    username: input.username.toLowerCase(),
    email: parseEmail(input.email)?.address ?? input.email.normalize('NFKC').toLowerCase(),
    password: input.password,
  };
}

const hasOuterWhitespace = (value: string) => value !== value.trim();

/** A username's rules of spec section 5, in its order (a first single sign-on asks for one alone). */
export function usernameProblems(username: string, taken = false): string[] {
  const messages: string[] = [];
  if (hasOuterWhitespace(username)) messages.push(ERRORS.USERNAME_SPACES);
  if (username.length < USERNAME_MIN_LENGTH || username.length > USERNAME_MAX_LENGTH) messages.push(ERRORS.USERNAME_LENGTH);
  if (!USERNAME_PATTERN.test(username)) messages.push(ERRORS.USERNAME_INVALID);
  if (taken) messages.push(ERRORS.USERNAME_TAKEN);
  return messages;
}

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

  if (username) messages.push(...usernameProblems(username, found.usernameTaken));

  if (email) {
    const address = parseEmail(email);
    if (!address) messages.push(ERRORS.EMAIL_INVALID);
    else if (policy.emailDomains && !emailDomainAllowed(address, policy.emailDomains)) messages.push(domainsMessage(policy.emailDomains));
  }

  if (password) messages.push(...passwordProblems(password, found));
  // The auth service reports a taken e-mail after the form itself passed (spec section 8).
  if (email && found.emailTaken) messages.push(ERRORS.EMAIL_TAKEN);
  return messages;
}
