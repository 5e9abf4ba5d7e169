import { createHash, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { imageFileKeys } from '../../src/server/posts/post-images.js';
import { DiskStorage } from '../../src/server/storage/disk-storage.js';
import { contentTypeOf, type Storage } from '../../src/server/storage/storage.js';
import { TrackedFiles } from '../../src/server/storage/tracked-files.js';
import { activityApi } from '../../src/shared/api/activity.js';
import { API } from '../../src/shared/api/paths.js';
import type { PostPage, PostResponse } from '../../src/shared/api/posts.js';
import type { ProfileResponse } from '../../src/shared/api/users.js';
import { USERNAME_HOLD_DAYS } from '../../src/shared/limits.js';
import { newAccount, signUp } from '../helpers/accounts.js';
import { boardSteps, insertPostsBy } from '../helpers/boards.js';
import { jpeg } from '../helpers/images.js';
import { at, expectClientError, expectError, follow, get, insertPosts, mediaDir, mediaFiles, patchMe, query } from '../helpers/people.js';
import { createPost } from '../helpers/posts.js';
import { startPushService, type PushService, type PushSubscriptionJson } from '../helpers/push-service.js';
import { emptyBucket, startLocalS3, type LocalS3 } from '../helpers/s3.js';
import type { ServerProcess } from '../helpers/server-process.js';
import { noPostgres } from '../helpers/services.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { callServer, registerOn, startTwoServers, type TwoServers } from '../helpers/two-servers.js';
import { miscountedBells, notificationSteps } from '../helpers/notification-steps.js';

/**
 * Delete Account (issue 16 point 5): every row and every stored file of the account goes, other
 * users' counts follow, caches forget it at once, and its name is held against impersonation.
 * Files are looked for where they really are: DATA_DIR/media, and an s3rver bucket.
 */
type Account = Awaited<ReturnType<typeof signUp>>;

const deleteAccount = (app: FastifyInstance, cookie: string | undefined, payload: unknown, remoteAddress = '127.0.0.1') =>
  app.inject({ method: 'DELETE', url: API.me, payload: payload as object, remoteAddress, headers: cookie ? { cookie } : {} });

let photo: Buffer;
let icon: Buffer;

async function post(t: TestApp, author: Account, description: string): Promise<string> {
  const response = await createPost(t.app, author.cookie, { bytes: photo, description });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<PostResponse>().post.id;
}

async function setIcon(t: TestApp, user: Account) {
  const response = await patchMe(t.app, user.cookie, [['icon', { bytes: icon, field: 'icon', filename: 'icon.jpg' }]]);
  expect(response.statusCode, response.body).toBe(200);
}

/** Rows of every table that could hold something of these users. */
async function rowsOf(t: TestApp, uid: string) {
  const count = async (sql: string) => Number((await query<{ n: string }>(t.database, sql, [uid]))[0]!.n);
  return {
    users: await count('SELECT count(*) AS n FROM users WHERE id = $1'),
    posts: await count('SELECT count(*) AS n FROM posts WHERE user_id = $1'),
    follows: await count('SELECT count(*) AS n FROM follows WHERE follower_id = $1 OR target_id = $1'),
    sessions: await count('SELECT count(*) AS n FROM sessions WHERE user_id = $1'),
    resets: await count('SELECT count(*) AS n FROM password_resets WHERE user_id = $1'),
  };
}

const NONE = { users: 0, posts: 0, follows: 0, sessions: 0, resets: 0 };

/** The counters on the row, and the edges they count: must agree for everyone. */
async function countsAgree(t: TestApp) {
  const wrong = await query(
    t.database,
    `SELECT id FROM users u
     WHERE follower_count <> (SELECT count(*) FROM follows WHERE target_id = u.id)
        OR following_count <> (SELECT count(*) FROM follows WHERE follower_id = u.id)`,
  );
  expect(wrong).toEqual([]);
}

const profile = async (t: TestApp, username: string) => (await get(t.app, API.user(username))).json<ProfileResponse>().user;

const pendingKeys = async (t: TestApp) =>
  (await query<{ key: string }>(t.database, 'SELECT key FROM pending_files ORDER BY key')).map((r) => r.key);

beforeAll(async () => {
  [photo, icon] = await Promise.all([jpeg(900, 600), jpeg(400, 400)]);
});

describe('DELETE /api/me', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('removes the account, its posts, follows both ways, sessions, reset link and every file, and nothing of anyone else', async () => {
    const [alice, bob, carol] = [await signUp(t.app), await signUp(t.app), await signUp(t.app)];
    await setIcon(t, alice);
    await setIcon(t, bob);
    await post(t, alice, 'alice one');
    await post(t, alice, 'alice two');
    await post(t, bob, 'bob one');
    for (const [who, whom] of [
      [alice, bob],
      [alice, carol],
      [bob, alice],
      [carol, alice],
      [bob, carol],
    ] as const) {
      expect((await follow(t.app, whom.username, who.cookie)).statusCode).toBe(200);
    }
    // A second signed-in browser, and a live reset link.
    const otherBrowser = await t.app.inject({
      method: 'POST',
      url: API.login,
      payload: { identifier: alice.username, password: alice.password },
    });
    expect(otherBrowser.statusCode).toBe(200);
    await query(
      t.database,
      "INSERT INTO password_resets (user_id, token_hash, expires_at) VALUES ($1, 'hash-' || $1, now() + interval '1 hour')",
      [alice.uid],
    );

    // Three files per post (original, two widths), two per icon.
    expect(mediaFiles(t)).toHaveLength(3 * 3 + 2 * 2);
    expect(await rowsOf(t, alice.uid)).toMatchObject({ users: 1, posts: 2, follows: 4, sessions: 2, resets: 1 });

    const response = await deleteAccount(t.app, alice.cookie, { password: alice.password });
    expect(response.statusCode, response.body).toBe(204);
    // The browser's cookie is cleared.
    expect(response.cookies.find((c) => c.name === 'session')?.value).toBe('');

    expect(await rowsOf(t, alice.uid)).toEqual(NONE);
    // Both of her sessions are over.
    expectError(await get(t.app, API.me, alice.cookie), 401, 'NOT_SIGNED_IN');
    const otherCookie = `session=${otherBrowser.cookies.find((c) => c.name === 'session')!.value}`;
    expectError(await get(t.app, API.me, otherCookie), 401, 'NOT_SIGNED_IN');
    // Everyone else's counts moved with her follows.
    await countsAgree(t);
    expect(await profile(t, bob.username)).toMatchObject({ followers: 0, following: 1 });
    expect(await profile(t, carol.username)).toMatchObject({ followers: 1, following: 0 });
    expectError(await get(t.app, API.user(alice.username)), 404, 'USER_NOT_FOUND');
    // On disk: only Bob's post and icon are left, every size of them; nothing is pending.
    const after = mediaFiles(t);
    const bobPost = (await get(t.app, API.userPosts(bob.username))).json<PostPage>().posts[0]!;
    const bobIcon = (await profile(t, bob.username)).icon!;
    expect(after.length).toBe(3 + 2);
    expect(after.every((file) => file.startsWith(`images/${bobPost.id}/`) || file.startsWith(`profiles/${bob.uid}/`))).toBe(true);
    expect(after).toContain(bobIcon.slice('/media/'.length));
    expect(after.some((file) => file.includes(alice.uid))).toBe(false);
    expect(await pendingKeys(t)).toEqual([]);
    // Her empty folders are gone too.
    expect(fs.existsSync(`${mediaDir(t)}/profiles/${alice.uid}`)).toBe(false);
  });

  it('refuses a wrong password with "Incorrect password." and changes nothing', async () => {
    const alice = await signUp(t.app);
    await post(t, alice, 'still here');
    const files = mediaFiles(t);
    expectError(await deleteAccount(t.app, alice.cookie, { password: 'not the password' }), 401, 'INCORRECT_PASSWORD');
    expect(await rowsOf(t, alice.uid)).toMatchObject({ users: 1, posts: 1, sessions: 1 });
    expect(mediaFiles(t)).toEqual(files);
    expect((await get(t.app, API.me, alice.cookie)).statusCode).toBe(200);
  });

  it('asks signed-out visitors to sign in, and answers bad bodies with a 4xx', async () => {
    const alice = await signUp(t.app);
    expectError(await deleteAccount(t.app, undefined, { password: alice.password }), 401, 'NOT_SIGNED_IN');
    expectError(await deleteAccount(t.app, 'session=forged', { password: alice.password }), 401, 'NOT_SIGNED_IN');
    expectError(await deleteAccount(t.app, alice.cookie, { password: '' }), 400, 'FILL_IN_ALL_FIELDS');
    for (const body of [{}, { password: 7 }, { password: null }, { password: alice.password, extra: 1 }, [], 'x'.repeat(10)]) {
      expectClientError(await deleteAccount(t.app, alice.cookie, body));
    }
    expectClientError(await t.app.inject({ method: 'DELETE', url: API.me, headers: { cookie: alice.cookie } }));
    expect((await rowsOf(t, alice.uid)).users).toBe(1);
  });

  it('a second deletion from another of her browsers finds the session ended', async () => {
    const alice = await signUp(t.app);
    const other = await t.app.inject({ method: 'POST', url: API.login, payload: { identifier: alice.username, password: alice.password } });
    const otherCookie = `session=${other.cookies.find((c) => c.name === 'session')!.value}`;
    const [first, second] = await Promise.all([
      deleteAccount(t.app, alice.cookie, { password: alice.password }),
      deleteAccount(t.app, otherCookie, { password: alice.password }),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([204, 401]);
    expect(await rowsOf(t, alice.uid)).toEqual(NONE);
  });
});

describe('DELETE /api/me: notifications and pushes (issue 30)', () => {
  let t: TestApp;
  let push: PushService;

  beforeAll(async () => {
    push = await startPushService();
    // Retries a minute on: what a failing service leaves queued stays queued for the test.
    t = await createTestApp(
      { notifications: { ...loadConfig({}).notifications, pushServices: [push.origin] } },
      { pushRetryBaseMs: 60_000 },
    );
  });
  afterAll(async () => {
    await t?.close();
    await push?.close();
  });

  /** A device at the test's push service, with follows and saves pushed. */
  async function pushedTo(account: Account, device: PushSubscriptionJson) {
    const steps = notificationSteps(t.app);
    await steps.add(account, device);
    await steps.set(account, { follows: { push: true }, saves: { push: true } });
  }

  const unread = async (account: Account) =>
    (await get(t.app, activityApi.unreadCount.path, account.cookie)).json<{ unread: number }>().unread;
  const count = async (sql: string, params: unknown[]) => (await query(t.database, sql, params)).length;

  it('removes her notifications, the ones she caused (the bells drop), her devices, and every push queued to them or about her', async () => {
    const [alice, bob, carol, dave] = [await signUp(t.app), await signUp(t.app), await signUp(t.app), await signUp(t.app)];
    const [alicesPhone, bobsPhone] = [push.subscribe(), push.subscribe()];
    await pushedTo(alice, alicesPhone);
    await pushedTo(bob, bobsPhone);

    // A push to Alice's phone waits in the queue: its service failed it.
    push.respondWith(alicesPhone.endpoint, 500);
    expect((await follow(t.app, alice.username, carol.cookie)).statusCode).toBe(200);
    // Bob and Carol are told of Alice's follows, Carol of Dave's too.
    for (const [who, whom] of [
      [alice, bob],
      [alice, carol],
      [dave, carol],
    ] as const) {
      expect((await follow(t.app, whom.username, who.cookie)).statusCode).toBe(200);
    }
    // (Waited for, not idle(): this app's 15 s look for due pushes may be the one sending it.)
    expect((await push.waitFor((m) => m.endpoint === bobsPhone.endpoint)).payload).toMatchObject({
      body: `${alice.username} followed you`,
    });
    await t.app.pushSender.idle();
    // A push about Alice waits for Bob: she saved his post while his service was failing.
    push.respondWith(bobsPhone.endpoint, 500);
    const [bobsPost] = await insertPostsBy(t.database, bob.uid, 1);
    const board = await boardSteps(t.app).create(alice, { name: 'Alice picks' });
    await boardSteps(t.app).save(alice, board.id, bobsPost!);
    await t.app.pushSender.idle();

    const queuedTo = (endpoint: string) =>
      count('SELECT 1 FROM push_deliveries d JOIN push_subscriptions s ON s.id = d.subscription_id WHERE s.endpoint = $1', [endpoint]);
    expect([await queuedTo(alicesPhone.endpoint), await queuedTo(bobsPhone.endpoint)]).toEqual([1, 1]);
    expect([await unread(alice), await unread(bob), await unread(carol)]).toEqual([1, 2, 2]);

    const deleted = await deleteAccount(t.app, alice.cookie, { password: alice.password });
    expect(deleted.statusCode, deleted.body).toBe(204);

    expect(await count('SELECT 1 FROM notifications WHERE user_id = $1 OR actor_id = $1', [alice.uid])).toBe(0);
    expect(await count('SELECT 1 FROM push_subscriptions WHERE user_id = $1', [alice.uid])).toBe(0);
    expect(await count('SELECT 1 FROM push_deliveries WHERE actor_id = $1', [alice.uid])).toBe(0);
    expect([await queuedTo(alicesPhone.endpoint), await queuedTo(bobsPhone.endpoint)]).toEqual([0, 0]);
    // The bells: Bob's two rows were hers; Carol keeps Dave's.
    expect([await unread(bob), await unread(carol)]).toEqual([0, 1]);
    expect(await miscountedBells(t.database)).toEqual([]);
    // Bob keeps his device, and Carol her row about Dave.
    expect(await count('SELECT 1 FROM push_subscriptions WHERE endpoint = $1 AND user_id = $2', [bobsPhone.endpoint, bob.uid])).toBe(1);
    expect(await count('SELECT 1 FROM notifications WHERE user_id = $1 AND actor_id = $2', [carol.uid, dave.uid])).toBe(1);

    // The services work again: nothing of hers is left to send.
    push.respondWith(alicesPhone.endpoint, 201);
    push.respondWith(bobsPhone.endpoint, 201);
    await query(t.database, 'UPDATE push_deliveries SET next_attempt_at = now()');
    await t.app.pushSender.drain();
    expect(push.received.filter((m) => m.endpoint === alicesPhone.endpoint)).toEqual([]);
    expect(push.received.filter((m) => m.endpoint === bobsPhone.endpoint)).toHaveLength(1);
  });
});

describe('DELETE /api/me: the security log', () => {
  const raw: string[] = [];
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ logLevel: 'info' }, { logStream: { write: (line: string) => void raw.push(line) } });
  });
  afterAll(() => t.close());

  it('a wrong password is a warning naming the account; the deletion an info line; neither holds the password or e-mail', async () => {
    const alice = await signUp(t.app);
    raw.length = 0;
    await deleteAccount(t.app, alice.cookie, { password: 'a wrong guess' });
    expect((await deleteAccount(t.app, alice.cookie, { password: alice.password })).statusCode).toBe(204);
    const events = raw.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.security);
    expect(events).toEqual([
      expect.objectContaining({
        level: 40,
        security: 'password check failed',
        code: 'INCORRECT_PASSWORD',
        userId: alice.uid,
        route: API.me,
      }),
      expect.objectContaining({ level: 30, security: 'deleted account', userId: alice.uid, route: API.me }),
    ]);
    for (const secret of [alice.password, 'a wrong guess', alice.email]) expect(raw.join('\n')).not.toContain(secret);
  });
});

describe('DELETE /api/me: caches forget the account at once', () => {
  let t: TestApp;

  beforeAll(async () => {
    // Caches on for a minute (createTestApp): only the change can make these reads fresh.
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('feed, post page, related posts, search, profiles and counts read before the deletion no longer show her', async () => {
    const [alice, bob] = [await signUp(t.app), await signUp(t.app)];
    const word = `gone${Date.now().toString(36)}`;
    const alicePost = await post(t, alice, `${word} by alice`);
    const bobPost = await post(t, bob, `${word} by bob`);
    await follow(t.app, alice.username, bob.cookie);
    await follow(t.app, bob.username, alice.cookie);

    const reads = {
      feed: () => get(t.app, API.posts),
      feedSeenByBob: () => get(t.app, API.posts, bob.cookie),
      alicePost: () => get(t.app, API.post(alicePost)),
      related: () => get(t.app, API.related(bobPost)),
      search: () => get(t.app, API.searchPosts(word)),
      aliceProfile: () => get(t.app, API.user(alice.username)),
      alicePosts: () => get(t.app, API.userPosts(alice.username)),
    };
    // Read (and cache) every one of them with her in it.
    for (const [name, read] of Object.entries(reads)) {
      const body = (await read()).body;
      expect(body.includes(alicePost) || body.includes(alice.uid), name).toBe(true);
    }
    expect((await get(t.app, API.user(bob.username))).json<ProfileResponse>().user).toMatchObject({ followers: 1, following: 1 });

    expect((await deleteAccount(t.app, alice.cookie, { password: alice.password })).statusCode).toBe(204);

    for (const [name, read] of Object.entries(reads)) {
      const response = await read();
      expect(response.body, name).not.toContain(alice.uid);
      expect(response.body, name).not.toContain(alicePost);
    }
    expectError(await reads.alicePost(), 404, 'POST_NOT_FOUND');
    expectError(await reads.aliceProfile(), 404, 'USER_NOT_FOUND');
    expectError(await reads.alicePosts(), 404, 'USER_NOT_FOUND');
    expect((await get(t.app, API.user(bob.username))).json<ProfileResponse>().user).toMatchObject({ followers: 0, following: 0 });
    expect((await reads.search()).body).toContain(bobPost);
  });
});

describe('DELETE /api/me: the session cache (embedded database) drops her sessions', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ sessionCacheMs: 60_000 });
  });
  afterAll(() => t.close());

  it('a cached session of hers stops working at once', async () => {
    const alice = await signUp(t.app);
    const other = await t.app.inject({ method: 'POST', url: API.login, payload: { identifier: alice.username, password: alice.password } });
    const otherCookie = `session=${other.cookies.find((c) => c.name === 'session')!.value}`;
    expect((await get(t.app, API.me, otherCookie)).statusCode).toBe(200);
    expect((await deleteAccount(t.app, alice.cookie, { password: alice.password })).statusCode).toBe(204);
    expectError(await get(t.app, API.me, otherCookie), 401, 'NOT_SIGNED_IN');
  });
});

describe('DELETE /api/me: wrong passwords are limited like sign-in failures', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    t.config.rateLimits.loginFailuresPerAccount = 3;
    t.config.rateLimits.loginPerIp = 5;
  });
  afterAll(() => t.close());

  it('per account, from any address: then even the right password waits, and the account stays', async () => {
    const alice = await signUp(t.app);
    for (let i = 0; i < 3; i += 1) {
      const address = `10.1.0.${i + 1}`;
      expectError(await deleteAccount(t.app, alice.cookie, { password: `wrong ${i}` }, address), 401, 'INCORRECT_PASSWORD');
    }
    const refused = await deleteAccount(t.app, alice.cookie, { password: alice.password }, '10.1.0.9');
    expectError(refused, 429, 'RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await rowsOf(t, alice.uid)).users).toBe(1);
  });

  it('per address (an IPv6 /64 is one), whatever the account', async () => {
    const accounts = [await signUp(t.app), await signUp(t.app), await signUp(t.app)];
    const address = (n: number) => `2001:db8:5:7::${n}`;
    let n = 0;
    for (const account of accounts.slice(0, 2)) {
      for (let i = 0; i < 2; i += 1) {
        expectError(await deleteAccount(t.app, account.cookie, { password: 'wrong' }, address((n += 1))), 401, 'INCORRECT_PASSWORD');
      }
    }
    expectError(await deleteAccount(t.app, accounts[2]!.cookie, { password: 'wrong' }, address(99)), 401, 'INCORRECT_PASSWORD');
    // The fifth failure from this /64 used its last slot: now it waits, right password or not.
    expectError(await deleteAccount(t.app, accounts[2]!.cookie, { password: accounts[2]!.password }, address(100)), 429, 'RATE_LIMITED');
    // Another address is not held up by this one.
    expect((await deleteAccount(t.app, accounts[2]!.cookie, { password: accounts[2]!.password }, '10.9.9.9')).statusCode).toBe(204);
  });
});

describe('the name of a deleted account', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const register = (body: { username: string; email: string; password: string }) =>
    t.app.inject({ method: 'POST', url: API.register, payload: body });

  it(`is held for ${USERNAME_HOLD_DAYS} days for anyone else; the e-mail is free at once`, async () => {
    const alice = await signUp(t.app);
    expect((await deleteAccount(t.app, alice.cookie, { password: alice.password })).statusCode).toBe(204);

    const impostor = { ...newAccount(), username: alice.username };
    const refused = await register(impostor);
    expectError(refused, 409, 'USERNAME_TAKEN');
    // Her e-mail address with another name: free at once.
    const sameEmail = { ...newAccount(), email: alice.email };
    expect((await register(sameEmail)).statusCode).toBe(201);
  });

  // Issue 26 (9): typing the deleted account's address got the name back at once, which also
  // told anyone whether a guessed address was the account's. Without mail nobody can prove an
  // address, so the name stays held whatever is typed (with mail, tests/api/username-claim.test.ts).
  it('is held from its own e-mail address too, however it is typed (without mail nobody can prove an address)', async () => {
    const alice = await signUp(t.app);
    expect((await deleteAccount(t.app, alice.cookie, { password: alice.password })).statusCode).toBe(204);
    for (const email of [alice.email, alice.email.toUpperCase(), alice.email.replace('@', '\uFF20')]) {
      const again = await register({ username: alice.username.toUpperCase(), email, password: 'another pass 5' });
      expectError(again, 409, 'USERNAME_TAKEN');
    }
    // A wrong guess gets the very same answer: the answer tells nothing about the address.
    const guess = await register({ username: alice.username, email: `not-${alice.email}`, password: 'another pass 5' });
    expectError(guess, 409, 'USERNAME_TAKEN');
  });

  it('keeps the address only keyed with the server secret: not its SHA-256, not testable without the secret', async () => {
    const alice = await signUp(t.app);
    expect((await deleteAccount(t.app, alice.cookie, { password: alice.password })).statusCode).toBe(204);
    const [held] = await query<Record<string, unknown>>(t.database, 'SELECT * FROM released_usernames WHERE username = $1', [
      alice.username,
    ]);
    const stored = JSON.stringify(held);
    expect(stored).not.toContain(alice.email);
    expect(stored).not.toContain(createHash('sha256').update(alice.email).digest('hex'));
    expect(stored).not.toContain(createHash('sha256').update(alice.email.toUpperCase()).digest('hex'));
    // It is HMAC-SHA-256 with DATA_DIR/server-secret, made at the first start (owner-only).
    const secretFile = path.join(t.config.dataDir, 'server-secret');
    expect(fs.statSync(secretFile).mode & 0o777).toBe(0o600);
    const secret = Buffer.from(fs.readFileSync(secretFile, 'utf8'), 'base64url');
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(held!.email_hmac).toBe(createHmac('sha256', secret).update(`username-hold\0${alice.email}`).digest('hex'));
    // Another server's secret gives another value: a copy of the rows alone cannot be tested.
    expect(held!.email_hmac).not.toBe(createHmac('sha256', randomBytes(32)).update(`username-hold\0${alice.email}`).digest('hex'));
  });

  it(`is free for anyone after ${USERNAME_HOLD_DAYS} days, and expired holds are pruned`, async () => {
    const alice = await signUp(t.app);
    expect((await deleteAccount(t.app, alice.cookie, { password: alice.password })).statusCode).toBe(204);
    await query(
      t.database,
      `UPDATE released_usernames SET released_at = now() - interval '${USERNAME_HOLD_DAYS} days' - interval '1 minute' WHERE username = $1`,
      [alice.username],
    );
    const newcomer = await register({ ...newAccount(), username: alice.username });
    expect(newcomer.statusCode, newcomer.body).toBe(201);
    // The next deletion prunes the expired hold.
    const bob = await signUp(t.app);
    await query(t.database, 'DELETE FROM users WHERE username = $1', [alice.username]);
    expect((await deleteAccount(t.app, bob.cookie, { password: bob.password })).statusCode).toBe(204);
    const holds = await query<{ username: string }>(t.database, 'SELECT username FROM released_usernames WHERE username IN ($1, $2)', [
      alice.username,
      bob.username,
    ]);
    expect(holds.map((row) => row.username)).toEqual([bob.username]);
  });
});

describe('DELETE /api/me: a large account (1,000 posts, 3,000 files)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('goes whole, in bounded statements, and says how long it took', async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    await post(t, bob, 'stays');
    const POSTS = 1_000;
    const seeds = Array.from({ length: POSTS }, (_, i) => ({ id: `big${process.pid}p${i}`, userId: alice.uid, at: at(i) }));
    await insertPosts(t.database, seeds);
    // Their files, as the upload would have written them (small bodies: what is timed is the deletion).
    const disk = new DiskStorage(mediaDir(t));
    const keys = seeds.flatMap((seed) => imageFileKeys(`images/${seed.id}/v1`));
    for (let i = 0; i < keys.length; i += 100) {
      await Promise.all(keys.slice(i, i + 100).map((key) => disk.put(key, Buffer.from(key), contentTypeOf(key)!)));
    }
    expect(mediaFiles(t)).toHaveLength(keys.length + 3);

    const started = performance.now();
    const response = await deleteAccount(t.app, alice.cookie, { password: alice.password });
    const ms = performance.now() - started;
    expect(response.statusCode, response.body).toBe(204);
    console.log(`deleted an account of ${POSTS} posts (${keys.length} files) in ${Math.round(ms)} ms on ${t.database.kind}`);

    expect(await rowsOf(t, alice.uid)).toEqual(NONE);
    expect(mediaFiles(t)).toHaveLength(3);
    expect(await pendingKeys(t)).toEqual([]);
  }, 120_000);
});

/** Deletes that fail while `failing` is set: storage unreachable, or a crash right after the commit. */
class FlakyDeletes implements Storage {
  failing = false;
  constructor(private readonly inner: Storage) {}
  put(key: string, body: Buffer, contentType: string) {
    return this.inner.put(key, body, contentType);
  }
  get(key: string) {
    return this.inner.get(key);
  }
  async delete(key: string) {
    if (this.failing) throw new Error('storage unreachable');
    await this.inner.delete(key);
  }
}

describe('DELETE /api/me: files the deletion could not remove are left for the sweep, never forgotten', () => {
  let t: TestApp;
  let storage: FlakyDeletes;
  let disk: DiskStorage;

  beforeAll(async () => {
    const dataDir = fs.mkdtempSync(`${(await import('node:os')).tmpdir()}/dormboard-delete-`);
    disk = new DiskStorage(`${dataDir}/media`);
    storage = new FlakyDeletes(disk);
    t = await createTestApp({}, { storage });
  });
  afterAll(() => t.close());

  it('the rows are gone, the keys stay pending with their files, and the sweep deletes them', async () => {
    const alice = await signUp(t.app);
    const postId = await post(t, alice, 'files that outlive a crash');
    await setIcon(t, alice);
    storage.failing = true;
    expect((await deleteAccount(t.app, alice.cookie, { password: alice.password })).statusCode).toBe(204);
    expect(await rowsOf(t, alice.uid)).toEqual(NONE);
    const pending = await pendingKeys(t);
    expect(pending.filter((key) => key.startsWith(`images/${postId}/`))).toHaveLength(3);
    expect(pending.filter((key) => key.startsWith(`profiles/${alice.uid}/`))).toHaveLength(2);
    expect(await Promise.all(pending.map(async (key) => (await disk.get(key)) !== undefined))).toEqual(pending.map(() => true));

    storage.failing = false;
    const sweeper = new TrackedFiles(t.database.orm, storage, t.app.log, t.app.changes);
    expect(await sweeper.sweep(0)).toBe(5);
    expect(await pendingKeys(t)).toEqual([]);
    expect(await Promise.all(pending.map((key) => disk.get(key)))).toEqual(pending.map(() => undefined));
  });
});

describe('DELETE /api/me on S3', () => {
  let s3: LocalS3;
  let t: TestApp;

  beforeAll(async () => {
    s3 = await startLocalS3();
    t = await createTestApp({}, { storage: s3.storage('delete-account/') });
  }, 30_000);
  afterEach(() => emptyBucket(s3));
  afterAll(async () => {
    await t?.close();
    await s3?.stop();
  });

  it('removes every object of the account from the bucket and leaves everyone else’s', async () => {
    const [alice, bob] = [await signUp(t.app), await signUp(t.app)];
    const alicePosts = [await post(t, alice, 'one'), await post(t, alice, 'two')];
    const bobPost = await post(t, bob, 'bob');
    await setIcon(t, alice);
    await setIcon(t, bob);
    const before = await s3.keys();
    expect(before.filter((key) => alicePosts.some((id) => key.includes(id)) || key.includes(alice.uid))).toHaveLength(2 * 3 + 2);

    expect((await deleteAccount(t.app, alice.cookie, { password: alice.password })).statusCode).toBe(204);
    const after = await s3.keys();
    expect(after).toHaveLength(3 + 2);
    expect(
      after.every((key) => key.startsWith(`delete-account/images/${bobPost}/`) || key.startsWith(`delete-account/profiles/${bob.uid}/`)),
    ).toBe(true);
    expect(await pendingKeys(t)).toEqual([]);
  });
});

describe.skipIf(noPostgres)('DELETE /api/me across two processes (PostgreSQL, S3, caches on)', { timeout: 120_000 }, () => {
  let servers: TwoServers;
  let a: ServerProcess;
  let b: ServerProcess;

  const call = callServer;
  const register = (server: ServerProcess) => registerOn(server, 'twoproc');

  async function upload(server: ServerProcess, cookie: string, description: string) {
    const form = new FormData();
    form.append('description', description);
    form.append('photo', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'photo.jpg');
    const response = await call(server, 'POST', API.posts, cookie, form);
    expect(response.status, await response.clone().text()).toBe(201);
    return ((await response.json()) as PostResponse).post.id;
  }

  beforeAll(async () => {
    servers = await startTwoServers('delete-account');
    ({ a, b } = servers);
  }, 120_000);

  afterAll(() => servers?.stop(), 60_000);

  it('deleted on A: her cookie fails on B, B no longer shows her posts or counts her follows, the bucket holds none of her files', async () => {
    const alice = await register(a);
    const bob = await register(b);
    const alicePost = await upload(a, alice.cookie, 'alice on the quad');
    const bobPost = await upload(b, bob.cookie, 'bob on the quad');
    expect((await call(b, 'PUT', API.follow(alice.username), bob.cookie)).status).toBe(200);
    expect((await call(a, 'PUT', API.follow(bob.username), alice.cookie)).status).toBe(200);
    // B has answered (and cached) what the deletion makes wrong.
    const reads = [API.posts, API.post(alicePost), API.related(bobPost), API.userPosts(alice.username)];
    for (const url of reads) expect(await (await call(b, 'GET', url)).text()).toContain(alicePost);
    const bobProfile = async () => ((await (await call(b, 'GET', API.user(bob.username))).json()) as ProfileResponse).user;
    expect(await bobProfile()).toMatchObject({ followers: 1, following: 1 });
    expect((await call(b, 'GET', API.me, alice.cookie)).status).toBe(200);

    expect((await call(a, 'DELETE', API.me, alice.cookie, { password: alice.password })).status).toBe(204);

    expect((await call(b, 'GET', API.me, alice.cookie)).status).toBe(401);
    // Other users' reads on B hear of it within moments (LISTEN/NOTIFY), not after the cache's minute.
    await expect
      .poll(async () => Promise.all(reads.map(async (url) => (await (await call(b, 'GET', url)).text()).includes(alicePost))), {
        // Generous for a loaded machine, yet a third of the caches' minute: a lost notice still fails.
        timeout: 20_000,
      })
      .toEqual(reads.map(() => false));
    expect(await bobProfile()).toMatchObject({ followers: 0, following: 0 });
    const keys = await servers.s3.keys();
    expect(keys.length).toBe(3);
    expect(keys.every((key) => key.startsWith(`${servers.s3Prefix}images/${bobPost}/`))).toBe(true);
  });
});
