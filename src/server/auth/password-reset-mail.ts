import * as COPY from '../../shared/copy.js';
import type { EmailAddress } from '../../shared/validation/email.js';
import { composeMail, linkHtml, together } from '../mail/mail-layout.js';
import type { Mail } from '../mail/mailer.js';

/** The mail "Forgot password?" sends: the link, that it expires in an hour, and what to do if unasked. */
export function passwordResetMail({
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
  const words = COPY.resetMail;
  return composeMail(to, words.subject(appName), appName, [
    { text: words.greeting(username) },
    { text: words.asked(appName) },
    { text: link, html: linkHtml(words.button, link) },
    together(words.expires, words.ignore),
  ]);
}
