/**
 * The notifications part of the benchmark data (issue 30), drawn by bench/seed.ts after the
 * boards: one "notified" user with --notifications rows (10,000 in the default dataset) over the
 * 90 days notifications are kept, and one account with --popular-followers followers (50,000),
 * the followers the dataset lacks added as users of their own ("fans").
 *
 * - The notified user: a prolific author who is none of the other scenarios' users. Their rows
 *   are a mix as a popular student's would be: follows by many actors (fans, each also made a
 *   follower), saves of their posts to other people's public boards (grouped per post on read,
 *   popular posts saved more), invitations to secret boards (they are made members: invited,
 *   most joined), a few moderators' notices. The newest 900 rows and 100 older ones unread.
 * - The popular account: the most followed user who is none of the other scenarios' users, its
 *   followers completed with fans who followed it over the last year, one follow row for each
 *   fan who followed within the 90 days (what the app wrote then), read but the last day's.
 *
 * Drawing (planNotifications) is pure and deterministic for a PRNG; loading (bench/seed.ts
 * loadNotifications) writes the plan in bulk, letting migration 19's statement triggers keep
 * every users.unread_notifications as the app does, then checks it against the rows.
 *
 * The rows are dated from the seed's "now": redateNotifications (bench/run.ts, before every run)
 * moves them by whole days to the run's, so that the server's retention (90 days) never takes
 * them and the popular account's last day of follows is the run's.
 */
import type { RawTransaction } from '../src/server/db/database.js';
import { int, shuffle, zipf, type Random } from './seed-random.js';

export const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;
/** Rows are drawn over this many days before the seed's now: within the 90 days kept. */
export const NOTIFICATION_DAYS = 89;
/** The notified user's rows: shares of follows and invitations (at most the boards there are), moderators' notices. */
const FOLLOW_SHARE = 0.55;
const INVITE_SHARE = 0.005;
const INVITES_JOINED = 0.7;
const MODERATION = { post_removed: 3, report_handled: 6, suspended: 1 } as const;
/** How many of the notified user's rows are unread: the newest, and some older ones never opened. */
const UNREAD_NEWEST = 900;
const UNREAD_OLDER = 100;
/** The fans followed the popular account over this many days. */
const FAN_DAYS = 365;
const REMOVAL_REASONS = [
  'Spam or advertising',
  'Shows a person who did not agree to be posted',
  'Breaks the community guidelines on hateful content',
];
const OUTCOMES = ['removed', 'suspended', 'no_action'] as const;

/** A row of `notifications` as the app would have written it (the id and day are the loader's). */
export interface PlannedNotification {
  userId: string;
  kind: string;
  actorId: string | null;
  postId: string | null;
  boardId: string | null;
  groupKey: string;
  detail: string | null;
  until: number | null;
  createdAt: number;
  read: boolean;
}

export interface NotificationPlan {
  rows: PlannedNotification[];
  /** New edges: fans following the popular account and the notified user (each once, its newest time). */
  follows: Array<{ followerId: string; targetId: string; createdAt: number }>;
  /** The notified user's memberships of the boards that invited them. */
  members: Array<{ boardId: string; invitedAt: number; joinedAt: number | null }>;
}

/** What the plan is drawn over, read from the database by the loader. */
export interface NotificationInputs {
  notifiedId: string;
  /** The notified user's posts, with when each was made (ms). */
  notifiedPosts: Array<{ id: string; time: number }>;
  /** Public boards of other owners, to save the notified user's posts to. */
  publicBoards: Array<{ id: string; ownerId: string; createdAt: number }>;
  /** Secret boards of other owners the notified user may be invited to (room for a member, not one yet). */
  secretBoards: Array<{ id: string; ownerId: string; createdAt: number }>;
  /** Posts of others, for a report the notified user made that was left alone. */
  otherPosts: string[];
  popularId: string;
  /** The fans' ids: they follow the popular account, and follow the notified user. */
  fanIds: string[];
}

/** Throws a RangeError when the counts cannot be drawn (before the seeder writes anything). */
export function checkNotificationCounts(counts: {
  users: number;
  posts: number;
  boards: number;
  notifications: number;
  popularFollowers: number;
}): void {
  const { users, posts, boards, notifications, popularFollowers } = counts;
  if (notifications === 0 && popularFollowers === 0) return;
  if (notifications > 0 && popularFollowers === 0)
    throw new RangeError('notifications need --popular-followers (their follows are by fans)');
  if (notifications > 0 && (boards === 0 || posts === 0)) throw new RangeError('notifications need posts and boards (saves are to boards)');
  if (users < 3) throw new RangeError('notifications need at least three users');
}

/**
 * Draws the rows. Every actor's event is once per group and day at most (the app tells a repeat
 * within a day to nobody); a save is after the post and the board were made; an invitation is to
 * a board made before it. Times are in the NOTIFICATION_DAYS before `now`.
 */
export function planNotifications(options: {
  random: Random;
  now: number;
  notifications: number;
  inputs: NotificationInputs;
}): NotificationPlan {
  const { random, now, notifications, inputs } = options;
  const rows: PlannedNotification[] = [];
  const follows = new Map<string, { followerId: string; targetId: string; createdAt: number }>();
  const follow = (followerId: string, targetId: string, createdAt: number) => {
    const key = `${followerId}>${targetId}`;
    const known = follows.get(key);
    if (!known || known.createdAt < createdAt) follows.set(key, { followerId, targetId, createdAt });
  };
  const seen = new Set<string>();
  /** False when the actor already did this to the group that day. */
  const once = (groupKey: string, actorId: string | null, time: number) => {
    if (actorId === null) return true;
    const key = `${new Date(time).toISOString().slice(0, 10)} ${groupKey} ${actorId}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
  const when = () => now - Math.floor(random() * NOTIFICATION_DAYS * DAY_MS);

  // ---- the popular account: every fan followed it once over the last year; the rows of the last 90 days.
  for (const fanId of inputs.fanIds) {
    const time = now - Math.floor(random() * FAN_DAYS * DAY_MS);
    follow(fanId, inputs.popularId, time);
    if (now - time < NOTIFICATION_DAYS * DAY_MS) {
      rows.push(row(inputs.popularId, 'follow', fanId, null, null, 'follow', time, now - time > DAY_MS));
    }
  }

  // ---- the notified user.
  const notified = inputs.notifiedId;
  const own: PlannedNotification[] = [];
  const members: NotificationPlan['members'] = [];
  if (notifications > 0) {
    const moderation = Object.values(MODERATION).reduce((sum, n) => sum + n, 0);
    const invites = Math.min(inputs.secretBoards.length, Math.round(notifications * INVITE_SHARE));
    const followCount = Math.round(notifications * FOLLOW_SHARE);
    const saveCount = notifications - followCount - invites - moderation;
    if (saveCount < 0) throw new RangeError(`${notifications} notifications are too few for the mix`);
    if (inputs.fanIds.length === 0 || inputs.notifiedPosts.length === 0 || inputs.publicBoards.length === 0) {
      throw new RangeError('the notified user needs fans to follow them, posts and public boards to save them to');
    }
    let draws = 0;
    const draw = () => {
      if (++draws > 100 * notifications) throw new RangeError(`${notifications} notifications do not fit these users, posts and boards`);
      return when();
    };
    // Follows: fans, a repeat by one of them only on another day (unfollowed and followed again).
    while (own.length < followCount) {
      const time = draw();
      const fan = inputs.fanIds[int(random, 0, inputs.fanIds.length - 1)]!;
      if (!once('follow', fan, time)) continue;
      follow(fan, notified, time);
      own.push(row(notified, 'follow', fan, null, null, 'follow', time, true));
    }
    // Saves: popular posts saved more, to boards of many owners (some boards more than others).
    const posts = shuffle(random, [...inputs.notifiedPosts]);
    const postRank = zipf(posts.length, 1, 5);
    const boards = shuffle(random, [...inputs.publicBoards]);
    const boardRank = zipf(boards.length, 1, 20);
    for (let saves = 0; saves < saveCount;) {
      const time = draw();
      let post = posts[postRank(random)]!;
      for (let tries = 0; post.time >= time && tries < 20; tries++) post = posts[int(random, 0, posts.length - 1)]!;
      let board = boards[boardRank(random)]!;
      for (let tries = 0; board.createdAt >= time && tries < 20; tries++) board = boards[int(random, 0, boards.length - 1)]!;
      if (post.time >= time || board.createdAt >= time) continue;
      const groupKey = `save:${post.id}`;
      if (!once(groupKey, board.ownerId, time)) continue;
      own.push(row(notified, 'save', board.ownerId, post.id, board.id, groupKey, time, true));
      saves += 1;
    }
    // Invitations: one per secret board (its owner invites), most taken up within two days.
    for (const board of shuffle(random, [...inputs.secretBoards]).slice(0, invites)) {
      const time = Math.min(now, Math.max(board.createdAt + HOUR_MS, when()));
      const joined = random() < INVITES_JOINED ? Math.min(now, time + Math.floor(random() * 48 * HOUR_MS)) : null;
      members.push({ boardId: board.id, invitedAt: time, joinedAt: joined });
      own.push(row(notified, 'board_invite', board.ownerId, null, board.id, `board_invite:${board.id}`, time, true));
    }
    // Moderators' notices: each a group of its own (the loader's key, as the app's: kind and row id).
    for (let i = 0; i < MODERATION.post_removed; i++) {
      own.push({
        ...row(notified, 'post_removed', null, null, null, '', when(), true),
        detail: REMOVAL_REASONS[i % REMOVAL_REASONS.length]!,
      });
    }
    for (let i = 0; i < MODERATION.report_handled; i++) {
      const outcome = OUTCOMES[i % OUTCOMES.length]!;
      const postId = outcome === 'no_action' && inputs.otherPosts.length > 0 ? inputs.otherPosts[i % inputs.otherPosts.length]! : null;
      own.push({ ...row(notified, 'report_handled', null, postId, null, '', when(), true), detail: outcome });
    }
    for (let i = 0; i < MODERATION.suspended; i++) {
      const time = when();
      own.push({ ...row(notified, 'suspended', null, null, null, '', time, true), until: time + 3 * DAY_MS });
    }
    // Unread: the newest rows, and a few older ones (groups never opened).
    own.sort((a, b) => b.createdAt - a.createdAt);
    for (const [index, each] of own.entries()) if (index < UNREAD_NEWEST) each.read = false;
    for (let unread = 0; unread < UNREAD_OLDER && own.length > UNREAD_NEWEST + UNREAD_OLDER;) {
      const each = own[int(random, UNREAD_NEWEST, own.length - 1)]!;
      if (!each.read) continue;
      each.read = false;
      unread += 1;
    }
  }
  rows.push(...own);
  return { rows, follows: [...follows.values()], members };
}

function row(
  userId: string,
  kind: string,
  actorId: string | null,
  postId: string | null,
  boardId: string | null,
  groupKey: string,
  createdAt: number,
  read: boolean,
): PlannedNotification {
  return { userId, kind, actorId, postId, boardId, groupKey, detail: null, until: null, createdAt, read };
}

/**
 * Moves every notification (and its day, and a suspension's end) forward by the whole days since
 * the seed's now that no earlier run moved them by, recorded in bench_seed_runs: the rows keep
 * their UTC days' grouping, the newest stays within the last day, the oldest within the 90 kept.
 * Rows the bench's own follows wrote move too (harmless: they are its own). Returns the days.
 */
export async function redateNotifications(tx: RawTransaction, now = Date.now()): Promise<number> {
  const [run] = await tx.query<{ id: number; now_ms: number; shifted: number }>(
    `SELECT id, now_ms, notifications_shift_days AS shifted FROM bench_seed_runs
      WHERE complete AND coalesce((params->>'notifications')::int, 0) > 0 ORDER BY id DESC LIMIT 1`,
  );
  if (!run) return 0;
  const days = Math.floor((now - run.now_ms) / DAY_MS) - run.shifted;
  if (days <= 0) return 0;
  await tx.query(
    `UPDATE notifications SET created_at = created_at + make_interval(days => $1), day = day + $1,
            until = until + make_interval(days => $1)`,
    [days],
  );
  await tx.query('UPDATE bench_seed_runs SET notifications_shift_days = notifications_shift_days + $2 WHERE id = $1', [run.id, days]);
  return days;
}
