import { z } from 'zod';
import { REPORT_REASONS, ROLES, type ReportReason } from '../moderation.js';
import { ErrorBody, text } from './common.js';
import { ImageSet, PageQuery } from './posts.js';
import { defineRoute, onlyFor, verified } from './route.js';

const REASON_KEYS = Object.keys(REPORT_REASONS) as [ReportReason, ...ReportReason[]];

/**
 * POST API.reports (issue 17): a post (postId) or a profile (username), never both. The details
 * are required for 'other'; the server re-checks every rule the dialog does.
 */
export const ReportBody = z.strictObject({
  postId: z.string().min(1).max(64).optional(),
  username: z.string().min(1).max(64).optional(),
  reason: z.enum(REASON_KEYS),
  details: text().optional(),
});
export type ReportBody = z.infer<typeof ReportBody>;

/** What a moderator acts on: a post, or a user's profile. */
export const TargetBody = z.union([
  z.strictObject({ postId: z.string().min(1).max(64), note: text().optional() }),
  z.strictObject({ username: z.string().min(1).max(64), note: text().optional() }),
]);
export type TargetBody = z.infer<typeof TargetBody>;

/** Suspend the author of a reported post (postId) or a reported user (username). days null: for good. */
export const SuspendBody = z.union([
  z.strictObject({
    postId: z.string().min(1).max(64),
    days: z.union([z.literal(1), z.literal(7), z.literal(30), z.null()]),
    note: text().optional(),
  }),
  z.strictObject({
    username: z.string().min(1).max(64),
    days: z.union([z.literal(1), z.literal(7), z.literal(30), z.null()]),
    note: text().optional(),
  }),
]);
export type SuspendBody = z.infer<typeof SuspendBody>;

export const UsernameBody = z.strictObject({ username: z.string().min(1).max(64) });
export type UsernameBody = z.infer<typeof UsernameBody>;

export const RoleBody = z.strictObject({ role: z.enum(ROLES) });
export type RoleBody = z.infer<typeof RoleBody>;
export const PersonParams = z.strictObject({ username: z.string().min(1).max(64) });

/** A user as moderation shows them: enough to recognise them and to know what may be done. */
export const ModeratedUser = z
  .object({
    username: z.string(),
    icon: z.string().nullable(),
    bio: z.string(),
    role: z.enum(ROLES),
    /** When their suspension ends (ISO), or null; a permanent one is PERMANENT_SUSPENSION. */
    suspendedUntil: z.string().nullable(),
    /** Whether the caller may remove their posts or suspend them (never themselves; moderators: members only). */
    actionable: z.boolean(),
    /** Whether their address has been proved (issue 29): admins may mark it so. */
    emailVerified: z.boolean(),
  })
  .meta({ id: 'ModeratedUser' });
export type ModeratedUser = z.infer<typeof ModeratedUser>;

/** Open reports of one target, grouped. */
export const QueueItem = z
  .object({
    /** The target as its reports name it: 'post:<id>' or 'user:<username>'. */
    key: z.string(),
    post: z.object({ id: z.string(), description: z.string(), image: ImageSet }).nullable(),
    /** The reported user, or the author of the reported post. */
    user: ModeratedUser,
    reasons: z.array(z.object({ reason: z.enum(REASON_KEYS), count: z.number().int() })),
    /**
     * The first reporters (up to REPORTERS_SHOWN) with what they wrote; `reports` counts them all.
     * newAccount: their account was younger than the server's REPORT_NEW_ACCOUNT_MS (a day) when they reported.
     */
    reporters: z.array(
      z.object({ username: z.string(), reason: z.enum(REASON_KEYS), details: z.string(), at: z.string(), newAccount: z.boolean() }),
    ),
    reports: z.number().int(),
    /** Every open report of it came from a new account: such items come after all the others. */
    newAccountsOnly: z.boolean(),
    latestAt: z.string(),
  })
  .meta({ id: 'QueueItem' });
export type QueueItem = z.infer<typeof QueueItem>;

export const QueueResponse = z.object({ items: z.array(QueueItem), nextCursor: z.string().nullable() });
export type QueueResponse = z.infer<typeof QueueResponse>;

/** What the log records: the action as a code the page words (COPY.moderation.actions). */
export const LOG_ACTIONS = [
  'remove-post',
  'suspend-1',
  'suspend-7',
  'suspend-30',
  'suspend-permanent',
  'unsuspend',
  'dismiss',
  'role-member',
  'role-moderator',
  'role-admin',
  'verify-email',
] as const;
export type LogAction = (typeof LOG_ACTIONS)[number];

export const LogEntry = z
  .object({
    id: z.string(),
    actor: z.string(),
    action: z.enum(LOG_ACTIONS),
    targetUsername: z.string(),
    targetPostId: z.string().nullable(),
    note: z.string(),
    at: z.string(),
  })
  .meta({ id: 'ModerationLogEntry' });
export type LogEntry = z.infer<typeof LogEntry>;

export const LogResponse = z.object({ entries: z.array(LogEntry), nextCursor: z.string().nullable() });
export type LogResponse = z.infer<typeof LogResponse>;

export const SuspendedResponse = z.object({ users: z.array(ModeratedUser), nextCursor: z.string().nullable() });
export type SuspendedResponse = z.infer<typeof SuspendedResponse>;

export const PersonResponse = z.object({ user: ModeratedUser });
export type PersonResponse = z.infer<typeof PersonResponse>;

/** Moderators and admins; to everyone else /api/moderation does not exist (404). The service checks again whom an action touches. */
const STAFF = onlyFor('moderator', 'admin');
/** Every moderation action: a bad body (400), not yours to act on (403), gone (404), already done (409). */
const actionErrors = { 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody } as const;

/** Reports (any signed-in user) and moderation (issue 17). */
export const moderationApi = {
  report: defineRoute({
    method: 'POST',
    path: '/api/reports',
    access: verified(),
    tags: ['moderation'],
    summary: "Report someone else's post (postId) or profile (username); a repeat while open stores nothing",
    body: ReportBody,
    responses: { 204: z.null(), 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody },
  }),
  moderationQueue: defineRoute({
    method: 'GET',
    path: '/api/moderation/queue',
    access: STAFF,
    tags: ['moderation'],
    summary: 'Open reports grouped by target, newest first',
    query: PageQuery,
    responses: { 200: QueueResponse, 400: ErrorBody, 404: ErrorBody },
  }),
  moderationLog: defineRoute({
    method: 'GET',
    path: '/api/moderation/log',
    access: STAFF,
    tags: ['moderation'],
    summary: 'Every moderation action, newest first',
    query: PageQuery,
    responses: { 200: LogResponse, 400: ErrorBody, 404: ErrorBody },
  }),
  moderationSuspended: defineRoute({
    method: 'GET',
    path: '/api/moderation/suspended',
    access: STAFF,
    tags: ['moderation'],
    summary: 'Everyone suspended now',
    query: PageQuery,
    responses: { 200: SuspendedResponse, 400: ErrorBody, 404: ErrorBody },
  }),
  moderationPerson: defineRoute({
    method: 'GET',
    path: '/api/moderation/people/:username',
    access: STAFF,
    tags: ['moderation'],
    summary: "A user's role and suspension",
    params: PersonParams,
    responses: { 200: PersonResponse, 404: ErrorBody },
  }),
  moderationDismiss: defineRoute({
    method: 'POST',
    path: '/api/moderation/dismiss',
    access: STAFF,
    tags: ['moderation'],
    summary: "Dismiss a target's open reports",
    body: TargetBody,
    responses: { 204: z.null(), ...actionErrors },
  }),
  moderationRemovePost: defineRoute({
    method: 'POST',
    path: '/api/moderation/remove-post',
    access: STAFF,
    tags: ['moderation'],
    summary: 'Remove a post and every stored file of it; its reports close',
    body: z.strictObject({ postId: z.string().min(1).max(64), note: z.string().max(2000).optional() }),
    responses: { 204: z.null(), ...actionErrors },
  }),
  moderationSuspend: defineRoute({
    method: 'POST',
    path: '/api/moderation/suspend',
    access: STAFF,
    tags: ['moderation'],
    summary: 'Suspend a user (or the author of a post) for 1, 7 or 30 days or for good; their sessions end',
    body: SuspendBody,
    responses: { 200: z.object({ until: z.string() }), ...actionErrors },
  }),
  /** Staff reach it; the service refuses moderators (403), as the queue's buttons say. */
  moderationUnsuspend: defineRoute({
    method: 'POST',
    path: '/api/moderation/unsuspend',
    access: STAFF,
    tags: ['moderation'],
    summary: 'Lift a suspension early (admins)',
    body: UsernameBody.extend({ note: z.string().max(2000).optional() }),
    responses: { 204: z.null(), ...actionErrors },
  }),
  /** Staff reach it; the service refuses moderators (403). */
  moderationRole: defineRoute({
    method: 'PUT',
    path: '/api/moderation/people/:username/role',
    access: STAFF,
    tags: ['moderation'],
    summary: "Set a user's role (admins)",
    params: PersonParams,
    body: RoleBody,
    responses: { 200: PersonResponse, ...actionErrors },
  }),
} as const;
