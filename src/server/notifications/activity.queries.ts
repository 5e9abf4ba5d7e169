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
 * board clause): it is not secret, or they own it or are invited to or joined it (the cheap arms
 * first: most rows are saves to public boards). An invitation holds only while the invitation (or
 * the membership it became) does.
 */
const boardStillSeen: SQL = sql`(
  (not b.secret and n.kind <> 'board_invite')
  or b.owner_id = n.user_id
  or exists (select 1 from ${boardMembers} m where m.board_id = n.board_id and m.user_id = n.user_id))`;

/** After a board became secret, or someone left it: the rows about it its recipients may no longer see; whose they were. */
export async function forgetUnseenBoardRows(tx: AppDb, boardId: string): Promise<string[]> {
  const rows = await rowsOf<{ userId: string }>(
    tx,
    sql`
    delete from ${notifications} n using ${boards} b
    where n.board_id = ${boardId} and b.id = n.board_id and not ${boardStillSeen}
    returning n.user_id as "userId"`,
  );
  return [...new Set(rows.map((row) => row.userId))];
}

/** Who has rows about a board (they go with it when it is deleted). */
export async function recipientsAbout(tx: AppDb, boardId: string): Promise<string[]> {
  const rows = await rowsOf<{ userId: string }>(
    tx,
    sql`select distinct user_id as "userId" from ${notifications} where board_id = ${boardId}`,
  );
  return rows.map((row) => row.userId);
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

/** One group of a page, with what it names (its first actors, its post, its board) read with it. */
export interface PageRow {
  day: string;
  groupKey: string;
  kind: ActivityKind;
  latest: string;
  count: number;
  unread: boolean;
  /** The first three distinct actors, newest first. */
  actors: Array<{ id: string; username: string; iconKey: string | null }> | null;
  post: { id: string; userId: string; imageKey: string; width: number; height: number; placeholder: string } | null;
  board: { id: string; name: string; slug: string; owner: string; secret: boolean; membership: 'invited' | 'joined' | null } | null;
  detail: string | null;
  until: Date | string | null;
}

/**
 * A page of one recipient's groups (per key and UTC day), newest first, from `from` (a day, and
 * the last group shown of it) or the newest day: the days one after another, at most `days`,
 * until `limit` groups are found. Only rows the viewer may see (actors and boards through the
 * visibility rule). One statement: the days come from the index one at a time (a recursive
 * probe), each day's groups are made only while the page still needs them (a lateral join under
 * the limit), and the actors, post and board of each are read with them. `nextDay`: the day
 * after the last one looked through, when more days are left.
 */
export async function activityPage(
  db: AppDb,
  options: {
    userId: string;
    seen: SeenBy;
    from: { day: string; after: { latest: string; key: string } | undefined } | undefined;
    days: number;
    limit: number;
  },
): Promise<{ rows: PageRow[]; nextDay: string | undefined }> {
  const { userId, seen, from } = options;
  const visibleActor = amongVisible(seen, sql`n.actor_id`);
  const visibleOwner = amongVisible(seen, sql`b.owner_id`);
  const newestDay = sql`(select max(day) from ${notifications} where user_id = ${userId})`;
  const after = from?.after
    ? sql`having (d.n > 1 or (max(n.created_at), n.group_key) < (${from.after.latest}::timestamptz, ${from.after.key}))`
    : sql``;
  const rows = await rowsOf<PageRow & { n: number | null; rank: number; nextDay: string | null }>(
    db,
    sql`
    with recursive days (day, n) as (
      select ${from ? sql`${from.day}::date` : newestDay}, 1
      union all
      select (select max(x.day) from ${notifications} x where x.user_id = ${userId} and x.day < days.day), days.n + 1
      from days where days.day is not null and days.n <= ${options.days}
    ),
    page as materialized (
      select d.day, d.n, g.* from days d cross join lateral (
        select n.group_key, min(n.kind) as kind, max(n.created_at) as latest,
          count(distinct coalesce(n.actor_id, n.id))::int as count, bool_or(not n.read) as unread,
          (array_agg(n.actor_id order by n.created_at desc) filter (where n.actor_id is not null))[1:12] as actor_ids,
          min(n.post_id) as post_id, min(n.board_id) as board_id, min(n.detail) as detail, max(n.until) as until,
          row_number() over (order by max(n.created_at) desc, n.group_key desc) as rank
        from ${notifications} n
        where n.user_id = ${userId} and n.day = d.day
          ${visibleActor ? sql`and (n.actor_id is null or ${visibleActor})` : sql``}
          and (n.board_id is null or exists (select 1 from ${boards} b where b.id = n.board_id
            and ${boardStillSeen} ${visibleOwner ? sql`and ${visibleOwner}` : sql``}))
        group by n.group_key
        ${after}
        order by max(n.created_at) desc, n.group_key desc
        limit ${options.limit}
      ) g
      where d.day is not null and d.n <= ${options.days}
      limit ${options.limit}
    )
    select (select day::text from days where n = ${options.days + 1}) as "nextDay",
      page.n, page.rank, page.day::text as day, page.group_key as "groupKey", page.kind, page.latest::text as latest,
      page.count, page.unread, page.detail, page.until,
      (select json_agg(json_build_object('id', u.id, 'username', u.username, 'iconKey', u.icon_key) order by t.o)
        from (select id, min(o) as o from unnest(page.actor_ids) with ordinality as a (id, o) group by id order by 2 limit 3) t
        join ${users} u on u.id = t.id) as actors,
      (select json_build_object('id', p.id, 'userId', p.user_id, 'imageKey', p.image_key, 'width', p.width,
          'height', p.height, 'placeholder', p.placeholder)
        from ${posts} p where p.id = page.post_id) as post,
      (select json_build_object('id', b.id, 'name', b.name, 'slug', b.slug, 'owner', o.username, 'secret', b.secret,
          'membership', (select case when m.joined_at is null then 'invited' else 'joined' end
            from ${boardMembers} m where m.board_id = b.id and m.user_id = ${userId}))
        from ${boards} b join ${users} o on o.id = b.owner_id where b.id = page.board_id) as board
    from (select 1) as one left join page on true`,
  );
  const nextDay = rows[0]?.nextDay ?? undefined;
  const groups = rows.filter((row) => row.n !== null).sort((a, b) => a.n! - b.n! || Number(a.rank) - Number(b.rank));
  return { rows: groups, nextDay };
}

/** An invitation answered by joining: its row is read (whenever it came); whether it was unread. */
export async function readInvitation(tx: AppDb, userId: string, boardId: string): Promise<boolean> {
  const rows = await rowsOf<{ one: number }>(
    tx,
    sql`
    with marked as (update ${notifications} set read = true
      where user_id = ${userId} and board_id = ${boardId} and kind = 'board_invite' and not read returning 1)
    select 1 as one from marked limit 1`,
  );
  return rows.length > 0;
}

/** Marks one group (by day and key), or everything, as read; whether any row was unread. */
export async function markRead(db: AppDb, userId: string, group: { day: string; key: string } | undefined): Promise<boolean> {
  const which = group ? sql`and day = ${group.day}::date and group_key = ${group.key}` : sql``;
  const rows = await rowsOf<{ one: number }>(
    db,
    sql`
    with marked as (update ${notifications} set read = true where user_id = ${userId} and not read ${which} returning 1)
    select 1 as one from marked limit 1`,
  );
  return rows.length > 0;
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
