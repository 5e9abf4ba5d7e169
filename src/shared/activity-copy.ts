import type { ActivityGroup, NotificationTopic, ReportOutcome } from './api/activity.js';

/**
 * Not in the spec (issue 30): the words of notifications, on /activity, in a push and in
 * Settings → Notifications. One home for the sentence of a group, so the row and the push agree.
 */

/** "maya.k", "maya.k and priya_k", "maya.k and 3 others". */
export function whoDidIt(group: Pick<ActivityGroup, 'actors' | 'count'>): string {
  const first = group.actors[0]?.username ?? 'Someone';
  const others = group.count - 1;
  if (others <= 0) return first;
  if (others === 1 && group.actors[1]) return `${first} and ${group.actors[1].username}`;
  return `${first} and ${others.toLocaleString('en-US')} ${others === 1 ? 'other' : 'others'}`;
}

const OUTCOME: Record<ReportOutcome, string> = {
  removed: 'Thanks for your report: moderators removed the post you reported.',
  suspended: 'Thanks for your report: moderators suspended the account you reported.',
  no_action: 'Thanks for your report: moderators looked at it and took no action.',
};

/** The date a suspension ends, as the row and the push say it. */
export function untilText(until: string | null): string {
  if (until === null) return 'Your account was suspended permanently.';
  const date = new Date(until).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
  return `Your account was suspended until ${date}.`;
}

/**
 * The sentence of a group. `secretBoards: 'unnamed'` (a push) never names a secret board: a push
 * travels through the browser maker's push service and shows on a locked screen.
 */
export function activityText(group: ActivityGroup, secretBoards: 'named' | 'unnamed' = 'named'): string {
  const who = whoDidIt(group);
  const board = group.board ? (group.board.secret && secretBoards === 'unnamed' ? 'a secret board' : group.board.name) : 'a board';
  switch (group.kind) {
    case 'follow':
      return `${who} followed you`;
    case 'save':
      return group.count === 1 ? `${who} saved your post to ${board}` : `${who} saved your post`;
    case 'board_invite':
      return `${who} invited you to ${board}`;
    case 'board_joined':
      return `${who} joined ${board}`;
    case 'board_left':
      return `${who} left ${board}`;
    case 'board_declined':
      return `${who} declined your invitation to ${board}`;
    case 'post_removed':
      return group.reason ? `Moderators removed your post. Reason: ${group.reason}` : 'Moderators removed your post.';
    case 'suspended':
      return untilText(group.until);
    case 'report_handled':
      return OUTCOME[group.outcome ?? 'no_action'];
  }
}

/** Where a row (and its push) leads: the post, the board, the follower (or the viewer's followers), or nowhere. */
export function activityLink(group: ActivityGroup, viewerUsername: string): string | null {
  switch (group.kind) {
    case 'follow':
      return group.count === 1 && group.actors[0] ? `/@${group.actors[0].username}` : `/@${viewerUsername}/followers`;
    case 'save':
      return group.post ? `/post/${group.post.id}` : null;
    case 'board_invite':
    case 'board_joined':
    case 'board_left':
    case 'board_declined':
      return group.board ? `/@${group.board.owner}/boards/${group.board.slug}` : null;
    case 'report_handled':
      return group.post ? `/post/${group.post.id}` : null;
    case 'post_removed':
    case 'suspended':
      return null;
  }
}

export const TOPIC_COPY: Record<NotificationTopic, { label: string; hint: string }> = {
  follows: { label: 'New followers', hint: 'Someone followed you.' },
  saves: { label: 'Saves', hint: 'Someone saved your post to a board.' },
  invites: { label: 'Board invitations', hint: 'Someone invited you to a board.' },
  boards: { label: 'Your boards', hint: 'Someone joined, left or declined a board of yours.' },
  moderation: { label: 'Moderation', hint: 'Your post was removed, your account suspended, or your report handled.' },
};

export const ACTIVITY_COPY = {
  title: 'Activity',
  bell: (unread: number) => (unread === 0 ? 'Activity' : `Activity, ${unread.toLocaleString('en-US')} unread`),
  markAllRead: 'Mark all as read',
  empty: 'No activity yet. When someone follows you, saves your post or invites you to a board, you will see it here.',
  loadFailed: 'Your activity could not be loaded.',
  retry: 'Try again',
  more: 'Show more',
  join: 'Join',
  decline: 'Decline',
  joined: 'You joined',
  unread: 'Unread',
  settings: 'Notifications',
  settingsTitle: 'Notifications',
  inApp: 'In the app',
  push: 'Push',
  pushTitle: 'Push notifications',
  pushHint: 'Get a notification on this device even when the app is closed.',
  turnOnPush: 'Turn on push notifications',
  turnOffPush: 'Turn off on this device',
  pushUnsupported: 'This browser cannot receive push notifications.',
  pushDenied: 'Notifications are blocked for this site. Allow them in your browser settings, then try again.',
  pushFailed: 'Push notifications could not be turned on. Try again.',
  devices: 'Devices with push',
  noDevices: 'No devices get push notifications yet.',
  thisDevice: 'This device',
  deviceAdded: (date: string) => `Added ${date}`,
  pushNeedsDevice: 'Push switches work once a device has push notifications turned on.',
  removeDevice: 'Remove',
  removeDeviceLabel: (label: string) => `Remove ${label}`,
  saved: 'Saved',
  saveFailed: 'Your settings could not be saved. Try again.',
  settingsLoadFailed: 'Your notification settings could not be loaded.',
} as const;
