import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteAll, putAll, type FileToStore } from '../../src/server/storage/batch.js';
import { DiskStorage } from '../../src/server/storage/disk-storage.js';
import type { Storage } from '../../src/server/storage/storage.js';
import { API } from '../../src/shared/api/paths.js';
import { signUp } from '../helpers/accounts.js';
import { jpeg } from '../helpers/images.js';
import { createPost } from '../helpers/posts.js';
import { startLocalS3, type LocalS3 } from '../helpers/s3.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * One storage contract, run against every backend: files on disk, and S3 (a local s3rver the
 * test starts itself, path-style as for MinIO) with and without a key prefix.
 */

let s3: LocalS3;
const diskRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'dormboard-storage-'));

beforeAll(async () => {
  s3 = await startLocalS3();
});
afterAll(async () => {
  await s3?.stop();
  fs.rmSync(diskRoot, { recursive: true, force: true });
});

interface Backend {
  name: string;
  storage(): Storage;
  /** Whether the backend holds the key, looked up behind the Storage interface's back. */
  holds(key: string): Promise<boolean>;
  /** Every raw name the backend holds (disk: files under the parent of the root; S3: bucket keys). */
  everything(): Promise<string[]>;
  /** Disk only: the folder just outside the root, where "../x" would lead. */
  outside?: string;
}

function diskBackend(): Backend {
  // The root sits one level down, so a key that escaped it ("../x") would land in `outside`.
  const outside = path.join(diskRoot, 'outside');
  const root = path.join(outside, 'media');
  const storage = new DiskStorage(root);
  return {
    name: 'disk',
    outside,
    storage: () => storage,
    holds: async (key) => fs.existsSync(path.join(root, key)),
    everything: async () =>
      fs.existsSync(outside)
        ? (fs.readdirSync(outside, { recursive: true }) as string[])
            .filter((entry) => fs.statSync(path.join(outside, entry)).isFile())
            .sort()
        : [],
  };
}

function s3Backend(prefix: string | undefined): Backend {
  let storage: Storage | undefined;
  return {
    name: `s3 (${prefix ? `prefix "${prefix}"` : 'no prefix'})`,
    storage: () => (storage ??= s3.storage(prefix)),
    holds: async (key) => {
      try {
        await s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: `${prefix ?? ''}${key}` }));
        return true;
      } catch (error) {
        if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
        throw error;
      }
    },
    everything: () => s3.keys(),
  };
}

let serial = 0;
/** A fresh folder of keys per test, so tests never see each other's files. */
const folder = () => `images/t${(serial += 1)}x${randomBytes(3).toString('hex')}`;

/** Bytes of every value, in an order no text encoding would preserve. */
const binary = (size: number) => Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => 255 - i)), randomBytes(size)]);

const UNSAFE_KEYS = ['../x.webp', 'a/../../b.webp', '/abs.webp', '', 'images/./c.webp', 'images/../../../etc/d.webp'];

/** Wraps a storage so that the n-th put fails, before or after it really wrote. */
function failingOnPut(inner: Storage, n: number, when: 'before-write' | 'after-write'): Storage & { error: Error } {
  let puts = 0;
  const error = new Error(`put #${n} failed`);
  return {
    error,
    async put(key, body, contentType) {
      puts += 1;
      const mine = puts;
      if (mine === n && when === 'before-write') throw error;
      await inner.put(key, body, contentType);
      if (mine === n) throw error;
    },
    get: (key) => inner.get(key),
    delete: (key) => inner.delete(key),
  };
}

describe.each([diskBackend(), s3Backend(undefined), s3Backend('dormboard/')])('storage contract: $name', (backend) => {
  let storage: Storage;
  beforeAll(() => {
    storage = backend.storage();
  });

  it('put then get returns the identical bytes and the content type', async () => {
    const base = folder();
    const files: FileToStore[] = [
      { key: `${base}/v1-full.jpg`, body: binary(300_000), contentType: 'image/jpeg' },
      { key: `${base}/v1-400.webp`, body: binary(10), contentType: 'image/webp' },
      { key: `${base}/icon.png`, body: binary(1_000), contentType: 'image/png' },
    ];
    for (const file of files) await storage.put(file.key, file.body, file.contentType);
    for (const file of files) {
      const stored = await storage.get(file.key);
      expect(stored, file.key).toBeDefined();
      expect(stored!.contentType).toBe(file.contentType);
      expect(Buffer.isBuffer(stored!.body)).toBe(true);
      expect(stored!.body.equals(file.body), `${file.key}: bytes differ`).toBe(true);
      expect(await backend.holds(file.key)).toBe(true);
    }
  });

  it('get of a missing key is undefined, also when its folder does not exist', async () => {
    const base = folder();
    await storage.put(`${base}/there.webp`, binary(5), 'image/webp');
    expect(await storage.get(`${base}/missing.webp`)).toBeUndefined();
    expect(await storage.get(`${folder()}/never.jpg`)).toBeUndefined();
    expect(await storage.get('nothing-here/at-all.png')).toBeUndefined();
  });

  it('delete removes the file, and only that file', async () => {
    const base = folder();
    await storage.put(`${base}/a.webp`, binary(50), 'image/webp');
    await storage.put(`${base}/b.webp`, binary(60), 'image/webp');
    await storage.delete(`${base}/a.webp`);
    expect(await storage.get(`${base}/a.webp`)).toBeUndefined();
    expect(await backend.holds(`${base}/a.webp`)).toBe(false);
    expect(await storage.get(`${base}/b.webp`)).toBeDefined();
    await storage.delete(`${base}/b.webp`);
    expect(await backend.holds(`${base}/b.webp`)).toBe(false);
  });

  it('deleting a missing key is not an error', async () => {
    const base = folder();
    await expect(storage.delete(`${base}/never-written.jpg`)).resolves.toBeUndefined();
    await storage.put(`${base}/once.jpg`, binary(5), 'image/jpeg');
    await storage.delete(`${base}/once.jpg`);
    // Twice in a row: the second finds nothing.
    await expect(storage.delete(`${base}/once.jpg`)).resolves.toBeUndefined();
  });

  it.each(UNSAFE_KEYS)('refuses the unsafe key %j: put throws and writes nothing, get is undefined, delete throws', async (key) => {
    const before = await backend.everything();
    await expect(storage.put(key, binary(5), 'image/webp')).rejects.toThrow(/unsafe storage key/);
    expect(await backend.everything()).toEqual(before);
    expect(await storage.get(key)).toBeUndefined();
    await expect(storage.delete(key)).rejects.toThrow(/unsafe storage key/);
  });

  it('get of an unsafe key does not reach a file that exists where the key points', async () => {
    // Plant real files exactly where the traversal keys would lead (disk) and under a sibling name.
    const planted = binary(5);
    const outside = backend.outside;
    if (outside) {
      fs.mkdirSync(outside, { recursive: true });
      fs.writeFileSync(path.join(outside, 'x.webp'), planted);
      expect(await storage.get('../x.webp')).toBeUndefined();
      fs.rmSync(path.join(outside, 'x.webp'));
    }
    const base = folder();
    await storage.put(`${base}/x.webp`, planted, 'image/webp');
    expect(await storage.get(`${base}/sub/../x.webp`)).toBeUndefined();
    expect(await storage.get(`${base}/./x.webp`)).toBeUndefined();
    expect((await storage.get(`${base}/x.webp`))?.body.equals(planted)).toBe(true);
  });

  it('putAll writes every file', async () => {
    const base = folder();
    const files: FileToStore[] = [1, 2, 3, 4].map((n) => ({ key: `${base}/f${n}.webp`, body: binary(n * 100), contentType: 'image/webp' }));
    await putAll(storage, files);
    for (const file of files) expect((await storage.get(file.key))?.body.equals(file.body), file.key).toBe(true);
  });

  it.each(['before-write', 'after-write'] as const)(
    'putAll writes none when the 2nd put fails (%s) and rethrows its error',
    async (when) => {
      const base = folder();
      const files: FileToStore[] = [1, 2, 3, 4].map((n) => ({
        key: `${base}/f${n}.webp`,
        body: binary(n * 100),
        contentType: 'image/webp',
      }));
      const failing = failingOnPut(storage, 2, when);
      await expect(putAll(failing, files)).rejects.toBe(failing.error);
      for (const file of files) {
        expect(await storage.get(file.key), file.key).toBeUndefined();
        expect(await backend.holds(file.key), file.key).toBe(false);
      }
    },
  );

  it('putAll writes none when a real put fails (an unsafe key among good ones)', async () => {
    const base = folder();
    const files: FileToStore[] = [
      { key: `${base}/good1.jpg`, body: binary(10), contentType: 'image/jpeg' },
      { key: `${base}/../../escape.jpg`, body: binary(10), contentType: 'image/jpeg' },
      { key: `${base}/good2.jpg`, body: binary(10), contentType: 'image/jpeg' },
    ];
    await expect(putAll(storage, files)).rejects.toThrow(/unsafe storage key/);
    expect(await backend.holds(`${base}/good1.jpg`)).toBe(false);
    expect(await backend.holds(`${base}/good2.jpg`)).toBe(false);
  });

  it('deleteAll removes every key, counts missing keys as removed, and reports the ones it could not remove', async () => {
    const base = folder();
    const keys = [1, 2, 3].map((n) => `${base}/d${n}.webp`);
    for (const key of keys) await storage.put(key, binary(20), 'image/webp');

    const stuck = keys[1]!;
    const flaky: Storage = {
      put: (key, body, contentType) => storage.put(key, body, contentType),
      get: (key) => storage.get(key),
      delete: async (key) => {
        if (key === stuck) throw new Error('storage unavailable');
        await storage.delete(key);
      },
    };
    const missing = `${base}/never.webp`;
    expect(await deleteAll(flaky, [...keys, missing])).toEqual([stuck]);
    expect(await backend.holds(keys[0]!)).toBe(false);
    expect(await backend.holds(keys[2]!)).toBe(false);
    expect(await backend.holds(stuck)).toBe(true);

    // Everything left (and a key that was never there) goes without a failure.
    expect(await deleteAll(storage, [...keys, missing])).toEqual([]);
    for (const key of keys) expect(await backend.holds(key)).toBe(false);
  });
});

describe('S3 key prefix', () => {
  it('keeps the objects of a prefixed storage under its prefix, invisible to another prefix', async () => {
    const prefixed = s3.storage('tenant-a/');
    const other = s3.storage('tenant-b/');
    const key = `${folder()}/p.webp`;
    await prefixed.put(key, binary(5), 'image/webp');
    expect(await s3.keys()).toContain(`tenant-a/${key}`);
    expect(await s3.keys()).not.toContain(key);
    expect(await other.get(key)).toBeUndefined();
    await other.delete(key);
    expect(await prefixed.get(key)).toBeDefined();
    await prefixed.delete(key);
    expect(await s3.keys()).not.toContain(`tenant-a/${key}`);
  });
});

describe('media served from S3 through the app', () => {
  const PREFIX = 'media-e2e/';
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { storage: s3.storage(PREFIX) });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stores a new post in the bucket, serves its files with immutable caching, and deletes them with the post', async () => {
    const author = await signUp(t.app);
    const created = await createPost(t.app, author.cookie, { bytes: await jpeg(900, 600), description: 'stored in S3 #bucket' });
    expect(created.statusCode, created.body).toBe(201);
    const { post } = created.json<{ post: { id: string; image: { full: string; variants: Array<{ src: string }> } } }>();

    const urls = [post.image.full, ...post.image.variants.map((variant) => variant.src)];
    expect(urls).toHaveLength(3);
    const objectKeys = urls.map((url) => `${PREFIX}${url.replace(/^\/media\//, '')}`);
    expect((await s3.keys()).filter((key) => key.startsWith(PREFIX)).sort()).toEqual([...objectKeys].sort());

    for (const [index, url] of urls.entries()) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toBe(url.endsWith('.jpg') ? 'image/jpeg' : 'image/webp');
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      // The bytes served are the bytes in the bucket.
      const object = await s3.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: objectKeys[index]! }));
      expect(response.rawPayload.equals(Buffer.from(await object.Body!.transformToByteArray()))).toBe(true);
      expect(response.rawPayload.length).toBeGreaterThan(100);
    }
    // A key under the post's folder that was never written is a 404, not a 500.
    expect((await t.app.inject({ method: 'GET', url: post.image.full.replace('-full.jpg', '-9999.webp') })).statusCode).toBe(404);

    const deleted = await t.app.inject({ method: 'DELETE', url: API.post(post.id), headers: { cookie: author.cookie } });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await s3.keys()).filter((key) => key.startsWith(PREFIX))).toEqual([]);
    for (const url of urls) expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
  });

  it('refuses a traversal through the media URL', async () => {
    for (const url of ['/media/../package.json', '/media/%2e%2e/%2e%2e/etc/passwd', '/media/images/%2e%2e/x.jpg']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
    }
  });
});
