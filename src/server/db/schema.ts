import { boolean, date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import type { ActivityKind } from '../../shared/api/activity.js';
import type { ReportReason, ReportStatus, Role } from '../../shared/moderation.js';

/** Table definitions for typed queries. The DDL itself lives in ./migrations. */
export const users = pgTable('users', {
  id: text('id').primaryKey(),
  username: text('username').notNull().unique(),
  email: text('email').notNull().unique(),
  /** The address's look-alike key, unique (lookalikes/skeleton.ts); null until filled in (migration 14). */
  emailSkeleton: text('email_skeleton').unique(),
  passwordHash: text('password_hash').notNull(),
  bio: text('bio').notNull().default(''),
  iconKey: text('icon_key'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** Kept by triggers on follows (migration 5): never written by the app. */
  followerCount: integer('follower_count').notNull().default(0),
  followingCount: integer('following_count').notNull().default(0),
  /** The user's latest change as the change feed named it, and when (db/change-feed.ts). */
  lastChangeId: text('last_change_id'),
  lastChangeAt: timestamp('last_change_at', { withTimezone: true }),
  /** member, moderator or admin (migration 11; shared/moderation.ts). */
  role: text('role').$type<Role>().notNull().default('member'),
  /** Suspended until then; PERMANENT_SUSPENSION for good; null when not suspended. */
  suspendedUntil: timestamp('suspended_until', { withTimezone: true }),
  /** Moved on by every credential or status change; a session of an earlier epoch is over (migration 13). */
  sessionEpoch: integer('session_epoch').notNull().default(0),
  /** When the address was proved (a mailed link or code, or an admin); null while it has not been (migration 16). */
  emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
  /** Made while mail was on: must verify before posting, following, ... (auth/email-verification-rule.ts). */
  verifyEmail: boolean('verify_email').notNull().default(false),
  /** A new address asked for in Settings and not yet proved; the account keeps `email` until it is. */
  pendingEmail: text('pending_email'),
  /** False for an account made through single sign-on: its hash is of random bytes (migration 17). */
  hasPassword: boolean('has_password').notNull().default(true),
  /** Kept by triggers on notifications (migration 19): never written by the app. */
  unreadNotifications: integer('unread_notifications').notNull().default(0),
  /** Topics turned off in the app / turned on as a push (Settings → Notifications). */
  notificationsOff: text('notifications_off').array().notNull().default([]),
  pushOn: text('push_on').array().notNull().default([]),
});

export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Public: names the session in the Sessions list (the token's hash never leaves the server). */
    id: text('id').notNull().unique(),
    /** The User-Agent it signed in with, at most 512 characters. */
    userAgent: text('user_agent').notNull().default(''),
    /** Moved on by a use at most every few minutes (auth/session-token.ts). */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** The account's session epoch it was made in (auth/session-rule.ts). */
    epoch: integer('epoch').notNull().default(0),
  },
  (table) => [index('sessions_user_id_idx').on(table.userId)],
);

/** At most one live reset link per account (migration 10). */
export const passwordResets = pgTable('password_resets', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** The account's one live e-mail verification: a mailed link and code, stored as hashes (migration 16). */
export const emailVerifications = pgTable('email_verifications', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The address the mail went to: the account's own, or its pending new one. */
  email: text('email').notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  codeHash: text('code_hash').notNull(),
  codeAttempts: integer('code_attempts').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** An account's link to the OpenID provider's account, by its `sub` (migration 17). */
export const ssoIdentities = pgTable(
  'sso_identities',
  {
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }).notNull().defaultNow(),
    /** The provider answered a sign-in meant for this account with an error (migration 18). */
    refusedAt: timestamp('refused_at', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.issuer, table.subject] })],
);

/** A sign-in or link begun and not yet back from the provider (migration 17). */
export const ssoAttempts = pgTable('sso_attempts', {
  stateHash: text('state_hash').primaryKey(),
  codeVerifier: text('code_verifier').notNull(),
  nonce: text('nonce').notNull(),
  purpose: text('purpose').$type<'sign-in' | 'link'>().notNull(),
  userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  /** A signed-in account signing in again goes back here (migration 18). */
  returnTo: text('return_to'),
});

/** A first single sign-on waiting for its username (migration 17). */
export const ssoSignups = pgTable('sso_signups', {
  tokenHash: text('token_hash').primaryKey(),
  issuer: text('issuer').notNull(),
  subject: text('subject').notNull(),
  email: text('email').notNull(),
  emailVerified: boolean('email_verified').notNull(),
  suggestedUsername: text('suggested_username').notNull().default(''),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** Usernames of deleted accounts, held against impersonation (migration 10). */
/** A held name asked for with its deleted account's address, waiting for the mailed link (migration 18). */
export const usernameClaims = pgTable('username_claims', {
  tokenHash: text('token_hash').primaryKey(),
  username: text('username').notNull(),
  email: text('email').notNull(),
  passwordHash: text('password_hash').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

export const releasedUsernames = pgTable('released_usernames', {
  username: text('username').primaryKey(),
  /**
   * HMAC-SHA-256 of the account's address with the server's secret (migration 14; null for older
   * holds). The column email_hash before it is left empty ('') and no longer read.
   */
  emailHmac: text('email_hmac'),
  releasedAt: timestamp('released_at', { withTimezone: true }).notNull().defaultNow(),
});

export const posts = pgTable('posts', {
  id: text('id').primaryKey(),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  description: text('description').notNull().default(''),
  link: text('link').notNull().default(''),
  /** The 2- and 3-character pieces of each description word, or the pairs alone over budget (shared/keywords.ts searchGrams). */
  searchGrams: text('search_grams').array().notNull().default([]),
  /** The description's distinct words, separated by spaces (shared/keywords.ts searchText). */
  searchText: text('search_text').notNull().default(''),
  hashtags: text('hashtags').array().notNull().default([]),
  imageKey: text('image_key').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  placeholder: text('placeholder').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const follows = pgTable(
  'follows',
  {
    followerId: text('follower_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    targetId: text('target_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.followerId, table.targetId] })],
);

/** Storage keys whose files no committed row owns yet (or any more); see storage/tracked-files.ts. */
export const pendingFiles = pgTable('pending_files', {
  key: text('key').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Who blocked whom (migration 11): either way, each is hidden from the other. */
export const blocks = pgTable(
  'blocks',
  {
    blockerId: text('blocker_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    blockedId: text('blocked_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.blockerId, table.blockedId] })],
);

/** Reports of a post or a profile (migration 11). */
export const reports = pgTable('reports', {
  id: text('id').primaryKey(),
  reporterId: text('reporter_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The user reported, or the author of the post reported. */
  targetUserId: text('target_user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Null for a report of a profile. */
  targetPostId: text('target_post_id').references(() => posts.id, { onDelete: 'cascade' }),
  reason: text('reason').$type<ReportReason>().notNull(),
  details: text('details').notNull().default(''),
  status: text('status').$type<ReportStatus>().notNull().default('open'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  closedAt: timestamp('closed_at', { withTimezone: true }),
  closedBy: text('closed_by').references(() => users.id, { onDelete: 'set null' }),
});

/** Every moderator action (migration 11); names are copied so the log outlives the accounts. */
export const moderationLog = pgTable('moderation_log', {
  id: text('id').primaryKey(),
  actorId: text('actor_id').references(() => users.id, { onDelete: 'set null' }),
  actorUsername: text('actor_username').notNull(),
  action: text('action').notNull(),
  targetUserId: text('target_user_id').references(() => users.id, { onDelete: 'set null' }),
  targetUsername: text('target_username').notNull().default(''),
  targetPostId: text('target_post_id'),
  note: text('note').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Sign-up codes for REGISTRATION=invite, stored as their SHA-256 (migration 11). */
export const invites = pgTable('invites', {
  codeHash: text('code_hash').primaryKey(),
  createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
  usesLeft: integer('uses_left').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A user's board of saved posts (migration 12, issue 18). */
export const boards = pgTable('boards', {
  id: text('id').primaryKey(),
  ownerId: text('owner_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  /** The name's look-alike key, unique per owner (lookalikes/skeleton.ts); null until filled in (migration 14). */
  nameSkeleton: text('name_skeleton'),
  /** The board's address under its owner: /@{username}/boards/{slug}. */
  slug: text('slug').notNull(),
  description: text('description').notNull().default(''),
  /** Seen by nobody but the owner and the board's members (directory/visibility.ts). */
  secret: boolean('secret').notNull().default(false),
  /** Chosen by the owner; a post on the board (cleared when it leaves). Null: the newest saved. */
  coverPostId: text('cover_post_id'),
  /** Kept by triggers on board_posts: never written by the app. */
  postCount: integer('post_count').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** Kept by triggers: when a post was last saved to it (the Boards tab's order). */
  lastSavedAt: timestamp('last_saved_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A post saved to a board, by whom (the owner or a collaborator) and when (migration 12). */
export const boardPosts = pgTable(
  'board_posts',
  {
    boardId: text('board_id')
      .notNull()
      .references(() => boards.id, { onDelete: 'cascade' }),
    postId: text('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    savedBy: text('saved_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    savedAt: timestamp('saved_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.boardId, table.postId] })],
);

/** Who the owner invited to a board, and whether they joined (migration 12). */
export const boardMembers = pgTable(
  'board_members',
  {
    boardId: text('board_id')
      .notNull()
      .references(() => boards.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    invitedAt: timestamp('invited_at', { withTimezone: true }).notNull().defaultNow(),
    /** Null while only invited. */
    joinedAt: timestamp('joined_at', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.boardId, table.userId] })],
);

/** The post an upload form's key made, for ten minutes (migration 15, issue 26). */
export const postIdempotency = pgTable(
  'post_idempotency',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    postId: text('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.key] })],
);

/** One row per event someone is told of (migration 19, issue 30); grouped on read. */
export const notifications = pgTable('notifications', {
  id: text('id').primaryKey(),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  kind: text('kind').$type<ActivityKind>().notNull(),
  actorId: text('actor_id').references(() => users.id, { onDelete: 'cascade' }),
  postId: text('post_id').references(() => posts.id, { onDelete: 'cascade' }),
  boardId: text('board_id').references(() => boards.id, { onDelete: 'cascade' }),
  /** What the row is grouped by within a day: its kind and target. */
  groupKey: text('group_key').notNull(),
  /** The UTC day it happened on, as text (YYYY-MM-DD). */
  day: date('day').notNull(),
  /** A moderator's reason, or a report's outcome. */
  detail: text('detail'),
  /** When a suspension ends (PERMANENT_SUSPENSION for good). */
  until: timestamp('until', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  read: boolean('read').notNull().default(false),
});

/** A device's push subscription (migration 19): its id is its endpoint's SHA-256. */
export const pushSubscriptions = pgTable('push_subscriptions', {
  id: text('id').primaryKey(),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  endpoint: text('endpoint').notNull(),
  p256dh: text('p256dh').notNull(),
  auth: text('auth').notNull(),
  /** The VAPID public key it was made for: another key's pushes would be refused. */
  vapidKey: text('vapid_key').notNull(),
  label: text('label').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  lastSentAt: timestamp('last_sent_at', { withTimezone: true }),
});

/** A push waiting to be sent, or to be tried again (migration 19). */
export const pushDeliveries = pgTable('push_deliveries', {
  id: text('id').primaryKey(),
  subscriptionId: text('subscription_id')
    .notNull()
    .references(() => pushSubscriptions.id, { onDelete: 'cascade' }),
  actorId: text('actor_id').references(() => users.id, { onDelete: 'cascade' }),
  payload: text('payload').notNull(),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Keys the server made for itself and keeps (migration 19): the VAPID pair. */
export const serverKeys = pgTable('server_keys', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
});

export const schema = {
  users,
  sessions,
  posts,
  follows,
  pendingFiles,
  passwordResets,
  emailVerifications,
  ssoIdentities,
  ssoAttempts,
  ssoSignups,
  releasedUsernames,
  usernameClaims,
  blocks,
  reports,
  moderationLog,
  invites,
  boards,
  boardPosts,
  boardMembers,
  postIdempotency,
  notifications,
  pushSubscriptions,
  pushDeliveries,
  serverKeys,
};
