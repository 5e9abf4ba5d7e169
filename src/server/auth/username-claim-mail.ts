import * as COPY from '../../shared/copy.js';
import type { EmailAddress } from '../../shared/validation/email.js';
import { composeMail, linkHtml, together } from '../mail/mail-layout.js';
import type { Mail } from '../mail/mailer.js';

/** The mail that gives a held name back: whose name, the link, how long it works, and what to do if unasked. */
export function usernameClaimMail({
  to,
  username,
  link,
  appName,
}: {
  to: EmailAddress;
  username: string;
  link: string;
  appName: string;
}): Mail {
  const words = COPY.claimMail;
  return composeMail(to, words.subject(appName), appName, [
    { text: words.greeting },
    { text: words.asked(appName, username) },
    { text: link, html: linkHtml(words.button(username), link) },
    together(words.expires, words.ignore),
  ]);
}
