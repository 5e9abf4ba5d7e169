import * as COPY from '../../shared/copy.js';
import type { EmailAddress } from '../../shared/validation/email.js';
import { escapeHtml } from '../http/escape-html.js';
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
  const text = [
    words.greeting(username),
    '',
    words.asked(appName, to.address),
    '',
    link,
    '',
    words.code(spaced),
    '',
    words.expires,
    words.ignore(appName),
    '',
    `— ${appName}`,
  ].join('\n');
  const paragraph = (content: string) => `<p>${content}</p>`;
  const html = [
    '<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">',
    paragraph(escapeHtml(words.greeting(username))),
    paragraph(escapeHtml(words.asked(appName, to.address))),
    paragraph(`<a href="${escapeHtml(link)}">${escapeHtml(words.button)}</a><br>${escapeHtml(link)}`),
    paragraph(`${escapeHtml(words.codeLead)}<br><strong style="font-size: 1.5em; letter-spacing: 0.1em">${escapeHtml(spaced)}</strong>`),
    paragraph(`${escapeHtml(words.expires)} ${escapeHtml(words.ignore(appName))}`),
    paragraph(`— ${escapeHtml(appName)}`),
    '</body></html>',
  ].join('\n');
  return { to, subject: words.subject(appName), text, html };
}
