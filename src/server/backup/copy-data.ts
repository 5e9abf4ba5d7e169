import fs from 'node:fs/promises';
import path from 'node:path';
import { asc, count, eq, isNotNull, type AnyColumn } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../db/database.js';
import { migrate } from '../db/migrate.js';
import {
  blocks,
  boardMembers,
  boardPosts,
  boards,
  notifications,
  pushSubscriptions,
  serverKeys,
  follows,
  invites,
  moderationLog,
  pendingFiles,
  posts,
  reports,
  sessions,
  ssoIdentities,
  users,
} from '../db/schema.js';
import type { Storage } from '../storage/storage.js';

const BATCH = 1000;

/**
 * Parents before children, so foreign keys hold at every step. `copy` adjusts a row on its way:
 * the follow and board counters start at zero because the triggers count each row as it
 * arrives, and a board's chosen cover (a key into board_posts) is set once its saves are there.
 * Sessions' reset links (password_resets, an hour's life), address verification links
 * (email_verifications, a day's: a new one is a Resend away), single sign-ons under way
 * (sso_attempts, sso_signups: minutes), held usernames and the mailed links that claim one early
 * (username_claims, a day's: the sign-up can be asked for again), and upload forms'
 * keys (post_idempotency, ten minutes') are not copied. Whether an address is verified, and a
 * pending new one, travel with the users' rows.
 */
const TABLES: Array<{
  name: string;
  table: PgTable;
  order: AnyColumn[];
  copy?: (row: Record<string, unknown>) => Record<string, unknown>;
}> = [
  // The counters start at 0: the triggers count the follows and notifications as they arrive.
  {
    name: 'users',
    table: users,
    order: [users.id],
    copy: (row) => ({ ...row, followerCount: 0, followingCount: 0, unreadNotifications: 0 }),
  },
  { name: 'sessions', table: sessions, order: [sessions.tokenHash] },
  // Issue 29: who signs in with the university's account (attempts and sign-ups under way are not copied).
  { name: 'sso_identities', table: ssoIdentities, order: [ssoIdentities.issuer, ssoIdentities.subject] },
  { name: 'posts', table: posts, order: [posts.id] },
  { name: 'follows', table: follows, order: [follows.followerId, follows.targetId] },
  { name: 'blocks', table: blocks, order: [blocks.blockerId, blocks.blockedId] },
  { name: 'reports', table: reports, order: [reports.id] },
  { name: 'moderation_log', table: moderationLog, order: [moderationLog.id] },
  { name: 'invites', table: invites, order: [invites.codeHash] },
  { name: 'boards', table: boards, order: [boards.id], copy: (row) => ({ ...row, coverPostId: null, postCount: 0 }) },
  { name: 'board_posts', table: boardPosts, order: [boardPosts.boardId, boardPosts.postId] },
  { name: 'board_members', table: boardMembers, order: [boardMembers.boardId, boardMembers.userId] },
  // Issue 30: notifications, the devices that get pushes, and the VAPID key pair they subscribed
  // with (without it every subscription would be refused). Pushes waiting to be sent are not copied.
  { name: 'notifications', table: notifications, order: [notifications.id] },
  { name: 'push_subscriptions', table: pushSubscriptions, order: [pushSubscriptions.id] },
  { name: 'server_keys', table: serverKeys, order: [serverKeys.name] },
  // Every media file is copied, so the files no row owns must stay marked for the sweep.
  { name: 'pending_files', table: pendingFiles, order: [pendingFiles.key] },
];

const CONTENT_TYPES: Record<string, string> = { '.jpg': 'image/jpeg', '.webp': 'image/webp', '.png': 'image/png' };

export interface CopyReport {
  rows: Record<string, number>;
  mediaFiles: number;
}

/**
 * Moves everything from one setup to another (embedded → PostgreSQL + S3, say): the target
 * database is migrated, must be empty, and receives every row in one transaction; then every
 * media file is uploaded to the target storage. The source app must be stopped.
 */
export async function copyData(options: {
  source: Database;
  target: Database;
  sourceMediaDir?: string;
  targetStorage?: Storage;
}): Promise<CopyReport> {
  await migrate(options.target);
  const [existing] = await options.target.orm.select({ n: count() }).from(users);
  if (existing && existing.n > 0) throw new Error('the target database already has users: copy into an empty one');

  const rows: Record<string, number> = {};
  await options.target.orm.transaction(async (tx) => {
    // A server started on the empty target made a key pair of its own; the source's replaces it.
    await tx.delete(serverKeys);
    for (const { name, table, order, copy } of TABLES) {
      rows[name] = 0;
      for (let offset = 0; ; offset += BATCH) {
        const batch = await options.source.orm
          .select()
          .from(table)
          .orderBy(...order.map((column) => asc(column)))
          .limit(BATCH)
          .offset(offset);
        if (batch.length === 0) break;
        await tx.insert(table).values(copy ? batch.map(copy) : batch);
        rows[name] += batch.length;
      }
    }
    const covers = await options.source.orm
      .select({ id: boards.id, coverPostId: boards.coverPostId })
      .from(boards)
      .where(isNotNull(boards.coverPostId));
    for (const { id, coverPostId } of covers) await tx.update(boards).set({ coverPostId }).where(eq(boards.id, id));
  });

  let mediaFiles = 0;
  if (options.sourceMediaDir && options.targetStorage) {
    const root = options.sourceMediaDir;
    const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const contentType = CONTENT_TYPES[path.extname(entry.name)];
      if (!entry.isFile() || !contentType) continue;
      const file = path.join(entry.parentPath, entry.name);
      const key = path.relative(root, file).split(path.sep).join('/');
      await options.targetStorage.put(key, await fs.readFile(file), contentType);
      mediaFiles += 1;
    }
  }
  return { rows, mediaFiles };
}
