import { COMMAND_LINE } from '../moderation/staff.js';
import { CommandFailed, positional, type AdminCommand } from './admin-command.js';
import { parseUsername } from './reset-link.command.js';

/**
 * `verify <username>` (issue 29): marks the account's current address verified, as an admin does
 * on /moderation/people: for accounts from before addresses were verified, or mail that never
 * arrives. Logged in the moderation log as 'admin command line'.
 */
export const verifyCommand: AdminCommand<{ username: string }> = {
  name: 'verify',
  usage: '<username>',
  summary: "Mark an account's e-mail address as verified.",
  parse(args) {
    const [given] = positional(args, ['<username>']);
    return { username: parseUsername(given!) };
  },
  async run({ emailVerifiedByAdmin }, { username }) {
    const done = await emailVerifiedByAdmin.verify(COMMAND_LINE, username);
    if (!done) throw new CommandFailed(`no account is named @${username}`);
    return done.already ? `@${username}'s address was already verified.` : `@${username}'s address is now verified.`;
  },
};
