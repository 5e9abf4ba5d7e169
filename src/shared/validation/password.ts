import { ERRORS } from '../errors.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../limits.js';

const hasOuterWhitespace = (value: string) => value !== value.trim();
/** Length in characters (code points), so an emoji counts as one, not two. */
const lengthOf = (value: string) => Array.from(value).length;

/**
 * The rules every new password follows, at sign-up, on a change and on a reset (spec section 5,
 * plus the common-password list only the server holds). Takes a non-empty password.
 */
export function passwordProblems(password: string, found: { commonPassword?: boolean } = {}): string[] {
  const messages: string[] = [];
  if (hasOuterWhitespace(password)) messages.push(ERRORS.PASSWORD_SPACES);
  const length = lengthOf(password);
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) messages.push(ERRORS.PASSWORD_LENGTH);
  else if (found.commonPassword) messages.push(ERRORS.PASSWORD_TOO_COMMON);
  return messages;
}

export interface NewPasswordInput {
  newPassword: string;
  confirmPassword: string;
}

/**
 * A new password typed twice (Change Password, and the page a reset link opens). An empty box
 * is "Fill in all the fields." and nothing else; then the password rules, then whether the two
 * match. `current` is the Change Password form's current password (undefined on a reset).
 */
export function validateNewPassword(
  input: NewPasswordInput & { currentPassword?: string },
  found: { commonPassword?: boolean } = {},
): string[] {
  const { newPassword, confirmPassword, currentPassword } = input;
  if (!newPassword || !confirmPassword || currentPassword === '') return [ERRORS.FILL_IN_ALL_FIELDS];
  const messages = passwordProblems(newPassword, found);
  if (newPassword !== confirmPassword) messages.push(ERRORS.PASSWORDS_DO_NOT_MATCH);
  return messages;
}
