import { ROLES, type Role } from '../../shared/moderation.js';
import { COMMAND_LINE } from '../moderation/staff.js';
import { CommandFailed, positional, UsageError, type AdminCommand } from './admin-command.js';
import { parseUsername } from './reset-link.command.js';

/**
 * `role <username> member|moderator|admin` (issue 17): how the first admin is made, and any role
 * after. Logged in the moderation log as 'admin command line'; the user's sessions re-read it.
 */
export const roleCommand: AdminCommand<{ username: string; role: Role }> = {
  name: 'role',
  usage: `<username> ${ROLES.join('|')}`,
  summary: "Set an account's role (moderators and admins moderate at /moderation).",
  parse(args) {
    const [given, role] = positional(args, ['<username>', `<${ROLES.join('|')}>`]);
    if (!(ROLES as readonly string[]).includes(role!))
      throw new UsageError(`invalid role ${JSON.stringify(role)}: use ${ROLES.join(', ')}`);
    return { username: parseUsername(given!), role: role as Role };
  },
  async run({ roles }, { username, role }) {
    const changed = await roles.setRole(COMMAND_LINE, username, role);
    if (!changed) throw new CommandFailed(`no account is named @${username}`);
    return changed.before === role ? `@${username} is already ${role}.` : `@${username} is now ${role} (was ${changed.before}).`;
  },
};
