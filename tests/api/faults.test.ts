import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../../src/server/config.js';
import { DiskStorage } from '../../src/server/storage/disk-storage.js';
import type { Storage } from '../../src/server/storage/storage.js';
import { TrackedFiles } from '../../src/server/storage/tracked-files.js';
import { API } from '../../src/shared/api/paths.js';
import type { PostDetail, PostPage } from '../../src/shared/api/posts.js';
import { ERRORS } from '../../src/shared/errors.js';
import { signUp } from '../helpers/accounts.js';
import * as fixtures from '../helpers/images.js';
import { expectError, get, patchMe, query } from '../helpers/people.js';
import { createPost, multipart } from '../helpers/posts.js';
import { tempDir } from '../helpers/processes.js';
import { buildServer, client, startServer, type ServerProcess } from '../helpers/server-process.js';
import { createEmptyDatabase, noPostgres } from '../helpers/services.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * What happens when something the server depends on fails: storage that can't write or delete,
 * a database that goes away, a client that sends its upload a byte at a time, a user who uploads
 * without pause. Each time: a clear answer, nothing half-done, and recovery afterwards.
 */

type Account = Awaited<ReturnType<typeof signUp>>;

/** Every file under a folder, relative to it, sorted. */
function filesUnder(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((entry) => fs.statSync(path.join(root, entry)).isFile()).sort();
}

const pendingKeys = async (t: TestApp) =>
  (await query<{ key: string }>(t.database, 'SELECT key FROM pending_files ORDER BY key')).map((row) => row.key);

const mediaKey = (url: string) => url.slice('/media/'.length);

/** Disk storage whose writes and deletes can be made to fail. */
class FaultyStorage implements Storage {
  /** Fail the n-th put from now on (1-based); 0 = never. */
  failPutAt = 0;
  failDeletes = false;
  private puts = 0;

  constructor(readonly inner: Storage) {}

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    this.puts += 1;
    if (this.puts === this.failPutAt) throw new Error('injected storage write failure');
    await this.inner.put(key, body, contentType);
  }

  get(key: string) {
    return this.inner.get(key);
  }

  async delete(key: string): Promise<void> {
    if (this.failDeletes) throw new Error('injected storage delete failure');
    await this.inner.delete(key);
  }

  heal() {
    Object.assign(this, { failPutAt: 0, failDeletes: false, puts: 0 });
  }

  failNthPut(n: number) {
    Object.assign(this, { failPutAt: n, puts: 0 });
  }
}

// ---------------------------------------------------------------- storage failures

describe('storage failures leave nothing half-done', () => {
  const mediaRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'dormboard-faults-media-'));
  const storage = new FaultyStorage(new DiskStorage(mediaRoot));
  let t: TestApp;
  let sweeper: TrackedFiles;

  beforeAll(async () => {
    t = await createTestApp({}, { storage });
    // The app's own sweep runs at start-up and hourly; the tests run one when they need it.
    sweeper = new TrackedFiles(t.database.orm, storage, t.app.log, t.app.changes);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(mediaRoot, { recursive: true, force: true });
  });

  async function posted(account: Account): Promise<PostDetail> {
    const response = await createPost(t.app, account.cookie, { bytes: await fixtures.jpeg(300, 200), description: 'fault #test' });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ post: PostDetail }>().post;
  }

  async function profileOf(account: Account) {
    const response = await get(t.app, API.user(account.username));
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ user: { icon: string | null; bio: string } }>().user;
  }

  it('a post whose file write fails: 500, no post, no files, nothing left recorded', async () => {
    const author = await signUp(t.app);
    const before = filesUnder(mediaRoot);
    storage.failNthPut(2);
    const response = await createPost(t.app, author.cookie, { bytes: await fixtures.jpeg(300, 200), description: 'doomed' });
    storage.heal();
    expectError(response, 500, 'GENERIC');
    expect((await get(t.app, API.userPosts(author.username))).json<PostPage>().posts).toEqual([]);
    expect(filesUnder(mediaRoot)).toEqual(before);
    expect(await pendingKeys(t)).toEqual([]);
  });

  it("a post whose files can't be deleted: 204 and the post is gone everywhere; the sweep removes the files once storage works", async () => {
    const author = await signUp(t.app);
    const post = await posted(author);
    const keys = [post.image.full, ...post.image.variants.map((variant) => variant.src)].map(mediaKey);

    storage.failDeletes = true;
    const response = await t.app.inject({ method: 'DELETE', url: API.post(post.id), headers: { cookie: author.cookie } });
    expect(response.statusCode, response.body).toBe(204);
    // Gone for users at once, whatever storage did.
    expectError(await get(t.app, API.post(post.id)), 404, 'POST_NOT_FOUND');
    expect((await get(t.app, API.userPosts(author.username))).json<PostPage>().posts).toEqual([]);
    // The files are still there, but recorded as owned by nothing.
    for (const key of keys) expect(fs.existsSync(path.join(mediaRoot, key)), key).toBe(true);
    expect(await pendingKeys(t)).toEqual([...keys].sort());

    // A sweep while storage still fails deletes nothing and forgets nothing.
    expect(await sweeper.sweep(0)).toBe(0);
    expect(await pendingKeys(t)).toEqual([...keys].sort());

    storage.heal();
    expect(await sweeper.sweep(0)).toBe(keys.length);
    for (const key of keys) expect(fs.existsSync(path.join(mediaRoot, key)), key).toBe(false);
    expect(await pendingKeys(t)).toEqual([]);
  });

  it('a new icon whose file write fails: 500, and neither the icon nor the bio sent with it changes', async () => {
    const user = await signUp(t.app);
    const first = await patchMe(t.app, user.cookie, [
      ['bio', 'first bio'],
      ['icon', { bytes: await fixtures.jpeg(200, 200), filename: 'me.jpg' }],
    ]);
    expect(first.statusCode, first.body).toBe(200);
    const before = await profileOf(user);
    const files = filesUnder(mediaRoot);

    storage.failNthPut(2);
    const response = await patchMe(t.app, user.cookie, [
      ['bio', 'second bio'],
      ['icon', { bytes: await fixtures.jpeg(220, 220), filename: 'me.jpg' }],
    ]);
    storage.heal();
    expectError(response, 500, 'GENERIC');
    expect(await profileOf(user)).toEqual(before);
    expect(before.bio).toBe('first bio');
    expect((await fetchMedia(t, before.icon!)).statusCode).toBe(200);
    expect(filesUnder(mediaRoot)).toEqual(files);
    expect(await pendingKeys(t)).toEqual([]);
  });

  it('a new icon whose profile update fails: 500, its files are removed and the old icon stays', async () => {
    const user = await signUp(t.app);
    const first = await patchMe(t.app, user.cookie, [['icon', { bytes: await fixtures.jpeg(200, 200), filename: 'me.jpg' }]]);
    expect(first.statusCode, first.body).toBe(200);
    const before = await profileOf(user);
    const files = filesUnder(mediaRoot);

    await t.database.rawTransaction((tx) =>
      tx.exec(`
        CREATE FUNCTION test_fail_icon_update() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'injected update failure'; END $$;
        CREATE TRIGGER test_fail_icon_update BEFORE UPDATE OF icon_key ON users
          FOR EACH ROW WHEN (NEW.icon_key IS DISTINCT FROM OLD.icon_key) EXECUTE FUNCTION test_fail_icon_update();
      `),
    );
    try {
      const response = await patchMe(t.app, user.cookie, [['icon', { bytes: await fixtures.jpeg(240, 240), filename: 'me.jpg' }]]);
      expectError(response, 500, 'GENERIC');
    } finally {
      await t.database.rawTransaction((tx) =>
        tx.exec('DROP TRIGGER test_fail_icon_update ON users; DROP FUNCTION test_fail_icon_update();'),
      );
    }
    expect(await profileOf(user)).toEqual(before);
    expect((await fetchMedia(t, before.icon!)).statusCode).toBe(200);
    expect(filesUnder(mediaRoot)).toEqual(files);
    expect(await pendingKeys(t)).toEqual([]);
  });

  it("a replaced icon whose old files can't be deleted: 200 with the new icon; the sweep removes the old files later", async () => {
    const user = await signUp(t.app);
    const first = await patchMe(t.app, user.cookie, [['icon', { bytes: await fixtures.jpeg(200, 200), filename: 'me.jpg' }]]);
    expect(first.statusCode, first.body).toBe(200);
    const oldIcon = (await profileOf(user)).icon!;
    const oldKeys = [oldIcon.replace(/-320\.webp$/, '-96.webp'), oldIcon].map(mediaKey).sort();

    storage.failDeletes = true;
    const response = await patchMe(t.app, user.cookie, [['icon', { bytes: await fixtures.jpeg(260, 260), filename: 'me.jpg' }]]);
    storage.heal();
    expect(response.statusCode, response.body).toBe(200);
    const newIcon = (await profileOf(user)).icon!;
    expect(newIcon).not.toBe(oldIcon);
    expect((await fetchMedia(t, newIcon)).statusCode).toBe(200);
    expect(await pendingKeys(t)).toEqual(oldKeys);

    expect(await sweeper.sweep(0)).toBe(2);
    for (const key of oldKeys) expect(fs.existsSync(path.join(mediaRoot, key)), key).toBe(false);
    expect((await fetchMedia(t, newIcon)).statusCode).toBe(200);
    expect(await pendingKeys(t)).toEqual([]);
  });
});

const fetchMedia = (t: TestApp, url: string) => t.app.inject({ method: 'GET', url });

// ---------------------------------------------------------------- per-user upload limits

describe('per-user upload limits', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      rateLimits: { ...DEFAULT_RATE_LIMITS, loginPerIp: 10_000, registerPerIp: 10_000, postsPerUser: 2, iconChangesPerUser: 1 },
    });
  });
  afterAll(() => t.close());

  const mediaFiles = () => filesUnder(path.join(t.config.dataDir, 'media'));
  const photo = () => fixtures.jpeg(120, 90);

  it('the post after the limit gets 429 with a clear message, and nothing of it is stored; another user can still post', async () => {
    const [alice, bob] = [await signUp(t.app), await signUp(t.app)];
    for (let i = 0; i < 2; i++) {
      const response = await createPost(t.app, alice.cookie, { bytes: await photo(), description: `post ${i}` });
      expect(response.statusCode, response.body).toBe(201);
    }
    const files = mediaFiles();

    const refused = await createPost(t.app, alice.cookie, { bytes: await photo(), description: 'one too many' });
    expectError(refused, 429, 'POSTING_TOO_FAST');
    expect(refused.json().message).toBe('You are posting too fast. Try again later.');
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect((await get(t.app, API.userPosts(alice.username))).json<PostPage>().posts.map((post) => post.description)).toEqual([
      'post 1',
      'post 0',
    ]);
    expect(mediaFiles()).toEqual(files);
    expect(await pendingKeys(t)).toEqual([]);

    const other = await createPost(t.app, bob.cookie, { bytes: await photo(), description: 'bob is fine' });
    expect(other.statusCode, other.body).toBe(201);
  });

  it('icon changes have their own limit; the refused request saves nothing, and bio-only updates still work', async () => {
    const carol = await signUp(t.app);
    const icon = async (): Promise<['icon', { bytes: Buffer; filename: string }]> => [
      'icon',
      { bytes: await fixtures.jpeg(150, 150), filename: 'me.jpg' },
    ];
    expect((await patchMe(t.app, carol.cookie, [await icon()])).statusCode).toBe(200);
    const before = (await get(t.app, API.user(carol.username))).json().user;
    const files = mediaFiles();

    const refused = await patchMe(t.app, carol.cookie, [['bio', 'with a new face'], await icon()]);
    expectError(refused, 429, 'ICON_CHANGES_TOO_FAST');
    expect((await get(t.app, API.user(carol.username))).json().user).toEqual(before);
    expect(mediaFiles()).toEqual(files);

    const bioOnly = await patchMe(t.app, carol.cookie, [['bio', 'just words']]);
    expect(bioOnly.statusCode, bioOnly.body).toBe(200);
    expect(bioOnly.json().user.bio).toBe('just words');
    // Posting is limited separately.
    expect((await createPost(t.app, carol.cookie, { bytes: await photo() })).statusCode).toBe(201);
  });
});

// ---------------------------------------------------------------- slow clients

/** A raw connection that collects what the server sends and when it hangs up. */
function rawConnection(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, closed, received: () => received };
}

describe('slow clients cannot hold the server hostage', () => {
  let t: TestApp;
  let base: string;
  const REQUEST_MS = 1_500;
  const HEADERS_MS = 1_000;
  // No upper bound on when a slow client is cut off (a loaded machine is late): if Node's own
  // timeouts applied (300 s for a request, 60 s for headers), the wait for the hang-up would
  // outlast the test's timeout instead.

  beforeAll(async () => {
    t = await createTestApp({ timeouts: { requestMs: REQUEST_MS, headersMs: HEADERS_MS, keepAliveMs: 5_000 } });
    base = await listen(t);
  });
  afterAll(() => t.close());

  async function listen(app: TestApp) {
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    return `http://127.0.0.1:${(app.app.server.address() as net.AddressInfo).port}`;
  }

  /** Starts an upload whose photo then arrives at 1 byte/s, as its account; stop() ends the trickle. */
  function trickledUpload(server: string, account: Account) {
    const connection = rawConnection(Number(new URL(server).port));
    const boundary = 'trickle';
    connection.socket.write(
      `POST ${API.posts} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${account.cookie}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 100000\r\n\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="slow.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    );
    const trickle = setInterval(() => connection.socket.writable && connection.socket.write('x'), 1_000);
    let hungUp = false;
    void connection.closed.then(() => (hungUp = true));
    return {
      ...connection,
      hungUp: () => hungUp,
      stop: () => {
        clearInterval(trickle);
        connection.socket.destroy();
      },
    };
  }

  it('while an upload trickles in at 1 byte/s, the server answers everyone else: a read and a whole upload', async () => {
    // A server whose request timeout outlasts this test: the trickle is still open at the end
    // however slow the machine, so what is checked is that the others did not wait for it.
    const patient = await createTestApp({ timeouts: { requestMs: 10 * 60_000, headersMs: HEADERS_MS, keepAliveMs: 5_000 } });
    const server = await listen(patient);
    const [slow, quick] = [await signUp(patient.app), await signUp(patient.app)];
    const upload = trickledUpload(server, slow);
    try {
      const feed = await fetch(`${server}${API.posts}`);
      expect(feed.status).toBe(200);
      const { payload, contentType } = await multipart([
        ['photo', { bytes: await fixtures.jpeg(160, 120) }],
        ['description', 'not slow'],
      ]);
      const whole = await fetch(`${server}${API.posts}`, {
        method: 'POST',
        headers: { cookie: quick.cookie, 'content-type': contentType },
        body: new Uint8Array(payload),
      });
      expect(whole.status).toBe(201);
      expect(upload.hungUp()).toBe(false);
    } finally {
      upload.stop();
      await patient.close();
    }
    // About 6 s here, a second app included.
  }, 60_000);

  it('an upload trickled at 1 byte/s is cut off after the request timeout, and nothing of it is kept', async () => {
    const slow = await signUp(t.app);
    const started = Date.now();
    const upload = trickledUpload(base, slow);
    try {
      await upload.closed;
      // Never before the timeout (a timer cannot fire early; when after it depends on the load).
      expect(Date.now() - started).toBeGreaterThanOrEqual(REQUEST_MS - 100);
      // Node answers 408 before hanging up (or just hangs up).
      expect(upload.received() === '' || upload.received().startsWith('HTTP/1.1 408')).toBe(true);
    } finally {
      upload.stop();
    }
    expect((await get(t.app, API.userPosts(slow.username))).json<PostPage>().posts).toEqual([]);
  });

  it('headers sent a byte at a time are cut off after the headers timeout', async () => {
    const port = Number(new URL(base).port);
    const started = Date.now();
    const connection = rawConnection(port);
    connection.socket.write(`GET ${API.posts} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: `);
    const trickle = setInterval(() => connection.socket.writable && connection.socket.write('x'), 300);
    try {
      await connection.closed;
    } finally {
      clearInterval(trickle);
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(HEADERS_MS - 100);
    expect(connection.received() === '' || connection.received().startsWith('HTTP/1.1 408')).toBe(true);
    expect((await fetch(`${base}${API.posts}`)).status).toBe(200);
  });
});

// ---------------------------------------------------------------- the database goes away

describe.skipIf(noPostgres)('PostgreSQL unreachable: 503, then recovery (a real server process behind a TCP proxy)', () => {
  let proxy: TcpProxy;
  let server: ServerProcess;
  let drop: () => Promise<void>;
  let dataDir: string;
  const CONNECT_TIMEOUT_MS = 1_000;

  beforeAll(async () => {
    dataDir = tempDir('outage');
    const database = await createEmptyDatabase();
    drop = database.drop;
    const target = new URL(database.url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) || 5432 });
    const viaProxy = new URL(database.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const script = await buildServer();
    server = await startServer(
      {
        DATABASE_URL: viaProxy.toString(),
        DATA_DIR: dataDir,
        DATABASE_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
        CACHE_TTL_MS: '0',
        // Every failed request is logged as an error; the test reads the responses instead.
        LOG_LEVEL: 'fatal',
      },
      script,
    );
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
    await drop?.();
  });

  /**
   * Waits for an answer, for twenty times the connect timeout at most: time enough however
   * loaded the machine, where a request without a timeout (pg's default) would never be answered.
   */
  async function answered(response: Promise<Response>, what: string): Promise<Response> {
    let timer: NodeJS.Timeout | undefined;
    const hanging = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: left hanging`)), 20 * CONNECT_TIMEOUT_MS);
    });
    try {
      return await Promise.race([response, hanging]);
    } finally {
      clearTimeout(timer);
    }
  }

  async function expectUnavailable(response: Response) {
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await response.json()).toEqual({ code: 'SERVICE_UNAVAILABLE', message: ERRORS.SERVICE_UNAVAILABLE });
  }

  it('answers 503 with a clear message while the database is down or silent, never hangs or crashes, and recovers', async () => {
    const account = {
      username: `outage${process.pid % 1000}`,
      email: `outage${process.pid % 1000}@example.com`,
      password: 'study group 42',
    };
    const alice = client(server.base);
    expect((await alice.call('POST', API.register, account)).status).toBe(201);
    const form = async (description: string) => {
      const body = new FormData();
      body.append('photo', new Blob([new Uint8Array(await fixtures.jpeg(120, 90))], { type: 'image/jpeg' }), 'photo.jpg');
      body.append('description', description);
      return body;
    };
    expect((await alice.call('POST', API.posts, await form('before the outage'))).status).toBe(201);
    const mediaDir = path.join(dataDir, 'media');
    const filesBefore = filesUnder(mediaDir);
    const stranger = client(server.base);

    for (const mode of ['down', 'stall'] as const) {
      await proxy.set(mode);
      for (const [name, request] of [
        ['feed', () => stranger.call('GET', API.posts)],
        ['sign-in', () => stranger.call('POST', API.login, { identifier: account.username, password: account.password })],
        ['signed-in read', () => alice.call('GET', API.me)],
        ['upload', async () => alice.call('POST', API.posts, await form('during the outage'))],
      ] as const) {
        // Refused at once when down; after the connect timeout when silent. Never left hanging.
        await expectUnavailable(await answered(request(), `${mode} ${name}`));
      }
      expect(filesUnder(mediaDir)).toEqual(filesBefore);
      expect(server.child.exitCode).toBe(null);
    }

    await proxy.set('up');
    const feed = await stranger.call('GET', API.posts);
    expect(feed.status).toBe(200);
    expect((await feed.json()).posts.map((post: { description: string }) => post.description)).toEqual(['before the outage']);
    expect((await stranger.call('POST', API.login, { identifier: account.username, password: account.password })).status).toBe(200);
    expect((await alice.call('POST', API.posts, await form('after the outage'))).status).toBe(201);
    expect(await server.stop('SIGTERM')).toBe(0);
  }, 60_000);
});
