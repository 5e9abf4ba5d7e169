import { and, desc, eq, gt, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { ReportReason, ReportStatus, Role } from '../../shared/moderation.js';
import type { AppDb } from '../db/database.js';
import { moderationLog, posts, reports, users } from '../db/schema.js';
import { visibleTo } from '../directory/visibility.js';
import type { PageKey } from '../http/cursor.js';
import { newId } from '../ids.js';
import { cardColumns } from '../posts/post.queries.js';

/** A user as moderation reads them. */
export interface ModeratedUserRow {
  id: string;
  username: string;
  iconKey: string | null;
  bio: string;
  role: Role;
  suspendedUntil: Date | null;
  emailVerifiedAt: Date | null;
}

const moderatedUser = {
  id: users.id,
  username: users.username,
  iconKey: users.iconKey,
  bio: users.bio,
  role: users.role,
  suspendedUntil: users.suspendedUntil,
  emailVerifiedAt: users.emailVerifiedAt,
};

/**
 * THE "may report" rule (issue 26), apart from the visibility rule on purpose: a report may name
 * anyone not suspended now (what a signed-out visitor finds), whatever blocks lie between the
 * reporter and them, either way. A harasser who blocks the people they post about must not stop
 * those people's reports, and someone who blocked a harasser still reports them. A removed post
 * is a deleted row. The rule only lets a report in: the answer is an empty 204, so the reporter
 * is shown nothing, and every read still follows visibility.ts.
 */
function mayReport(userId: AnyPgColumn): SQL {
  return visibleTo(undefined, userId);
}

/** A user anyone may report (mayReport). */
export async function findReportableUser(db: AppDb, username: string) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.username, username), mayReport(users.id)))
    .limit(1);
  return row;
}

/** A post anyone may report (its author mayReport), with its author. */
export async function findReportablePost(db: AppDb, postId: string) {
  const [row] = await db
    .select({ id: posts.id, userId: posts.userId })
    .from(posts)
    .where(and(eq(posts.id, postId), mayReport(posts.userId)))
    .limit(1);
  return row;
}

/**
 * One open report per reporter and target (reports_one_open_idx): a second one while the first
 * is open stores nothing. Returns whether a report was stored.
 */
export async function insertReport(
  db: AppDb,
  report: { reporterId: string; targetUserId: string; targetPostId: string | null; reason: ReportReason; details: string },
): Promise<boolean> {
  const rows = await db
    .insert(reports)
    .values({ id: newId(), ...report })
    .onConflictDoNothing()
    .returning({ id: reports.id });
  return rows.length > 0;
}

/** A target of reports: a post (with its author), or a user's profile (postId null). */
export interface Target {
  userId: string;
  postId: string | null;
}

/**
 * Whether a report came from an account younger than `newAccountMs` when it was sent (issue 26):
 * one address can make dozens of fresh accounts an hour, an older one is not made on demand.
 */
function fromNewAccount(newAccountMs: number): SQL {
  return sql`r.created_at < u.created_at + make_interval(secs => ${newAccountMs / 1000}::double precision)`;
}

/**
 * The open reports' targets: first those with a report from an established account, by their
 * newest such report, then those reported by new accounts only (a flood from fresh accounts can
 * neither fill the first page nor move a target up it), newest first. `id` is
 * '<1 established, 0 new only>/<user id>/<post id or nothing>', so the cursor carries the rank.
 */
export async function openTargets(db: AppDb, after: PageKey | undefined, limit: number, newAccountMs: number) {
  const afterRank = after?.id.startsWith('1/') ? 1 : 0;
  const result = await db.execute(sql`
    SELECT "userId", "postId", established || '/' || "userId" || '/' || coalesce("postId", '') AS id,
           sort_at::text AS "sortTime", "latestAt", reports, established = 0 AS "newAccountsOnly"
    FROM (
      SELECT r.target_user_id AS "userId", r.target_post_id AS "postId",
             (NOT bool_and(${fromNewAccount(newAccountMs)}))::int AS established,
             coalesce(max(r.created_at) FILTER (WHERE NOT ${fromNewAccount(newAccountMs)}), max(r.created_at)) AS sort_at,
             max(r.created_at)::text AS "latestAt", count(*)::int AS reports
      FROM reports r JOIN users u ON u.id = r.reporter_id
      WHERE r.status = 'open'
      GROUP BY r.target_user_id, r.target_post_id
    ) AS targets
    ${after ? sql`WHERE (established, sort_at, established || '/' || "userId" || '/' || coalesce("postId", '')) < (${afterRank}, ${after.sortTime}::timestamptz, ${after.id})` : sql``}
    ORDER BY established DESC, sort_at DESC, id DESC
    LIMIT ${limit + 1}`);
  return (
    result as {
      rows: Array<{
        userId: string;
        postId: string | null;
        id: string;
        sortTime: string;
        latestAt: string;
        reports: number;
        newAccountsOnly: boolean;
      }>;
    }
  ).rows;
}

/** The open reports of these targets: at most `perTarget` newest each, with the reporter's name and whether their account was new. */
export async function openReportsOf(db: AppDb, targets: Target[], perTarget: number, newAccountMs: number) {
  if (targets.length === 0) return [];
  const userIds = [...new Set(targets.map((target) => target.userId))];
  const result = await db.execute(sql`
    SELECT "userId", "postId", reason, details, at, username, "newAccount" FROM (
      SELECT r.target_user_id AS "userId", r.target_post_id AS "postId", r.reason, r.details, r.created_at::text AS at,
             u.username, ${fromNewAccount(newAccountMs)} AS "newAccount",
             row_number() OVER (PARTITION BY r.target_user_id, r.target_post_id ORDER BY r.created_at DESC) AS n
      FROM reports r JOIN users u ON u.id = r.reporter_id
      WHERE r.status = 'open' AND r.target_user_id IN (${sql.join(
        userIds.map((id) => sql`${id}`),
        sql`, `,
      )})
    ) AS ranked
    WHERE n <= ${perTarget}
    ORDER BY at DESC`);
  return (
    result as {
      rows: Array<{
        userId: string;
        postId: string | null;
        reason: ReportReason;
        details: string;
        at: string;
        username: string;
        newAccount: boolean;
      }>;
    }
  ).rows;
}

/** How many open reports of these targets give each reason. */
export async function reasonCountsOf(db: AppDb, userIds: string[]) {
  if (userIds.length === 0) return [];
  return db
    .select({
      userId: reports.targetUserId,
      postId: reports.targetPostId,
      reason: reports.reason,
      count: sql<number>`count(*)::int`,
    })
    .from(reports)
    .where(and(eq(reports.status, 'open'), inArray(reports.targetUserId, userIds)))
    .groupBy(reports.targetUserId, reports.targetPostId, reports.reason);
}

export async function moderatedUsers(db: AppDb, ids: string[]): Promise<ModeratedUserRow[]> {
  if (ids.length === 0) return [];
  return db.select(moderatedUser).from(users).where(inArray(users.id, ids));
}

export async function findModeratedUser(db: AppDb, username: string): Promise<ModeratedUserRow | undefined> {
  const [row] = await db.select(moderatedUser).from(users).where(eq(users.username, username)).limit(1);
  return row;
}

export async function postsForQueue(db: AppDb, ids: string[]) {
  if (ids.length === 0) return [];
  // A grid card's columns: what the queue shows of a post is what a card shows.
  return db.select(cardColumns).from(posts).where(inArray(posts.id, ids));
}

/** The user row locked for the rest of the transaction: two moderators acting at once take turns. */
export async function lockUser(tx: AppDb, id: string): Promise<ModeratedUserRow | undefined> {
  const [row] = await tx.select(moderatedUser).from(users).where(eq(users.id, id)).for('update').limit(1);
  return row;
}

/**
 * Closes the open reports of a target: a post's, a profile's (postId null), or with `allOfUser`
 * every one naming the user (their profile and each of their posts). Returns how many.
 */
/** Closes the target's open reports; answers who reported them (each once). */
export async function closeReports(
  tx: AppDb,
  target: Target & { allOfUser?: boolean },
  status: Exclude<ReportStatus, 'open'>,
  closedBy: string | null,
): Promise<string[]> {
  const which: SQL | undefined = target.allOfUser
    ? undefined
    : target.postId === null
      ? isNull(reports.targetPostId)
      : eq(reports.targetPostId, target.postId);
  const rows = await tx
    .update(reports)
    .set({ status, closedAt: sql`now()`, closedBy })
    .where(and(eq(reports.status, 'open'), eq(reports.targetUserId, target.userId), which))
    .returning({ reporterId: reports.reporterId });
  return [...new Set(rows.map((row) => row.reporterId))];
}

export async function setSuspension(tx: AppDb, userId: string, until: Date | null) {
  await tx.update(users).set({ suspendedUntil: until }).where(eq(users.id, userId));
}

export async function setRole(tx: AppDb, userId: string, role: Role) {
  await tx.update(users).set({ role }).where(eq(users.id, userId));
}

/** The user's current address is verified from now (an admin's word: email-verified-by-admin.ts). */
export async function markAddressVerified(tx: AppDb, userId: string) {
  await tx
    .update(users)
    .set({ emailVerifiedAt: sql`now()` })
    .where(eq(users.id, userId));
}

export interface LogRow {
  actorId: string | null;
  actorUsername: string;
  action: string;
  targetUserId: string | null;
  targetUsername: string;
  targetPostId: string | null;
  note: string;
}

export async function insertLog(tx: AppDb, entry: LogRow) {
  await tx.insert(moderationLog).values({ id: newId(), ...entry });
}

export async function logPage(db: AppDb, after: PageKey | undefined, limit: number) {
  return db
    .select({
      id: moderationLog.id,
      actor: moderationLog.actorUsername,
      action: moderationLog.action,
      targetUsername: moderationLog.targetUsername,
      targetPostId: moderationLog.targetPostId,
      note: moderationLog.note,
      sortTime: sql<string>`${moderationLog.createdAt}::text`,
    })
    .from(moderationLog)
    .where(after ? sql`(${moderationLog.createdAt}, ${moderationLog.id}) < (${after.sortTime}::timestamptz, ${after.id})` : undefined)
    .orderBy(desc(moderationLog.createdAt), desc(moderationLog.id))
    .limit(limit + 1);
}

/** Everyone suspended now, the longest suspensions first (users_suspended_until_idx). */
export async function suspendedPage(db: AppDb, after: PageKey | undefined, limit: number) {
  return db
    .select({ ...moderatedUser, sortTime: sql<string>`${users.suspendedUntil}::text` })
    .from(users)
    .where(
      and(
        gt(users.suspendedUntil, sql`now()`),
        after
          ? or(
              lt(users.suspendedUntil, sql`${after.sortTime}::timestamptz`),
              and(eq(users.suspendedUntil, sql`${after.sortTime}::timestamptz`), lt(users.id, after.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(users.suspendedUntil), desc(users.id))
    .limit(limit + 1);
}
