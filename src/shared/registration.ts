/**
 * Who may sign up (issue 17): REGISTRATION and REGISTRATION_EMAIL_DOMAINS. Shared because the
 * create-account form says the same as the server, before anything is sent.
 */
import { ERRORS } from './errors.js';
import type { EmailAddress } from './validation/email.js';

/** `sso` (issue 29): new accounts only through single sign-on; existing password accounts still sign in. */
export const REGISTRATION_MODES = ['open', 'domains', 'invite', 'sso', 'closed'] as const;
export type RegistrationMode = (typeof REGISTRATION_MODES)[number];

/** Who may sign up: the server's REGISTRATION settings, which it also writes into index.html. */
export interface RegistrationSettings {
  mode: RegistrationMode;
  /** REGISTRATION=domains: the allowed domains as configured (`uni.example.edu`, `*.uni.example.edu`). */
  emailDomains: readonly string[];
}

export const isRegistrationMode = (value: string): value is RegistrationMode => (REGISTRATION_MODES as readonly string[]).includes(value);

/**
 * One entry of REGISTRATION_EMAIL_DOMAINS: a domain (that domain only) or `*.` and a domain (any
 * subdomain of it, at any depth, but not the domain itself). Letters, digits and hyphens in dot-
 * separated labels, at least two of them: what an operator types, never a pattern of their own.
 */
const DOMAIN_ENTRY = /^(\*\.)?[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;

export const isDomainEntry = (entry: string) => DOMAIN_ENTRY.test(entry.toLowerCase());

/**
 * Whether an address is at one of the domains. Takes the parsed address (validation/email.ts), so
 * the domain is the one the mail would go to, never text after some '@' in a string that holds
 * two addresses; and a full-width or capitalized spelling of an allowed domain is that domain,
 * while a look-alike ('uni.example.edu.evil.com', 'evil-uni.example.edu') is not.
 */
export function emailDomainAllowed({ domain }: EmailAddress, domains: readonly string[]): boolean {
  return domains.some((entry) => {
    const pattern = entry.toLowerCase();
    return pattern.startsWith('*.') ? domain.endsWith(pattern.slice(1)) : domain === pattern;
  });
}

/** 'Sign-ups are limited to addresses at uni.example.edu, *.uni.example.edu.' (the list as configured). */
export function domainsMessage(domains: readonly string[]): string {
  return ERRORS.EMAIL_DOMAIN_NOT_ALLOWED.replace('{domains}', domains.join(', '));
}

/**
 * Invite codes: 12 characters from an alphabet without look-alikes (no 0/O, 1/I/L, U/V), shown in
 * groups of four (K7QM-3XWD-9HPT): about 58 bits, far past guessing under the sign-up rate limit.
 */
export const INVITE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTWXYZ';
export const INVITE_CODE_LENGTH = 12;

/**
 * The one spelling of a code that is hashed and compared: upper case, without the spaces and
 * dashes a person types or copies along with it. Anything else is left in, and fails.
 */
export function normalizeInviteCode(typed: string): string {
  return typed.replace(/[\s-]/g, '').toUpperCase();
}

/** A code as shown: groups of four. */
export function formatInviteCode(code: string): string {
  return code.match(/.{1,4}/g)?.join('-') ?? code;
}

/** What one invite may be made with: enough for a dorm's move-in week, never a code for everyone. */
export const INVITE_MAX_USES = 1000;
export const INVITE_MAX_DAYS = 365;
export const INVITE_DEFAULT_USES = 1;
export const INVITE_DEFAULT_DAYS = 7;
