import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { copyData } from '../../src/server/backup/copy-data.js';
import { DEFAULT_RATE_LIMITS, loadConfig } from '../../src/server/config.js';
import { openDatabase } from '../../src/server/db/database.js';
import { DiskStorage } from '../../src/server/storage/disk-storage.js';
import { tempDir } from '../helpers/processes.js';
import { buildServer, client, runTool, startServer } from '../helpers/server-process.js';
import { noPostgres } from '../helpers/services.js';
import { activityApi, type NotificationPreferences } from '../../src/shared/api/activity.js';
import { signUp } from '../helpers/accounts.js';
import { follow, query } from '../helpers/people.js';
import { startPushService } from '../helpers/push-service.js';
import { createTestApp, createTestDatabase } from '../helpers/test-app.js';
import { notificationSteps } from '../helpers/notification-steps.js';

async function photoForm(description: string) {
  const bytes = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#3a86ff' } })
    .jpeg()
    .toBuffer();
  const form = new FormData();
  form.set('photo', new Blob([bytes], { type: 'image/jpeg' }), 'p.jpg');
  form.set('description', description);
  return form;
}

// The bundle `npm start` runs (seconds sooner to start than through tsx); the tools run through
// tsx, as `npm run backup` and the others do.
let script: string;
beforeAll(async () => {
  script = await buildServer();
});

const alice = { username: 'alice', email: 'alice@example.com', password: 'backup pass 1' };
const bob = { username: 'bob', email: 'bob@example.com', password: 'backup pass 2' };

/** An embedded setup with two users, a follow and two posts; returns its data directory. */
async function embeddedSetup() {
  const dataDir = tempDir('source');
  const server = await startServer({ DATA_DIR: dataDir }, script);
  const a = client(server.base);
  const b = client(server.base);
  expect((await a.call('POST', '/api/auth/register', alice)).status).toBe(201);
  expect((await b.call('POST', '/api/auth/register', bob)).status).toBe(201);
  expect((await b.call('PUT', '/api/users/alice/follow')).status).toBe(200);
  const kept = await (await a.call('POST', '/api/posts', await photoForm('kept #backup'))).json();
  const doomed = await (await a.call('POST', '/api/posts', await photoForm('doomed #backup'))).json();
  // A secret board of Bob's with Alice's post on it, chosen as its cover (issue 18).
  const board = (await (await b.call('POST', '/api/boards', { name: 'Backups', secret: true })).json()).board;
  expect((await b.call('PUT', `/api/boards/${board.id}/posts/${kept.post.id}`)).status).toBe(200);
  expect((await b.call('PATCH', `/api/boards/${board.id}`, { coverPostId: kept.post.id })).status).toBe(200);
  return { dataDir, server, a, kept: kept.post, doomed: doomed.post, boardSlug: board.slug as string };
}

describe.skipIf(process.env.TEST_DATABASE_URL)('npm run backup / restore', () => {
  it('copies the running embedded app consistently, and the copy restores into a working app', async () => {
    const { dataDir, server, a, kept, doomed } = await embeddedSetup();
    const out = path.join(tempDir('backup'), 'snapshot');

    const backup = await runTool('backup', ['--out', out], { DATA_DIR: dataDir });
    expect(backup.code, backup.stderr).toBe(0);
    expect(JSON.parse(backup.stdout)).toMatchObject({ outDir: out, mediaFiles: 6 });
    // Changes after the backup are not in it.
    expect((await a.call('DELETE', `/api/posts/${doomed.id}`)).status).toBe(204);
    expect(await server.stop()).toBe(0);

    const restoredDir = tempDir('restored');
    const restore = await runTool('restore', [out], { DATA_DIR: restoredDir });
    expect(restore.code, restore.stderr).toBe(0);
    // Restoring over an existing database is refused.
    expect((await runTool('restore', [out], { DATA_DIR: restoredDir })).code).not.toBe(0);

    const restored = await startServer({ DATA_DIR: restoredDir }, script);
    try {
      const api = client(restored.base);
      expect((await api.call('POST', '/api/auth/login', { identifier: 'alice', password: alice.password })).status).toBe(200);
      for (const post of [kept, doomed]) {
        const detail = await api.call('GET', `/api/posts/${post.id}`);
        expect(detail.status).toBe(200);
        const image = await api.call('GET', (await detail.json()).post.image.full);
        expect(image.status).toBe(200);
        expect(image.headers.get('content-type')).toBe('image/jpeg');
      }
      expect((await (await api.call('GET', '/api/users/alice')).json()).user.followers).toBe(1);
    } finally {
      await restored.stop();
    }
  }, 180_000);

  it('the backup endpoint answers only loopback callers holding the token', async () => {
    const t = await createTestApp();
    const dataDir = tempDir('token');
    const app = await buildApp({
      config: { ...t.config, dataDir, rateLimits: DEFAULT_RATE_LIMITS },
      database: t.database,
      adminToken: 'secret-token',
    });
    try {
      const call = (headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
        app.inject({ method: 'POST', url: '/api/admin/backup', headers, payload: {}, remoteAddress });
      expect((await call({})).statusCode).toBe(404);
      expect((await call({ authorization: 'Bearer wrong' })).statusCode).toBe(404);
      expect((await call({ authorization: 'Bearer secret-token' }, '10.1.2.3')).statusCode).toBe(404);
      // The in-memory test database can be dumped too: the right caller gets a backup.
      const ok = await call({ authorization: 'Bearer secret-token' });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(fs.existsSync(path.join(ok.json().outDir, 'pglite.tar.gz'))).toBe(true);
    } finally {
      await app.close();
      await t.close();
    }
  });
});

// The target is a PostgreSQL database of TEST_DATABASE_URL's server; the source is embedded whatever it says.
describe.skipIf(noPostgres)('npm run migrate-data', () => {
  it('moves users, sessions, posts, follows and media from the embedded setup to PostgreSQL', async () => {
    const { dataDir, server, a, kept, doomed, boardSlug } = await embeddedSetup();
    const session = a.cookie;
    expect(await server.stop()).toBe(0);

    // A fresh, migrated PostgreSQL database (TEST_DATABASE_URL is set here).
    const { database: opened, drop, url } = await createTestDatabase();
    await opened.close();
    const target = { url: url! };
    const mediaDir = tempDir('media-target');
    try {
      const run = await runTool('migrate-data', ['--to', target.url, '--media-to-dir', mediaDir], { DATA_DIR: dataDir });
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({
        rows: {
          users: 2,
          sessions: 2,
          // Issue 29: the university sign-ins linked to accounts (none in this setup).
          sso_identities: 0,
          posts: 2,
          follows: 1,
          blocks: 0,
          reports: 0,
          moderation_log: 0,
          invites: 0,
          boards: 1,
          board_posts: 1,
          board_members: 0,
          // Issue 30: Bob's follow told Alice (his save to his secret board did not); the key pair the server made.
          notifications: 1,
          push_subscriptions: 0,
          server_keys: 1,
          pending_files: 0,
        },
        mediaFiles: 6,
      });
      // A second run refuses: the target is no longer empty.
      expect((await runTool('migrate-data', ['--to', target.url], { DATA_DIR: dataDir })).code).not.toBe(0);

      const database = await openDatabase({ databaseUrl: target.url });
      const app = await buildApp({
        config: { ...loadConfig({}), logLevel: 'silent', clientDir: '/nonexistent', dataDir: mediaDir },
        database,
        storage: new DiskStorage(mediaDir),
      });
      try {
        // The old session still works, and so does signing in.
        const me = await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: session } });
        expect(me.json().user.username).toBe('alice');
        const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { identifier: 'bob', password: bob.password } });
        expect(login.statusCode).toBe(200);
        // Bob's secret board arrived whole: its count (kept by the triggers) and its chosen cover.
        const board = await app.inject({
          method: 'GET',
          url: `/api/users/bob/boards/${boardSlug}`,
          headers: { cookie: login.headers['set-cookie']!.toString().split(';')[0]! },
        });
        expect(board.json().board).toMatchObject({ secret: true, count: 1, coverPostId: kept.id });
        for (const post of [kept, doomed]) {
          const detail = await app.inject({ method: 'GET', url: `/api/posts/${post.id}` });
          expect(detail.json().post.author.followers).toBe(1);
          for (const url of [detail.json().post.image.full, ...detail.json().post.image.variants.map((v: { src: string }) => v.src)]) {
            expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
          }
        }
        const search = await app.inject({ method: 'GET', url: '/api/search/posts?q=backup' });
        expect(search.json().posts).toHaveLength(2);
      } finally {
        await app.close();
        await database.close();
      }
    } finally {
      await drop();
    }
  }, 180_000);
});

// On whatever database the tests run on (PGlite, or PostgreSQL with TEST_DATABASE_URL): the copy itself.
describe('migrate-data: notifications, push devices and the push key (issue 30)', () => {
  it('copies the notifications, the devices and the VAPID pair (pushes after it still verify), not the queue; the bells are recounted', async () => {
    const push = await startPushService();
    const notifications = { ...loadConfig({}).notifications, pushServices: [push.origin] };
    const source = await createTestApp({ notifications }, { pushRetryBaseMs: 60_000 });
    const target = await createTestDatabase();
    let copied: Awaited<ReturnType<typeof buildApp>> | undefined;
    try {
      const [alice, bob, carol, dave] = [
        await signUp(source.app),
        await signUp(source.app),
        await signUp(source.app),
        await signUp(source.app),
      ];
      const device = push.subscribe();
      const as = (cookie: string) => ({ cookie });
      const steps = notificationSteps(source.app);
      await steps.add(alice, device);
      const settings = await steps.set(alice, { follows: { push: true } });
      // Bob's follow, read; Carol's, unread, its push waiting in the queue (the service failed it).
      expect((await follow(source.app, alice.username, bob.cookie)).statusCode).toBe(200);
      await source.app.pushSender.idle();
      await source.app.inject({ method: 'POST', url: activityApi.markRead.path, payload: {}, headers: as(alice.cookie) });
      push.respondWith(device.endpoint, 500);
      expect((await follow(source.app, alice.username, carol.cookie)).statusCode).toBe(200);
      await source.app.pushSender.idle();
      expect(await query(source.database, 'SELECT 1 FROM push_deliveries')).toHaveLength(1);
      const keyOf = (database: typeof source.database) =>
        query<{ value: string }>(database, `SELECT value FROM server_keys WHERE name = 'vapid'`);
      const [sourceKey] = await keyOf(source.database);
      // Times to the millisecond: the copy reads them as JavaScript dates (PostgreSQL keeps microseconds).
      const rowsOf = (database: typeof source.database) =>
        query(
          database,
          `SELECT id, user_id, kind, actor_id, group_key, day::text, read, date_trunc('milliseconds', created_at)::text AS created_at
           FROM notifications ORDER BY id`,
        );

      const report = await copyData({ source: source.database, target: target.database });
      expect(report.rows).toMatchObject({ notifications: 2, push_subscriptions: 1, server_keys: 1 });
      expect(report.rows).not.toHaveProperty('push_deliveries');
      expect(await rowsOf(target.database)).toEqual(await rowsOf(source.database));
      expect(await keyOf(target.database)).toEqual([sourceKey]);
      expect(await query(target.database, 'SELECT 1 FROM push_deliveries')).toEqual([]);
      // Recounted by the triggers as the rows arrived: one unread, as before.
      const unreadOf = (database: typeof source.database) =>
        query<{ username: string; unread: number }>(
          database,
          'SELECT username, unread_notifications AS unread FROM users ORDER BY username',
        );
      expect(await unreadOf(target.database)).toEqual(await unreadOf(source.database));
      expect((await unreadOf(target.database)).find((row) => row.username === alice.username)?.unread).toBe(1);

      // A server on the copy: the same key, Alice's device and switches, and a push that verifies against the key her browser subscribed with.
      copied = await buildApp({ config: source.config, database: target.database });
      await copied.ready();
      const after = (
        await copied.inject({ method: 'GET', url: activityApi.notificationSettings.path, headers: as(alice.cookie) })
      ).json<NotificationPreferences>();
      expect(after).toEqual(settings);
      expect((await copied.inject({ method: 'GET', url: activityApi.unreadCount.path, headers: as(alice.cookie) })).json()).toEqual({
        unread: 1,
      });
      push.respondWith(device.endpoint, 201);
      expect((await follow(copied, alice.username, dave.cookie)).statusCode).toBe(200);
      const message = await push.waitFor((m) => m.endpoint === device.endpoint && m.text.includes(dave.username));
      expect(message.vapid.publicKey).toBe(settings.publicKey);
      expect(message.payload).toMatchObject({ body: `${dave.username} followed you` });
      // Bob's before the copy, Dave's after it: Carol's, queued at the copy's moment, was not copied.
      expect(push.received.filter((m) => m.endpoint === device.endpoint).map((m) => (m.payload as { body: string }).body)).toEqual([
        `${bob.username} followed you`,
        `${dave.username} followed you`,
      ]);
    } finally {
      await copied?.close();
      await target.database.close();
      await target.drop();
      await source.close();
      await push.close();
    }
  }, 120_000);
});
