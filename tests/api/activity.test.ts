import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { deleteOlderThan } from '../../src/server/notifications/activity.queries.js';
import { activityText } from '../../src/shared/activity-copy.js';
import {
  activityApi,
  ActivityPage,
  NotificationTopic,
  type ActivityGroup,
  type ActivityKind,
  type NotificationSettings,
} from '../../src/shared/api/activity.js';
import { API } from '../../src/shared/api/paths.js';
import { ACTIVITY_PAGE_SIZE } from '../../src/shared/limits.js';
import { deleteOwnAccount, newAccount, sessionCookie, signUp } from '../helpers/accounts.js';
import { boardRoutes, boardSteps, insertPostsBy } from '../helpers/boards.js';
import { jpeg } from '../helpers/images.js';
import { expectError, follow, insertUsers, patchMe, query, unfollow } from '../helpers/people.js';
import { createPost } from '../helpers/posts.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Notifications (issue 30) through the API, on a real database: every kind is written by the
 * event that causes it and reads back grouped per target and UTC day with its sentence
 * (shared/activity-copy.ts); the repeat of a follow is not told twice; the visibility rule
 * (blocks, suspensions, deleted accounts, secret boards) holds for the list and the bell alike;
 * the bell's counter (kept by triggers) always equals the unread rows; pages of 20 groups neither
 * repeat nor skip; the switches of Settings → Notifications; moderators' notices; retention.
 * Push devices and sending: tests/api/push.test.ts.
 */

type Account = Awaited<ReturnType<typeof signUp>>;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const ACTIVITY = activityApi.activity.path;
const UNREAD = activityApi.unreadCount.path;
const READ = activityApi.markRead.path;
const SETTINGS = activityApi.notificationSettings.path;

const person = (prefix = 'act') => signUp(t.app, newAccount(prefix));

async function staff(role: 'moderator' | 'admin', prefix = 'mod'): Promise<Account> {
  const made = await person(prefix);
  await query(t.database, 'UPDATE users SET role = $1 WHERE id = $2', [role, made.uid]);
  return made;
}

const listOf = (who: Account, cursor?: string) =>
  t.app.inject({
    method: 'GET',
    url: cursor === undefined ? ACTIVITY : `${ACTIVITY}?cursor=${encodeURIComponent(cursor)}`,
    headers: { cookie: who.cookie },
  });

/** One page of the viewer's activity, checked against the contract's schema. */
async function activityPage(who: Account, cursor?: string): Promise<ActivityPage> {
  const response = await listOf(who, cursor);
  expect(response.statusCode, response.body).toBe(200);
  return ActivityPage.parse(response.json());
}

/** The first page's groups. */
const activityOf = async (who: Account) => (await activityPage(who)).groups;

/** Every page, in order: the groups and each page's size. */
async function everyPage(who: Account): Promise<{ groups: ActivityGroup[]; sizes: number[] }> {
  const groups: ActivityGroup[] = [];
  const sizes: number[] = [];
  let cursor: string | undefined;
  do {
    const page = await activityPage(who, cursor);
    groups.push(...page.groups);
    sizes.push(page.groups.length);
    cursor = page.nextCursor ?? undefined;
    expect(sizes.length, 'pages never end').toBeLessThan(50);
  } while (cursor !== undefined);
  return { groups, sizes };
}

async function unreadOf(who: Account): Promise<number> {
  const response = await t.app.inject({ method: 'GET', url: UNREAD, headers: { cookie: who.cookie } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ unread: number }>().unread;
}

/** Any JSON body, as JSON (a bare string too). */
const json = (body: unknown) => ({ payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

const markRead = (who: Account, body: unknown) => {
  const { payload, headers } = json(body);
  return t.app.inject({ method: 'POST', url: READ, payload, headers: { ...headers, cookie: who.cookie } });
};

async function markReadOk(who: Account, body: { group?: string }): Promise<number> {
  const response = await markRead(who, body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ unread: number }>().unread;
}

const texts = (groups: ActivityGroup[]) => groups.map((group) => activityText(group));

interface StoredRow {
  kind: string;
  actor_id: string | null;
  post_id: string | null;
  board_id: string | null;
  group_key: string;
  day: string;
  detail: string | null;
  until: string | Date | null;
  read: boolean;
}

/** The user's notification rows as stored, oldest first. */
const storedRows = (uid: string) =>
  query<StoredRow>(
    t.database,
    `SELECT kind, actor_id, post_id, board_id, group_key, day::text AS day, detail, until, read
     FROM notifications WHERE user_id = $1 ORDER BY created_at, id`,
    [uid],
  );

/** The bell's counter (kept by the triggers) and the unread rows it counts. */
async function counterOf(uid: string): Promise<{ counter: number; unreadRows: number }> {
  const [row] = await query<{ counter: number; unread_rows: number }>(
    t.database,
    `SELECT unread_notifications AS counter,
       (SELECT count(*)::int FROM notifications WHERE user_id = $1 AND NOT read) AS unread_rows
     FROM users WHERE id = $1`,
    [uid],
  );
  return { counter: row!.counter, unreadRows: row!.unread_rows };
}

/** The counter equals the unread rows; answers it. */
async function counterHolds(uid: string): Promise<number> {
  const { counter, unreadRows } = await counterOf(uid);
  expect(counter, 'users.unread_notifications').toBe(unreadRows);
  return counter;
}

/**
 * Moves rows `days` back in time (created_at and its UTC day), as if written then. `actorIds`:
 * only the rows of these actors.
 */
async function backdate(uid: string, days: number, actorIds?: string[]) {
  await query(
    t.database,
    `UPDATE notifications
     SET created_at = created_at - make_interval(days => $2::int),
         day = ((created_at - make_interval(days => $2::int)) AT TIME ZONE 'UTC')::date
     WHERE user_id = $1 AND ($3::text[] IS NULL OR actor_id = ANY($3::text[]))`,
    [uid, days, actorIds ?? null],
  );
}

/**
 * Events of one test are written on the UTC day they happen: a test running across midnight
 * would see one group split in two. Puts the user's rows on the day of their newest (the day
 * only: their times, and so their order, stay).
 */
async function onOneDay(uid: string) {
  await query(t.database, 'UPDATE notifications SET day = (SELECT max(day) FROM notifications WHERE user_id = $1) WHERE user_id = $1', [
    uid,
  ]);
}

interface SeedRow {
  userId: string;
  kind: ActivityKind;
  actorId: string | null;
  groupKey: string;
  /** How long before now it was written; its day follows. */
  secondsAgo: number;
  postId?: string | null;
  boardId?: string | null;
  read?: boolean;
}

/** Notification rows straight into the table, in one statement (the triggers count them). */
async function insertNotifications(rows: SeedRow[]) {
  await query(
    t.database,
    `INSERT INTO notifications (id, user_id, kind, actor_id, post_id, board_id, group_key, day, created_at, read)
     SELECT gen_random_uuid()::text, u, k, a, p, b, g,
       ((now() - make_interval(secs => s)) AT TIME ZONE 'UTC')::date, now() - make_interval(secs => s), r
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::float8[], $8::boolean[])
       AS t(u, k, a, p, b, g, s, r)`,
    [
      rows.map((row) => row.userId),
      rows.map((row) => row.kind),
      rows.map((row) => row.actorId),
      rows.map((row) => row.postId ?? null),
      rows.map((row) => row.boardId ?? null),
      rows.map((row) => row.groupKey),
      rows.map((row) => row.secondsAgo),
      rows.map((row) => row.read ?? false),
    ],
  );
}

/** The user's group ids as the page must order them: newest day first, then newest group, then key. */
async function groupIdsInOrder(uid: string): Promise<string[]> {
  const rows = await query<{ id: string }>(
    t.database,
    `SELECT day::text || '.' || group_key AS id FROM notifications WHERE user_id = $1
     GROUP BY day, group_key ORDER BY day DESC, max(created_at) DESC, group_key DESC`,
    [uid],
  );
  return rows.map((row) => row.id);
}

const actorOf = (who: { username: string }) => ({ username: who.username, icon: null });

/** A group as the API answers it: nothing about a post, board, invitation or moderator unless given. */
function groupLike(fields: Partial<ActivityGroup> & Pick<ActivityGroup, 'kind'>) {
  return {
    id: expect.any(String),
    actors: [],
    count: 1,
    unread: true,
    at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    post: null,
    board: null,
    invite: null,
    reason: null,
    until: null,
    outcome: null,
    ...fields,
  };
}

async function followOk(who: Account, whom: Account) {
  const response = await follow(t.app, whom.username, who.cookie);
  expect(response.statusCode, response.body).toBe(200);
}

async function unfollowOk(who: Account, whom: Account) {
  const response = await unfollow(t.app, whom.username, who.cookie);
  expect(response.statusCode, response.body).toBe(200);
}

async function block(blocker: Account, blocked: Account) {
  const response = await t.app.inject({ method: 'PUT', url: API.block(blocked.username), headers: { cookie: blocker.cookie } });
  expect(response.statusCode, response.body).toBe(200);
}

async function unblock(blocker: Account, blocked: Account) {
  const response = await t.app.inject({ method: 'DELETE', url: API.block(blocked.username), headers: { cookie: blocker.cookie } });
  expect(response.statusCode, response.body).toBe(200);
}

/** Sets (or ends: null) a suspension behind the app's back, and tells the caches as the moderation service would. */
async function suspendInSql(who: Account, until: Date | null) {
  await query(t.database, 'UPDATE users SET suspended_until = $1 WHERE id = $2', [until?.toISOString() ?? null, who.uid]);
  await t.app.changes.changed({ kind: 'suspension', userId: who.uid, username: who.username });
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** A post of the author's, as a row (no files: nothing here reads them). */
async function postBy(author: Account): Promise<string> {
  const [id] = await insertPostsBy(t.database, author.uid, 1);
  return id!;
}

const boardOf = (board: { id: string; name: string; slug: string; secret: boolean }, owner: Account) => ({
  id: board.id,
  name: board.name,
  slug: board.slug,
  owner: owner.username,
  secret: board.secret,
});

describe('every kind is written by its event and reads back with its fields and sentence', () => {
  it('follow: one follower, two, then four (newest first, three named at most)', async () => {
    const [target, maya, priya, third, fourth] = [
      await person('tgt'),
      await person('maya'),
      await person('priya'),
      await person(),
      await person(),
    ];
    await followOk(maya, target);
    expect(await activityOf(target)).toEqual([groupLike({ kind: 'follow', actors: [actorOf(maya)] })]);
    expect(texts(await activityOf(target))).toEqual([`${maya.username} followed you`]);

    await followOk(priya, target);
    await onOneDay(target.uid);
    expect(texts(await activityOf(target))).toEqual([`${priya.username} and ${maya.username} followed you`]);

    await followOk(third, target);
    await followOk(fourth, target);
    await onOneDay(target.uid);
    const [day] = (await storedRows(target.uid)).map((row) => row.day);
    expect(await activityOf(target)).toEqual([
      groupLike({ id: `${day}.follow`, kind: 'follow', actors: [fourth, third, priya].map(actorOf), count: 4 }),
    ]);
    expect(texts(await activityOf(target))).toEqual([`${fourth.username} and 3 others followed you`]);
    expect(await unreadOf(target)).toBe(4);
    expect(await counterHolds(target.uid)).toBe(4);
    // Nobody else was told anything.
    for (const follower of [maya, priya, third, fourth]) expect(await storedRows(follower.uid)).toEqual([]);
  });

  it("save: the post's author is told who saved it to which board, with the post's thumbnail", async () => {
    const [author, owner] = [await person('auth'), await person('own')];
    const postId = await postBy(author);
    const board = await boardSteps(t.app).create(owner, { name: 'Dorm Ideas' });
    await boardSteps(t.app).save(owner, board.id, postId);
    const groups = await activityOf(author);
    expect(groups).toEqual([
      groupLike({
        id: expect.stringMatching(new RegExp(`^\\d{4}-\\d{2}-\\d{2}\\.save:${postId}$`)),
        kind: 'save',
        actors: [actorOf(owner)],
        post: { id: postId, thumbnail: expect.stringMatching(/^\/media\//) },
        board: boardOf(board, owner),
      }),
    ]);
    expect(texts(groups)).toEqual([`${owner.username} saved your post to Dorm Ideas`]);
    expect(await storedRows(author.uid)).toEqual([
      expect.objectContaining({ kind: 'save', actor_id: owner.uid, post_id: postId, board_id: board.id }),
    ]);
    // The saver is not told of their own save; saving your own post tells nobody.
    expect(await storedRows(owner.uid)).toEqual([]);
    const own = await postBy(owner);
    await boardSteps(t.app).save(owner, board.id, own);
    expect(await storedRows(owner.uid)).toEqual([]);
  });

  it("board_invite: the invitee is told, 'pending' until they join ('joined'); the owner is told of the join", async () => {
    const [owner, invitee] = [await person('own'), await person('inv')];
    const steps = boardSteps(t.app);
    const board = await steps.create(owner, { name: 'Kitchen' });
    await steps.invite(owner, board.id, invitee.username);
    expect(await activityOf(invitee)).toEqual([
      groupLike({
        id: expect.stringMatching(new RegExp(`\\.board_invite:${board.id}$`)),
        kind: 'board_invite',
        actors: [actorOf(owner)],
        board: boardOf(board, owner),
        invite: 'pending',
      }),
    ]);
    expect(texts(await activityOf(invitee))).toEqual([`${owner.username} invited you to Kitchen`]);
    expect(await storedRows(owner.uid)).toEqual([]);

    expect(await unreadOf(invitee)).toBe(1);
    // Joined from the board's page (not the row): the invitation is read all the same.
    await steps.join(invitee, board.id);
    expect(await activityOf(invitee)).toEqual([expect.objectContaining({ kind: 'board_invite', invite: 'joined', unread: false })]);
    expect(await unreadOf(invitee)).toBe(0);
    expect(await counterHolds(invitee.uid)).toBe(0);
    const ownerGroups = await activityOf(owner);
    expect(ownerGroups).toEqual([groupLike({ kind: 'board_joined', actors: [actorOf(invitee)], board: boardOf(board, owner) })]);
    expect(texts(ownerGroups)).toEqual([`${invitee.username} joined Kitchen`]);
    // Inviting a member again writes nothing.
    await steps.invite(owner, board.id, invitee.username);
    expect(await storedRows(invitee.uid)).toHaveLength(1);
  });

  it("board_left: a collaborator who leaves is told to the owner; their own invitation's row goes", async () => {
    const [owner, member] = [await person('own'), await person('mem')];
    const steps = boardSteps(t.app);
    const board = await steps.create(owner, { name: 'Study Nook' });
    await steps.addMember(owner, board.id, member);
    const left = await boardRoutes(t.app).removeMember(member.cookie, board.id, member.username);
    expect(left.statusCode, left.body).toBe(200);
    await onOneDay(owner.uid);
    const groups = await activityOf(owner);
    expect(groups.map((group) => group.kind)).toEqual(['board_left', 'board_joined']);
    expect(groups[0]).toEqual(groupLike({ kind: 'board_left', actors: [actorOf(member)], board: boardOf(board, owner) }));
    expect(texts(groups)).toEqual([`${member.username} left Study Nook`, `${member.username} joined Study Nook`]);
    // No longer a member: the invitation is no longer theirs to see.
    expect(await activityOf(member)).toEqual([]);
    expect(await unreadOf(member)).toBe(0);
    expect(await counterHolds(member.uid)).toBe(0);
  });

  it('board_declined: an invitee who removes themself is told to the owner as a decline', async () => {
    const [owner, invitee] = [await person('own'), await person('inv')];
    const steps = boardSteps(t.app);
    const board = await steps.create(owner, { name: 'Laundry Hacks' });
    await steps.invite(owner, board.id, invitee.username);
    const declined = await boardRoutes(t.app).removeMember(invitee.cookie, board.id, invitee.username);
    expect(declined.statusCode, declined.body).toBe(200);
    const groups = await activityOf(owner);
    expect(groups).toEqual([groupLike({ kind: 'board_declined', actors: [actorOf(invitee)], board: boardOf(board, owner) })]);
    expect(texts(groups)).toEqual([`${invitee.username} declined your invitation to Laundry Hacks`]);
    expect(await activityOf(invitee)).toEqual([]);
    expect(await counterHolds(invitee.uid)).toBe(0);
  });

  it("a revoked invitation (the owner removes the invitee) leaves the invitee's list and count; the owner is told nothing", async () => {
    const [owner, invitee] = [await person('own'), await person('inv')];
    const steps = boardSteps(t.app);
    const board = await steps.create(owner, { name: 'Revoked' });
    await steps.invite(owner, board.id, invitee.username);
    expect(await unreadOf(invitee)).toBe(1);
    const removed = await boardRoutes(t.app).removeMember(owner.cookie, board.id, invitee.username);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await activityOf(invitee)).toEqual([]);
    expect(await unreadOf(invitee)).toBe(0);
    expect(await storedRows(invitee.uid)).toEqual([]);
    expect(await counterHolds(invitee.uid)).toBe(0);
    expect(await storedRows(owner.uid)).toEqual([]);
  });

  it('a joined collaborator removed by the owner loses the rows of a secret board; of a public one, the invitation', async () => {
    const [owner, member, saver] = [await person('own'), await person('mem'), await person('sav')];
    const steps = boardSteps(t.app);
    const secret = await steps.create(owner, { name: 'Hidden', secret: true });
    await steps.addMember(owner, secret.id, member);
    await steps.addMember(owner, secret.id, saver);
    // A collaborator saves the member's post to the secret board: the member sees the board, and is told.
    await steps.save(saver, secret.id, await postBy(member));
    expect((await activityOf(member)).map((group) => group.kind).sort()).toEqual(['board_invite', 'save']);
    const removed = await boardRoutes(t.app).removeMember(owner.cookie, secret.id, member.username);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await activityOf(member)).toEqual([]);
    expect(await storedRows(member.uid)).toEqual([]);
    expect(await unreadOf(member)).toBe(0);
    expect(await counterHolds(member.uid)).toBe(0);
  });
});

describe('grouping: per target and UTC day', () => {
  it('saves of one post by several people are one group: "X and N others saved your post"', async () => {
    const author = await person('auth');
    const postId = await postBy(author);
    const savers = [await person('s'), await person('s'), await person('s')];
    const steps = boardSteps(t.app);
    for (const saver of savers) {
      const board = await steps.create(saver, { name: `Board of ${saver.username}` });
      await steps.save(saver, board.id, postId);
    }
    // Another post's save is another group.
    const other = await postBy(author);
    const board = await steps.create(savers[0]!, { name: 'Second' });
    await steps.save(savers[0]!, board.id, other);
    await onOneDay(author.uid);
    const groups = await activityOf(author);
    expect(groups.map((group) => [group.kind, group.post?.id, group.count])).toEqual([
      ['save', other, 1],
      ['save', postId, 3],
    ]);
    expect(groups[1]!.actors).toEqual([savers[2]!, savers[1]!, savers[0]!].map(actorOf));
    expect(texts(groups)).toEqual([
      `${savers[0]!.username} saved your post to Second`,
      `${savers[2]!.username} and 2 others saved your post`,
    ]);
    expect(await unreadOf(author)).toBe(4);
  });

  it('the same person saving one post to two boards counts once (told once; two rows would count once too)', async () => {
    const [author, saver] = [await person('auth'), await person('sav')];
    const postId = await postBy(author);
    const steps = boardSteps(t.app);
    const first = await steps.create(saver, { name: 'First' });
    const second = await steps.create(saver, { name: 'Second' });
    await steps.save(saver, first.id, postId);
    await steps.save(saver, second.id, postId);
    expect(await storedRows(author.uid)).toHaveLength(1);
    expect(texts(await activityOf(author))).toEqual([`${saver.username} saved your post to First`]);
    // Even two rows of one saver (written before the repeat rule, say) are one person in the group.
    await insertNotifications([
      { userId: author.uid, kind: 'save', actorId: saver.uid, groupKey: `save:${postId}`, secondsAgo: 0, postId, boardId: second.id },
    ]);
    await onOneDay(author.uid);
    const groups = await activityOf(author);
    expect(groups).toEqual([expect.objectContaining({ kind: 'save', count: 1, actors: [actorOf(saver)] })]);
    expect(activityText(groups[0]!)).toMatch(new RegExp(`^${saver.username} saved your post to (First|Second)$`));
  });

  it('rows of different UTC days are different groups, the newer day first, each with its own id', async () => {
    const [target, today, earlier, older] = [await person('tgt'), await person(), await person(), await person()];
    await followOk(older, target);
    await followOk(earlier, target);
    await backdate(target.uid, 1, [older.uid, earlier.uid]);
    await followOk(today, target);
    const groups = await activityOf(target);
    const days = [...new Set((await storedRows(target.uid)).map((row) => row.day))].sort().reverse();
    expect(days).toHaveLength(2);
    expect(groups).toEqual([
      groupLike({ id: `${days[0]}.follow`, kind: 'follow', actors: [actorOf(today)] }),
      groupLike({ id: `${days[1]}.follow`, kind: 'follow', actors: [earlier, older].map(actorOf), count: 2 }),
    ]);
    expect(texts(groups)).toEqual([`${today.username} followed you`, `${earlier.username} and ${older.username} followed you`]);
    expect(new Date(groups[0]!.at).getTime()).toBeGreaterThan(new Date(groups[1]!.at).getTime());
  });
});

describe('a repeated follow is told once', () => {
  it('follow, unfollow, follow again within a day: one row; after the day, a new follow is told again', async () => {
    const [target, fickle] = [await person('tgt'), await person('fic')];
    await followOk(fickle, target);
    await unfollowOk(fickle, target);
    await followOk(fickle, target);
    await unfollowOk(fickle, target);
    await followOk(fickle, target);
    expect(await storedRows(target.uid)).toHaveLength(1);
    expect(await activityOf(target)).toEqual([groupLike({ kind: 'follow', actors: [actorOf(fickle)] })]);
    expect(await unreadOf(target)).toBe(1);

    // A day and more later, the same follow is news again.
    await backdate(target.uid, 2);
    await unfollowOk(fickle, target);
    await followOk(fickle, target);
    const rows = await storedRows(target.uid);
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((row) => row.day)).size).toBe(2);
    expect((await activityOf(target)).map((group) => [group.kind, group.count])).toEqual([
      ['follow', 1],
      ['follow', 1],
    ]);
    expect(await unreadOf(target)).toBe(2);
    expect(await counterHolds(target.uid)).toBe(2);
  });

  it("following again is not made news by someone else's row: another follower's repeat window is their own", async () => {
    const [target, first, second] = [await person('tgt'), await person(), await person()];
    await followOk(first, target);
    await followOk(second, target);
    await unfollowOk(second, target);
    await followOk(second, target);
    expect((await storedRows(target.uid)).map((row) => row.actor_id)).toEqual([first.uid, second.uid]);
  });
});

describe('the visibility rule: the list and the bell', () => {
  it('a block, either way, deletes what either was told of the other; the count drops, and an unblock brings nothing back', async () => {
    const [target, blocked, blocker, bystander] = [await person('tgt'), await person('bld'), await person('blr'), await person('by')];
    await followOk(blocked, target);
    await followOk(blocker, target);
    await followOk(bystander, target);
    // The other way too: the target follows them.
    await followOk(target, blocked);
    await followOk(target, blocker);
    await onOneDay(target.uid);
    expect(await unreadOf(target)).toBe(3);

    await block(target, blocked);
    expect((await activityOf(target))[0]!.actors).toEqual([bystander, blocker].map(actorOf));
    expect(await storedRows(blocked.uid)).toEqual([]);
    expect(await unreadOf(target)).toBe(2);

    await block(blocker, target);
    expect(await activityOf(target)).toEqual([groupLike({ id: expect.any(String), kind: 'follow', actors: [actorOf(bystander)] })]);
    expect(await storedRows(blocker.uid)).toEqual([]);
    expect(await unreadOf(target)).toBe(1);
    expect((await storedRows(target.uid)).map((row) => row.actor_id)).toEqual([bystander.uid]);
    expect(await counterHolds(target.uid)).toBe(1);

    await unblock(target, blocked);
    expect(await unreadOf(target)).toBe(1);
    expect(await storedRows(target.uid)).toHaveLength(1);
  });

  it('an actor suspended is left out of the list and the bell, and is back when the suspension ends', async () => {
    const [target, suspended, other] = [await person('tgt'), await person('sus'), await person('oth')];
    await followOk(suspended, target);
    await followOk(other, target);
    const postId = await postBy(target);
    const board = await boardSteps(t.app).create(suspended, { name: 'Suspended board' });
    await boardSteps(t.app).save(suspended, board.id, postId);
    await onOneDay(target.uid);
    expect(await unreadOf(target)).toBe(3);

    await suspendInSql(suspended, new Date(Date.now() + DAY_MS));
    expect(await activityOf(target)).toEqual([groupLike({ kind: 'follow', actors: [actorOf(other)] })]);
    expect(await unreadOf(target)).toBe(1);

    // It ended a moment ago.
    await suspendInSql(suspended, new Date(Date.now() - 60_000));
    const groups = await activityOf(target);
    expect(groups.map((group) => [group.kind, group.count])).toEqual([
      ['save', 1],
      ['follow', 2],
    ]);
    expect(groups[1]!.actors).toEqual([other, suspended].map(actorOf));
    expect(await unreadOf(target)).toBe(3);
    expect(await counterHolds(target.uid)).toBe(3);
  });

  it("a suspended actor's rows read while hidden are not subtracted twice", async () => {
    const [target, suspended, other] = [await person('tgt'), await person('sus'), await person('oth')];
    await followOk(suspended, target);
    await followOk(other, target);
    await suspendInSql(suspended, new Date(Date.now() + DAY_MS));
    expect(await markReadOk(target, {})).toBe(0);
    await followOk(await person(), target);
    expect(await unreadOf(target)).toBe(1);
    await suspendInSql(suspended, null);
    expect(await unreadOf(target)).toBe(1);
    expect(await counterHolds(target.uid)).toBe(1);
  });

  it('an actor who deletes their account disappears from the list and the count', async () => {
    const [target, leaving, staying] = [await person('tgt'), await person('gone'), await person('stay')];
    await followOk(leaving, target);
    await followOk(staying, target);
    await onOneDay(target.uid);
    expect(await unreadOf(target)).toBe(2);
    await deleteOwnAccount(t.app, leaving);
    expect(await activityOf(target)).toEqual([groupLike({ kind: 'follow', actors: [actorOf(staying)] })]);
    expect(await unreadOf(target)).toBe(1);
    expect(await counterHolds(target.uid)).toBe(1);
  });

  it('a save to a secret board the author is not a member of is never told', async () => {
    const [author, owner] = [await person('auth'), await person('own')];
    const postId = await postBy(author);
    const secret = await boardSteps(t.app).create(owner, { name: 'Secret stash', secret: true });
    await boardSteps(t.app).save(owner, secret.id, postId);
    expect(await storedRows(author.uid)).toEqual([]);
    expect(await activityOf(author)).toEqual([]);
    expect(await unreadOf(author)).toBe(0);
  });

  it('a save to a public board later made secret disappears for the author who is not a member', async () => {
    const [author, member, owner] = [await person('auth'), await person('mem'), await person('own')];
    const steps = boardSteps(t.app);
    const board = await steps.create(owner, { name: 'Soon secret' });
    await steps.addMember(owner, board.id, member);
    const outsiders = await postBy(author);
    const members = await postBy(member);
    await steps.save(owner, board.id, outsiders);
    await steps.save(owner, board.id, members);
    expect(await unreadOf(author)).toBe(1);
    expect(await steps.update(owner, board.id, { secret: true })).toMatchObject({ secret: true });
    expect(await activityOf(author)).toEqual([]);
    expect(await unreadOf(author)).toBe(0);
    expect(await storedRows(author.uid)).toEqual([]);
    expect(await counterHolds(author.uid)).toBe(0);
    // The member still sees the board: their save stays, now naming a secret board.
    const kept = (await activityOf(member)).find((group) => group.kind === 'save')!;
    expect(kept.board).toEqual(boardOf({ ...board, secret: true }, owner));
    expect(activityText(kept)).toBe(`${owner.username} saved your post to Soon secret`);
    expect(activityText(kept, 'unnamed')).toBe(`${owner.username} saved your post to a secret board`);
  });

  it("a collaborator's save to a secret board is told to the author who is a member of it", async () => {
    const [owner, author, collaborator] = [await person('own'), await person('auth'), await person('col')];
    const steps = boardSteps(t.app);
    const secret = await steps.create(owner, { name: 'Inner circle', secret: true });
    await steps.addMember(owner, secret.id, author);
    await steps.addMember(owner, secret.id, collaborator);
    const postId = await postBy(author);
    await steps.save(collaborator, secret.id, postId);
    const save = (await activityOf(author)).find((group) => group.kind === 'save');
    expect(save).toEqual(
      groupLike({
        id: expect.any(String),
        kind: 'save',
        actors: [actorOf(collaborator)],
        post: { id: postId, thumbnail: expect.any(String) },
        board: boardOf(secret, owner),
      }),
    );
    expect(activityText(save!)).toBe(`${collaborator.username} saved your post to Inner circle`);
    // And to the owner, whose board it is, of a post of theirs.
    const ownersPost = await postBy(owner);
    await steps.save(collaborator, secret.id, ownersPost);
    expect((await activityOf(owner)).filter((group) => group.kind === 'save').map((group) => group.post?.id)).toEqual([ownersPost]);
  });

  it('rows about a board whose owner is hidden from the recipient (suspended) leave the list and the bell alike', async () => {
    const [owner, author, collaborator] = [await person('own'), await person('auth'), await person('col')];
    const steps = boardSteps(t.app);
    const board = await steps.create(owner, { name: 'Owner hidden' });
    await steps.addMember(owner, board.id, collaborator);
    await steps.save(collaborator, board.id, await postBy(author));
    expect(await unreadOf(author)).toBe(1);
    await suspendInSql(owner, new Date(Date.now() + DAY_MS));
    expect(await activityOf(author)).toEqual([]);
    expect(await unreadOf(author)).toBe(0);
    await suspendInSql(owner, null);
    expect((await activityOf(author)).map((group) => group.kind)).toEqual(['save']);
    expect(await unreadOf(author)).toBe(1);
  });

  it("a block between a member and a board's owner takes the member's rows about that board (their membership went with it)", async () => {
    const [owner, author, collaborator] = [await person('own'), await person('auth'), await person('col')];
    const steps = boardSteps(t.app);
    const secret = await steps.create(owner, { name: 'Blocked out', secret: true });
    await steps.addMember(owner, secret.id, author);
    await steps.addMember(owner, secret.id, collaborator);
    await steps.save(collaborator, secret.id, await postBy(author));
    // The save, and the invitation (read once joined): two rows, one unread.
    expect(await storedRows(author.uid)).toHaveLength(2);
    expect(await unreadOf(author)).toBe(1);
    await block(author, owner);
    expect(await activityOf(author)).toEqual([]);
    expect(await unreadOf(author)).toBe(0);
    // Nothing comes back with the unblock: the author is no longer a member of the secret board.
    await unblock(author, owner);
    expect(await activityOf(author)).toEqual([]);
    expect(await unreadOf(author)).toBe(0);
    expect(await counterHolds(author.uid)).toBe(0);
  });

  it("a report's outcome keeps its row, but not the post of an author now hidden from the reporter", async () => {
    const [author, reporter, moderator] = [await person('auth'), await person('rep'), await staff('moderator')];
    const postId = await postBy(author);
    await reportOk(reporter, { postId, reason: 'spam' });
    await moderate(moderator, API.moderationDismiss, { postId });
    expect((await activityOf(reporter))[0]!.post?.id).toBe(postId);
    await block(author, reporter);
    expect(await activityOf(reporter)).toEqual([groupLike({ kind: 'report_handled', outcome: 'no_action' })]);
    await unblock(author, reporter);
    await suspendInSql(author, new Date(Date.now() + DAY_MS));
    expect(await activityOf(reporter)).toEqual([groupLike({ kind: 'report_handled', outcome: 'no_action' })]);
    await suspendInSql(author, null);
    expect((await activityOf(reporter))[0]!.post?.id).toBe(postId);
  });
});

describe('unread count and read state', () => {
  it('counts events; marking one group read drops its rows; {} marks everything; `unread` flags follow', async () => {
    const [target, a, b, c, saver] = [await person('tgt'), await person(), await person(), await person(), await person('sav')];
    for (const follower of [a, b, c]) await followOk(follower, target);
    const postId = await postBy(target);
    const board = await boardSteps(t.app).create(saver, { name: 'Reads' });
    await boardSteps(t.app).save(saver, board.id, postId);
    await onOneDay(target.uid);
    expect(await unreadOf(target)).toBe(4);
    const [save, follows] = await activityOf(target);
    expect([save!.kind, follows!.kind]).toEqual(['save', 'follow']);
    expect([save!.unread, follows!.unread]).toEqual([true, true]);

    expect(await markReadOk(target, { group: follows!.id })).toBe(1);
    expect(await unreadOf(target)).toBe(1);
    expect((await activityOf(target)).map((group) => [group.kind, group.unread])).toEqual([
      ['save', true],
      ['follow', false],
    ]);
    // Again: nothing more to read in it.
    expect(await markReadOk(target, { group: follows!.id })).toBe(1);
    expect(await counterHolds(target.uid)).toBe(1);

    // A new follower makes the group unread again, counting one.
    await followOk(await person(), target);
    await onOneDay(target.uid);
    const again = await activityOf(target);
    expect(again.map((group) => [group.kind, group.count, group.unread])).toEqual([
      ['follow', 4, true],
      ['save', 1, true],
    ]);
    expect(await unreadOf(target)).toBe(2);

    expect(await markReadOk(target, {})).toBe(0);
    expect(await unreadOf(target)).toBe(0);
    expect((await activityOf(target)).every((group) => !group.unread)).toBe(true);
    expect(await counterHolds(target.uid)).toBe(0);
  });

  it('the counter equals the unread rows after inserts, reads and deletes (an account deleted, a post deleted)', async () => {
    const [author, friend, leaving, saver] = [await person('auth'), await person('fr'), await person('gone'), await person('sav')];
    const photo = await jpeg(40, 30);
    const created = await createPost(t.app, author.cookie, { bytes: photo, description: 'Soon gone' });
    expect(created.statusCode, created.body).toBe(201);
    const doomed = created.json<{ post: { id: string } }>().post.id;
    const kept = await postBy(author);
    const steps = boardSteps(t.app);
    const saversBoard = await steps.create(saver, { name: 'Saver' });
    const leavingBoard = await steps.create(leaving, { name: 'Leaving' });
    await followOk(friend, author);
    await followOk(leaving, author);
    await steps.save(saver, saversBoard.id, doomed);
    await steps.save(leaving, leavingBoard.id, doomed);
    await steps.save(saver, saversBoard.id, kept);
    expect(await counterHolds(author.uid)).toBe(5);

    await onOneDay(author.uid);
    const follows = (await activityOf(author)).find((group) => group.kind === 'follow')!;
    expect(await markReadOk(author, { group: follows.id })).toBe(3);
    expect(await counterHolds(author.uid)).toBe(3);

    // The leaving account: one read row (a follow) and one unread (a save) go.
    await deleteOwnAccount(t.app, leaving);
    expect(await counterHolds(author.uid)).toBe(2);
    expect(await storedRows(author.uid)).toHaveLength(3);

    // The post goes, and its save rows with it.
    const deleted = await t.app.inject({ method: 'DELETE', url: API.post(doomed), headers: { cookie: author.cookie } });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await counterHolds(author.uid)).toBe(1);
    expect((await storedRows(author.uid)).map((row) => [row.kind, row.post_id])).toEqual([
      ['follow', null],
      ['save', kept],
    ]);
    expect(await unreadOf(author)).toBe(1);
    expect(texts(await activityOf(author))).toEqual([`${saver.username} saved your post to Saver`, `${friend.username} followed you`]);
  });

  it("another user's group id marks nothing of yours; an id of no group of yours changes nothing", async () => {
    const [author, other, saver] = [await person('auth'), await person('oth'), await person('sav')];
    const board = await boardSteps(t.app).create(saver, { name: 'Ids' });
    await boardSteps(t.app).save(saver, board.id, await postBy(author));
    await followOk(saver, author);
    await followOk(saver, other);
    await onOneDay(author.uid);
    const authorsGroups = await activityOf(author);
    const save = authorsGroups.find((group) => group.kind === 'save')!;
    expect(await markReadOk(other, { group: save.id })).toBe(1);
    expect(await unreadOf(author)).toBe(2);
    // A follow group's id names the day and "follow": the other user's own follow group of that day, never the author's.
    const follows = authorsGroups.find((group) => group.kind === 'follow')!;
    expect(await markReadOk(other, { group: follows.id })).toBe(0);
    expect(await unreadOf(author)).toBe(2);
    expect((await storedRows(author.uid)).every((row) => !row.read)).toBe(true);
    expect(await markReadOk(author, { group: `${follows.id.slice(0, 10)}.save:nosuchpost` })).toBe(2);
  });
});

describe('paging: 20 groups a page, newest first, each group exactly once', () => {
  it('25 groups over several days: a page of 20 and one of 5, stable when new notifications arrive between them', async () => {
    const target = await person('pg');
    const actors = await insertUsers(t.database, 26, 'pga');
    const postIds = await insertPostsBy(t.database, target.uid, 26);
    // Every 6 hours over about a week; the first at the top.
    await insertNotifications(
      Array.from({ length: 25 }, (_, i) => ({
        userId: target.uid,
        kind: 'save' as const,
        actorId: actors[i]!.id,
        groupKey: `save:${postIds[i]}`,
        postId: postIds[i],
        secondsAgo: (i + 1) * 6 * 3600,
      })),
    );
    const expected = await groupIdsInOrder(target.uid);
    expect(expected).toHaveLength(25);

    const first = await activityPage(target);
    expect(first.groups).toHaveLength(ACTIVITY_PAGE_SIZE);
    expect(first.groups.map((group) => group.id)).toEqual(expected.slice(0, 20));
    expect(first.groups.map((group) => group.post?.id)).toEqual(postIds.slice(0, 20));
    expect(first.nextCursor).toEqual(expect.any(String));

    // Between the pages: a new follower, a new save of another post, and a second save of the newest post.
    await followOk(await person(), target);
    await insertNotifications([
      { userId: target.uid, kind: 'save', actorId: actors[25]!.id, groupKey: `save:${postIds[25]}`, postId: postIds[25], secondsAgo: 0 },
      { userId: target.uid, kind: 'save', actorId: actors[25]!.id, groupKey: `save:${postIds[0]}`, postId: postIds[0], secondsAgo: 0 },
    ]);

    const second = await activityPage(target, first.nextCursor!);
    expect(second.groups.map((group) => group.id)).toEqual(expected.slice(20));
    expect(second.nextCursor).toBeNull();
    const seen = [...first.groups, ...second.groups].map((group) => group.id);
    expect(new Set(seen).size).toBe(25);
    const times = [...first.groups, ...second.groups].map((group) => new Date(group.at).getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));

    // A new first page starts with what arrived.
    const fresh = await activityPage(target);
    expect(fresh.groups.slice(0, 3).map((group) => group.kind)).toEqual(['save', 'save', 'follow']);
    // 27 groups, or 28 between 00:00 and 06:00 UTC, when the newest post's first save (6 hours ago)
    // was on the day before and its second starts a group of today: each exactly once, in order.
    expect((await everyPage(target)).groups.map((group) => group.id)).toEqual(await groupIdsInOrder(target.uid));
  });

  it('groups written at the same moment are ordered by key, and a page boundary between them skips none', async () => {
    const target = await person('tie');
    const actors = await insertUsers(t.database, 25, 'tie');
    // Pairs at one moment each: (0), (1, 2), (3, 4) … (19, 20) … (23, 24): the 20th and 21st are a pair.
    await insertNotifications(
      actors.map((actor, i) => ({
        userId: target.uid,
        kind: 'follow' as const,
        actorId: actor.id,
        groupKey: `test:${String(i).padStart(2, '0')}`,
        secondsAgo: 100 + Math.floor((i + 1) / 2) * 10,
      })),
    );
    const expected = await groupIdsInOrder(target.uid);
    const { groups, sizes } = await everyPage(target);
    expect(sizes).toEqual([20, 5]);
    expect(groups.map((group) => group.id)).toEqual(expected);
    expect(new Set(groups.map((group) => group.id)).size).toBe(25);
    // Within a pair the greater key comes first.
    expect(groups.slice(19, 21).map((group) => group.id.slice(11))).toEqual(['test:20', 'test:19']);
  });

  it('a page looks through 14 days at most: 30 sparse days take three pages, each row once, newest first', async () => {
    const target = await person('sp');
    const actors = await insertUsers(t.database, 30, 'spa');
    await insertNotifications(
      actors.map((actor, i) => ({
        userId: target.uid,
        kind: 'follow' as const,
        actorId: actor.id,
        groupKey: 'follow',
        secondsAgo: i * 24 * 3600 + 3600,
      })),
    );
    const expected = await groupIdsInOrder(target.uid);
    expect(expected).toHaveLength(30);
    const { groups, sizes } = await everyPage(target);
    expect(sizes).toEqual([14, 14, 2]);
    expect(groups.map((group) => group.id)).toEqual(expected);
    expect(groups.map((group) => group.actors[0]?.username)).toEqual(actors.map((actor) => actor.username));
  });

  it('a page of hidden rows only still carries on to the rest', async () => {
    const target = await person('hid');
    const hidden = await person('hidden');
    const shown = await insertUsers(t.database, 3, 'shn');
    // 20 days of the hidden actor's rows, newest; then three rows of others, older.
    await insertNotifications([
      ...Array.from({ length: 20 }, (_, i) => ({
        userId: target.uid,
        kind: 'follow' as const,
        actorId: hidden.uid,
        groupKey: 'follow',
        secondsAgo: i * 24 * 3600 + 3600,
      })),
      ...shown.map((actor, i) => ({
        userId: target.uid,
        kind: 'follow' as const,
        actorId: actor.id,
        groupKey: 'follow',
        secondsAgo: (20 + i) * 24 * 3600 + 3600,
      })),
    ]);
    await suspendInSql(hidden, new Date(Date.now() + DAY_MS));
    const { groups } = await everyPage(target);
    expect(groups.map((group) => group.actors[0]?.username)).toEqual(shown.map((actor) => actor.username));
    expect(await unreadOf(target)).toBe(3);
    await suspendInSql(hidden, null);
  });

  it('bad cursors are a 400, never a 500', async () => {
    const target = await person('cur');
    await followOk(await person(), target);
    const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
    const ts = '2026-01-01 00:00:00.123456+00';
    const bad = [
      'not base64 at all!!!',
      '%%%',
      b64('not json'),
      b64('{"day":"2026-01-01"}'),
      b64([]),
      b64(['2026-01-01']),
      b64(['2026-01-01', '']),
      b64([1, 2, 3]),
      b64([null, null, null]),
      b64(['2026-01-01', '', '', 'extra']),
      b64(['2026-02-30', '', '']),
      b64(['2026-13-01', '', '']),
      b64(['2026-1-1', '', '']),
      b64(['0000-01-01', '', '']),
      b64(['yesterday', '', '']),
      b64(['2026-01-01', 'yesterday', 'follow']),
      b64(['2026-01-01', '2026-02-30 00:00:00+00', 'follow']),
      b64(['2026-01-01', '2026-01-01 00:00:00+16', 'follow']),
      b64(['2026-01-01', '', 'follow']),
      b64(['2026-01-01', ts, 'k'.repeat(101)]),
      b64(['2026-01-01', ts, 'a\u0000b']),
      'x'.repeat(201),
    ];
    for (const cursor of bad) expectError(await listOf(target, cursor), 400, 'BAD_REQUEST');
    const odd = await t.app.inject({ method: 'GET', url: `${ACTIVITY}?cursor=a&cursor=b`, headers: { cookie: target.cookie } });
    expectError(odd, 400, 'BAD_REQUEST');
    const unknown = await t.app.inject({ method: 'GET', url: `${ACTIVITY}?page=2`, headers: { cookie: target.cookie } });
    expectError(unknown, 400, 'BAD_REQUEST');
    // Well-formed cursors of no rows answer an empty page; an empty one is the first page.
    expect(await activityPage(target, b64(['2000-01-01', '', '']))).toEqual({ groups: [], nextCursor: null });
    expect(await activityPage(target, b64(['2000-01-01', ts, 'k'.repeat(100)]))).toEqual({ groups: [], nextCursor: null });
    expect((await activityPage(target, '')).groups).toHaveLength(1);
  });

  it('bad group ids (and bodies) for Mark as read are a 400, and mark nothing', async () => {
    const target = await person('bad');
    await followOk(await person(), target);
    const [{ id }] = (await activityOf(target)) as [ActivityGroup];
    const bad: unknown[] = [
      { group: '' },
      { group: 'x' },
      { group: 'follow' },
      { group: `${id.slice(0, 10)}follow` },
      { group: `${id.slice(0, 10)}.` },
      { group: '2026-02-30.follow' },
      { group: '2026-13-01.follow' },
      { group: '0000-01-01.follow' },
      { group: `${id.slice(0, 10)}.${'k'.repeat(101)}` },
      { group: 'k'.repeat(201) },
      { group: 5 },
      { group: null },
      { group: [id] },
      { group: id, extra: true },
      [],
      'everything',
    ];
    for (const body of bad) expectError(await markRead(target, body), 400, 'BAD_REQUEST');
    expect(await unreadOf(target)).toBe(1);
    expect(await markReadOk(target, { group: id })).toBe(0);
  });
});

describe('the first page, kept in memory until something it shows changes', () => {
  /** Marks the viewer's rows read behind the app's back: no change names anyone. */
  const readInSql = (who: Account) => query(t.database, 'UPDATE notifications SET read = true WHERE user_id = $1', [who.uid]);

  it('read again, it comes from memory; a change naming its viewer has it read afresh', async () => {
    const [me, fan] = [await person('me'), await person('fan')];
    await followOk(fan, me);
    expect(await activityOf(me)).toEqual([expect.objectContaining({ kind: 'follow', unread: true })]);
    await readInSql(me);
    expect(await activityOf(me), 'kept').toEqual([expect.objectContaining({ kind: 'follow', unread: true })]);
    // Another viewer's change leaves it.
    await t.app.changes.changed({ kind: 'activity', userIds: [fan.uid] });
    expect(await activityOf(me)).toEqual([expect.objectContaining({ unread: true })]);
    await t.app.changes.changed({ kind: 'activity', userIds: [me.uid] });
    expect(await activityOf(me)).toEqual([expect.objectContaining({ unread: false })]);
  });

  it('later pages are never kept: each is read from the database', async () => {
    const me = await person('me');
    const fans = await insertUsers(t.database, ACTIVITY_PAGE_SIZE + 1, 'fan');
    await insertNotifications(
      fans.map((fan, i) => ({
        userId: me.uid,
        kind: 'follow',
        actorId: fan.id,
        groupKey: `follow:${me.uid}:${fan.id}`,
        secondsAgo: i + 1,
      })),
    );
    const first = await activityPage(me);
    expect((await activityPage(me, first.nextCursor!)).groups).toEqual([expect.objectContaining({ unread: true })]);
    await readInSql(me);
    expect((await activityPage(me, first.nextCursor!)).groups).toEqual([expect.objectContaining({ unread: false })]);
    expect((await activityPage(me)).groups[0], 'the first page is kept').toMatchObject({ unread: true });
  });

  it('a new row, Mark as read, and Mark all as read show at once', async () => {
    const [me, first, second] = [await person('me'), await person('fan'), await person('fan')];
    await followOk(first, me);
    expect(await activityOf(me)).toHaveLength(1);
    await followOk(second, me);
    await onOneDay(me.uid);
    await t.app.changes.changed({ kind: 'activity', userIds: [me.uid] });
    const [group] = await activityOf(me);
    expect(group).toMatchObject({ count: 2, unread: true });
    await markReadOk(me, { group: group!.id });
    expect(await activityOf(me)).toEqual([expect.objectContaining({ unread: false })]);
    await followOk(await person('fan'), me);
    expect((await activityOf(me)).some((shown) => shown.unread)).toBe(true);
    await markReadOk(me, {});
    expect((await activityOf(me)).every((shown) => !shown.unread)).toBe(true);
  });

  it("what it names changes: an actor's new icon, a board renamed, a post deleted, an invitation joined", async () => {
    const [me, saver, owner] = [await person('me'), await person('sav'), await person('own')];
    const steps = boardSteps(t.app);
    const postId = await postBy(me);
    const board = await steps.create(saver, { name: 'Before' });
    await steps.save(saver, board.id, postId);
    const invitation = await steps.create(owner, { name: 'Invited' });
    await steps.invite(owner, invitation.id, me.username);
    await onOneDay(me.uid);
    await t.app.changes.changed({ kind: 'activity', userIds: [me.uid] });
    const before = await activityOf(me);
    expect(before.map((group) => group.kind)).toEqual(['board_invite', 'save']);
    expect(before[1]).toMatchObject({ actors: [{ username: saver.username, icon: null }], board: { name: 'Before' } });

    const icon = await patchMe(t.app, saver.cookie, [['icon', { bytes: await jpeg(200, 200), field: 'icon', filename: 'icon.jpg' }]]);
    expect(icon.statusCode, icon.body).toBe(200);
    expect((await activityOf(me))[1]!.actors[0]!.icon).toMatch(/^\/media\//);

    const renamed = await boardRoutes(t.app).update(saver.cookie, board.id, { name: 'After' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await activityOf(me))[1]!.board).toMatchObject({ name: 'After' });

    await steps.join(me, invitation.id);
    expect((await activityOf(me))[0]).toMatchObject({ kind: 'board_invite', invite: 'joined' });

    const deleted = await t.app.inject({ method: 'DELETE', url: API.post(postId), headers: { cookie: me.cookie } });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await activityOf(me)).map((group) => group.kind)).toEqual(['board_invite']);
  });

  it('the bell read again comes from memory; a change naming its viewer has it read afresh', async () => {
    const [me, fan] = [await person('me'), await person('fan')];
    await followOk(fan, me);
    expect(await unreadOf(me)).toBe(1);
    await readInSql(me);
    expect(await unreadOf(me), 'kept').toBe(1);
    await t.app.changes.changed({ kind: 'activity', userIds: [me.uid] });
    expect(await unreadOf(me)).toBe(0);
  });

  it('a board made secret or deleted, a post deleted: the bell and page of everyone told of it follow at once', async () => {
    const [author, owner] = [await person('auth'), await person('own')];
    const steps = boardSteps(t.app);
    const [first, second, third] = [await postBy(author), await postBy(author), await postBy(author)];
    const soonSecret = await steps.create(owner, { name: 'Soon secret' });
    const soonGone = await steps.create(owner, { name: 'Soon gone' });
    await steps.save(owner, soonSecret.id, first);
    await steps.save(owner, soonGone.id, second);
    await steps.save(owner, soonGone.id, third);
    await onOneDay(author.uid);
    await t.app.changes.changed({ kind: 'activity', userIds: [author.uid] });
    expect(await unreadOf(author)).toBe(3);
    expect(await activityOf(author)).toHaveLength(3);

    const secret = await boardRoutes(t.app).update(owner.cookie, soonSecret.id, { secret: true });
    expect(secret.statusCode, secret.body).toBe(200);
    expect(await unreadOf(author)).toBe(2);
    expect(await activityOf(author)).toHaveLength(2);

    // The author deletes a post: its row goes by the cascade.
    const deleted = await t.app.inject({ method: 'DELETE', url: API.post(third), headers: { cookie: author.cookie } });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await unreadOf(author)).toBe(1);
    expect(await activityOf(author)).toHaveLength(1);

    const gone = await boardRoutes(t.app).delete(owner.cookie, soonGone.id);
    expect(gone.statusCode, gone.body).toBeLessThan(300);
    expect(await unreadOf(author)).toBe(0);
    expect(await activityOf(author)).toEqual([]);
    expect(await counterHolds(author.uid)).toBe(0);
  });

  it('a suspension that ends on its own (no change is sent): the bell and the page count the actor again', async () => {
    const [me, suspended] = [await person('me'), await person('sus')];
    await followOk(suspended, me);
    // Long enough for the reads before it ends on a slow machine; the reads after wait for it.
    const ends = Date.now() + 5_000;
    await suspendInSql(suspended, new Date(ends));
    expect(await unreadOf(me)).toBe(0);
    expect(await activityOf(me)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, ends - Date.now()) + 100));
    await expect.poll(() => unreadOf(me), { timeout: 15_000 }).toBe(1);
    expect(await activityOf(me)).toEqual([groupLike({ kind: 'follow', actors: [actorOf(suspended)] })]);
  });
});

describe('Settings → Notifications', () => {
  const all = (app: boolean, push: boolean) =>
    Object.fromEntries(NotificationTopic.options.map((topic) => [topic, { app, push }])) as NotificationSettings;
  const getSettings = (who: Account) => t.app.inject({ method: 'GET', url: SETTINGS, headers: { cookie: who.cookie } });
  const putSettings = (who: Account, body: unknown) => {
    const { payload, headers } = json(body);
    return t.app.inject({ method: 'PUT', url: SETTINGS, payload, headers: { ...headers, cookie: who.cookie } });
  };

  it('defaults: every topic in the app, none as a push; no devices; the push key', async () => {
    const who = await person('set');
    const response = await getSettings(who);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ settings: all(true, false), devices: [], publicKey: expect.stringMatching(/^[\w-]{87}$/) });
    expect(Object.keys(response.json().settings).sort()).toEqual(['boards', 'follows', 'invites', 'moderation', 'saves']);
  });

  it('PUT changes them (and answers them); GET reads them back', async () => {
    const who = await person('set');
    const wanted = { ...all(true, false), follows: { app: false, push: true }, moderation: { app: true, push: true } };
    const response = await putSettings(who, wanted);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().settings).toEqual(wanted);
    expect((await getSettings(who)).json().settings).toEqual(wanted);
    // Somebody else's are their own.
    expect((await getSettings(await person())).json().settings).toEqual(all(true, false));
    expect((await putSettings(who, all(false, false))).json().settings).toEqual(all(false, false));
    expect((await putSettings(who, all(true, false))).json().settings).toEqual(all(true, false));
  });

  it("'follows' off in the app: a new follow writes no row (and the other topics still do)", async () => {
    const [target, follower, saver] = [await person('tgt'), await person(), await person('sav')];
    const off = { ...all(true, false), follows: { app: false, push: false } };
    expect((await putSettings(target, off)).statusCode).toBe(200);
    await followOk(follower, target);
    expect(await storedRows(target.uid)).toEqual([]);
    expect(await unreadOf(target)).toBe(0);
    const board = await boardSteps(t.app).create(saver, { name: 'Still told' });
    await boardSteps(t.app).save(saver, board.id, await postBy(target));
    expect((await activityOf(target)).map((group) => group.kind)).toEqual(['save']);
    // Turned on again: the next follower is told (the first is a repeat within the day: not).
    expect((await putSettings(target, all(true, false))).statusCode).toBe(200);
    await followOk(await person(), target);
    expect((await storedRows(target.uid)).map((row) => row.kind)).toEqual(['save', 'follow']);
  });

  it("'saves', 'invites', 'boards' and 'moderation' off each stop their kinds", async () => {
    const [owner, member, author, moderator, reporter] = [
      await person('own'),
      await person('mem'),
      await person('auth'),
      await staff('moderator'),
      await person('rep'),
    ];
    for (const [who, topic] of [
      [author, 'saves'],
      [member, 'invites'],
      [owner, 'boards'],
      [reporter, 'moderation'],
    ] as const) {
      expect((await putSettings(who, { ...all(true, false), [topic]: { app: false, push: false } })).statusCode).toBe(200);
    }
    const steps = boardSteps(t.app);
    const board = await steps.create(owner, { name: 'Switched off' });
    await steps.save(owner, board.id, await postBy(author));
    await steps.addMember(owner, board.id, member);
    const postId = await postBy(author);
    await reportOk(reporter, { postId, reason: 'spam' });
    await moderate(moderator, API.moderationDismiss, { postId });
    for (const who of [owner, member, author, reporter]) expect(await storedRows(who.uid), who.username).toEqual([]);
  });

  it('refuses a body that is not the five topics with two switches each (400), changing nothing', async () => {
    const who = await person('set');
    const { moderation: _, ...missing } = all(false, false);
    const bodies: unknown[] = [
      missing,
      { ...all(false, false), email: { app: true, push: true } },
      { ...all(false, false), follows: { app: false, push: false, email: true } },
      { ...all(false, false), follows: { app: false } },
      { ...all(false, false), follows: { app: 'no', push: false } },
      { ...all(false, false), saves: { app: 0, push: 1 } },
      { ...all(false, false), boards: null },
      {},
      [],
      'off',
    ];
    for (const body of bodies) expectError(await putSettings(who, body), 400, 'BAD_REQUEST');
    expect((await getSettings(who)).json().settings).toEqual(all(true, false));
  });
});

async function reportOk(reporter: Account, body: object) {
  const response = await t.app.inject({ method: 'POST', url: API.reports, payload: body, headers: { cookie: reporter.cookie } });
  expect(response.statusCode, response.body).toBe(204);
}

async function moderate(moderator: Account, url: string, body: object) {
  const response = await t.app.inject({ method: 'POST', url, payload: body, headers: { cookie: moderator.cookie } });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response;
}

/** Signs in again (a suspension ended every session). */
async function signInAgain(who: Account): Promise<Account> {
  const response = await t.app.inject({ method: 'POST', url: API.login, payload: { identifier: who.username, password: who.password } });
  expect(response.statusCode, response.body).toBe(200);
  return { ...who, cookie: sessionCookie(response) };
}

/** The moderator's own rows: none. Every moderation row names no actor. */
async function moderatorToldNothing(moderator: Account, ...recipients: Account[]) {
  expect(await storedRows(moderator.uid)).toEqual([]);
  for (const recipient of recipients) {
    for (const row of await storedRows(recipient.uid)) expect(row.actor_id, `${row.kind} names its moderator`).toBeNull();
  }
}

describe("moderators' notices: no moderator named, each recipient told once", () => {
  it('Remove Post: the author is told with the note as the reason; each reporter that the post was removed', async () => {
    const [author, first, second, moderator] = [await person('auth'), await person('rep'), await person('rep'), await staff('moderator')];
    const photo = await jpeg(40, 30);
    const made = await createPost(t.app, author.cookie, { bytes: photo, description: 'Against the rules' });
    const postId = made.json<{ post: { id: string } }>().post.id;
    await reportOk(first, { postId, reason: 'spam' });
    await reportOk(second, { postId, reason: 'harassment' });
    // The first reporter reported the profile too: a report the removal leaves open.
    await reportOk(first, { username: author.username, reason: 'spam' });
    await moderate(moderator, API.moderationRemovePost, { postId, note: 'Spam links are not allowed.' });

    const removed = await activityOf(author);
    expect(removed).toEqual([
      groupLike({ id: expect.stringMatching(/\.post_removed:[\w-]{36}$/), kind: 'post_removed', reason: 'Spam links are not allowed.' }),
    ]);
    expect(texts(removed)).toEqual(['Moderators removed your post. Reason: Spam links are not allowed.']);
    for (const reporter of [first, second]) {
      const groups = await activityOf(reporter);
      expect(groups).toEqual([groupLike({ kind: 'report_handled', outcome: 'removed' })]);
      expect(texts(groups)).toEqual(['Thanks for your report: moderators removed the post you reported.']);
    }
    await moderatorToldNothing(moderator, author, first, second);

    // Without a note: no reason. A second removal the same day is a notice of its own.
    const other = await createPost(t.app, author.cookie, { bytes: photo, description: 'Also against the rules' });
    await moderate(moderator, API.moderationRemovePost, { postId: other.json<{ post: { id: string } }>().post.id });
    const both = await activityOf(author);
    expect(both.map((group) => [group.kind, group.reason, group.count])).toEqual([
      ['post_removed', null, 1],
      ['post_removed', 'Spam links are not allowed.', 1],
    ]);
    expect(activityText(both[0]!)).toBe('Moderators removed your post.');
    expect(await counterHolds(author.uid)).toBe(2);
  });

  it('Suspend for 7 days: the user is told until when; every reporter of theirs once, whatever they reported', async () => {
    const [user, first, second, moderator] = [await person('sus'), await person('rep'), await person('rep'), await staff('moderator')];
    const postId = await postBy(user);
    await reportOk(first, { postId, reason: 'spam' });
    await reportOk(first, { username: user.username, reason: 'spam' });
    await reportOk(second, { username: user.username, reason: 'harassment' });
    const response = await moderate(moderator, API.moderationSuspend, { username: user.username, days: 7, note: 'Repeated spam' });
    const { until } = response.json<{ until: string }>();
    const [row] = await storedRows(user.uid);
    expect(row).toMatchObject({ kind: 'suspended', actor_id: null, detail: null });
    expect(new Date(row!.until!).toISOString()).toBe(until);

    for (const reporter of [first, second]) {
      const groups = await activityOf(reporter);
      expect(groups).toEqual([groupLike({ kind: 'report_handled', outcome: 'suspended' })]);
      expect(texts(groups)).toEqual(['Thanks for your report: moderators suspended the account you reported.']);
      expect(await storedRows(reporter.uid)).toHaveLength(1);
    }
    await moderatorToldNothing(moderator, user, first, second);

    // Read when the suspension ends.
    await suspendInSql(user, null);
    const back = await signInAgain(user);
    const groups = await activityOf(back);
    expect(groups).toEqual([groupLike({ kind: 'suspended', until })]);
    const date = new Date(until).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
    expect(texts(groups)).toEqual([`Your account was suspended until ${date}.`]);
    expect(date).toMatch(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
  });

  it('Suspend for good (days: null): until is null, "permanently"', async () => {
    const [user, moderator] = [await person('sus'), await staff('moderator')];
    await moderate(moderator, API.moderationSuspend, { username: user.username, days: null });
    expect(await storedRows(user.uid)).toEqual([expect.objectContaining({ kind: 'suspended', until: null, actor_id: null })]);
    await suspendInSql(user, null);
    const groups = await activityOf(await signInAgain(user));
    expect(groups).toEqual([groupLike({ kind: 'suspended', until: null })]);
    expect(texts(groups)).toEqual(['Your account was suspended permanently.']);
    await moderatorToldNothing(moderator, user);
  });

  it("Dismiss: the reporters are told no action was taken, with the post when it was a post's report", async () => {
    const [author, first, second, moderator] = [await person('auth'), await person('rep'), await person('rep'), await staff('moderator')];
    const postId = await postBy(author);
    await reportOk(first, { postId, reason: 'spam' });
    await reportOk(second, { postId, reason: 'spam' });
    await moderate(moderator, API.moderationDismiss, { postId, note: 'Looks fine' });
    for (const reporter of [first, second]) {
      const groups = await activityOf(reporter);
      expect(groups).toEqual([
        groupLike({ kind: 'report_handled', outcome: 'no_action', post: { id: postId, thumbnail: expect.any(String) } }),
      ]);
      expect(texts(groups)).toEqual(['Thanks for your report: moderators looked at it and took no action.']);
    }
    // The author is told nothing of a dismissal.
    expect(await storedRows(author.uid)).toEqual([]);

    // A profile's report: no post.
    await reportOk(first, { username: author.username, reason: 'other', details: 'fake' });
    await moderate(moderator, API.moderationDismiss, { username: author.username });
    const groups = await activityOf(first);
    expect(groups.map((group) => [group.kind, group.outcome, group.post?.id ?? null])).toEqual([
      ['report_handled', 'no_action', null],
      ['report_handled', 'no_action', postId],
    ]);
    await moderatorToldNothing(moderator, author, first, second);
  });

  // A report_handled event names no actor: moderation.service.ts leaves the acting moderator out.
  it('a moderator who reported and then acted on the report is not told of their own action', async () => {
    const [author, moderator, reporter] = [await person('auth'), await staff('moderator'), await person('rep')];
    const postId = await postBy(author);
    await reportOk(moderator, { postId, reason: 'spam' });
    await reportOk(reporter, { postId, reason: 'spam' });
    await moderate(moderator, API.moderationDismiss, { postId });
    expect(await storedRows(reporter.uid)).toHaveLength(1);
    expect(await storedRows(moderator.uid)).toEqual([]);
  });
});

describe('retention', () => {
  // An app of its own: retention deletes every user's old rows, so these tests count exactly and
  // touch no other test's rows (the helpers read `t`).
  let shared: TestApp;
  beforeAll(async () => {
    shared = t;
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
    t = shared;
  });

  it('NOTIFICATION_RETENTION_DAYS is 90 unless set', () => {
    expect(loadConfig({}).notifications.retentionDays).toBe(90);
    expect(loadConfig({ NOTIFICATION_RETENTION_DAYS: '30' }).notifications.retentionDays).toBe(30);
  });

  it('deleteOlderThan deletes rows older than the days, in batches, and the counter follows', async () => {
    const [target, a, b, c, d] = [await person('ret'), await person(), await person(), await person(), await person()];
    for (const follower of [a, b, c, d]) await followOk(follower, target);
    await backdate(target.uid, 91, [a.uid, b.uid]);
    await backdate(target.uid, 89, [c.uid]);
    await query(t.database, 'UPDATE notifications SET read = true WHERE user_id = $1 AND actor_id = $2', [target.uid, b.uid]);
    expect(await counterHolds(target.uid)).toBe(3);

    // One at a time with a batch of 1: the two rows older than 90 days, and no other.
    expect(await deleteOlderThan(t.database.orm, 90, 1)).toBe(1);
    let deleted = 1;
    for (let n = await deleteOlderThan(t.database.orm, 90, 1); n > 0; n = await deleteOlderThan(t.database.orm, 90, 1)) deleted += n;
    expect(deleted).toBe(2);
    expect((await storedRows(target.uid)).map((row) => row.actor_id)).toEqual([c.uid, d.uid]);
    expect(await counterHolds(target.uid)).toBe(2);
    expect(await unreadOf(target)).toBe(2);
    expect(await deleteOlderThan(t.database.orm, 90, 5000)).toBe(0);
  });

  it('the periodic task runs it with NOTIFICATION_RETENTION_DAYS when the server starts', async () => {
    const [target, a, b] = [await person('ret'), await person(), await person()];
    await followOk(a, target);
    await followOk(b, target);
    await backdate(target.uid, 31, [a.uid]);
    await backdate(target.uid, 29, [b.uid]);
    const app = await buildApp({
      config: { ...t.config, notifications: { ...t.config.notifications, retentionDays: 30 } },
      database: t.database,
    });
    try {
      await app.ready();
      expect((await storedRows(target.uid)).map((row) => row.actor_id)).toEqual([b.uid]);
      expect(await counterHolds(target.uid)).toBe(1);
    } finally {
      await app.close();
    }
  });

  it('retention deletes rows from a kept page at once', async () => {
    const [me, fan] = [await person('me'), await person('fan')];
    await followOk(fan, me);
    await backdate(me.uid, 91);
    await t.app.changes.changed({ kind: 'activity', userIds: [me.uid] });
    expect(await activityOf(me)).toHaveLength(1);
    await t.app.activity.deleteOlderThan(90);
    expect(await activityOf(me)).toEqual([]);
  });
});

describe('signed out', () => {
  it('every route is a 401', async () => {
    const settings = Object.fromEntries(NotificationTopic.options.map((topic) => [topic, { app: true, push: false }]));
    const requests = [
      { method: 'GET', url: ACTIVITY },
      { method: 'GET', url: `${ACTIVITY}?cursor=x` },
      { method: 'GET', url: UNREAD },
      { method: 'POST', url: READ, payload: {} },
      { method: 'GET', url: SETTINGS },
      { method: 'PUT', url: SETTINGS, payload: settings },
      {
        method: 'POST',
        url: activityApi.addPushDevice.path,
        payload: { endpoint: 'https://fcm.googleapis.com/fcm/send/x', keys: { p256dh: 'x', auth: 'y' } },
      },
      { method: 'DELETE', url: activityApi.removePushDevice.path.replace(':id', 'a'.repeat(32)) },
    ] as const;
    const routes = new Set(requests.map((request) => `${request.method} ${request.url.split('?')[0]!.replace(/a{32}$/, ':id')}`));
    expect([...routes].sort()).toEqual(
      Object.values(activityApi)
        .map((route) => `${route.method} ${route.path}`)
        .sort(),
    );
    for (const request of requests) {
      expectError(await t.app.inject({ ...request, payload: 'payload' in request ? request.payload : undefined }), 401, 'NOT_SIGNED_IN');
    }
  });
});
