/** Community safety (issue 17): roles, report reasons, suspensions. Shared by client and server. */

export const ROLES = ['member', 'moderator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Moderators and admins see /moderation; everyone else gets the not-found page (and the API 404). */
export const isStaff = (role: Role) => role !== 'member';

/** A report's reasons, in the order the Report dialog lists them, with their exact labels. */
export const REPORT_REASONS = {
  spam: 'Spam',
  harassment: 'Harassment or bullying',
  nudity: 'Nudity or sexual content',
  violence: 'Violence or threats',
  'self-harm': 'Self-harm',
  other: 'Something else',
} as const;
export type ReportReason = keyof typeof REPORT_REASONS;
export const REPORT_DETAILS_MAX_LENGTH = 500;
/** A moderator's note on an action (moderation_log.note). */
export const MODERATION_NOTE_MAX_LENGTH = 500;

export type ReportStatus = 'open' | 'actioned' | 'dismissed';

/** How long a suspension lasts, as the moderator picks it; null is for good. */
export const SUSPENSION_DAYS = [1, 7, 30, null] as const;

/**
 * The suspended_until of a permanent suspension: a date no clock reaches, so "suspended now" is
 * one comparison (suspended_until > now()) for both kinds. Not PostgreSQL's 'infinity', which
 * drivers hand back as a number rather than a Date.
 */
export const PERMANENT_SUSPENSION = new Date('9999-12-31T00:00:00.000Z');

export const isPermanent = (until: Date) => until.getTime() >= PERMANENT_SUSPENSION.getTime();

/** Whether a user's suspension is in force at `now` (it ends by itself at suspended_until). */
export const isSuspended = (until: Date | null, now: Date = new Date()) => until !== null && until.getTime() > now.getTime();

/** Made on first use: creating it costs ICU's set-up (~20 ms on a phone) in every boot that loads this module. */
let suspensionEndFormat: Intl.DateTimeFormat | undefined;

/**
 * When a suspension ends, in words for the sign-in screen and /moderation: 'December 1, 2026 at
 * 9:30 AM UTC'. Always UTC, named, so the server and every reader agree whatever their zone.
 */
export function formatSuspensionEnd(until: Date): string {
  suspensionEndFormat ??= new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
  return `${suspensionEndFormat.format(until)} UTC`;
}
