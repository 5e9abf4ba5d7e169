import type { LogEntry, ModeratedUser, QueueItem, ReportBody } from '../../shared/api/moderation.js';
import { MODERATION_NOTE_MAX_LENGTH, PERMANENT_SUSPENSION, REPORT_DETAILS_MAX_LENGTH } from '../../shared/moderation.js';
import type { Viewer } from '../http/viewer.js';
import { endSessions } from '../auth/auth.queries.js';
import type { RateLimitConfig } from '../config.js';
import type { ChangeNotices } from '../db/change-notices.js';
import type { AppDb } from '../db/database.js';
import { iconUrl } from '../directory/icon-images.js';
import { AppError } from '../http/app-error.js';
import { decodeCursor, toPage } from '../http/cursor.js';
import type { RateLimiter } from '../http/rate-limiter.js';
import { imageFileKeys, imageSet } from '../posts/post-images.js';
import { deletePost, findPost } from '../posts/post.queries.js';
import type { TrackedFiles } from '../storage/tracked-files.js';
import type { Notifier } from '../notifications/notifier.js';
import * as queries from './moderation.queries.js';
import type { ModeratedUserRow, Target } from './moderation.queries.js';
import { assertAdmin, assertMayActOn, mayActOn, type Actor } from './staff.js';

/** Bounded pages: each list costs the same however long the queue or the log grows. */
export const QUEUE_PAGE = 20;
export const REPORTERS_SHOWN = 10;
export const LOG_PAGE = 50;
export const SUSPENDED_PAGE = 50;

const DAY_MS = 24 * 60 * 60 * 1000;

function checkNote(note: string | undefined): string {
  const trimmed = (note ?? '').trim();
  if (Array.from(trimmed).length > MODERATION_NOTE_MAX_LENGTH) throw new AppError(400, 'MODERATION_NOTE_TOO_LONG');
  return trimmed;
}

/** The reporters to tell what came of a report: never the moderator who acted, reporter or not. */
const others = (reporters: string[], actor: Actor) => reporters.filter((id) => id !== actor.id);

/** 'post:<id>' or 'user:<username>': how the page names a queue item. */
const keyOf = (postId: string | null, username: string) => (postId ? `post:${postId}` : `user:${username}`);

/**
 * Reports, the moderation queue, its actions and log, suspensions (issue 17). Routes admit only
 * moderators and admins (requireRole); every action checks again here whom it touches (staff.ts).
 * An action, the closing of the target's reports and its log entry commit together.
 */
export class ModerationService {
  constructor(
    private readonly deps: {
      db: AppDb;
      files: TrackedFiles;
      changes: ChangeNotices;
      limiter: RateLimiter;
      limits: RateLimitConfig;
      /** Reports from accounts younger than this rank last in the queue, marked (config.reportNewAccountMs). */
      newAccountMs: number;
      /** Tells authors and reporters what came of an action (issue 30). */
      notifier: Notifier;
    },
  ) {}

  private get db() {
    return this.deps.db;
  }

  /**
   * A report of someone else's post or profile, across blocks too (mayReport). A second report of the same target
   * while the first is open is answered alike and stores nothing (idempotent: a double click,
   * or a reporter who forgot, needs no error). Every attempt counts against the hourly limits:
   * the account's, then the address's, whatever the account (one address makes up to 80 fresh
   * accounts an hour; issue 26).
   */
  async report(reporter: Viewer, body: ReportBody, address: string): Promise<void> {
    const { limiter, limits } = this.deps;
    await limiter.hit(`reports:user:${reporter.id}`, limits.reportsPerUser, limits.reportWindowMs, 'REPORTING_TOO_FAST');
    await limiter.hit(`reports:ip:${address}`, limits.reportsPerIp, limits.reportWindowMs, 'REPORTS_FROM_ADDRESS_TOO_MANY');
    if ((body.postId === undefined) === (body.username === undefined)) throw new AppError(400, 'BAD_REQUEST');
    const details = (body.details ?? '').trim();
    if (Array.from(details).length > REPORT_DETAILS_MAX_LENGTH) throw new AppError(400, 'REPORT_DETAILS_TOO_LONG');
    if (body.reason === 'other' && details === '') throw new AppError(400, 'REPORT_DETAILS_REQUIRED');
    let target: Target;
    if (body.postId !== undefined) {
      const post = await queries.findReportablePost(this.db, body.postId);
      if (!post) throw new AppError(404, 'POST_NOT_FOUND');
      target = { userId: post.userId, postId: post.id };
    } else {
      const user = await queries.findReportableUser(this.db, body.username!.replace(/^@/, '').toLowerCase());
      if (!user) throw new AppError(404, 'USER_NOT_FOUND');
      target = { userId: user.id, postId: null };
    }
    if (target.userId === reporter.id) throw new AppError(400, 'CANNOT_REPORT_YOURSELF');
    await queries.insertReport(this.db, {
      reporterId: reporter.id,
      targetUserId: target.userId,
      targetPostId: target.postId,
      reason: body.reason,
      // Only 'Something else' carries words; other reasons speak for themselves.
      details,
    });
  }

  private moderated(actor: Actor, row: ModeratedUserRow): ModeratedUser {
    return {
      username: row.username,
      icon: iconUrl(row.iconKey),
      bio: row.bio,
      role: row.role,
      suspendedUntil: row.suspendedUntil && row.suspendedUntil.getTime() > Date.now() ? row.suspendedUntil.toISOString() : null,
      actionable: mayActOn(actor, row),
      emailVerified: row.emailVerifiedAt !== null,
    };
  }

  /**
   * Open reports grouped by target, the newest report first, a page of QUEUE_PAGE targets; those
   * reported by new accounts only come after all the others (queries.openTargets).
   */
  async queue(actor: Actor, cursor: string | undefined): Promise<{ items: QueueItem[]; nextCursor: string | null }> {
    const { newAccountMs } = this.deps;
    const { rows, nextCursor } = toPage(await queries.openTargets(this.db, decodeCursor(cursor), QUEUE_PAGE, newAccountMs), QUEUE_PAGE);
    const userIds = [...new Set(rows.map((row) => row.userId))];
    const postIds = rows.flatMap((row) => (row.postId ? [row.postId] : []));
    const [reports, counts, people, posts] = await Promise.all([
      queries.openReportsOf(this.db, rows, REPORTERS_SHOWN, newAccountMs),
      queries.reasonCountsOf(this.db, userIds),
      queries.moderatedUsers(this.db, userIds),
      queries.postsForQueue(this.db, postIds),
    ]);
    const same = (a: { userId: string; postId: string | null }, b: { userId: string; postId: string | null }) =>
      a.userId === b.userId && (a.postId ?? null) === (b.postId ?? null);
    const items = rows.flatMap((row): QueueItem[] => {
      const user = people.find((person) => person.id === row.userId);
      const post = row.postId ? posts.find((candidate) => candidate.id === row.postId) : undefined;
      // Gone between the two reads (deleted account or post): its reports went with it.
      if (!user || (row.postId && !post)) return [];
      return [
        {
          key: keyOf(row.postId, user.username),
          post: post ? { id: post.id, description: post.description, image: imageSet(post) } : null,
          user: this.moderated(actor, user),
          reasons: counts
            .filter((count) => same(count, row))
            .map((count) => ({ reason: count.reason, count: count.count }))
            .sort((a, b) => b.count - a.count),
          reporters: reports
            .filter((report) => same(report, row))
            .map((report) => ({
              username: report.username,
              reason: report.reason,
              details: report.details,
              at: report.at,
              newAccount: report.newAccount,
            })),
          reports: row.reports,
          newAccountsOnly: row.newAccountsOnly,
          latestAt: new Date(row.latestAt).toISOString(),
        },
      ];
    });
    return { items, nextCursor };
  }

  /** The reported post (and its author) or the reported user, or 404. */
  private async targetOf(body: { postId: string } | { username: string }) {
    if ('postId' in body) {
      const post = await findPost(this.db, body.postId);
      if (!post) throw new AppError(404, 'POST_NOT_FOUND');
      return { userId: post.userId, post };
    }
    const user = await queries.findModeratedUser(this.db, body.username.replace(/^@/, '').toLowerCase());
    if (!user) throw new AppError(404, 'USER_NOT_FOUND');
    return { userId: user.id, post: undefined };
  }

  /** Locks the target's user and checks the actor may act on them; 404 when they went meanwhile. */
  private static async lockTarget(tx: AppDb, actor: Actor, userId: string) {
    const user = await queries.lockUser(tx, userId);
    if (!user) throw new AppError(404, 'USER_NOT_FOUND');
    assertMayActOn(actor, user);
    return user;
  }

  /** Dismiss: the target's open reports close as 'dismissed'; nothing else changes. */
  async dismiss(actor: Actor, body: { postId: string; note?: string } | { username: string; note?: string }): Promise<void> {
    const note = checkNote(body.note);
    const { userId, post } = await this.targetOf(body);
    await this.deps.changes.transaction(async (tx, noteChange) => {
      const user = await ModerationService.lockTarget(tx, actor, userId);
      const reporters = await queries.closeReports(tx, { userId, postId: post?.id ?? null }, 'dismissed', actor.id);
      if (reporters.length === 0) throw new AppError(409, 'REPORTS_ALREADY_CLOSED');
      await queries.insertLog(tx, this.entry(actor, 'dismiss', user, post?.id ?? null, note));
      await this.deps.notifier.tell(tx, noteChange, {
        kind: 'report_handled',
        to: others(reporters, actor),
        postId: post?.id ?? null,
        outcome: 'no_action',
      });
    });
  }

  /**
   * Remove Post: the post and every stored file of it (original and variants), through the same
   * path as an author's own deletion: the row goes and its keys are recorded in one transaction,
   * then the files are deleted (a crash leaves the keys to the sweep). Its reports close as
   * 'actioned' in that transaction (and go with the post's row); the log keeps the record.
   */
  async removePost(actor: Actor, body: { postId: string; note?: string }): Promise<void> {
    const note = checkNote(body.note);
    const post = await findPost(this.db, body.postId);
    if (!post) throw new AppError(404, 'POST_NOT_FOUND');
    // The moderator is the change's actor and the author its subject: both see it gone at once.
    await this.deps.files.release(async (tx, noteChange) => {
      const user = await ModerationService.lockTarget(tx, actor, post.userId);
      const reporters = await queries.closeReports(tx, { userId: user.id, postId: post.id }, 'actioned', actor.id);
      if (!(await deletePost(tx, post.id))) throw new AppError(404, 'POST_NOT_FOUND');
      await queries.insertLog(tx, this.entry(actor, 'remove-post', user, post.id, note));
      // The author is told why (the note); the reporters only what came of it.
      await this.deps.notifier.tell(tx, noteChange, { kind: 'post_removed', to: user.id, reason: note });
      await this.deps.notifier.tell(tx, noteChange, {
        kind: 'report_handled',
        to: others(reporters, actor),
        postId: null,
        outcome: 'removed',
      });
      await noteChange(actor, { kind: 'post', postId: post.id, authorId: user.id, authorUsername: user.username, deleted: true });
      return { result: user, released: imageFileKeys(post.imageKey) };
    });
  }

  /**
   * Suspend: until now + days, or for good (days null). Every open report naming the user closes
   * as 'actioned' (their posts and profile are hidden now); every session of theirs ends (rows
   * deleted; this process's session cache forgets at once, the others hear the change).
   */
  async suspend(
    actor: Actor,
    body: ({ postId: string } | { username: string }) & { days: 1 | 7 | 30 | null; note?: string },
  ): Promise<{ until: Date }> {
    const note = checkNote(body.note);
    const { userId, post } = await this.targetOf(body);
    const until = body.days === null ? PERMANENT_SUSPENSION : new Date(Date.now() + body.days * DAY_MS);
    // The suspension change is what makes this process's session cache forget the user's sessions (auth/session-cache.ts).
    await this.deps.changes.transaction(async (tx, noteChange) => {
      const target = await ModerationService.lockTarget(tx, actor, userId);
      await queries.setSuspension(tx, target.id, until);
      await endSessions(tx, target.id);
      const reporters = await queries.closeReports(tx, { userId: target.id, postId: null, allOfUser: true }, 'actioned', actor.id);
      const action = body.days === null ? 'suspend-permanent' : `suspend-${body.days}`;
      await queries.insertLog(tx, this.entry(actor, action, target, post?.id ?? null, note));
      // Read when the suspension ends (its sessions end now): what happened, and until when.
      await this.deps.notifier.tell(tx, noteChange, { kind: 'suspended', to: target.id, until: body.days === null ? null : until });
      await this.deps.notifier.tell(tx, noteChange, {
        kind: 'report_handled',
        to: others(reporters, actor),
        postId: null,
        outcome: 'suspended',
      });
      await noteChange(actor, { kind: 'suspension', userId: target.id, username: target.username });
    });
    return { until };
  }

  /** Lifts a suspension early: admins only. Ended ones (and none) are a 409, changing nothing. */
  async unsuspend(actor: Actor, username: string, note?: string): Promise<void> {
    assertAdmin(actor);
    const checked = checkNote(note);
    const { userId } = await this.targetOf({ username });
    await this.deps.changes.transaction(async (tx, noteChange) => {
      const target = await ModerationService.lockTarget(tx, actor, userId);
      if (!target.suspendedUntil || target.suspendedUntil.getTime() <= Date.now()) throw new AppError(409, 'NOT_SUSPENDED');
      await queries.setSuspension(tx, target.id, null);
      await queries.insertLog(tx, this.entry(actor, 'unsuspend', target, null, checked));
      await noteChange(actor, { kind: 'suspension', userId: target.id, username: target.username });
    });
  }

  private entry(actor: Actor, action: string, target: ModeratedUserRow, postId: string | null, note: string): queries.LogRow {
    return {
      actorId: actor.id,
      actorUsername: actor.username,
      action,
      targetUserId: target.id,
      targetUsername: target.username,
      targetPostId: postId,
      note,
    };
  }

  async log(cursor: string | undefined): Promise<{ entries: LogEntry[]; nextCursor: string | null }> {
    const { rows, nextCursor } = toPage(await queries.logPage(this.db, decodeCursor(cursor), LOG_PAGE), LOG_PAGE);
    return {
      entries: rows.map(({ sortTime, ...row }) => ({
        ...row,
        action: row.action as LogEntry['action'],
        at: new Date(sortTime).toISOString(),
      })),
      nextCursor,
    };
  }

  async suspended(actor: Actor, cursor: string | undefined): Promise<{ users: ModeratedUser[]; nextCursor: string | null }> {
    const { rows, nextCursor } = toPage(await queries.suspendedPage(this.db, decodeCursor(cursor), SUSPENDED_PAGE), SUSPENDED_PAGE);
    return { users: rows.map((row) => this.moderated(actor, row)), nextCursor };
  }

  /** People: one user by exact username, with their role and suspension. */
  async person(actor: Actor, username: string): Promise<ModeratedUser> {
    const user = await queries.findModeratedUser(this.db, username.replace(/^@/, '').toLowerCase());
    if (!user) throw new AppError(404, 'USER_NOT_FOUND');
    return this.moderated(actor, user);
  }
}
