import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { posts, users } from '../../src/server/db/schema.js';
import { DiskStorage } from '../../src/server/storage/disk-storage.js';
import type { Storage } from '../../src/server/storage/storage.js';
import { activityApi } from '../../src/shared/api/activity.js';
import { API } from '../../src/shared/api/paths.js';
import type { PostResponse } from '../../src/shared/api/posts.js';
import * as COPY from '../../src/shared/copy.js';
import { signUp } from '../helpers/accounts.js';
import { boardSteps, insertPostsBy } from '../helpers/boards.js';
import { HeldStorage } from '../helpers/held-storage.js';
import { jpeg } from '../helpers/images.js';
import { expectError, follow, patchMe, query } from '../helpers/people.js';
import { createPost } from '../helpers/posts.js';
import { emptyBucket, startLocalS3, type LocalS3 } from '../helpers/s3.js';
import { createTestApp, TEST_RATE_LIMITS, type TestApp } from '../helpers/test-app.js';
import { readZip, zipJson, type ZipEntry } from '../helpers/zip.js';
import { browserSubscription } from '../helpers/push-service.js';
import { CHROME_LINUX, notificationSteps } from '../helpers/notification-steps.js';

/** The files every archive holds, whatever the account (its photos come besides), in sorted order. */
const EXPORT_FILES = ['README.txt', 'account.json', 'boards.json', 'followers.json', 'following.json', 'notifications.json', 'posts.json'];

/**
 * Download My Data (issue 16 point 4): GET /api/me/export streams a ZIP of the signed-in user's
 * own account, posts, photos, icon and follows. Every ZIP here is unzipped with yauzl, which
 * checks each file's CRC and size.
 */

type Account = Awaited<ReturnType<typeof signUp>>;

let photos: Buffer[];
/** Bob's: pictures of their own, so finding their bytes in Alice's ZIP would mean a leak. */
let bobPhoto: Buffer;
let icons: { alice: Buffer; bob: Buffer };

beforeAll(async () => {
  photos = await Promise.all([jpeg(900, 600), jpeg(640, 480, { noisy: true }), jpeg(700, 700)]);
  bobPhoto = await jpeg(500, 300, { noisy: true });
  icons = { alice: await jpeg(400, 400), bob: await jpeg(300, 300, { noisy: true }) };
});

const download = (t: TestApp, cookie?: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: API.exportData, headers: { ...headers, ...(cookie ? { cookie } : {}) } });

async function post(t: TestApp, account: Account, description: string, photo: Buffer, link?: string) {
  const response = await createPost(t.app, account.cookie, { bytes: photo, description, link });
  expect(response.statusCode, response.body).toBe(201);
}

async function setIcon(t: TestApp, account: Account, icon: Buffer) {
  const response = await patchMe(t.app, account.cookie, [['icon', { bytes: icon, field: 'icon', filename: 'icon.jpg' }]]);
  expect(response.statusCode, response.body).toBe(200);
}

const photoNameOf = (row: { id: string; createdAt: Date }) =>
  `photos/${row.createdAt.toISOString().slice(0, 19).replace('T', '_').replaceAll(':', '-')}-${row.id}.jpg`;

/** Alice: three posts, an icon, one follower (Bob) and one followee (Carol). Bob has a post and an icon too. */
async function aliceAndFriends(t: TestApp) {
  const [alice, bob, carol] = [await signUp(t.app), await signUp(t.app), await signUp(t.app)];
  await post(t, alice, 'First light #sunrise', photos[0]!, 'https://example.com/first');
  await post(t, alice, 'Study break', photos[1]!);
  await post(t, alice, 'Dorm party #friday #music', photos[2]!);
  await post(t, bob, "Bob's secret post #bob", bobPhoto);
  await setIcon(t, alice, icons.alice);
  await setIcon(t, bob, icons.bob);
  expect((await follow(t.app, alice.username, bob.cookie)).statusCode).toBe(200);
  expect((await follow(t.app, carol.username, alice.cookie)).statusCode).toBe(200);
  return { alice, bob, carol };
}

/** What the export of `account` must hold, read straight from the database and storage. */
async function expected(t: TestApp, storage: Storage, account: Account) {
  const [user] = await t.database.orm.select().from(users).where(eq(users.id, account.uid));
  const rows = await t.database.orm
    .select()
    .from(posts)
    .where(eq(posts.userId, account.uid))
    .orderBy(desc(posts.createdAt), desc(posts.id));
  const files = new Map<string, Buffer>();
  for (const row of rows) files.set(photoNameOf(row), (await storage.get(`${row.imageKey}-full.jpg`))!.body);
  if (user!.iconKey) files.set('profile-icon.webp', (await storage.get(`${user!.iconKey}-320.webp`))!.body);
  return { user: user!, rows, files };
}

function expectZipResponse(response: Awaited<ReturnType<typeof download>>, username: string) {
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('application/zip');
  const today = new Date().toISOString().slice(0, 10);
  expect(response.headers['content-disposition']).toBe(`attachment; filename="dormboard-${username}-${today}.zip"`);
  expect(response.headers['cache-control']).toBe('no-store');
  expect(response.headers['content-encoding']).toBeUndefined();
}

/** The whole export of Alice, checked file by file. */
async function checkAliceExport(t: TestApp, storage: Storage, alice: Account, bob: Account, carol: Account) {
  const response = await download(t, alice.cookie);
  expectZipResponse(response, alice.username);
  const zip = await readZip(response.rawPayload);
  const want = await expected(t, storage, alice);

  expect([...zip.keys()].sort()).toEqual([...EXPORT_FILES, ...want.files.keys()].sort());
  expect(zipJson(zip, 'account.json')).toEqual({
    username: alice.username,
    email: alice.email,
    emailVerified: null,
    pendingEmail: null,
    singleSignOn: [],
    bio: '',
    created: want.user.createdAt.toISOString(),
    notifications: { offInTheApp: [], pushed: [], pushDevices: [] },
    profileIcon: 'profile-icon.webp',
  });
  expect(zipJson(zip, 'posts.json')).toEqual(
    want.rows.map((row) => ({
      description: row.description,
      link: row.link,
      hashtags: row.hashtags,
      created: row.createdAt.toISOString(),
      photo: photoNameOf(row),
    })),
  );
  expect(zipJson(zip, 'posts.json')).toMatchObject([
    { description: 'Dorm party #friday #music', link: '', hashtags: ['friday', 'music'] },
    { description: 'Study break', link: '', hashtags: [] },
    { description: 'First light #sunrise', link: 'https://example.com/first', hashtags: ['sunrise'] },
  ]);
  expect(zipJson(zip, 'followers.json')).toEqual([bob.username]);
  expect(zipJson(zip, 'following.json')).toEqual([carol.username]);
  // Issue 30: Bob's follow told her.
  expect(zipJson(zip, 'notifications.json')).toEqual([
    { kind: 'follow', by: bob.username, post: null, board: null, detail: null, until: null, read: false, at: expect.any(String) },
  ]);
  // Photos and icon: byte for byte what storage holds, stored as they are (already compressed).
  for (const [name, bytes] of want.files) {
    const entry: ZipEntry = zip.get(name)!;
    expect(entry.data.equals(bytes), name).toBe(true);
    expect(entry.compressionMethod, name).toBe(0);
  }
  for (const name of EXPORT_FILES) {
    expect(zip.get(name)!.compressionMethod, name).toBe(8);
  }
  const readme = zip.get('README.txt')!.data.toString('utf8');
  for (const file of COPY.dataExport.files) expect(readme).toContain(file.name);
  expect(readme).not.toContain(COPY.dataExport.photoMissing);

  // Nothing of Bob's but his username: not his post, his photo, his icon or his e-mail.
  const bobData = await expected(t, storage, bob);
  const everything = Buffer.concat([...zip.values()].map((entry) => entry.data));
  expect(everything.includes("Bob's secret post")).toBe(false);
  expect(everything.includes(bob.email)).toBe(false);
  for (const [, bytes] of bobData.files) expect(everything.includes(bytes)).toBe(false);
}

/** The app listening on a port of its own (once), for a browser that can walk away: inject cannot. */
async function listening(t: TestApp): Promise<number> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  return (t.app.server.address() as AddressInfo).port;
}

/**
 * A browser's download that the test can walk away from (destroy()), on a connection of its own.
 * Not fetch(): after an aborted request, its pool (undici) opens a new connection that never
 * sends a request, and keeps it idle for 4 s, or for the server's Keep-Alive time less 2 s (70 s)
 * when the aborted response's headers had arrived. Node's server.close() does not close a
 * connection that has sent no request, so the test app's close() waited 4 s, or past the
 * afterAll's 60 s. Also the server's side of the request, to wait until it has seen the browser go.
 */
async function browserDownload(t: TestApp, cookie: string) {
  const port = await listening(t);
  const served = new Promise<http.ServerResponse>((resolve) => t.app.server.once('request', (_request, response) => resolve(response)));
  const request = http.get({ host: '127.0.0.1', port, path: API.exportData, headers: { cookie }, agent: false });
  // The test destroys it: that error is the point.
  request.on('error', () => undefined);
  const response = await served;
  return {
    /** Closes the connection, and resolves once the server has seen it closed. */
    async walkAway() {
      const closed = once(response, 'close');
      request.destroy();
      await closed;
    },
  };
}

describe('GET /api/me/export', () => {
  let t: TestApp;
  let storage: HeldStorage;
  let mediaDir: string;

  beforeAll(async () => {
    mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dormboard-export-'));
    storage = new HeldStorage(new DiskStorage(mediaDir));
    t = await createTestApp({ exportConcurrency: 1, rateLimits: { ...TEST_RATE_LIMITS, exportsPerUser: 3 } }, { storage });
  });
  afterEach(() => {
    storage.release();
    storage.failing = undefined;
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(mediaDir, { recursive: true, force: true });
  });

  it('is a ZIP of the account, every post with its full-size photo, the icon and both follow lists', async () => {
    const { alice, bob, carol } = await aliceAndFriends(t);
    await checkAliceExport(t, storage, alice, bob, carol);
  });

  it('of an account with nothing yet: the account, empty lists, no photos', async () => {
    const newcomer = await signUp(t.app);
    const response = await download(t, newcomer.cookie);
    expectZipResponse(response, newcomer.username);
    const zip = await readZip(response.rawPayload);
    expect([...zip.keys()].sort()).toEqual(EXPORT_FILES);
    expect(zipJson(zip, 'account.json')).toMatchObject({
      username: newcomer.username,
      email: newcomer.email,
      notifications: { offInTheApp: [], pushed: [], pushDevices: [] },
      profileIcon: null,
    });
    for (const name of ['posts.json', 'followers.json', 'following.json', 'boards.json', 'notifications.json']) {
      expect(zipJson(zip, name)).toEqual([]);
    }
  });

  it("boards.json: your boards (secret too) with description, members and every saved post; joined boards with only your saves; nobody else's", async () => {
    const steps = boardSteps(t.app);
    const [alice, bob, carol, dave, erin, author] = [
      await signUp(t.app),
      await signUp(t.app),
      await signUp(t.app),
      await signUp(t.app),
      await signUp(t.app),
      await signUp(t.app),
    ];
    const [p1, p2, p3, p4] = await insertPostsBy(t.database, author.uid, 4);
    const stash = await steps.create(alice, { name: 'Secret stash', description: 'shh', secret: true });
    const open = await steps.create(alice, { name: 'Open board' });
    const daves = await steps.create(dave, { name: "Dave's shared" });
    const erins = await steps.create(erin, { name: "Erin's secret", description: 'erin only', secret: true });
    await steps.addMember(alice, stash.id, bob);
    await steps.invite(alice, stash.id, carol.username);
    await steps.addMember(dave, daves.id, alice);
    await steps.save(alice, stash.id, p1!);
    await steps.save(bob, stash.id, p2!);
    await steps.save(alice, daves.id, p3!);
    await steps.save(dave, daves.id, p4!);
    await steps.save(erin, erins.id, p1!);

    const boardsOf = async (account: Account) => {
      const response = await download(t, account.cookie);
      expect(response.statusCode, response.body).toBe(200);
      return zipJson<unknown[]>(await readZip(response.rawPayload), 'boards.json');
    };
    const saved = (...ids: string[]) => ids.map((id) => ({ post: id, address: `/post/${id}`, saved: expect.any(String) }));
    expect(await boardsOf(alice)).toEqual([
      {
        name: 'Secret stash',
        owner: alice.username,
        role: 'owner',
        address: `/@${alice.username}/boards/${stash.slug}`,
        description: 'shh',
        secret: true,
        created: expect.any(String),
        members: [
          { username: bob.username, joined: true },
          { username: carol.username, joined: false },
        ],
        // Everything on the board, newest saved first, the collaborator's saves too.
        posts: saved(p2!, p1!),
      },
      {
        name: 'Open board',
        owner: alice.username,
        role: 'owner',
        address: `/@${alice.username}/boards/${open.slug}`,
        description: '',
        secret: false,
        created: expect.any(String),
        members: [],
        posts: [],
      },
      // Joined: by owner and name, with only what Alice saved there.
      expect.objectContaining({ name: "Dave's shared", owner: dave.username, role: 'collaborator', posts: saved(p3!) }),
    ]);
    // Bob joined Alice's secret board: it is his to take, with his own save alone and no member list.
    const bobs = await boardsOf(bob);
    expect(bobs).toEqual([
      expect.objectContaining({ name: 'Secret stash', owner: alice.username, role: 'collaborator', posts: saved(p2!) }),
    ]);
    expect(bobs[0]).not.toHaveProperty('members');
    // Carol was only invited; the author's posts are on boards, but the boards are not theirs.
    expect(await boardsOf(carol)).toEqual([]);
    expect(await boardsOf(author)).toEqual([]);
    // Erin's secret board is in Erin's export alone.
    expect(await boardsOf(erin)).toEqual([expect.objectContaining({ name: "Erin's secret", secret: true, posts: saved(p1!) })]);
  });

  it('notifications.json: every notification, newest first; account.json: the switches and the push devices by name, never an endpoint or its keys', async () => {
    const [alice, bob, carol, moderator] = [await signUp(t.app), await signUp(t.app), await signUp(t.app), await signUp(t.app)];
    await query(t.database, `UPDATE users SET role = 'moderator' WHERE id = $1`, [moderator.uid]);
    const created = async (photo: Buffer) => {
      const response = await createPost(t.app, alice.cookie, { bytes: photo, description: 'mine' });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<PostResponse>().post.id;
    };
    const [saved, removed] = [await created(photos[0]!), await created(photos[1]!)];

    // Bob follows her, and she reads it; Carol saves her post to a board; a moderator removes the other.
    expect((await follow(t.app, alice.username, bob.cookie)).statusCode).toBe(200);
    const read = await t.app.inject({ method: 'POST', url: activityApi.markRead.path, payload: {}, headers: { cookie: alice.cookie } });
    expect(read.json()).toEqual({ unread: 0 });
    const picks = await boardSteps(t.app).create(carol, { name: "Carol's picks" });
    await boardSteps(t.app).save(carol, picks.id, saved);
    const removal = await t.app.inject({
      method: 'POST',
      url: API.moderationRemovePost,
      payload: { postId: removed, note: 'Blurry' },
      headers: { cookie: moderator.cookie },
    });
    expect(removal.statusCode, removal.body).toBe(204);

    // Then (so that nothing is pushed to the made-up devices) her switches and two devices.
    const steps = notificationSteps(t.app);
    await steps.set(alice, { follows: { push: true }, boards: { app: false }, moderation: { push: true } });
    const devices = [
      {
        endpoint: `https://fcm.googleapis.com/fcm/send/${randomBytes(12).toString('base64url')}`,
        userAgent: CHROME_LINUX,
      },
      {
        endpoint: `https://updates.push.services.mozilla.com/wpush/v2/${randomBytes(12).toString('base64url')}`,
        userAgent: 'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0',
      },
    ].map((device) => ({ ...device, ...browserSubscription(device.endpoint) }));
    for (const { endpoint, keys, userAgent } of devices) await steps.add(alice, { endpoint, expirationTime: null, keys }, userAgent);
    expect(
      await query(
        t.database,
        'SELECT 1 FROM push_deliveries WHERE subscription_id IN (SELECT id FROM push_subscriptions WHERE user_id = $1)',
        [alice.uid],
      ),
    ).toEqual([]);

    const response = await download(t, alice.cookie);
    expect(response.statusCode, response.body).toBe(200);
    const zip = await readZip(response.rawPayload);
    expect(zipJson(zip, 'account.json')).toMatchObject({
      notifications: {
        offInTheApp: ['boards'],
        pushed: ['follows', 'moderation'],
        pushDevices: [
          { label: 'Chrome on Linux', added: expect.any(String) },
          { label: 'Firefox on Android', added: expect.any(String) },
        ],
      },
    });
    const rows = zipJson<Array<{ at: string }>>(zip, 'notifications.json');
    expect(rows).toEqual([
      { kind: 'post_removed', by: null, post: null, board: null, detail: 'Blurry', until: null, read: false, at: expect.any(String) },
      {
        kind: 'save',
        by: carol.username,
        post: saved,
        board: "Carol's picks",
        detail: null,
        until: null,
        read: false,
        at: expect.any(String),
      },
      { kind: 'follow', by: bob.username, post: null, board: null, detail: null, until: null, read: true, at: expect.any(String) },
    ]);
    const times = rows.map((row) => Date.parse(row.at));
    expect(times.every((time) => !Number.isNaN(time))).toBe(true);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // The moderator is never named, in the app or here.
    const everything = Buffer.concat([...zip.values()].map((entry) => entry.data));
    expect(everything.includes(moderator.username)).toBe(false);
    // A device's endpoint is a capability to push to it: never in the ZIP, nor its keys.
    for (const { endpoint, keys } of devices) {
      for (const secret of [endpoint, new URL(endpoint).pathname, keys.p256dh, keys.auth])
        expect(everything.includes(secret), secret).toBe(false);
    }
  });

  it('skips a photo missing from storage and says so, instead of failing', async () => {
    const owner = await signUp(t.app);
    await post(t, owner, 'kept', photos[0]!);
    await post(t, owner, 'lost', photos[1]!);
    const [lost] = await t.database.orm.select().from(posts).where(eq(posts.description, 'lost'));
    await storage.delete(`${lost!.imageKey}-full.jpg`);

    const response = await download(t, owner.cookie);
    expect(response.statusCode).toBe(200);
    const zip = await readZip(response.rawPayload);
    expect([...zip.keys()].filter((name) => name.startsWith('photos/'))).toHaveLength(1);
    expect(zipJson<Array<{ description: string; photo: string | null }>>(zip, 'posts.json').map((p) => [p.description, p.photo])).toEqual([
      ['lost', null],
      ['kept', expect.stringMatching(/^photos\/.+\.jpg$/)],
    ]);
    const readme = zip.get('README.txt')!.data.toString('utf8');
    expect(readme).toContain(`(${photoNameOf(lost!)}) ${COPY.dataExport.photoMissing}.`);
  });

  it('a storage failure mid-ZIP cuts the download short (never a ZIP that looks whole), and frees the slot', async () => {
    const owner = await signUp(t.app);
    for (const photo of photos) await post(t, owner, 'photo', photo);
    // The oldest post's photo is read last: two photos are already on their way when it fails.
    const [oldest] = await t.database.orm.select().from(posts).where(eq(posts.userId, owner.uid)).orderBy(posts.createdAt).limit(1);
    storage.failing = oldest!.imageKey;
    // The response had begun (200), so the connection is cut: the browser reports a failed download.
    await expect(download(t, owner.cookie)).rejects.toThrow('response destroyed before completion');
    storage.failing = undefined;
    const zip = await readZip((await download(t, owner.cookie)).rawPayload);
    expect([...zip.keys()].filter((name) => name.startsWith('photos/'))).toHaveLength(photos.length);
  });

  it('is refused signed out (401), and a signed-out browser is sent to the page', async () => {
    expectError(await download(t), 401, 'NOT_SIGNED_IN');
    const navigation = await download(t, undefined, { 'sec-fetch-mode': 'navigate', 'sec-fetch-site': 'none' });
    expect(navigation.statusCode).toBe(303);
    expect(navigation.headers.location).toBe('/settings/data?error=NOT_SIGNED_IN');
  });

  it('has no HEAD: it would make and count a whole ZIP for nothing', async () => {
    const user = await signUp(t.app);
    expect((await t.app.inject({ method: 'HEAD', url: API.exportData, headers: { cookie: user.cookie } })).statusCode).toBe(404);
  });

  it("is refused when another site's page asks (403)", async () => {
    const user = await signUp(t.app);
    expectError(await download(t, user.cookie, { 'sec-fetch-site': 'cross-site' }), 403, 'CROSS_SITE_REQUEST');
    expect((await download(t, user.cookie, { 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
  });

  it('counts per account: the fourth in an hour is 429, and other accounts are not affected', async () => {
    const [busy, other] = [await signUp(t.app), await signUp(t.app)];
    for (let i = 0; i < 3; i++) expect((await download(t, busy.cookie)).statusCode).toBe(200);
    const refused = await download(t, busy.cookie);
    expectError(refused, 429, 'EXPORTING_TOO_OFTEN');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
    const navigation = await download(t, busy.cookie, { 'sec-fetch-mode': 'navigate', 'sec-fetch-site': 'same-origin' });
    expect(navigation.statusCode).toBe(303);
    expect(navigation.headers.location).toBe('/settings/data?error=EXPORTING_TOO_OFTEN');
    expect((await download(t, other.cookie)).statusCode).toBe(200);
  });

  it('makes EXPORT_CONCURRENCY at once: the next is 503 with Retry-After and does not count', async () => {
    const [first, second] = [await signUp(t.app), await signUp(t.app)];
    await post(t, first, 'held', photos[0]!);
    storage.hold();
    const reading = storage.reading();
    const held = download(t, first.cookie);
    await reading;

    for (let i = 0; i < 4; i++) {
      const busy = await download(t, second.cookie);
      expectError(busy, 503, 'EXPORT_BUSY');
      expect(busy.headers['retry-after']).toBe('30');
    }
    storage.release();
    const zip = await readZip((await held).rawPayload);
    expect(zipJson<unknown[]>(zip, 'posts.json')).toHaveLength(1);
    // Four refusals took none of the account's three exports an hour.
    for (let i = 0; i < 3; i++) expect((await download(t, second.cookie)).statusCode).toBe(200);
  });

  it('stops reading when the browser goes away, and frees its slot', async () => {
    const quitter = await signUp(t.app);
    for (const photo of photos) await post(t, quitter, 'photo', photo);
    storage.hold();
    const reading = storage.reading();
    const browser = await browserDownload(t, quitter.cookie);
    await reading;
    const readsBefore = storage.reads;
    await browser.walkAway();
    storage.release();
    // Bounds only the wait for the abandoned export to give its slot back.
    await expect.poll(async () => (await download(t, quitter.cookie)).statusCode, { timeout: 20_000 }).toBe(200);
    // The abandoned export read nothing after the photo it was waiting for: every read since is the new one's.
    expect(storage.reads - readsBefore).toBe(photos.length);
  });

  it('frees the slot of a download abandoned before it began (while its session was looked up)', async () => {
    const quitter = await signUp(t.app);
    for (const photo of photos) await post(t, quitter, 'photo', photo);
    // The session lookup waits behind this lock (on PGlite, behind the transaction itself) until
    // the browser has gone: the route's handler then starts for a reader that left already.
    let unlock!: () => void;
    let locked!: Promise<void>;
    await new Promise<void>((resolve) => {
      locked = t.database.orm.transaction(async (tx) => {
        await tx.execute(sql`LOCK TABLE sessions IN ACCESS EXCLUSIVE MODE`);
        resolve();
        await new Promise<void>((release) => (unlock = release));
      });
    });
    const browser = await browserDownload(t, quitter.cookie);
    await browser.walkAway();
    const readsBefore = storage.reads;
    unlock();
    await locked;
    // Bounds only the wait for the abandoned export to give its slot back.
    await expect.poll(async () => (await download(t, quitter.cookie)).statusCode, { timeout: 20_000 }).toBe(200);
    // The abandoned export read nothing (it used to write its photos into the stream the response
    // had destroyed, and wait for ever for it to take them): every read since is the new one's.
    expect(storage.reads - readsBefore).toBe(photos.length);
  });
});

describe('GET /api/me/export in the security log', () => {
  const lines: string[] = [];
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(
      { logLevel: 'info', rateLimits: { ...TEST_RATE_LIMITS, exportsPerUser: 1 } },
      { logStream: { write: (line: string) => void lines.push(line) } },
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a download is an info line naming the account; a refusal sent back to the page is logged as one answered with JSON', async () => {
    const user = await signUp(t.app);
    const events = () =>
      lines.map((line) => JSON.parse(line) as { security?: string; userId?: string; code?: string }).filter((line) => line.security);
    expect((await download(t, user.cookie)).statusCode).toBe(200);
    expect((await download(t, user.cookie, { 'sec-fetch-mode': 'navigate', 'sec-fetch-site': 'same-origin' })).statusCode).toBe(303);
    expect(events().filter((line) => line.userId === user.uid)).toEqual([
      expect.objectContaining({ security: 'signed up' }),
      expect.objectContaining({ security: 'downloaded data' }),
      expect.objectContaining({ security: 'rate limited', code: 'EXPORTING_TOO_OFTEN' }),
    ]);
    // Never the account's e-mail address.
    expect(lines.some((line) => line.includes(user.email))).toBe(false);
  });
});

describe('GET /api/me/export on S3', () => {
  let s3: LocalS3;
  let t: TestApp;
  let storage: Storage;

  beforeAll(async () => {
    s3 = await startLocalS3();
    storage = s3.storage('export/');
    t = await createTestApp({}, { storage });
  }, 30_000);
  afterEach(() => emptyBucket(s3));
  afterAll(async () => {
    await t?.close();
    await s3?.stop();
  });

  it('holds the same files, the photos and icon read from the bucket', async () => {
    const { alice, bob, carol } = await aliceAndFriends(t);
    await checkAliceExport(t, storage, alice, bob, carol);
  });
});
