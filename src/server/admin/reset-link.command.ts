import { USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH, USERNAME_PATTERN } from '../../shared/limits.js';
import { resetPath } from '../auth/password-reset.service.js';
import { CommandFailed, positional, UsageError, type AdminCommand } from './admin-command.js';

/** A username typed as shown on a profile ('@' and capitals are fine), or a UsageError. */
export function parseUsername(given: string): string {
  const username = given.replace(/^@/, '').toLowerCase();
  const length = Array.from(username).length;
  if (length < USERNAME_MIN_LENGTH || length > USERNAME_MAX_LENGTH || !USERNAME_PATTERN.test(username)) {
    throw new UsageError(`invalid username ${JSON.stringify(given)}`);
  }
  return username;
}

/**
 * Without PUBLIC_URL there is no address to put in a link: this machine's localhost is not where
 * the student opens it, and a Host header is whatever a request said.
 */
const NO_PUBLIC_URL = [
  'PUBLIC_URL is not set, so there is no address for the link.',
  'Set PUBLIC_URL to the address users reach the site at (like https://dorm.example.edu) where the command',
  'runs: for the embedded database with a server running on DATA_DIR, in that server, then restart it.',
].join('\n');

/**
 * `reset-link <username>`: password recovery without e-mail. The link voids any earlier one, works
 * once, for an hour; whoever uses it chooses the password and every session of the account ends.
 */
export const resetLinkCommand: AdminCommand<{ username: string }> = {
  name: 'reset-link',
  usage: '<username>',
  summary: 'Print a one-time link (valid for 1 hour) that lets the account choose a new password.',
  parse(args) {
    const [given] = positional(args, ['<username>']);
    return { username: parseUsername(given!) };
  },
  async run({ resets, publicUrl }, { username }) {
    // Checked before the link is made: making it voids the account's earlier one.
    if (!publicUrl) throw new CommandFailed(NO_PUBLIC_URL);
    const link = await resets.linkFor(username);
    if (!link) throw new CommandFailed(`no account is named @${username}`);
    return [
      `Password reset link for @${username} (works once, until ${link.expiresAt.toISOString()}):`,
      `${publicUrl}${resetPath(link.token)}`,
      'It replaces any earlier link. Using it signs the account out everywhere.',
    ].join('\n');
  },
};
