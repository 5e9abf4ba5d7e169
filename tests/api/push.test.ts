import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { loadConfig, type Config, type NotificationConfig } from '../../src/server/config.js';
import { loadVapidKeys, type VapidKeys } from '../../src/server/notifications/push-keys.js';
import { PushSender } from '../../src/server/notifications/push-sender.js';
import {
  activityApi,
  NotificationTopic,
  type NotificationPreferences,
  type NotificationSettings,
  type PushSubscriptionBody,
} from '../../src/shared/api/activity.js';
import { API } from '../../src/shared/api/paths.js';
import { ERRORS } from '../../src/shared/errors.js';
import { PUSH_DEVICES_MAX } from '../../src/shared/limits.js';
import { signUp } from '../helpers/accounts.js';
import { boardSteps, insertPostsBy } from '../helpers/boards.js';
import { expectClientError, expectError, follow, insertUsers, query } from '../helpers/people.js';
import { tempDir } from '../helpers/processes.js';
import { startPushService, type PushMessage, type PushService, type PushSubscriptionJson } from '../helpers/push-service.js';
import { createTestApp, createTestDatabase, testConfig, TEST_RATE_LIMITS, type TestApp } from '../helpers/test-app.js';
import { refusal } from '../helpers/config.js';
import { CHROME_LINUX, notificationRoutes, notificationSteps } from '../helpers/notification-steps.js';

/**
 * Web Push (issue 30): the devices API (POST/DELETE /api/me/push-devices, GET/PUT
 * /api/me/notifications), and pushes delivered for real to a push service on the loopback
 * (tests/helpers/push-service.ts), which checks the VAPID JWT and decrypts each payload as a
 * browser would. Failures (404/410, 5xx, 429 with Retry-After, no answer) are driven through the
 * sender's queue, with its retries made due by SQL rather than waited for.
 *
 * Determinism: every app here is built with its periodic tasks stopped (withoutTimers), so the
 * push sender runs only when an event wakes it (awaited with pushSender.idle()) or when a test
 * calls pushSender.drain(); what a test reads afterwards never depends on a 15 s timer firing
 * in between.
 */

type Account = Awaited<ReturnType<typeof signUp>>;

const FIREFOX_ANDROID = 'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

/** A device's id as the page computes its own: the first 32 hex digits of its endpoint's SHA-256. */
const deviceId = (endpoint: string) => createHash('sha256').update(endpoint).digest('hex').slice(0, 32);

/** Every topic in the app, none as a push: what an account starts with. */
const DEFAULT_SETTINGS = Object.fromEntries(
  NotificationTopic.options.map((topic) => [topic, { app: true, push: false }]),
) as NotificationSettings;

/**
 * Runs `build` (an app's start) with setInterval stood still: the app's periodic tasks (the push
 * sender's 15 s look for due retries among them) are registered but never fire. Their run at
 * start still happens, and is over once the app is ready.
 */
async function withoutTimers<T>(build: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['setInterval'] });
  try {
    return await build();
  } finally {
    vi.useRealTimers();
  }
}

/** A test app whose devices may subscribe through `services` only, and whose timers never fire. */
function pushApp(
  services: string[],
  options: { notifications?: Partial<NotificationConfig>; overrides?: Partial<Config>; retryBaseMs?: number } = {},
): Promise<TestApp> {
  const notifications = { ...loadConfig({}).notifications, pushServices: services, ...options.notifications };
  return withoutTimers(() => createTestApp({ ...options.overrides, notifications }, { pushRetryBaseMs: options.retryBaseMs ?? 50 }));
}

/** The queue of pushes to `endpoint`'s subscription, as stored; `dueIn`: seconds until its next try. */
async function queueOf(t: TestApp, endpoint: string) {
  return query<{ attempts: number; dueIn: number; actorId: string | null; payload: string }>(
    t.database,
    `SELECT d.attempts, extract(epoch FROM d.next_attempt_at - now())::float8 AS "dueIn", d.actor_id AS "actorId", d.payload
     FROM push_deliveries d JOIN push_subscriptions s ON s.id = d.subscription_id
     WHERE s.endpoint = $1 ORDER BY d.created_at`,
    [endpoint],
  );
}

async function subscriptionOf(t: TestApp, endpoint: string) {
  const [row] = await query<{
    id: string;
    userId: string;
    p256dh: string;
    auth: string;
    vapidKey: string;
    label: string;
    lastSentAt: unknown;
  }>(
    t.database,
    `SELECT id, user_id AS "userId", p256dh, auth, vapid_key AS "vapidKey", label, last_sent_at AS "lastSentAt"
     FROM push_subscriptions WHERE endpoint = $1`,
    [endpoint],
  );
  return row;
}

/** The pushes queued to `endpoint` made due now: the next drain() tries them, instead of the test waiting out a backoff. */
const makeDue = (t: TestApp, endpoint: string) =>
  query(t.database, 'UPDATE push_deliveries SET next_attempt_at = now() WHERE subscription_id = $1', [deviceId(endpoint)]);

/** What the push service accepted for `endpoint`, in order. */
const arrivedAt = (push: PushService, endpoint: string): PushMessage[] => push.received.filter((m) => m.endpoint === endpoint);

/** A new account follows `target` (a new one each time: a repeat by the same person within a day is not news). */
async function newFollower(t: TestApp, target: Account): Promise<Account> {
  const follower = await signUp(t.app);
  const response = await follow(t.app, target.username, follower.cookie);
  expect(response.statusCode, response.body).toBe(200);
  return follower;
}

/** The push a follow by `follower` makes, as the service decrypts it. */
const followPush = (t: TestApp, follower: Account) => ({
  title: t.config.appName,
  body: `${follower.username} followed you`,
  url: `/@${follower.username}`,
  // The row's group: a device shows one notification for the day's follows, the newest.
  tag: 'follow',
});

/**
 * A push service of the test's own, that answers what `answer` says (a status and headers), or
 * never answers at all: for Retry-After and for a service that hangs. It neither checks nor
 * decrypts (tests/helpers/push-service.ts does); it counts the requests.
 */
interface PlainService {
  origin: string;
  requests: string[];
  answer: { status: number; headers?: Record<string, string> } | 'never';
  close(): Promise<void>;
}

async function startPlainService(): Promise<PlainService> {
  const server = http.createServer((request, response) => {
    request.resume();
    service.requests.push(`${request.method} ${request.url}`);
    const { answer } = service;
    if (answer === 'never') return; // the request stays open until the client gives up
    response.writeHead(answer.status, answer.headers).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const service: PlainService = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: [],
    answer: { status: 201 },
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
  return service;
}

/** A logger that keeps what it was told (the sender's info and warn lines), for a sender built here. */
function keptLog() {
  const lines: Array<{ level: string; message: string }> = [];
  const at =
    (level: string) =>
    (...args: unknown[]) => {
      lines.push({ level, message: String(args.find((arg) => typeof arg === 'string') ?? '') });
    };
  const log = { info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug'), trace: at('trace'), fatal: at('fatal') };
  return { lines, log: { ...log, child: () => log, level: 'info', silent: () => undefined } as unknown as FastifyBaseLogger };
}

let push: PushService;
beforeAll(async () => {
  push = await startPushService();
});
afterAll(async () => {
  await push?.close();
});

describe('the devices API', () => {
  let t: TestApp;
  let api: ReturnType<typeof notificationRoutes>;
  let step: ReturnType<typeof notificationSteps>;

  beforeAll(async () => {
    t = await pushApp([push.origin], { retryBaseMs: 60_000 });
    api = notificationRoutes(t.app);
    step = notificationSteps(t.app);
  });
  afterAll(() => t?.close());

  it('starts with every topic in the app and none as a push, no devices, and the VAPID public key', async () => {
    const alice = await signUp(t.app);
    const preferences = await step.preferences(alice);
    expect(preferences).toEqual({ settings: DEFAULT_SETTINGS, devices: [], publicKey: expect.any(String) });
    // An uncompressed P-256 point, base64url, as PushManager.subscribe takes it.
    const key = Buffer.from(preferences.publicKey, 'base64url');
    expect(preferences.publicKey).toMatch(/^[A-Za-z0-9_-]+$/);
    expect([key.length, key[0]]).toEqual([65, 4]);
  });

  it('PUT sets each topic in the app and as a push; GET shows it; anything but all five topics is refused', async () => {
    const alice = await signUp(t.app);
    const settings: NotificationSettings = {
      ...DEFAULT_SETTINGS,
      follows: { app: false, push: true },
      saves: { app: true, push: true },
      moderation: { app: false, push: false },
    };
    const response = await api.update(alice.cookie, settings);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<NotificationPreferences>().settings).toEqual(settings);
    expect((await step.preferences(alice)).settings).toEqual(settings);
    const [row] = await query<{ off: string[]; push: string[] }>(
      t.database,
      'SELECT notifications_off AS off, push_on AS push FROM users WHERE id = $1',
      [alice.uid],
    );
    expect({ off: [...row!.off].sort(), push: [...row!.push].sort() }).toEqual({
      off: ['follows', 'moderation'],
      push: ['follows', 'saves'],
    });

    const { follows: _follows, ...missingOne } = settings;
    for (const body of [
      missingOne,
      { ...settings, likes: { app: true, push: true } },
      { ...settings, follows: { app: true } },
      { ...settings, follows: { app: true, push: true, email: true } },
      { ...settings, follows: { app: 'yes', push: true } },
      [],
    ]) {
      const refused = await api.update(alice.cookie, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expectClientError(refused);
    }
    expect((await step.preferences(alice)).settings).toEqual(settings);
  });

  it("adds a device: 201, its id the endpoint's SHA-256, its label from the User-Agent, listed by GET and stored for this key", async () => {
    const alice = await signUp(t.app);
    const laptop = push.subscribe();
    const phone = push.subscribe();
    const added = await step.add(alice, laptop, CHROME_LINUX);
    expect(added.devices).toEqual([{ id: deviceId(laptop.endpoint), label: 'Chrome on Linux', createdAt: expect.any(String) }]);
    expect(deviceId(laptop.endpoint)).toMatch(/^[0-9a-f]{32}$/);
    expect(Date.parse(added.devices[0]!.createdAt)).not.toBeNaN();

    await step.add(alice, phone, FIREFOX_ANDROID);
    const listed = await step.preferences(alice);
    expect(listed.devices.map((device) => [device.id, device.label])).toEqual([
      [deviceId(laptop.endpoint), 'Chrome on Linux'],
      [deviceId(phone.endpoint), 'Firefox on Android'],
    ]);
    expect(await subscriptionOf(t, laptop.endpoint)).toMatchObject({
      id: deviceId(laptop.endpoint),
      userId: alice.uid,
      p256dh: laptop.keys.p256dh,
      auth: laptop.keys.auth,
      vapidKey: listed.publicKey,
      lastSentAt: null,
    });

    // Other browsers, and a client that names none.
    const bob = await signUp(t.app);
    await step.add(bob, push.subscribe(), SAFARI_IPHONE);
    await step.add(bob, push.subscribe(), 'curl/8.5.0');
    expect((await step.preferences(bob)).devices.map((device) => device.label)).toEqual(['Safari on iOS', 'A browser']);
    // A browser's expirationTime is taken (and ignored).
    await step.add(bob, { ...push.subscribe(), expirationTime: Date.now() + 86_400_000 });
  });

  it('the same endpoint again replaces its device: still one, with the new keys and label', async () => {
    const alice = await signUp(t.app);
    const device = push.subscribe();
    await step.add(alice, device, CHROME_LINUX);
    const renewed = { ...device, keys: push.subscribe().keys };
    const again = await step.add(alice, renewed, FIREFOX_ANDROID);
    expect(again.devices).toEqual([{ id: deviceId(device.endpoint), label: 'Firefox on Android', createdAt: expect.any(String) }]);
    expect(await subscriptionOf(t, device.endpoint)).toMatchObject({ p256dh: renewed.keys.p256dh, auth: renewed.keys.auth });
    expect(await query(t.database, 'SELECT 1 FROM push_subscriptions WHERE user_id = $1', [alice.uid])).toHaveLength(1);
  });

  it('another account subscribing the same endpoint takes the device over, and what was queued for the first goes', async () => {
    const [alice, bob] = [await signUp(t.app), await signUp(t.app)];
    await step.set(alice, { follows: { push: true } });
    await step.set(bob, { follows: { push: true } });
    const browser = push.subscribe();
    await step.add(alice, browser);

    // A push for Alice waits in the queue (the service failed it once).
    push.respondWith(browser.endpoint, 500);
    await newFollower(t, alice);
    await t.app.pushSender.idle();
    expect(await queueOf(t, browser.endpoint)).toMatchObject([{ attempts: 1 }]);

    // Bob signs in on the same browser and turns push on there.
    const taken = await step.add(bob, browser);
    expect(taken.devices.map((device) => device.id)).toEqual([deviceId(browser.endpoint)]);
    expect((await step.preferences(alice)).devices).toEqual([]);
    expect(await subscriptionOf(t, browser.endpoint)).toMatchObject({ userId: bob.uid });
    expect(await queueOf(t, browser.endpoint)).toEqual([]);

    // The service works again: Alice's news reaches the browser no more, Bob's does.
    push.respondWith(browser.endpoint, 201);
    await newFollower(t, alice);
    const bobsFollower = await newFollower(t, bob);
    await t.app.pushSender.idle();
    expect(arrivedAt(push, browser.endpoint).map((m) => m.payload)).toEqual([followPush(t, bobsFollower)]);
  });

  it("removes a device: idempotent, only one's own, and its queue goes with it", async () => {
    const [alice, bob] = [await signUp(t.app), await signUp(t.app)];
    const [first, second, bobs] = [push.subscribe(), push.subscribe(), push.subscribe()];
    await step.add(alice, first);
    await step.add(alice, second);
    await step.add(bob, bobs);
    await step.set(alice, { follows: { push: true } });
    push.respondWith(first.endpoint, 500);
    await newFollower(t, alice);
    await t.app.pushSender.idle();
    expect(await queueOf(t, first.endpoint)).toHaveLength(1);

    const removed = await step.remove(alice, deviceId(first.endpoint));
    expect(removed.devices.map((device) => device.id)).toEqual([deviceId(second.endpoint)]);
    expect(await queueOf(t, first.endpoint)).toEqual([]);
    expect(await subscriptionOf(t, first.endpoint)).toBeUndefined();
    // Again: the same answer.
    expect((await step.remove(alice, deviceId(first.endpoint))).devices.map((device) => device.id)).toEqual([deviceId(second.endpoint)]);
    // Bob's device, named by Alice: nothing happens to it.
    expect((await step.remove(alice, deviceId(bobs.endpoint))).devices.map((device) => device.id)).toEqual([deviceId(second.endpoint)]);
    expect((await step.preferences(bob)).devices.map((device) => device.id)).toEqual([deviceId(bobs.endpoint)]);
    // An id no device has, and one too long to be an id.
    expect((await step.remove(alice, 'f'.repeat(32))).devices).toHaveLength(1);
    expectClientError(await api.remove(alice.cookie, 'f'.repeat(65)));
  });

  it(`at most ${PUSH_DEVICES_MAX} devices: the next is 409 with its message; one of them again, or a new one after a removal, is fine`, async () => {
    const alice = await signUp(t.app);
    const devices = Array.from({ length: PUSH_DEVICES_MAX }, () => push.subscribe());
    for (const device of devices) await step.add(alice, device);
    const extra = push.subscribe();
    const refused = await api.add(alice.cookie, extra);
    expectError(refused, 409, 'TOO_MANY_PUSH_DEVICES');
    expect(refused.json()).toEqual({ code: 'TOO_MANY_PUSH_DEVICES', message: ERRORS.TOO_MANY_PUSH_DEVICES });
    expect((await step.preferences(alice)).devices).toHaveLength(PUSH_DEVICES_MAX);
    expect(await subscriptionOf(t, extra.endpoint)).toBeUndefined();

    // Subscribing again from a device already counted replaces it.
    expect((await step.add(alice, devices[4]!, FIREFOX_ANDROID)).devices).toHaveLength(PUSH_DEVICES_MAX);
    await step.remove(alice, deviceId(devices[0]!.endpoint));
    expect((await step.add(alice, extra)).devices).toHaveLength(PUSH_DEVICES_MAX);
  });

  it('refuses an endpoint that is not at an allowed push service (400), storing nothing', async () => {
    const alice = await signUp(t.app);
    const { keys } = push.subscribe();
    const { port, hostname } = new URL(push.origin);
    const otherPort = Number(port) === 65_535 ? 65_534 : Number(port) + 1;
    for (const endpoint of [
      'https://evil.example/push/abc',
      `http://${hostname}:${otherPort}/push/abc`,
      `http://user:secret@${hostname}:${port}/push/abc`,
      `http://${hostname}:${port}@evil.example/push/abc`,
      `https://${hostname}:${port}/push/abc`,
      `http://localhost:${port}/push/abc`,
      'http://169.254.169.254/latest/meta-data/',
      'https://fcm.googleapis.com/fcm/send/abc',
      'javascript:alert(1)',
      'not a url',
      '',
    ]) {
      expectError(await api.add(alice.cookie, { endpoint, expirationTime: null, keys }), 400, 'PUSH_SUBSCRIPTION_INVALID');
    }
    // Over 1,000 characters, at the right service: refused by the contract itself.
    const long = await api.add(alice.cookie, { endpoint: `${push.origin}/push/${'a'.repeat(1_000)}`, expirationTime: null, keys });
    expect(long.statusCode).toBe(400);
    expectClientError(long);

    expect((await step.preferences(alice)).devices).toEqual([]);
    expect(await query(t.database, 'SELECT 1 FROM push_subscriptions WHERE user_id = $1', [alice.uid])).toEqual([]);
  });

  it('refuses keys that are not a P-256 point and a 16-byte secret, and bodies that are not a subscription (400), storing nothing', async () => {
    const alice = await signUp(t.app);
    const good = push.subscribe();
    const point = Buffer.from(good.keys.p256dh, 'base64url');
    const b64 = (bytes: Buffer) => bytes.toString('base64url');
    const notOnTheCurve = Buffer.concat([Buffer.from([0x04]), randomBytes(64)]);
    const withKeys = (keys: Partial<PushSubscriptionBody['keys']>) => ({ ...good, keys: { ...good.keys, ...keys } });

    for (const body of [
      withKeys({ p256dh: b64(point.subarray(0, 64)) }),
      withKeys({ p256dh: b64(Buffer.concat([point, Buffer.from([0])])) }),
      // A compressed point (33 bytes), and the right length but not 0x04 first.
      withKeys({ p256dh: b64(Buffer.concat([Buffer.from([0x02]), point.subarray(1, 33)])) }),
      withKeys({ p256dh: b64(Buffer.concat([Buffer.from([0x05]), point.subarray(1)])) }),
      // 65 bytes starting 0x04, but random: not a point of the curve.
      withKeys({ p256dh: b64(notOnTheCurve) }),
      withKeys({ p256dh: '' }),
      withKeys({ p256dh: '!!!!' }),
      withKeys({ auth: b64(randomBytes(15)) }),
      withKeys({ auth: b64(randomBytes(17)) }),
      withKeys({ auth: '' }),
    ]) {
      expectError(await api.add(alice.cookie, body), 400, 'PUSH_SUBSCRIPTION_INVALID');
    }
    for (const body of [
      { ...good, extra: 1 },
      withKeys({ extra: 'x' } as Partial<PushSubscriptionBody['keys']>),
      withKeys({ p256dh: 'A'.repeat(201) }),
      withKeys({ auth: 'A'.repeat(101) }),
      { endpoint: good.endpoint },
      { endpoint: good.endpoint, keys: { p256dh: good.keys.p256dh } },
      { ...good, endpoint: 42 },
      { ...good, expirationTime: 'tomorrow' },
      { keys: good.keys },
      [],
    ]) {
      const response = await api.add(alice.cookie, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expectClientError(response);
    }
    expect((await step.preferences(alice)).devices).toEqual([]);
    expect(await query(t.database, 'SELECT 1 FROM push_subscriptions WHERE user_id = $1', [alice.uid])).toEqual([]);
    // The same subscription with its own keys is taken.
    expect((await step.add(alice, good)).devices).toHaveLength(1);
  });

  it('signed out: every route is 401, and nothing is stored', async () => {
    const device = push.subscribe();
    expectError(await api.preferences(undefined), 401, 'NOT_SIGNED_IN');
    expectError(await api.update(undefined, DEFAULT_SETTINGS), 401, 'NOT_SIGNED_IN');
    expectError(await api.add(undefined, device), 401, 'NOT_SIGNED_IN');
    expectError(await api.remove(undefined, deviceId(device.endpoint)), 401, 'NOT_SIGNED_IN');
    expectError(await api.add('session=forged', device), 401, 'NOT_SIGNED_IN');
    expect(await subscriptionOf(t, device.endpoint)).toBeUndefined();
  });
});

describe('the devices API: RATE_LIMIT_PUSH_DEVICES_PER_USER', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await pushApp([push.origin], { overrides: { rateLimits: { ...TEST_RATE_LIMITS, pushDevicesPerUser: 2 } } });
  });
  afterAll(() => t?.close());

  it('the third subscription within the hour is 429 with its message; refusals do not count; other accounts are not held up', async () => {
    const api = notificationRoutes(t.app);
    const [alice, bob] = [await signUp(t.app), await signUp(t.app)];
    const [first, second] = [push.subscribe(), push.subscribe()];
    // Refused before the limit is counted.
    expectError(await api.add(alice.cookie, { ...first, endpoint: 'https://evil.example/push' }), 400, 'PUSH_SUBSCRIPTION_INVALID');
    expect((await api.add(alice.cookie, first)).statusCode).toBe(201);
    // Subscribing the same device again counts: a page that loops cannot subscribe for ever.
    expect((await api.add(alice.cookie, first)).statusCode).toBe(201);
    const refused = await api.add(alice.cookie, second);
    expectError(refused, 429, 'PUSH_DEVICES_TOO_FAST');
    expect(refused.json()).toEqual({ code: 'PUSH_DEVICES_TOO_FAST', message: ERRORS.PUSH_DEVICES_TOO_FAST });
    expect((await notificationSteps(t.app).preferences(alice)).devices.map((device) => device.id)).toEqual([deviceId(first.endpoint)]);
    expect(await subscriptionOf(t, second.endpoint)).toBeUndefined();

    expect((await api.add(bob.cookie, second)).statusCode).toBe(201);
  });
});

describe('pushes delivered', () => {
  let t: TestApp;
  let step: ReturnType<typeof notificationSteps>;

  beforeAll(async () => {
    t = await pushApp([push.origin], { retryBaseMs: 60_000 });
    step = notificationSteps(t.app);
  });
  afterAll(() => t?.close());

  it("a follow reaches each of the recipient's devices once, encrypted for it, signed with the app's key; nobody else's", async () => {
    const [alice, bob] = [await signUp(t.app), await signUp(t.app)];
    const [laptop, phone, bobsPhone] = [push.subscribe(), push.subscribe(), push.subscribe()];
    await step.add(alice, laptop, CHROME_LINUX);
    await step.add(alice, phone, FIREFOX_ANDROID);
    await step.add(bob, bobsPhone);
    const { publicKey } = await step.set(alice, { follows: { push: true } });
    await step.set(bob, { follows: { push: true } });

    const carol = await newFollower(t, alice);
    await t.app.pushSender.idle();

    for (const device of [laptop, phone]) {
      const arrived = arrivedAt(push, device.endpoint);
      expect(arrived.map((m) => m.payload)).toEqual([followPush(t, carol)]);
      expect(arrived[0]!.vapid).toEqual({ subject: t.config.notifications.vapidSubject, publicKey });
      expect(arrived[0]!.headers).toMatchObject({ ttl: '86400', 'content-encoding': 'aes128gcm' });
    }
    expect(arrivedAt(push, bobsPhone.endpoint)).toEqual([]);
    // Sent, and gone from the queue; the devices say when they last got one.
    for (const device of [laptop, phone]) {
      expect(await queueOf(t, device.endpoint)).toEqual([]);
      expect((await subscriptionOf(t, device.endpoint))?.lastSentAt).not.toBeNull();
    }
    expect((await subscriptionOf(t, bobsPhone.endpoint))?.lastSentAt).toBeNull();
  });

  it('push is off until turned on: nothing is queued or arrives; turned on, the next event arrives, and only it', async () => {
    const alice = await signUp(t.app);
    const device = push.subscribe();
    await step.add(alice, device);
    expect((await step.preferences(alice)).settings.follows).toEqual({ app: true, push: false });

    await newFollower(t, alice);
    await t.app.pushSender.idle();
    expect(await queueOf(t, device.endpoint)).toEqual([]);
    expect(arrivedAt(push, device.endpoint)).toEqual([]);

    // The control: the same event, with push on.
    await step.set(alice, { follows: { push: true } });
    const second = await newFollower(t, alice);
    await t.app.pushSender.idle();
    expect(arrivedAt(push, device.endpoint).map((m) => m.payload)).toEqual([followPush(t, second)]);
    // Other topics stay off: an invitation to a board is not pushed.
    const owner = await signUp(t.app);
    const board = await boardSteps(t.app).create(owner, { name: 'Study group' });
    await boardSteps(t.app).invite(owner, board.id, alice.username);
    await t.app.pushSender.idle();
    expect(arrivedAt(push, device.endpoint)).toHaveLength(1);
  });

  it('off in the app, on as a push: the push arrives, and no row is written', async () => {
    const alice = await signUp(t.app);
    const device = push.subscribe();
    await step.add(alice, device);
    await step.set(alice, { follows: { app: false, push: true } });

    const follower = await newFollower(t, alice);
    await t.app.pushSender.idle();
    expect(arrivedAt(push, device.endpoint).map((m) => m.payload)).toEqual([followPush(t, follower)]);
    expect(await query(t.database, 'SELECT 1 FROM notifications WHERE user_id = $1', [alice.uid])).toEqual([]);
    const unread = await t.app.inject({ method: 'GET', url: activityApi.unreadCount.path, headers: { cookie: alice.cookie } });
    expect(unread.json()).toEqual({ unread: 0 });
  });

  it("a save to a secret board the author is in says 'a secret board', never its name; a public board's push names it", async () => {
    const boards = boardSteps(t.app);
    const [alice, bob, carol, dave] = [await signUp(t.app), await signUp(t.app), await signUp(t.app), await signUp(t.app)];
    const [postId] = await insertPostsBy(t.database, alice.uid, 1);
    const device = push.subscribe();
    await step.add(alice, device);
    await step.set(alice, { saves: { push: true } });

    const hush = await boards.create(bob, { name: 'Hush Hush Plans', description: 'surprise party', secret: true });
    await boards.addMember(bob, hush.id, alice);
    await boards.save(bob, hush.id, postId!);
    await t.app.pushSender.idle();
    const [secret] = arrivedAt(push, device.endpoint);
    expect(secret?.payload).toEqual({
      title: t.config.appName,
      body: `${bob.username} saved your post to a secret board`,
      url: `/post/${postId}`,
      tag: `save:${postId}`,
    });
    for (const word of ['Hush', hush.slug, 'surprise']) expect(secret!.text).not.toContain(word);

    const sunny = await boards.create(carol, { name: 'Sunny Days' });
    await boards.save(carol, sunny.id, postId!);
    await t.app.pushSender.idle();
    expect(arrivedAt(push, device.endpoint)[1]?.payload).toEqual({
      title: t.config.appName,
      body: `${carol.username} saved your post to Sunny Days`,
      url: `/post/${postId}`,
      tag: `save:${postId}`,
    });

    // A secret board Alice is not in: she is not told at all, so nothing is pushed either.
    const hidden = await boards.create(dave, { name: 'Dave Hidden Stash', secret: true });
    await boards.save(dave, hidden.id, postId!);
    await t.app.pushSender.idle();
    expect(arrivedAt(push, device.endpoint)).toHaveLength(2);
    expect(push.received.some((m) => m.text.includes('Dave Hidden Stash') || m.text.includes(dave.username))).toBe(false);
  });

  it("a moderator's note as long as it may be, in characters JSON escapes six-fold, still goes into the push, and the removal is done", async () => {
    const [author, moderator] = [await signUp(t.app), await signUp(t.app)];
    await query(t.database, `UPDATE users SET role = 'moderator' WHERE id = $1`, [moderator.uid]);
    const [postId] = await insertPostsBy(t.database, author.uid, 1);
    const device = push.subscribe();
    await step.add(author, device);
    await step.set(author, { moderation: { push: true } });

    // 500 characters (MODERATION_NOTE_MAX_LENGTH), each written \u00XX in JSON.
    const note = `x${'\u0001'.repeat(498)}y`;
    const removed = await t.app.inject({
      method: 'POST',
      url: API.moderationRemovePost,
      payload: { postId, note },
      headers: { cookie: moderator.cookie },
    });
    expect(removed.statusCode, removed.body).toBe(204);
    await t.app.pushSender.idle();
    // Shortened to fit: 3,000 bytes of JSON, well within the 4,096 a push service takes encrypted.
    const [message] = arrivedAt(push, device.endpoint);
    const payload = message?.payload as { title: string; body: string; url: string; tag: string };
    expect(payload).toEqual({
      title: t.config.appName,
      body: expect.any(String),
      url: '/activity',
      tag: expect.stringMatching(/^post_removed:.+/),
    });
    const start = 'Moderators removed your post. Reason: x';
    expect(payload.body.startsWith(start) && payload.body.endsWith('…')).toBe(true);
    const kept = payload.body.slice(start.length, -1);
    expect(kept.length).toBeGreaterThan(400);
    expect(kept).toBe('\u0001'.repeat(kept.length));
    expect(Buffer.byteLength(message!.text)).toBeLessThanOrEqual(3_000);
    expect(Buffer.byteLength(message!.text)).toBeGreaterThan(2_990);
    // The row keeps the whole note.
    const [row] = await query<{ detail: string }>(
      t.database,
      `SELECT detail FROM notifications WHERE user_id = $1 AND kind = 'post_removed'`,
      [author.uid],
    );
    expect(row?.detail).toBe(note);

    // A note of ordinary length goes whole.
    const [other] = await insertPostsBy(t.database, author.uid, 1);
    const plainNote = 'Photos of other people need their consent.';
    const again = await t.app.inject({
      method: 'POST',
      url: API.moderationRemovePost,
      payload: { postId: other, note: plainNote },
      headers: { cookie: moderator.cookie },
    });
    expect(again.statusCode, again.body).toBe(204);
    await t.app.pushSender.idle();
    expect(arrivedAt(push, device.endpoint)[1]?.payload).toMatchObject({ body: `Moderators removed your post. Reason: ${plainNote}` });
  });
});

describe('pushes that fail', () => {
  /** The first retry's wait; then four times as long each time. */
  const RETRY_BASE_S = 10;
  let t: TestApp;
  let plain: PlainService;
  let step: ReturnType<typeof notificationSteps>;

  beforeAll(async () => {
    plain = await startPlainService();
    t = await pushApp([push.origin, plain.origin], { retryBaseMs: RETRY_BASE_S * 1000 });
    step = notificationSteps(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await plain?.close();
  });

  /** Someone with push on for follows and one device at `subscription`. */
  async function recipient(subscription: PushSubscriptionJson) {
    const account = await signUp(t.app);
    await step.add(account, subscription);
    await step.set(account, { follows: { push: true } });
    return account;
  }

  /** Expects seconds until the next try near `seconds` (the test's own steps take a few of them). */
  const expectDueIn = (dueIn: number | undefined, seconds: number) => {
    expect(dueIn).toBeGreaterThan(seconds - 5);
    expect(dueIn).toBeLessThanOrEqual(seconds + 0.5);
  };

  for (const status of [410, 404]) {
    it(`${status}: the subscription is deleted with its queue, and leaves the devices list; the recipient's other device still gets it`, async () => {
      const [gone, kept] = [push.subscribe(), push.subscribe()];
      const alice = await recipient(gone);
      await step.add(alice, kept);
      push.respondWith(gone.endpoint, status);

      const follower = await newFollower(t, alice);
      await t.app.pushSender.idle();
      expect((await step.preferences(alice)).devices.map((device) => device.id)).toEqual([deviceId(kept.endpoint)]);
      expect(await subscriptionOf(t, gone.endpoint)).toBeUndefined();
      expect(await query(t.database, 'SELECT 1 FROM push_deliveries WHERE subscription_id = $1', [deviceId(gone.endpoint)])).toEqual([]);
      expect(arrivedAt(push, gone.endpoint)).toEqual([]);
      expect(arrivedAt(push, kept.endpoint).map((m) => m.payload)).toEqual([followPush(t, follower)]);

      // The next event queues nothing for it.
      await newFollower(t, alice);
      expect(await queueOf(t, gone.endpoint)).toEqual([]);
      await t.app.pushSender.idle();
    });
  }

  it('500, then 201: kept for a try after the backoff (not before), then delivered once', async () => {
    const device = push.subscribe();
    const alice = await recipient(device);
    push.respondWith(device.endpoint, 500);
    const follower = await newFollower(t, alice);
    await t.app.pushSender.idle();
    const [queued] = await queueOf(t, device.endpoint);
    expect(queued).toMatchObject({ attempts: 1, actorId: follower.uid });
    expectDueIn(queued?.dueIn, RETRY_BASE_S);

    // Not due yet: a run of the sender leaves it.
    await t.app.pushSender.drain();
    expect(await queueOf(t, device.endpoint)).toMatchObject([{ attempts: 1 }]);

    push.respondWith(device.endpoint, 201);
    await makeDue(t, device.endpoint);
    await t.app.pushSender.drain();
    expect(arrivedAt(push, device.endpoint).map((m) => m.payload)).toEqual([followPush(t, follower)]);
    expect(await queueOf(t, device.endpoint)).toEqual([]);
    expect((await subscriptionOf(t, device.endpoint))?.lastSentAt).not.toBeNull();
  });

  it('5xx every time: tried after 10 s, 40 s, 160 s, 640 s, and dropped after the fifth try; the device stays', async () => {
    const device = push.subscribe();
    const alice = await recipient(device);
    push.respondWith(device.endpoint, 503);
    await newFollower(t, alice);
    await t.app.pushSender.idle();
    for (let attempts = 1; attempts <= 4; attempts++) {
      if (attempts > 1) {
        await makeDue(t, device.endpoint);
        await t.app.pushSender.drain();
      }
      const [queued] = await queueOf(t, device.endpoint);
      expect(queued?.attempts).toBe(attempts);
      expectDueIn(queued?.dueIn, RETRY_BASE_S * 4 ** (attempts - 1));
    }
    await makeDue(t, device.endpoint);
    await t.app.pushSender.drain();
    expect(await queueOf(t, device.endpoint)).toEqual([]);
    expect(arrivedAt(push, device.endpoint)).toEqual([]);
    expect((await step.preferences(alice)).devices.map((device) => device.id)).toEqual([deviceId(device.endpoint)]);
  });

  it('429 with Retry-After waits as long as the service asks when that is longer than the backoff, at most an hour', async () => {
    const device = { ...push.subscribe(), endpoint: `${plain.origin}/push/${randomBytes(8).toString('hex')}` };
    const alice = await recipient(device);
    plain.answer = { status: 429, headers: { 'Retry-After': '120' } };
    const before = plain.requests.length;
    await newFollower(t, alice);
    await t.app.pushSender.idle();
    expect(plain.requests.length - before).toBe(1);
    let [queued] = await queueOf(t, device.endpoint);
    expect(queued?.attempts).toBe(1);
    expectDueIn(queued?.dueIn, 120);

    // Given as a date (RFC 9110 allows either), five minutes on: longer than the second try's 40 s.
    plain.answer = { status: 429, headers: { 'Retry-After': new Date(Date.now() + 300_000).toUTCString() } };
    await makeDue(t, device.endpoint);
    await t.app.pushSender.drain();
    [queued] = await queueOf(t, device.endpoint);
    expect(queued?.attempts).toBe(2);
    expectDueIn(queued?.dueIn, 300);

    // Shorter than the backoff (160 s at the third try): the backoff.
    plain.answer = { status: 429, headers: { 'Retry-After': '1' } };
    await makeDue(t, device.endpoint);
    await t.app.pushSender.drain();
    [queued] = await queueOf(t, device.endpoint);
    expect(queued?.attempts).toBe(3);
    expectDueIn(queued?.dueIn, RETRY_BASE_S * 4 ** 2);

    // Two hours: an hour at most.
    plain.answer = { status: 503, headers: { 'Retry-After': '7200' } };
    await makeDue(t, device.endpoint);
    await t.app.pushSender.drain();
    [queued] = await queueOf(t, device.endpoint);
    expect(queued?.attempts).toBe(4);
    expectDueIn(queued?.dueIn, 3600);

    plain.answer = { status: 201 };
    await makeDue(t, device.endpoint);
    await t.app.pushSender.drain();
    expect(await queueOf(t, device.endpoint)).toEqual([]);
    expect(plain.requests.length - before).toBe(5);
  });

  it('a push a day old is dropped at its next failure, however few its tries: old news', async () => {
    const device = push.subscribe();
    const alice = await recipient(device);
    push.respondWith(device.endpoint, 500);
    await newFollower(t, alice);
    await t.app.pushSender.idle();
    expect(await queueOf(t, device.endpoint)).toMatchObject([{ attempts: 1 }]);
    await query(
      t.database,
      `UPDATE push_deliveries SET created_at = now() - interval '25 hours', next_attempt_at = now() WHERE subscription_id = $1`,
      [deviceId(device.endpoint)],
    );
    await t.app.pushSender.drain();
    expect(await queueOf(t, device.endpoint)).toEqual([]);
    expect((await step.preferences(alice)).devices).toHaveLength(1);
  });

  for (const status of [400, 403, 413]) {
    it(`${status} from the service: dropped at once, never tried again; the device stays`, async () => {
      const device = push.subscribe();
      const alice = await recipient(device);
      push.respondWith(device.endpoint, status);
      await newFollower(t, alice);
      await t.app.pushSender.idle();
      expect(await queueOf(t, device.endpoint)).toEqual([]);
      expect(arrivedAt(push, device.endpoint)).toEqual([]);
      expect((await step.preferences(alice)).devices.map((device) => device.id)).toEqual([deviceId(device.endpoint)]);
    });
  }

  it('a subscription at a service no longer allowed (PUSH_SERVICES changed) is deleted at its next push, never sent', async () => {
    const device = push.subscribe();
    const alice = await recipient(device);
    push.respondWith(device.endpoint, 500);
    await newFollower(t, alice);
    await t.app.pushSender.idle();
    push.respondWith(device.endpoint, 201);

    // The same database and key, after a restart with the browser makers' services only.
    const [kept] = await query<{ value: string }>(t.database, `SELECT value FROM server_keys WHERE name = 'vapid'`);
    const { log } = keptLog();
    const restarted = new PushSender({
      db: t.database.orm,
      keys: JSON.parse(kept!.value) as VapidKeys,
      subject: t.config.notifications.vapidSubject,
      services: loadConfig({}).notifications.pushServices,
      log,
    });
    await makeDue(t, device.endpoint);
    await restarted.drain();
    expect(await subscriptionOf(t, device.endpoint)).toBeUndefined();
    expect(await queueOf(t, device.endpoint)).toEqual([]);
    expect(arrivedAt(push, device.endpoint)).toEqual([]);
  });

  it(
    'a service that never answers: after the timeout the push waits its backoff, and goes once the service answers',
    { timeout: 90_000 },
    async () => {
      // A database and a sender of their own: the sender's timeout is short here (an app's is 10 s).
      const { database, drop } = await createTestDatabase();
      const hanging = await startPlainService();
      try {
        hanging.answer = 'never';
        const [user] = await insertUsers(database, 1, 'hang');
        const keys = webpush.generateVAPIDKeys();
        const subscription = { ...push.subscribe(), endpoint: `${hanging.origin}/push/hangs` };
        await query(
          database,
          `INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, vapid_key) VALUES ($1, $2, $3, $4, $5, $6)`,
          [
            deviceId(subscription.endpoint),
            user!.id,
            subscription.endpoint,
            subscription.keys.p256dh,
            subscription.keys.auth,
            keys.publicKey,
          ],
        );
        await query(database, `INSERT INTO push_deliveries (id, subscription_id, payload) VALUES ('hung', $1, '{"title":"t"}')`, [
          deviceId(subscription.endpoint),
        ]);
        const { lines, log } = keptLog();
        const sender = new PushSender({
          db: database.orm,
          keys,
          subject: 'mailto:test@example.com',
          services: [hanging.origin],
          log,
          timeoutMs: 300,
          retryBaseMs: 60_000,
        });
        const queue = () =>
          query<{ attempts: number; dueIn: number }>(
            database,
            `SELECT attempts, extract(epoch FROM next_attempt_at - now())::float8 AS "dueIn" FROM push_deliveries`,
          );

        await sender.drain();
        expect(hanging.requests).toEqual(['POST /push/hangs']);
        const [waiting] = await queue();
        expect(waiting?.attempts).toBe(1);
        expect(waiting?.dueIn).toBeGreaterThan(55);
        expect(waiting?.dueIn).toBeLessThanOrEqual(60.5);
        expect(lines).toContainEqual({ level: 'info', message: 'push service did not answer; will retry' });

        hanging.answer = { status: 201 };
        await query(database, 'UPDATE push_deliveries SET next_attempt_at = now()');
        await sender.drain();
        expect(hanging.requests).toHaveLength(2);
        expect(await queue()).toEqual([]);
        const [sent] = await query<{ lastSentAt: unknown }>(database, 'SELECT last_sent_at AS "lastSentAt" FROM push_subscriptions');
        expect(sent?.lastSentAt).not.toBeNull();
      } finally {
        await hanging.close();
        await database.close();
        await drop();
      }
    },
  );
});

// Apps started twice, databases of their own: more than the default 30 s on a loaded machine.
describe('the VAPID keys', { timeout: 90_000 }, () => {
  /** A whole config as createTestApp makes it, for apps built here on a database of the test's own. */
  const configFor = (dataDir: string, notifications: Partial<NotificationConfig> = {}): Config =>
    testConfig(dataDir, { notifications: { ...loadConfig({}).notifications, pushServices: [push.origin], ...notifications } });

  it('the pair made at the first start is kept in the database: an app started again on it signs with the same key', async () => {
    const { database, drop } = await createTestDatabase();
    const config = configFor(tempDir('vapid'));
    try {
      const first = await withoutTimers(async () => {
        const app = await buildApp({ config, database });
        await app.ready();
        return app;
      });
      const alice = await signUp(first);
      const device = push.subscribe();
      const { publicKey } = await notificationSteps(first).add(alice, device);
      await notificationSteps(first).set(alice, { follows: { push: true } });
      const kept = await query<{ name: string; value: string }>(database, 'SELECT name, value FROM server_keys');
      expect(kept.map((row) => row.name)).toEqual(['vapid']);
      expect((JSON.parse(kept[0]!.value) as VapidKeys).publicKey).toBe(publicKey);
      await first.close();

      const second = await withoutTimers(async () => {
        const app = await buildApp({ config, database });
        await app.ready();
        return app;
      });
      try {
        expect((await notificationSteps(second).preferences(alice)).publicKey).toBe(publicKey);
        expect(await query(database, 'SELECT name, value FROM server_keys')).toEqual(kept);
        // Signed with the kept private key: the service verifies the JWT against the key Alice's browser subscribed with.
        const bob = await signUp(second);
        expect((await follow(second, alice.username, bob.cookie)).statusCode).toBe(200);
        await second.pushSender.idle();
        const [message] = arrivedAt(push, device.endpoint);
        expect(message?.vapid.publicKey).toBe(publicKey);
        expect(message?.payload).toMatchObject({ body: `${bob.username} followed you` });
      } finally {
        await second.close();
      }
    } finally {
      await database.close();
      await drop();
    }
  });

  it('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY given: that pair signs, with VAPID_SUBJECT, and none is kept', async () => {
    const keys = webpush.generateVAPIDKeys();
    const t = await pushApp([push.origin], { notifications: { vapidKeys: keys, vapidSubject: 'mailto:push-admin@dorm.example.edu' } });
    try {
      const alice = await signUp(t.app);
      const device = push.subscribe();
      expect((await notificationSteps(t.app).add(alice, device)).publicKey).toBe(keys.publicKey);
      expect(await subscriptionOf(t, device.endpoint)).toMatchObject({ vapidKey: keys.publicKey });
      await notificationSteps(t.app).set(alice, { follows: { push: true } });
      await newFollower(t, alice);
      await t.app.pushSender.idle();
      expect(arrivedAt(push, device.endpoint).map((m) => m.vapid)).toEqual([
        { subject: 'mailto:push-admin@dorm.example.edu', publicKey: keys.publicKey },
      ]);
      expect(await query(t.database, 'SELECT 1 FROM server_keys')).toEqual([]);

      // A subscription made for another key (before VAPID_* changed) can never be sent: deleted at its next push.
      const old = push.subscribe();
      await notificationSteps(t.app).add(alice, old);
      await query(t.database, 'UPDATE push_subscriptions SET vapid_key = $1 WHERE endpoint = $2', [
        webpush.generateVAPIDKeys().publicKey,
        old.endpoint,
      ]);
      const follower = await newFollower(t, alice);
      await t.app.pushSender.idle();
      expect(arrivedAt(push, old.endpoint)).toEqual([]);
      expect(await subscriptionOf(t, old.endpoint)).toBeUndefined();
      expect((await notificationSteps(t.app).preferences(alice)).devices.map((device) => device.id)).toEqual([deviceId(device.endpoint)]);
      expect(arrivedAt(push, device.endpoint).at(-1)?.payload).toEqual(followPush(t, follower));
    } finally {
      await t.close();
    }
  });

  it('a given pair that is not one stops the start, naming the variables', async () => {
    const { database, drop } = await createTestDatabase();
    try {
      const [a, b] = [webpush.generateVAPIDKeys(), webpush.generateVAPIDKeys()];
      const notifications = loadConfig({}).notifications;
      const start = (vapidKeys: VapidKeys) => loadVapidKeys(database.orm, { ...notifications, vapidKeys });
      // Two halves of different pairs: every push would be refused by the services.
      await expect(start({ publicKey: a.publicKey, privateKey: b.privateKey })).rejects.toThrow(/VAPID_PUBLIC_KEY.*VAPID_PRIVATE_KEY/);
      await expect(start({ publicKey: 'not-a-key', privateKey: a.privateKey })).rejects.toThrow(/VAPID_PUBLIC_KEY/);
      await expect(start({ publicKey: a.publicKey, privateKey: 'not-a-key' })).rejects.toThrow(/VAPID_PRIVATE_KEY/);
      expect(await start(a)).toEqual(a);
      expect(await query(database, 'SELECT 1 FROM server_keys')).toEqual([]);
    } finally {
      await database.close();
      await drop();
    }
  });

  it('loadConfig: half a pair, or a subject that is not mailto: or https:, stops the server naming the variable', () => {
    const keys = webpush.generateVAPIDKeys();
    const together = 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: set both, or neither (a pair is then kept in the database)';
    expect(refusal({ VAPID_PUBLIC_KEY: keys.publicKey })).toBe(together);
    expect(refusal({ VAPID_PRIVATE_KEY: keys.privateKey })).toBe(together);
    expect(loadConfig({ VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey }).notifications.vapidKeys).toEqual(keys);
    expect(loadConfig({}).notifications.vapidKeys).toBeUndefined();

    for (const subject of ['http://dorm.example.edu', 'ops@dorm.example.edu', 'dorm.example.edu', 'https:dorm', 'mailto ops@x']) {
      expect(refusal({ VAPID_SUBJECT: subject }), subject).toBe('VAPID_SUBJECT must be a mailto: or https: address');
    }
    expect(loadConfig({ VAPID_SUBJECT: 'mailto:ops@dorm.example.edu' }).notifications.vapidSubject).toBe('mailto:ops@dorm.example.edu');
    expect(loadConfig({ VAPID_SUBJECT: 'https://dorm.example.edu/contact' }).notifications.vapidSubject).toBe(
      'https://dorm.example.edu/contact',
    );
  });

  it('without VAPID_SUBJECT: an https PUBLIC_URL, else (http, or none) mailto:webmaster@localhost', () => {
    const subject = (env: NodeJS.ProcessEnv) => loadConfig(env).notifications.vapidSubject;
    expect(subject({})).toBe('mailto:webmaster@localhost');
    expect(subject({ PUBLIC_URL: 'http://dorm.example.edu' })).toBe('mailto:webmaster@localhost');
    expect(subject({ PUBLIC_URL: 'http://localhost:3000' })).toBe('mailto:webmaster@localhost');
    expect(subject({ PUBLIC_URL: 'https://dorm.example.edu' })).toBe('https://dorm.example.edu');
    expect(subject({ PUBLIC_URL: 'https://dorm.example.edu', VAPID_SUBJECT: 'mailto:ops@dorm.example.edu' })).toBe(
      'mailto:ops@dorm.example.edu',
    );
  });
});
