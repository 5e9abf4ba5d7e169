import { INVITE_DEFAULT_DAYS, INVITE_DEFAULT_USES, INVITE_MAX_DAYS, INVITE_MAX_USES } from '../../shared/registration.js';
import { UsageError, type AdminCommand } from './admin-command.js';

const FLAGS = { '--uses': { max: INVITE_MAX_USES }, '--days': { max: INVITE_MAX_DAYS } } as const;
type Flag = keyof typeof FLAGS;
const isFlag = (word: string): word is Flag => Object.hasOwn(FLAGS, word);

/** A whole number from 1 to max, written plainly ('3', not '3.0', '0x3' or '3e0'). */
function count(flag: Flag, value: string | undefined): number {
  if (value === undefined) throw new UsageError(`${flag} needs a number`);
  const { max } = FLAGS[flag];
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) {
    throw new UsageError(`${flag} must be a whole number from 1 to ${max}, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}

/**
 * `invite [--uses N] [--days D]`: a sign-up code for REGISTRATION=invite, printed once (only its
 * hash is stored). Admins also make them on /moderation/invites.
 */
export const inviteCommand: AdminCommand<{ uses: number; days: number }> = {
  name: 'invite',
  usage: `[--uses N] [--days D]`,
  summary: `Print a new invite code for sign-ups (default: ${INVITE_DEFAULT_USES} use, valid ${INVITE_DEFAULT_DAYS} days).`,
  parse(args) {
    const given: Partial<Record<Flag, number>> = {};
    const rest = [...args];
    while (rest.length > 0) {
      // --uses 3 or --uses=3
      const [flag = '', inline] = rest.shift()!.split(/=(.*)/s);
      if (!isFlag(flag)) throw new UsageError(`unknown option ${JSON.stringify(flag)}`);
      if (given[flag] !== undefined) throw new UsageError(`${flag} given twice`);
      given[flag] = count(flag, inline ?? rest.shift());
    }
    return { uses: given['--uses'] ?? INVITE_DEFAULT_USES, days: given['--days'] ?? INVITE_DEFAULT_DAYS };
  },
  async run({ invites }, { uses, days }) {
    const invite = await invites.create(null, uses, days);
    return [
      `Invite code: ${invite.code}`,
      `Works for ${uses} sign-up${uses === 1 ? '' : 's'}, until ${invite.expiresAt}.`,
      'It is shown only now: only its hash is stored. Revoke it on /moderation/invites.',
    ].join('\n');
  },
};
