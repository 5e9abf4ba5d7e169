import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../../src/server/config.js';
import { ImageQueue } from '../../src/server/images/image-queue.js';
import { ERRORS } from '../../src/shared/errors.js';
import { signUp } from '../helpers/accounts.js';
import * as fixtures from '../helpers/images.js';
import { patchMe } from '../helpers/people.js';
import { createPost } from '../helpers/posts.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Bounded concurrency (issue 12): post photos and icons share one image queue per process;
 * when it is full an upload is refused at once with 503 and Retry-After, stores nothing, and
 * still counts against the uploader's hourly limit (counted before the costly part, as before).
 * The queue here has one slot and no waiting room, and the test holds the slot itself.
 */
describe('uploads when the image queue is full', () => {
  let t: TestApp;
  const queue = new ImageQueue(1, 0);
  let release: () => void = () => undefined;
  let held: Promise<unknown> = Promise.resolve();

  beforeAll(async () => {
    t = await createTestApp(
      { rateLimits: { ...DEFAULT_RATE_LIMITS, registerPerIp: 1000, loginPerIp: 1000, postsPerUser: 2, iconChangesPerUser: 2 } },
      { images: queue },
    );
  });
  afterAll(async () => {
    release();
    await held;
    await t.close();
  });

  function fillQueue() {
    held = queue.run({ account: 'the test', cost: 0, memory: 0 }, () => new Promise<void>((resolve) => (release = resolve)));
    expect(queue.size).toEqual({ active: 1, waiting: 0 });
  }
  async function drainQueue() {
    release();
    await held;
  }

  const mediaFiles = () => {
    const root = path.join(t.config.dataDir, 'media');
    return fs.existsSync(root) ? fs.readdirSync(root, { recursive: true }).filter((name) => String(name).includes('.')) : [];
  };

  it('a post is refused with 503, Retry-After and our message; nothing is stored; it counts as an upload', async () => {
    const user = await signUp(t.app);
    const photo = await fixtures.jpeg(300, 200);
    fillQueue();
    const busy = await createPost(t.app, user.cookie, { bytes: photo, description: 'queued' });
    expect(busy.statusCode).toBe(503);
    expect(Number(busy.headers['retry-after'])).toBeGreaterThan(0);
    expect(busy.json()).toEqual({ code: 'IMAGE_QUEUE_FULL', message: ERRORS.IMAGE_QUEUE_FULL });
    expect(mediaFiles()).toEqual([]);
    await drainQueue();

    // Room again: accepted. Then the hourly limit of 2 is reached, the 503 being one of them.
    expect((await createPost(t.app, user.cookie, { bytes: photo, description: 'accepted' })).statusCode).toBe(201);
    const third = await createPost(t.app, user.cookie, { bytes: photo, description: 'too many' });
    expect(third.statusCode).toBe(429);
    expect(third.json().code).toBe('POSTING_TOO_FAST');
  });

  it('a profile icon waits in the same queue: refused the same way, the profile unchanged', async () => {
    const user = await signUp(t.app);
    fillQueue();
    const busy = await patchMe(t.app, user.cookie, [
      ['icon', { bytes: await fixtures.jpeg(100, 100), type: 'image/jpeg', filename: 'me.jpg' }],
    ]);
    expect(busy.statusCode).toBe(503);
    expect(Number(busy.headers['retry-after'])).toBeGreaterThan(0);
    expect(busy.json()).toEqual({ code: 'IMAGE_QUEUE_FULL', message: ERRORS.IMAGE_QUEUE_FULL });
    await drainQueue();
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: user.cookie } });
    expect(me.json().user.icon).toBeNull();
  });
});
