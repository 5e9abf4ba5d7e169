import { positional, type AdminCommand } from './admin-command.js';

/** Stored text as a terminal can show it safely: anything but printable ASCII as \u{…}. */
const printable = (text: string) => text.replace(/[^\x20-\x7e]/gu, (char) => `\\u{${char.codePointAt(0)!.toString(16)}}`);

/**
 * `invalid-emails` (issue 26): the accounts whose stored address the e-mail parser refuses.
 * Changes nothing: those accounts sign in by username and get no mail until the address is fixed.
 */
export const invalidEmailsCommand: AdminCommand<Record<string, never>> = {
  name: 'invalid-emails',
  usage: '',
  summary: 'List the accounts whose stored e-mail address is not a valid one (they get no mail). Changes nothing.',
  parse(args) {
    positional(args, []);
    return {};
  },
  async run({ storedEmails }) {
    const refused = await storedEmails.refused();
    if (refused.length === 0) return 'Every stored e-mail address is valid.';
    return [
      `${refused.length} stored e-mail address${refused.length === 1 ? ' is' : 'es are'} not valid (left unchanged; no mail goes to them):`,
      ...refused.map(({ username, email }) => `@${printable(username)}  ${printable(email)}`),
    ].join('\n');
  },
};
