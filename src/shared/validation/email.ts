import { EMAIL_MAX_LENGTH } from '../limits.js';

/**
 * An e-mail address as parseEmail returned it: one mailbox, in the one spelling that is stored
 * and compared. Only parseEmail makes one, so a function that takes it (the allowlist, the
 * mailer) never sees text that might hold a second address.
 */
export type EmailAddress = {
  /** `local@domain`: ASCII, lower case, no trailing dot. */
  readonly address: string;
  readonly local: string;
  readonly domain: string;
} & { readonly __brand: 'EmailAddress' };

/**
 * RFC 5322 dot-atom of atext: letters, digits and ! # $ % & ' * + - / = ? ^ _ ` { | } ~ in runs
 * joined by single dots. No quoted strings, comments, spaces, or any of , ; < > " ( ) [ ] \ @:
 * those are what let one string read as two recipients, or as another domain than the one shown.
 */
const LOCAL_PART = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
/** One LDH label: letters, digits and inner hyphens, 1 to 63 characters. */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** SMTP's limits (RFC 5321 4.5.3.1): a longer local part or domain is refused by mail servers. */
const LOCAL_MAX_LENGTH = 64;
const DOMAIN_MAX_LENGTH = 253;

/**
 * The one e-mail parser (issue 26): an addr-spec with a dot-atom local part and a domain of at
 * least two LDH labels whose last one is not all digits (no address literals or bare IPs).
 * NFKC first, so full-width and other compatibility spellings are the address they look like,
 * then lower case; one trailing dot of the domain (the DNS root) is dropped, so
 * `alice@example.test.` is `alice@example.test`. Anything else, non-ASCII letters included (a
 * Cyrillic 'а' is a look-alike, never a new address), is refused: undefined.
 */
export function parseEmail(text: string): EmailAddress | undefined {
  // Inputs are bounded by their schemas; this bounds the NFKC work on anything else.
  if (text.length > EMAIL_MAX_LENGTH * 4) return undefined;
  let address = text.normalize('NFKC').toLowerCase();
  if (address.endsWith('.')) address = address.slice(0, -1);
  if (address.length > EMAIL_MAX_LENGTH) return undefined;
  const parts = address.split('@');
  if (parts.length !== 2) return undefined;
  const [local, domain] = parts as [string, string];
  if (local.length > LOCAL_MAX_LENGTH || !LOCAL_PART.test(local)) return undefined;
  const labels = domain.split('.');
  if (domain.length > DOMAIN_MAX_LENGTH || labels.length < 2 || !labels.every((label) => LABEL.test(label))) return undefined;
  if (/^\d+$/.test(labels.at(-1)!)) return undefined;
  return { address, local, domain } as EmailAddress;
}

/**
 * A stored address as the parser would have stored it, or undefined: rows from before the strict
 * parser (issue 26) may hold what it refuses, such as a list of two. Such a row gets no mail.
 */
export function storedEmail(stored: string): EmailAddress | undefined {
  const parsed = parseEmail(stored);
  return parsed?.address === stored ? parsed : undefined;
}
