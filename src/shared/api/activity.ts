import { z } from 'zod';
import { ErrorBody } from './common.js';
import { PageQuery } from './posts.js';
import { defineRoute, signedIn } from './route.js';

/**
 * Notifications (issue 30): one row per event, grouped on read per target and day ("maya.k and 3
 * others followed you"), filtered by the visibility rule; pushed (Web Push) only to the devices
 * that asked, for the kinds their owner turned on.
 */

/** What happened: one event each. */
export const ActivityKind = z.enum([
  'follow',
  'save',
  'board_invite',
  'board_joined',
  'board_left',
  'board_declined',
  'post_removed',
  'suspended',
  'report_handled',
]);
export type ActivityKind = z.infer<typeof ActivityKind>;

/** The switches of Settings → Notifications: each covers a few kinds. */
export const NotificationTopic = z.enum(['follows', 'saves', 'invites', 'boards', 'moderation']);
export type NotificationTopic = z.infer<typeof NotificationTopic>;

export const TOPIC_OF: Record<ActivityKind, NotificationTopic> = {
  follow: 'follows',
  save: 'saves',
  board_invite: 'invites',
  board_joined: 'boards',
  board_left: 'boards',
  board_declined: 'boards',
  post_removed: 'moderation',
  suspended: 'moderation',
  report_handled: 'moderation',
};

/** What a handled report came to, as its reporter is told. */
export const ReportOutcome = z.enum(['removed', 'suspended', 'no_action']);
export type ReportOutcome = z.infer<typeof ReportOutcome>;

export const ActivityActor = z.object({ username: z.string(), icon: z.string().nullable() });
export type ActivityActor = z.infer<typeof ActivityActor>;

/** One row of /activity: the events of one kind about one target on one day. */
export const ActivityGroup = z
  .object({
    /** Names the group for Mark as read. */
    id: z.string(),
    kind: ActivityKind,
    /** The newest few actors the viewer may see, newest first (none for moderators' notices). */
    actors: z.array(ActivityActor),
    /** How many events the group holds (actors included): "maya.k and {count - 1} others". */
    count: z.number().int(),
    unread: z.boolean(),
    /** The newest event's time. */
    at: z.string(),
    /** The post it is about (a save, a report left alone), with its smallest picture. */
    post: z.object({ id: z.string(), thumbnail: z.string().nullable() }).nullable(),
    /** The board it is about; `secret` so a push never names it. */
    board: z.object({ id: z.string(), name: z.string(), slug: z.string(), owner: z.string(), secret: z.boolean() }).nullable(),
    /** For an invitation: whether it still waits for an answer, or was taken up. */
    invite: z.enum(['pending', 'joined']).nullable(),
    /** A moderator's reason (post_removed), the suspension's end (ISO; null for good), or a report's outcome. */
    reason: z.string().nullable(),
    until: z.string().nullable(),
    outcome: ReportOutcome.nullable(),
  })
  .meta({ id: 'ActivityGroup' });
export type ActivityGroup = z.infer<typeof ActivityGroup>;

export const ActivityPage = z.object({ groups: z.array(ActivityGroup), nextCursor: z.string().nullable() });
export type ActivityPage = z.infer<typeof ActivityPage>;

export const UnreadCount = z.object({ unread: z.number().int() });
export type UnreadCount = z.infer<typeof UnreadCount>;

export const MarkReadBody = z.strictObject({
  /** One group's id; without it, everything is read. */
  group: z.string().max(200).optional(),
});

export const ChannelSwitches = z.strictObject({ app: z.boolean(), push: z.boolean() });
export const NotificationSettings = z.strictObject({
  follows: ChannelSwitches,
  saves: ChannelSwitches,
  invites: ChannelSwitches,
  boards: ChannelSwitches,
  moderation: ChannelSwitches,
});
export type NotificationSettings = z.infer<typeof NotificationSettings>;

export const PushDevice = z
  .object({
    /** SHA-256 of the device's push endpoint (hex, 32 characters): the page finds its own device by it. */
    id: z.string(),
    /** Browser and system, from the user agent that subscribed ("Chrome on Android"). */
    label: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: 'PushDevice' });
export type PushDevice = z.infer<typeof PushDevice>;

export const NotificationPreferences = z.object({
  settings: NotificationSettings,
  devices: z.array(PushDevice),
  /** The server's VAPID public key (base64url), for PushManager.subscribe. */
  publicKey: z.string(),
});
export type NotificationPreferences = z.infer<typeof NotificationPreferences>;

/** A browser's PushSubscription.toJSON(), as sent. */
export const PushSubscriptionBody = z.strictObject({
  endpoint: z.string().max(1000),
  expirationTime: z.number().nullable().optional(),
  keys: z.strictObject({ p256dh: z.string().max(200), auth: z.string().max(100) }),
});
export type PushSubscriptionBody = z.infer<typeof PushSubscriptionBody>;

export const DeviceParams = z.strictObject({ id: z.string().max(64) });

const tags = ['activity'];

export const activityApi = {
  activity: defineRoute({
    method: 'GET',
    path: '/api/activity',
    access: signedIn(),
    tags,
    summary: 'Your notifications grouped per target and day, newest first (20 groups a page)',
    query: PageQuery,
    responses: { 200: ActivityPage, 400: ErrorBody, 401: ErrorBody },
  }),
  unreadCount: defineRoute({
    method: 'GET',
    path: '/api/activity/unread',
    access: signedIn(),
    tags,
    summary: 'How many of your notifications are unread (the bell)',
    responses: { 200: UnreadCount, 401: ErrorBody },
  }),
  markRead: defineRoute({
    method: 'POST',
    path: '/api/activity/read',
    access: signedIn(),
    tags,
    summary: 'Mark one group, or everything, as read',
    body: MarkReadBody,
    responses: { 200: UnreadCount, 400: ErrorBody, 401: ErrorBody },
  }),
  notificationSettings: defineRoute({
    method: 'GET',
    path: '/api/me/notifications',
    access: signedIn(),
    tags,
    summary: 'Your notification switches, your push devices and the push key',
    responses: { 200: NotificationPreferences, 401: ErrorBody },
  }),
  updateNotificationSettings: defineRoute({
    method: 'PUT',
    path: '/api/me/notifications',
    access: signedIn(),
    tags,
    summary: 'Turn kinds of notification on or off, in the app and as a push',
    body: NotificationSettings,
    responses: { 200: NotificationPreferences, 400: ErrorBody, 401: ErrorBody },
  }),
  addPushDevice: defineRoute({
    method: 'POST',
    path: '/api/me/push-devices',
    access: signedIn(),
    tags,
    summary: "Add this browser's push subscription (one per device; sending it again replaces it)",
    body: PushSubscriptionBody,
    responses: { 201: NotificationPreferences, 400: ErrorBody, 401: ErrorBody, 409: ErrorBody, 429: ErrorBody },
  }),
  removePushDevice: defineRoute({
    method: 'DELETE',
    path: '/api/me/push-devices/:id',
    access: signedIn(),
    tags,
    summary: 'Stop pushing to one of your devices; idempotent',
    params: DeviceParams,
    responses: { 200: NotificationPreferences, 400: ErrorBody, 401: ErrorBody },
  }),
} as const;
