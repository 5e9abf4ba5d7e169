import * as COPY from '../../shared/copy.js';
import type { EmailAddress } from '../../shared/validation/email.js';
import { escapeHtml } from '../http/escape-html.js';
import { composeMail, linkHtml, together } from '../mail/mail-layout.js';
import type { Mail } from '../mail/mailer.js';

/** The verification mail: the link, the same proof as a 6-digit code, how long both work, and what to do if unasked. */
export function verificationMail({
  to,
  username,
  link,
  code,
  appName,
}: {
  to: EmailAddress;
  username: string;
  link: string;
  code: string;
  appName: string;
}): Mail {
  const words = COPY.verifyMail;
  const spaced = `${code.slice(0, 3)} ${code.slice(3)}`;
  return composeMail(to, words.subject(appName), appName, [
    { text: words.greeting(username) },
    { text: words.asked(appName, to.address) },
    { text: link, html: linkHtml(words.button, link) },
    {
      text: words.code(spaced),
      html: `${escapeHtml(words.codeLead)}<br><strong style="font-size: 1.5em; letter-spacing: 0.1em">${escapeHtml(spaced)}</strong>`,
    },
    together(words.expires, words.ignore(appName)),
  ]);
}
