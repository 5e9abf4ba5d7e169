import type { EmailAddress } from '../../shared/validation/email.js';
import { escapeHtml } from '../http/escape-html.js';
import type { Mail } from './mailer.js';

/** One paragraph of a mail: its plain text, and its HTML when that is more than the text escaped. */
export interface MailParagraph {
  text: string;
  html?: string;
}

/** A link as a mail's HTML shows it: the button's words, then the address itself for clients that hide links. */
export const linkHtml = (words: string, link: string) => `<a href="${escapeHtml(link)}">${escapeHtml(words)}</a><br>${escapeHtml(link)}`;

/** Two sentences kept together: on two lines in the text, one paragraph in the HTML (how long a link works, what if unasked). */
export const together = (first: string, second: string): MailParagraph => ({
  text: `${first}\n${second}`,
  html: `${escapeHtml(first)} ${escapeHtml(second)}`,
});

/**
 * Every mail the app sends, in one layout: its paragraphs as plain text (a blank line between)
 * and as HTML, signed with the app's name.
 */
export function composeMail(to: EmailAddress, subject: string, appName: string, paragraphs: MailParagraph[]): Mail {
  const all = [...paragraphs, { text: `— ${appName}` }];
  const text = all.map((paragraph) => paragraph.text).join('\n\n');
  const html = [
    '<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">',
    ...all.map((paragraph) => `<p>${paragraph.html ?? escapeHtml(paragraph.text)}</p>`),
    '</body></html>',
  ].join('\n');
  return { to, subject, text, html };
}
