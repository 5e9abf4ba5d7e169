import * as COPY from '../../shared/copy.js';
import type { EmailAddress } from '../../shared/validation/email.js';
import { escapeHtml } from '../http/escape-html.js';
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
  const text = [words.greeting, '', words.asked(appName, username), '', link, '', words.expires, words.ignore, '', `— ${appName}`].join(
    '\n',
  );
  const paragraph = (content: string) => `<p>${content}</p>`;
  const html = [
    '<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">',
    paragraph(escapeHtml(words.greeting)),
    paragraph(escapeHtml(words.asked(appName, username))),
    paragraph(`<a href="${escapeHtml(link)}">${escapeHtml(words.button(username))}</a><br>${escapeHtml(link)}`),
    paragraph(`${escapeHtml(words.expires)} ${escapeHtml(words.ignore)}`),
    paragraph(`— ${escapeHtml(appName)}`),
    '</body></html>',
  ].join('\n');
  return { to, subject: words.subject(appName), text, html };
}
