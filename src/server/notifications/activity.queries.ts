import { sql, type SQL } from 'drizzle-orm';
import type { ActivityKind, NotificationTopic } from '../../shared/api/activity.js';
import type { AppDb } from '../db/database.js';
import { boardMembers, boards, notifications, posts, pushDeliveries, pushSubscriptions, users } from '../db/schema.js';
import { textArray } from '../db/text-array.js';
import { amongVisible, type SeenBy } from '../directory/visibility.js';

/** A raw statement's rows (the query builder leaves them untyped across both drivers). */
async function rowsOf<T>(db: AppDb, query: SQL): Promise<T[]> {
  const result = await db.execute<Record<string, unknown>>(query);
  return (result as { rows: T[] }).rows;
}

/** One event's row, for each of its recipients. */
export interface NewNotification {
  kind: ActivityKind;
  topic: NotificationTopic;
  recipientIds: string[];
  actorId: string | null;
  postId: string | null;
  boardId: string | null;
  /** The group within a day; null: a group of its own (each moderator's notice stands alone). */
  groupKey: string | null;
  detail: string | null;
  until: Date | null;
}

/**
 * Who of the recipients is told, and how: not anyone who turned the topic off in the app (no
 * row) and on as a push (a push). An actor's repeat of the same event within a day (unfollow,
 * follow again) tells nobody anything new.
 */
export async function recipientsOf(tx: AppDb, event: NewNotification): Promise<Array<{ id: string; row: boolean; push: boolean }>> {
  const repeated: SQL =
    event.actorId !== null && event.groupKey !== null
      ? sql`exists (select 1 from ${notifications} n
          where n.user_id = ${users.id} and n.day >= (now() at time zone 'UTC')::date - 1 and n.group_key = ${event.groupKey}
            and n.actor_id = ${event.actorId} and n.created_at > now() - interval '1 day')`
      : sql`false`;
  const rows = await rowsOf<{ id: string; row: boolean; push: boolean }>(
    tx,
    sql`
    select ${users.id} as id, not (${event.topic} = any(${users.notificationsOff})) as row, ${event.topic} = any(${users.pushOn}) as push
    from ${users}
    where ${users.id} = any(${textArray(event.recipientIds)}) and not ${repeated}`,
  );
  return rows;
}

export async function insertNotifications(tx: AppDb, event: NewNotification, recipientIds: string[]): Promise<void> {
  if (recipientIds.length === 0) return;
  const groupKey = event.groupKey === null ? sql`${event.kind} || ':' || r.id` : sql`${event.groupKey}`;
  await tx.execute(sql`
    insert into ${notifications} (id, user_id, kind, actor_id, post_id, board_id, group_key, detail, until)
    select r.id, r.user_id, ${event.kind}, ${event.actorId}, ${event.postId}, ${event.boardId}, ${groupKey}, ${event.detail}, ${event.until?.toISOString() ?? null}::timestamptz
    from (select gen_random_uuid()::text as id, user_id from unnest(${textArray(recipientIds)}) as user_id) as r`);
}

/** Queues one push per device of each user; true when any was queued. */
export async function queuePushes(tx: AppDb, userIds: string[], actorId: string | null, payload: string): Promise<boolean> {
  if (userIds.length === 0) return false;
  const queued = await rowsOf<{ id: string }>(
    tx,
    sql`
    insert into ${pushDeliveries} (id, subscription_id, actor_id, payload)
    select gen_random_uuid()::text, ${pushSubscriptions.id}, ${actorId}, ${payload}
    from ${pushSubscriptions} where ${pushSubscriptions.userId} = any(${textArray(userIds)})
    returning id`,
  );
  return queued.length > 0;
}

/**
 * Whether the recipient of a row about a board may see the board (directory/visibility.ts's
 * board clause): they own it or are invited to or joined it, or it is not secret. An invitation
 * holds only while the invitation (or the membership it became) does.
 */
const boardStillSeen: SQL = sql`(
  b.owner_id = n.user_id
  or exists (select 1 from ${boardMembers} m where m.board_id = n.board_id and m.user_id = n.user_id)
  or (not b.secret and n.kind <> 'board_invite'))`;

/** After a board became secret, or someone left it: the rows about it its recipients may no longer see. */
export async function forgetUnseenBoardRows(tx: AppDb, boardId: string): Promise<void> {
  await tx.execute(sql`
    delete from ${notifications} n using ${boards} b
    where n.board_id = ${boardId} and b.id = n.board_id and not ${boardStillSeen}`);
}

/**
 * A block: nothing either was told of the other stays, by them or about a board of theirs (the
 * block ended any membership of one in the other's boards: a secret board's rows would stay
 * unseen, yet counted by the bell, for good).
 */
export async function forgetBetween(tx: AppDb, a: string, b: string): Promise<void> {
  const ofOther = (recipient: string, other: string) => sql`(n.user_id = ${recipient} and (n.actor_id = ${other}
    or exists (select 1 from ${boards} b where b.id = n.board_id and b.owner_id = ${other})))`;
  await tx.execute(sql`delete from ${notifications} n where ${ofOther(a, b)} or ${ofOther(b, a)}`);
}

export interface GroupRow {
  groupKey: string;
  kind: ActivityKind;
  latest: string;
  count: number;
  unread: boolean;
  actorIds: string[] | null;
  postId: string | null;
  boardId: string | null;
  detail: string | null;
  until: Date | string | null;
}

/**
 * One day's groups for one recipient, newest first, after `after` (a group's latest time and
 * key) when given: only rows the viewer may see (actors and boards through the visibility rule).
 */
export async function groupsOfDay(
  db: AppDb,
  options: { userId: string; day: string; seen: SeenBy; after: { latest: string; key: string } | undefined; limit: number },
): Promise<GroupRow[]> {
  const visibleActor = amongVisible(options.seen, sql`n.actor_id`);
  const visibleOwner = amongVisible(options.seen, sql`b.owner_id`);
  const after = options.after
    ? sql`having (max(n.created_at), n.group_key) < (${options.after.latest}::timestamptz, ${options.after.key})`
    : sql``;
  const rows = await rowsOf<GroupRow>(
    db,
    sql`
    select n.group_key as "groupKey", min(n.kind) as kind, max(n.created_at)::text as latest,
      count(distinct coalesce(n.actor_id, n.id))::int as count, bool_or(not n.read) as unread,
      (array_agg(n.actor_id order by n.created_at desc) filter (where n.actor_id is not null))[1:12] as "actorIds",
      min(n.post_id) as "postId", min(n.board_id) as "boardId", min(n.detail) as detail, max(n.until) as until
    from ${notifications} n
    where n.user_id = ${options.userId} and n.day = ${options.day}::date
      ${visibleActor ? sql`and (n.actor_id is null or ${visibleActor})` : sql``}
      and (n.board_id is null or exists (select 1 from ${boards} b where b.id = n.board_id
        and ${boardStillSeen} ${visibleOwner ? sql`and ${visibleOwner}` : sql``}))
    group by n.group_key
    ${after}
    order by max(n.created_at) desc, n.group_key desc
    limit ${options.limit}`,
  );
  return rows;
}

/** The newest day with rows for the user, before `before` when given. */
export async function dayBefore(db: AppDb, userId: string, before: string | undefined): Promise<string | undefined> {
  const rows = await rowsOf<{ day: string | null }>(
    db,
    sql`
    select max(day)::text as day from ${notifications}
    where user_id = ${userId} ${before ? sql`and day < ${before}::date` : sql``}`,
  );
  return rows[0]?.day ?? undefined;
}

export async function actorsByIds(db: AppDb, ids: string[]) {
  if (ids.length === 0) return [];
  const rows = await rowsOf<{ id: string; username: string; iconKey: string | null }>(
    db,
    sql`
    select id, username, icon_key as "iconKey" from ${users} where id = any(${textArray(ids)})`,
  );
  return rows;
}

export async function postsByIds(db: AppDb, ids: string[]) {
  if (ids.length === 0) return [];
  const rows = await rowsOf<{ id: string; userId: string; imageKey: string; width: number; height: number; placeholder: string }>(
    db,
    sql`
    select id, user_id as "userId", image_key as "imageKey", width, height, placeholder from ${posts} where id = any(${textArray(ids)})`,
  );
  return rows;
}

export async function boardsFor(db: AppDb, viewerId: string, ids: string[]) {
  if (ids.length === 0) return [];
  const rows = await rowsOf<{
    id: string;
    name: string;
    slug: string;
    owner: string;
    secret: boolean;
    membership: 'invited' | 'joined' | null;
  }>(
    db,
    sql`
    select b.id, b.name, b.slug, u.username as owner, b.secret,
      (select case when m.joined_at is null then 'invited' else 'joined' end from ${boardMembers} m
        where m.board_id = b.id and m.user_id = ${viewerId}) as membership
    from ${boards} b join ${users} u on u.id = b.owner_id
    where b.id = any(${textArray(ids)})`,
  );
  return rows;
}

/** Marks one group (by day and key), or everything, as read. */
export async function markRead(db: AppDb, userId: string, group: { day: string; key: string } | undefined): Promise<void> {
  const which = group ? sql`and day = ${group.day}::date and group_key = ${group.key}` : sql``;
  await db.execute(sql`update ${notifications} set read = true where user_id = ${userId} and not read ${which}`);
}

/**
 * The bell's count: the counter the triggers keep, less the unread rows the list leaves out now:
 * of actors hidden from the viewer (a suspension; blocks delete rows), or about a board whose
 * owner is, found through the partial index of the viewer's unread rows.
 */
export async function unreadCount(db: AppDb, userId: string, hiddenIds: string[]): Promise<number> {
  const hidden = textArray(hiddenIds);
  const hiddenUnread =
    hiddenIds.length > 0
      ? // Two probes rather than one OR, which would read every unread row of the viewer (measured: 103 buffers, not 12).
        sql`(select count(*) from ${notifications} n where n.user_id = ${userId} and not n.read and n.actor_id = any(${hidden}))
          + (select count(*) from ${boards} b join ${notifications} n on n.board_id = b.id
              where b.owner_id = any(${hidden}) and n.user_id = ${userId} and not n.read
                and (n.actor_id is null or n.actor_id <> all(${hidden})))`
      : sql`0`;
  const rows = await rowsOf<{ unread: number }>(
    db,
    sql`
    select greatest(0, unread_notifications - (${hiddenUnread}))::int as unread from ${users} where id = ${userId}`,
  );
  return rows[0]?.unread ?? 0;
}

/** Retention: deletes up to `batch` rows older than `days`; returns how many went. */
export async function deleteOlderThan(db: AppDb, days: number, batch: number): Promise<number> {
  const rows = await rowsOf<{ id: string }>(
    db,
    sql`
    delete from ${notifications} where id in (
      select id from ${notifications} where created_at < now() - make_interval(days => ${days}) limit ${batch})
    returning id`,
  );
  return rows.length;
}
