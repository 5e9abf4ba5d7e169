import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommandLine } from '../../src/server/admin/commands.js';
import { standaloneAdminContext } from '../../src/server/admin/admin-context.js';
import type { QueueResponse } from '../../src/shared/api/moderation.js';
import { API } from '../../src/shared/api/paths.js';
import { ERRORS } from '../../src/shared/errors.js';
import type { Role } from '../../src/shared/moderation.js';
import { newAccount, signUp } from '../helpers/accounts.js';
import { jpeg } from '../helpers/images.js';
import { expectError, mediaFiles, query } from '../helpers/people.js';
import { createPost } from '../helpers/posts.js';
import { startLocalS3, type LocalS3 } from '../helpers/s3.js';
import { createTestApp, TEST_RATE_LIMITS, type TestApp } from '../helpers/test-app.js';
import { QUEUE_PAGE } from '../../src/server/moderation/moderation.service.js';

/** Reports, the queue and its actions, the log, suspensions and roles (issue 17), on a real database and disk. */

type Account = Awaited<ReturnType<typeof signUp>>;
let t: TestApp;

async function account(role: Role = 'member', prefix = 'mod'): Promise<Account> {
  const made = await signUp(t.app, newAccount(prefix));
  if (role !== 'member') await query(t.database, 'UPDATE users SET role = $1 WHERE id = $2', [role, made.uid]);
  return made;
}

async function postOf(author: Account): Promise<{ id: string; full: string }> {
  const response = await createPost(t.app, author.cookie, { bytes: await jpeg(80, 60), description: 'Reported #dorm' });
  expect(response.statusCode, response.body).toBe(201);
  const post = response.json<{ post: { id: string; image: { full: string } } }>().post;
  return { id: post.id, full: post.image.full };
}

const send = (method: 'POST' | 'PUT' | 'GET', url: string, cookie: string | undefined, payload?: object) =>
  t.app.inject({ method, url, payload, headers: cookie ? { cookie } : {} });
const report = (cookie: string | undefined, payload: object) => send('POST', API.reports, cookie, payload);
const login = (who: Account) =>
  t.app.inject({ method: 'POST', url: API.login, payload: { identifier: who.username, password: who.password } });

const openReports = async (targetUserId: string) =>
  (await query(t.database, `SELECT 1 FROM reports WHERE target_user_id = $1 AND status = 'open'`, [targetUserId])).length;
const logActions = async (targetUserId: string) =>
  (
    await query<{ action: string }>(t.database, 'SELECT action FROM moderation_log WHERE target_user_id = $1 ORDER BY created_at', [
      targetUserId,
    ])
  ).map((row) => row.action);
const sessions = async (uid: string) => (await query(t.database, 'SELECT 1 FROM sessions WHERE user_id = $1', [uid])).length;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('POST /api/reports', () => {
  it('stores one open report per reporter and target; a repeat is answered alike and stores nothing', async () => {
    const [author, reporter] = [await account(), await account()];
    const post = await postOf(author);
    expect((await report(reporter.cookie, { postId: post.id, reason: 'spam' })).statusCode).toBe(204);
    expect((await report(reporter.cookie, { postId: post.id, reason: 'harassment' })).statusCode).toBe(204);
    expect(await openReports(author.uid)).toBe(1);
    // The profile is another target.
    expect(
      (await report(reporter.cookie, { username: `@${author.username.toUpperCase()}`, reason: 'other', details: ' fake account ' }))
        .statusCode,
    ).toBe(204);
    const rows = await query<{ details: string; target_post_id: string | null }>(
      t.database,
      'SELECT details, target_post_id FROM reports WHERE target_user_id = $1 ORDER BY created_at',
      [author.uid],
    );
    expect(rows).toEqual([
      { details: '', target_post_id: post.id },
      { details: 'fake account', target_post_id: null },
    ]);
  });

  it('refuses reporting yourself, a missing details text, too long a text, and bad input (4xx, nothing stored)', async () => {
    const [author, reporter] = [await account(), await account()];
    const post = await postOf(author);
    expectError(await report(author.cookie, { postId: post.id, reason: 'spam' }), 400, 'CANNOT_REPORT_YOURSELF');
    expectError(await report(author.cookie, { username: author.username, reason: 'spam' }), 400, 'CANNOT_REPORT_YOURSELF');
    expectError(await report(reporter.cookie, { postId: post.id, reason: 'other', details: '   ' }), 400, 'REPORT_DETAILS_REQUIRED');
    expectError(
      await report(reporter.cookie, { postId: post.id, reason: 'other', details: 'x'.repeat(501) }),
      400,
      'REPORT_DETAILS_TOO_LONG',
    );
    expectError(await report(reporter.cookie, { postId: post.id, username: author.username, reason: 'spam' }), 400, 'BAD_REQUEST');
    expectError(await report(reporter.cookie, { reason: 'spam' }), 400, 'BAD_REQUEST');
    expectError(await report(reporter.cookie, { postId: post.id, reason: 'boring' }), 400, 'BAD_REQUEST');
    expectError(await report(reporter.cookie, { postId: 'nosuchpost', reason: 'spam' }), 404, 'POST_NOT_FOUND');
    expectError(await report(reporter.cookie, { username: 'nosuchuser', reason: 'spam' }), 404, 'USER_NOT_FOUND');
    expectError(await report(undefined, { postId: post.id, reason: 'spam' }), 401, 'NOT_SIGNED_IN');
    expect(await openReports(author.uid)).toBe(0);
  });

  it("a suspended user's post cannot be reported (it is hidden: 404)", async () => {
    const [author, reporter] = [await account(), await account()];
    const post = await postOf(author);
    await query(t.database, `UPDATE users SET suspended_until = now() + interval '1 day' WHERE id = $1`, [author.uid]);
    expectError(await report(reporter.cookie, { postId: post.id, reason: 'spam' }), 404, 'POST_NOT_FOUND');
    expectError(await report(reporter.cookie, { username: author.username, reason: 'spam' }), 404, 'USER_NOT_FOUND');
  });

  it('is limited per account (RATE_LIMIT_REPORTS_PER_USER)', async () => {
    const limited = await createTestApp({ rateLimits: { ...TEST_RATE_LIMITS, reportsPerUser: 2 } });
    try {
      const reporter = await signUp(limited.app, newAccount('lim'));
      const targets = [
        await signUp(limited.app, newAccount('tgt')),
        await signUp(limited.app, newAccount('tgt')),
        await signUp(limited.app, newAccount('tgt')),
      ];
      const sent = [];
      for (const target of targets) {
        sent.push(
          await limited.app.inject({
            method: 'POST',
            url: API.reports,
            payload: { username: target.username, reason: 'spam' },
            headers: { cookie: reporter.cookie },
          }),
        );
      }
      expect(sent.map((response) => response.statusCode)).toEqual([204, 204, 429]);
      expectError(sent[2]!, 429, 'REPORTING_TOO_FAST');
      expect(await query(limited.database, 'SELECT 1 FROM reports')).toHaveLength(2);
    } finally {
      await limited.close();
    }
  });
});

describe('a flood of reports from one address (issue 26)', () => {
  it('is limited per address, whatever the account (RATE_LIMIT_REPORTS_PER_IP): 429 with its own message, nothing stored', async () => {
    const limited = await createTestApp({ rateLimits: { ...TEST_RATE_LIMITS, reportsPerIp: 3 } });
    try {
      const [first, second, third] = [
        await signUp(limited.app, newAccount('ip')),
        await signUp(limited.app, newAccount('ip')),
        await signUp(limited.app, newAccount('ip')),
      ];
      const targets = await Promise.all(Array.from({ length: 4 }, () => signUp(limited.app, newAccount('tgt'))));
      const reportFrom = (who: Account, target: Account, remoteAddress: string) =>
        limited.app.inject({
          method: 'POST',
          url: API.reports,
          payload: { username: target.username, reason: 'spam' },
          headers: { cookie: who.cookie },
          remoteAddress,
        });
      const dorm = '203.0.113.26';
      expect((await reportFrom(first, targets[0]!, dorm)).statusCode).toBe(204);
      expect((await reportFrom(first, targets[1]!, dorm)).statusCode).toBe(204);
      expect((await reportFrom(second, targets[2]!, dorm)).statusCode).toBe(204);
      // A fresh account from the same address: the address's reports are used up.
      const refused = await reportFrom(third, targets[3]!, dorm);
      expectError(refused, 429, 'REPORTS_FROM_ADDRESS_TOO_MANY');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(await query(limited.database, 'SELECT 1 FROM reports')).toHaveLength(3);
      // The same account from another address is not refused.
      expect((await reportFrom(third, targets[3]!, '198.51.100.26')).statusCode).toBe(204);
    } finally {
      await limited.close();
    }
  });

  it('reports from accounts under a day old rank after the others, across pages, and are marked', async () => {
    const own = await createTestApp();
    try {
      const make = (prefix: string) => signUp(own.app, newAccount(prefix));
      const reportAs = async (who: Account, target: Account) => {
        const response = await own.app.inject({
          method: 'POST',
          url: API.reports,
          payload: { username: target.username, reason: 'spam' },
          headers: { cookie: who.cookie },
        });
        expect(response.statusCode, response.body).toBe(204);
      };
      const moderator = await make('mod');
      await query(own.database, `UPDATE users SET role = 'moderator' WHERE id = $1`, [moderator.uid]);
      const old = await make('old');
      // Two days old: what a real account is and a fresh one cannot be made into on demand.
      await query(own.database, `UPDATE users SET created_at = created_at - interval '2 days' WHERE id = $1`, [old.uid]);
      const fresh = [await make('new'), await make('new')];
      const [lone, mixed] = [await make('tgt'), await make('tgt')];
      const flooded = [];
      for (let i = 0; i < QUEUE_PAGE + 1; i += 1) flooded.push(await make('tgt'));

      await reportAs(old, lone);
      await reportAs(fresh[0]!, mixed);
      await reportAs(old, mixed);
      // The flood comes later: newer, yet it must not push the older accounts' reports off the first page.
      for (const [i, target] of flooded.entries()) await reportAs(fresh[i % 2]!, target);

      const page = async (cursor?: string) => {
        const url = cursor ? `${API.moderationQueue}?cursor=${encodeURIComponent(cursor)}` : API.moderationQueue;
        const response = await own.app.inject({ method: 'GET', url, headers: { cookie: moderator.cookie } });
        expect(response.statusCode, response.body).toBe(200);
        return response.json<QueueResponse>();
      };
      const first = await page();
      expect(first.items).toHaveLength(QUEUE_PAGE);
      const second = await page(first.nextCursor!);
      expect(second.nextCursor).toBeNull();
      const items = [...first.items, ...second.items];
      expect(items.map((item) => item.key)).toEqual([
        `user:${mixed.username}`,
        `user:${lone.username}`,
        ...flooded.map((target) => `user:${target.username}`).reverse(),
      ]);
      // Marked: the item, and each reporter.
      expect(items.map((item) => item.newAccountsOnly)).toEqual([false, false, ...flooded.map(() => true)]);
      expect(items[0]!.reporters.map(({ username, newAccount }) => ({ username, newAccount }))).toEqual([
        { username: old.username, newAccount: false },
        { username: fresh[0]!.username, newAccount: true },
      ]);
      expect(items[1]!.reporters.map((reporter) => reporter.newAccount)).toEqual([false]);
      expect(items.slice(2).every((item) => item.reporters.every((reporter) => reporter.newAccount))).toBe(true);
    } finally {
      await own.close();
    }
  });
});

describe('the moderation queue and its actions', () => {
  it('is a 404 to members and signed-out visitors; moderators see open reports grouped by target with counts and reporters', async () => {
    const member = await account();
    for (const cookie of [undefined, member.cookie]) {
      expectError(await send('GET', API.moderationQueue, cookie), 404, 'NOT_FOUND');
      expectError(await send('GET', API.moderationLog, cookie), 404, 'NOT_FOUND');
      expectError(await send('GET', API.moderationSuspended, cookie), 404, 'NOT_FOUND');
      expectError(await send('GET', API.moderationPerson(member.username), cookie), 404, 'NOT_FOUND');
    }
    const [author, first, second, moderator] = [await account(), await account(), await account(), await account('moderator')];
    const post = await postOf(author);
    await report(first.cookie, { postId: post.id, reason: 'spam' });
    await report(second.cookie, { postId: post.id, reason: 'other', details: 'selling things' });
    const queue = await send('GET', API.moderationQueue, moderator.cookie);
    expect(queue.statusCode, queue.body).toBe(200);
    const item = queue.json<QueueResponse>().items.find((candidate) => candidate.key === `post:${post.id}`)!;
    expect(item.post?.id).toBe(post.id);
    expect(item.user).toMatchObject({ username: author.username, role: 'member', actionable: true });
    expect(item.reports).toBe(2);
    expect(item.reasons.toSorted((a, b) => a.reason.localeCompare(b.reason))).toEqual([
      { reason: 'other', count: 1 },
      { reason: 'spam', count: 1 },
    ]);
    expect(item.reporters.map((reporter) => reporter.username)).toEqual([second.username, first.username]);
    expect(item.reporters[0]!.details).toBe('selling things');
    // Newest first: this item leads.
    expect(queue.json<QueueResponse>().items[0]!.key).toBe(`post:${post.id}`);
  });

  it('Remove Post deletes the post and every stored file of it, closes its reports and is logged', async () => {
    const [author, reporter, moderator] = [await account(), await account(), await account('moderator')];
    const post = await postOf(author);
    const before = mediaFiles(t);
    const key = post.full
      .slice('/media/'.length)
      .replace(/\.[^/]+$/, '')
      .replace(/-[^/-]+$/, '');
    const filesOfPost = before.filter((file) => file.includes(key.split('/').at(-1)!));
    expect(filesOfPost.length).toBeGreaterThan(1);
    await report(reporter.cookie, { postId: post.id, reason: 'nudity' });
    const removed = await send('POST', API.moderationRemovePost, moderator.cookie, { postId: post.id, note: 'against the rules' });
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await query(t.database, 'SELECT 1 FROM posts WHERE id = $1', [post.id])).toHaveLength(0);
    expect(mediaFiles(t).filter((file) => filesOfPost.includes(file))).toEqual([]);
    expect(await openReports(author.uid)).toBe(0);
    const log = await query<{ actor_username: string; action: string; target_username: string; target_post_id: string; note: string }>(
      t.database,
      'SELECT actor_username, action, target_username, target_post_id, note FROM moderation_log WHERE target_user_id = $1',
      [author.uid],
    );
    expect(log).toEqual([
      {
        actor_username: moderator.username,
        action: 'remove-post',
        target_username: author.username,
        target_post_id: post.id,
        note: 'against the rules',
      },
    ]);
    expectError(await send('POST', API.moderationRemovePost, moderator.cookie, { postId: post.id }), 404, 'POST_NOT_FOUND');
  });

  it('moderators cannot act on admins, other moderators or themselves (403, nothing changes); admins can', async () => {
    const [admin, moderator, otherModerator] = [await account('admin'), await account('moderator'), await account('moderator')];
    for (const target of [admin, moderator, otherModerator]) {
      const post = await postOf(target);
      expectError(await send('POST', API.moderationRemovePost, moderator.cookie, { postId: post.id }), 403, 'MODERATION_NOT_ALLOWED');
      expectError(
        await send('POST', API.moderationSuspend, moderator.cookie, { username: target.username, days: 1 }),
        403,
        'MODERATION_NOT_ALLOWED',
      );
      expect(await query(t.database, 'SELECT 1 FROM posts WHERE id = $1', [post.id])).toHaveLength(1);
    }
    expect(await logActions(admin.uid)).toEqual([]);
    expectError(
      await send('POST', API.moderationSuspend, admin.cookie, { username: admin.username, days: 1 }),
      403,
      'MODERATION_NOT_ALLOWED',
    );
    expect((await send('POST', API.moderationSuspend, admin.cookie, { username: otherModerator.username, days: 1 })).statusCode).toBe(200);
  });

  it('Dismiss closes every open report of the target as dismissed; a second one is a 409', async () => {
    const [author, a, b, moderator] = [await account(), await account(), await account(), await account('moderator')];
    expect((await report(a.cookie, { username: author.username, reason: 'spam' })).statusCode).toBe(204);
    await report(b.cookie, { username: author.username, reason: 'violence' });
    expect((await send('POST', API.moderationDismiss, moderator.cookie, { username: author.username })).statusCode).toBe(204);
    const rows = await query<{ status: string; closed_by: string }>(
      t.database,
      'SELECT status, closed_by FROM reports WHERE target_user_id = $1',
      [author.uid],
    );
    expect(rows).toEqual([
      { status: 'dismissed', closed_by: moderator.uid },
      { status: 'dismissed', closed_by: moderator.uid },
    ]);
    expectError(await send('POST', API.moderationDismiss, moderator.cookie, { username: author.username }), 409, 'REPORTS_ALREADY_CLOSED');
    expect(await logActions(author.uid)).toEqual(['dismiss']);
  });

  it('refuses bad input with a 4xx: unknown targets, bad lengths, long notes', async () => {
    const [author, moderator] = [await account(), await account('moderator')];
    expectError(await send('POST', API.moderationSuspend, moderator.cookie, { username: author.username, days: 2 }), 400, 'BAD_REQUEST');
    expectError(await send('POST', API.moderationSuspend, moderator.cookie, { username: 'nosuchuser', days: 1 }), 404, 'USER_NOT_FOUND');
    expectError(
      await send('POST', API.moderationSuspend, moderator.cookie, { username: author.username, days: 1, note: 'x'.repeat(501) }),
      400,
      'MODERATION_NOTE_TOO_LONG',
    );
    expectError(await send('POST', API.moderationDismiss, moderator.cookie, { postId: 'nosuchpost' }), 404, 'POST_NOT_FOUND');
    expectError(await send('GET', `${API.moderationLog}?cursor=bogus`, moderator.cookie), 400, 'BAD_REQUEST');
    expect(await logActions(author.uid)).toEqual([]);
  });
});

describe('suspensions', () => {
  it('end every session at once and refuse sign-in with the end date, after the password; lifting early is for admins', async () => {
    const [author, reporter, moderator, admin] = [await account(), await account(), await account('moderator'), await account('admin')];
    await report(reporter.cookie, { username: author.username, reason: 'harassment' });
    // Used just before: the embedded database's session cache (on, as in production) holds it.
    expect((await send('GET', API.me, author.cookie)).statusCode).toBe(200);
    const suspended = await send('POST', API.moderationSuspend, moderator.cookie, { username: author.username, days: 7, note: 'threats' });
    expect(suspended.statusCode, suspended.body).toBe(200);
    const until = new Date(suspended.json<{ until: string }>().until);
    expect(until.getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);
    expect(await sessions(author.uid)).toBe(0);
    expectError(await send('GET', API.me, author.cookie), 401, 'NOT_SIGNED_IN');
    expect(await openReports(author.uid)).toBe(0);

    const refused = await login(author);
    expectError(refused, 403, 'ACCOUNT_SUSPENDED_UNTIL');
    const date = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(until);
    expect(refused.json().messages).toEqual([`This account is suspended until ${date} UTC.`]);
    // Without the password nothing tells it apart from any wrong guess.
    expectError(
      await t.app.inject({ method: 'POST', url: API.login, payload: { identifier: author.username, password: 'wrong password 1' } }),
      401,
      'INCORRECT_LOGIN',
    );

    const list = await send('GET', API.moderationSuspended, moderator.cookie);
    expect(list.json<{ users: Array<{ username: string }> }>().users.map((user) => user.username)).toContain(author.username);

    expectError(
      await send('POST', API.moderationUnsuspend, moderator.cookie, { username: author.username }),
      403,
      'MODERATION_NOT_ALLOWED',
    );
    expect((await send('POST', API.moderationUnsuspend, admin.cookie, { username: author.username })).statusCode).toBe(204);
    expect((await login(author)).statusCode).toBe(200);
    expectError(await send('POST', API.moderationUnsuspend, admin.cookie, { username: author.username }), 409, 'NOT_SUSPENDED');
    expect(await logActions(author.uid)).toEqual(['suspend-7', 'unsuspend']);
  });

  it("permanent: 'This account is suspended.'; a suspension ends by itself at its time", async () => {
    const [author, moderator] = [await account(), await account('moderator')];
    expect((await send('POST', API.moderationSuspend, moderator.cookie, { username: author.username, days: null })).statusCode).toBe(200);
    const refused = await login(author);
    expectError(refused, 403, 'ACCOUNT_SUSPENDED');
    expect(refused.json().message).toBe(ERRORS.ACCOUNT_SUSPENDED);
    expect(await logActions(author.uid)).toEqual(['suspend-permanent']);
    await query(t.database, `UPDATE users SET suspended_until = now() - interval '1 second' WHERE id = $1`, [author.uid]);
    expect((await login(author)).statusCode).toBe(200);
  });
});

describe('roles', () => {
  it('admins set roles on /moderation (logged); moderators get a 403, members a 404', async () => {
    const [admin, moderator, member, target] = [await account('admin'), await account('moderator'), await account(), await account()];
    const role = (cookie: string, value: string) => send('PUT', API.moderationRole(target.username), cookie, { role: value });
    expectError(await role(member.cookie, 'admin'), 404, 'NOT_FOUND');
    expectError(await role(moderator.cookie, 'moderator'), 403, 'MODERATION_NOT_ALLOWED');
    expectError(await role(admin.cookie, 'king'), 400, 'BAD_REQUEST');
    const set = await role(admin.cookie, 'moderator');
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().user).toMatchObject({ username: target.username, role: 'moderator' });
    // The new moderator's own session sees the role at once.
    expect((await send('GET', API.me, target.cookie)).json().user.role).toBe('moderator');
    expect((await send('GET', API.moderationQueue, target.cookie)).statusCode).toBe(200);
    expect(await logActions(target.uid)).toEqual(['role-moderator']);
    expectError(await send('PUT', API.moderationRole('nosuchuser'), admin.cookie, { role: 'member' }), 404, 'USER_NOT_FOUND');
  });

  it('npm run admin -- role: sets the role, logged as the command line; bad role exit 2, unknown user exit 1', async () => {
    const target = await account();
    const context = standaloneAdminContext(t.database, t.config);
    const done = await runCommandLine(context, ['role', `@${target.username}`, 'admin']);
    expect(done).toMatchObject({ code: 0 });
    expect(done.stdout).toContain(`@${target.username} is now admin (was member).`);
    expect((await runCommandLine(context, ['role', target.username, 'king'])).code).toBe(2);
    expect((await runCommandLine(context, ['role', target.username])).code).toBe(2);
    expect((await runCommandLine(context, ['role', 'nosuchuser', 'admin'])).code).toBe(1);
    const log = await query<{ actor_username: string; action: string; actor_id: string | null }>(
      t.database,
      'SELECT actor_username, action, actor_id FROM moderation_log WHERE target_user_id = $1',
      [target.uid],
    );
    expect(log).toEqual([{ actor_username: 'admin command line', action: 'role-admin', actor_id: null }]);
  });
});

describe('every moderation route × member / moderator / admin / suspended', () => {
  type Caller = 'member' | 'moderator' | 'admin' | 'suspended moderator';
  interface Route {
    name: string;
    /** Prepares a fresh target and returns the request. */
    prepare(): Promise<(cookie: string) => Promise<LightMyRequestResponse>>;
    /** The status for a moderator and an admin (members and suspended staff: 404). */
    moderator: number;
    admin: number;
  }
  const targetWithReports = async () => {
    const [target, reporter] = [await account(), await account()];
    const post = await postOf(target);
    await report(reporter.cookie, { postId: post.id, reason: 'spam' });
    await report(reporter.cookie, { username: target.username, reason: 'spam' });
    return { target, post };
  };
  const ROUTES: Route[] = [
    { name: 'GET queue', prepare: async () => (cookie) => send('GET', API.moderationQueue, cookie), moderator: 200, admin: 200 },
    { name: 'GET log', prepare: async () => (cookie) => send('GET', API.moderationLog, cookie), moderator: 200, admin: 200 },
    { name: 'GET suspended', prepare: async () => (cookie) => send('GET', API.moderationSuspended, cookie), moderator: 200, admin: 200 },
    {
      name: 'GET person',
      prepare: async () => {
        const { target } = await targetWithReports();
        return (cookie) => send('GET', API.moderationPerson(target.username), cookie);
      },
      moderator: 200,
      admin: 200,
    },
    {
      name: 'POST dismiss',
      prepare: async () => {
        const { post } = await targetWithReports();
        return (cookie) => send('POST', API.moderationDismiss, cookie, { postId: post.id });
      },
      moderator: 204,
      admin: 204,
    },
    {
      name: 'POST remove-post',
      prepare: async () => {
        const { post } = await targetWithReports();
        return (cookie) => send('POST', API.moderationRemovePost, cookie, { postId: post.id });
      },
      moderator: 204,
      admin: 204,
    },
    {
      name: 'POST suspend',
      prepare: async () => {
        const { post } = await targetWithReports();
        return (cookie) => send('POST', API.moderationSuspend, cookie, { postId: post.id, days: 30 });
      },
      moderator: 200,
      admin: 200,
    },
    {
      name: 'POST unsuspend',
      prepare: async () => {
        const target = await account();
        await query(t.database, `UPDATE users SET suspended_until = now() + interval '1 day' WHERE id = $1`, [target.uid]);
        return (cookie) => send('POST', API.moderationUnsuspend, cookie, { username: target.username });
      },
      moderator: 403,
      admin: 204,
    },
    {
      name: 'PUT role',
      prepare: async () => {
        const target = await account();
        return (cookie) => send('PUT', API.moderationRole(target.username), cookie, { role: 'moderator' });
      },
      moderator: 403,
      admin: 200,
    },
  ];
  const CALLERS: Caller[] = ['member', 'moderator', 'admin', 'suspended moderator'];

  async function caller(kind: Caller): Promise<string> {
    if (kind === 'member') return (await account()).cookie;
    if (kind !== 'suspended moderator') return (await account(kind)).cookie;
    const [suspended, admin] = [await account('moderator'), await account('admin')];
    expect((await send('POST', API.moderationSuspend, admin.cookie, { username: suspended.username, days: 1 })).statusCode).toBe(200);
    return suspended.cookie;
  }

  describe.each(ROUTES)('$name', (route) => {
    it.each(CALLERS)('as %s', async (kind) => {
      const cookie = await caller(kind);
      const request = await route.prepare();
      const logBefore = (await query(t.database, 'SELECT 1 FROM moderation_log')).length;
      const response = await request(cookie);
      const expected = kind === 'moderator' ? route.moderator : kind === 'admin' ? route.admin : 404;
      expect(response.statusCode, response.body).toBe(expected);
      if (expected === 404) expect(response.json().code).toBe('NOT_FOUND');
      // Refused calls write nothing to the log; actions write one entry.
      const written = (await query(t.database, 'SELECT 1 FROM moderation_log')).length - logBefore;
      expect(written).toBe(route.name.startsWith('GET') || expected >= 400 ? 0 : 1);
    });
  });
});

describe('blocks and reports', () => {
  it('a report works across a block, either way, by post and by username; it lands in the queue and shows the reporter nothing', async () => {
    const [victim, harasser, blocked, moderator] = [await account(), await account(), await account(), await account('moderator')];
    const harasserPost = await postOf(harasser);
    const blockedPost = await postOf(blocked);
    // The harasser blocks the person they post about first; the victim blocked someone else.
    expect((await send('PUT', API.block(victim.username), harasser.cookie)).statusCode).toBeLessThan(300);
    expect((await send('PUT', API.block(blocked.username), victim.cookie)).statusCode).toBeLessThan(300);
    const sent = [
      await report(victim.cookie, { postId: harasserPost.id, reason: 'harassment' }),
      await report(victim.cookie, { username: `@${harasser.username}`, reason: 'harassment' }),
      await report(victim.cookie, { postId: blockedPost.id, reason: 'spam' }),
      await report(victim.cookie, { username: blocked.username, reason: 'spam' }),
    ];
    // 204 and an empty body: the answer carries nothing of the blocked content.
    for (const response of sent) {
      expect(response.statusCode, response.body).toBe(204);
      expect(response.body).toBe('');
    }
    expect(await openReports(harasser.uid)).toBe(2);
    expect(await openReports(blocked.uid)).toBe(2);
    // The reads still follow the one visibility rule: the victim sees none of the harasser's.
    expectError(await send('GET', API.post(harasserPost.id), victim.cookie), 404, 'POST_NOT_FOUND');
    expectError(await send('GET', API.user(harasser.username), victim.cookie), 404, 'USER_NOT_FOUND');
    const queue = (await send('GET', API.moderationQueue, moderator.cookie)).json<QueueResponse>();
    const keys = queue.items.filter((item) => item.reporters.some((one) => one.username === victim.username)).map((item) => item.key);
    expect(keys.toSorted()).toEqual(
      [`post:${harasserPost.id}`, `user:${harasser.username}`, `post:${blockedPost.id}`, `user:${blocked.username}`].toSorted(),
    );
  });

  it('what may not be reported across a block is what no one may: a missing post or user, a suspended one', async () => {
    const [reporter, blocker] = [await account(), await account()];
    const post = await postOf(blocker);
    expect((await send('PUT', API.block(reporter.username), blocker.cookie)).statusCode).toBeLessThan(300);
    expectError(await report(reporter.cookie, { postId: 'nosuchpost', reason: 'spam' }), 404, 'POST_NOT_FOUND');
    expectError(await report(reporter.cookie, { username: 'nosuchuser', reason: 'spam' }), 404, 'USER_NOT_FOUND');
    await query(t.database, `UPDATE users SET suspended_until = now() + interval '1 day' WHERE id = $1`, [blocker.uid]);
    expectError(await report(reporter.cookie, { postId: post.id, reason: 'spam' }), 404, 'POST_NOT_FOUND');
    expectError(await report(reporter.cookie, { username: blocker.username, reason: 'spam' }), 404, 'USER_NOT_FOUND');
    expect(await openReports(blocker.uid)).toBe(0);
  });
});

describe('the log', () => {
  it('pages newest first', async () => {
    const admin = await account('admin');
    const people = [await account(), await account(), await account()];
    for (const person of people) await send('POST', API.moderationSuspend, admin.cookie, { username: person.username, days: 1 });
    const first = await send('GET', API.moderationLog, admin.cookie);
    const entries = first.json<{ entries: Array<{ targetUsername: string; actor: string; action: string }> }>().entries;
    expect(entries.slice(0, 3).map((entry) => entry.targetUsername)).toEqual(people.map((person) => person.username).reverse());
    expect(entries[0]).toMatchObject({ actor: admin.username, action: 'suspend-1' });
  });
});

describe('Remove Post on S3', () => {
  let s3: LocalS3;
  let s3App: TestApp;
  beforeAll(async () => {
    s3 = await startLocalS3();
    s3App = await createTestApp({}, { storage: s3.storage('moderation/') });
  });
  afterAll(async () => {
    await s3App.close();
    await s3.stop();
  });

  it('deletes every stored file of the post from the bucket, and only those', async () => {
    const author = await signUp(s3App.app, newAccount('s3a'));
    const moderator = await signUp(s3App.app, newAccount('s3m'));
    await query(s3App.database, `UPDATE users SET role = 'moderator' WHERE id = $1`, [moderator.uid]);
    const kept = await createPost(s3App.app, author.cookie, { bytes: await jpeg(70, 50), description: 'stays' });
    const afterFirst = await s3.keys();
    const removed = await createPost(s3App.app, author.cookie, { bytes: await jpeg(80, 60), description: 'goes' });
    const filesOfRemoved = (await s3.keys()).filter((key) => !afterFirst.includes(key));
    expect(filesOfRemoved.length).toBeGreaterThan(1);
    const response = await s3App.app.inject({
      method: 'POST',
      url: API.moderationRemovePost,
      payload: { postId: removed.json().post.id },
      headers: { cookie: moderator.cookie },
    });
    expect(response.statusCode, response.body).toBe(204);
    expect(await s3.keys()).toEqual(afterFirst);
    expect(await query(s3App.database, 'SELECT 1 FROM pending_files')).toHaveLength(0);
    expect(kept.statusCode).toBe(201);
  });
});
