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
  async run({ resets, siteUrl }, { username }) {
    const link = await resets.linkFor(username);
    if (!link) throw new CommandFailed(`no account is named @${username}`);
    return [
      `Password reset link for @${username} (works once, until ${link.expiresAt.toISOString()}):`,
      `${siteUrl}${resetPath(link.token)}`,
      'It replaces any earlier link. Using it signs the account out everywhere.',
    ].join('\n');
  },
};
