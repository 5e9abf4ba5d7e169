import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullImageKey } from '../../src/server/posts/post-images.js';
import { DiskStorage } from '../../src/server/storage/disk-storage.js';
import { API } from '../../src/shared/api/paths.js';
import { ERRORS, type ErrorCode } from '../../src/shared/errors.js';
import { signUp } from '../helpers/accounts.js';
import { insertPostsBy } from '../helpers/boards.js';
import { createTestApp, TestClock, type TestApp } from '../helpers/test-app.js';
import { readZip } from '../helpers/zip.js';

/**
 * Download My Data's slots (issue 26 point 5) against the app on a real port: a download whose
 * reader stops reading after the status line (a node:http response paused for good, as the
 * attack's raw sockets did) is cut off once it has taken nothing for EXPORT_STALL_MS, freeing its
 * slot; and an account has one export at a time. Before this, two such connections held both
 * slots (EXPORT_CONCURRENCY=2) and everyone else got 503 for as long as they stayed open.
 *
 * Each account's photos total far more than the connection's buffers hold (kernel and Node's),
 * so an export whose reader stops cannot finish by writing everything into them.
 *
 * The stall is timed on the app's clock, which stands still until a test moves it on: whether a
 * reader is cut off depends on the time the test says passed, not on how late a loaded machine
 * runs the reader's and the server's timers.
 */
const STALL_MS = 3_000;
/** How often the server looks at a waiting response (a tenth of the stall; http/stalled-response.ts). */
const LOOK_MS = STALL_MS / 10;
const PHOTOS = 8;
const PHOTO_BYTES = 2 * 2 ** 20;

type Account = Awaited<ReturnType<typeof signUp>>;

describe('Download My Data: readers that stop reading', () => {
  let t: TestApp;
  let storage: DiskStorage;
  let mediaDir: string;
  let port: number;
  const clock = new TestClock();
  const open: http.ClientRequest[] = [];

  beforeAll(async () => {
    mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dormboard-export-slots-'));
    storage = new DiskStorage(mediaDir);
    t = await createTestApp({ exportConcurrency: 2, exportStallMs: STALL_MS }, { storage, clock: clock.now });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const request of open) request.destroy();
    await t?.close();
    fs.rmSync(mediaDir, { recursive: true, force: true });
  });

  /** An account whose export is PHOTOS photos of PHOTO_BYTES each (stored as they are in the ZIP). */
  async function heavyAccount(photos = PHOTOS): Promise<Account> {
    const account = await signUp(t.app);
    for (const id of await insertPostsBy(t.database, account.uid, photos)) {
      await storage.put(fullImageKey(`images/${id}/v1`), Buffer.alloc(PHOTO_BYTES, id), 'image/jpeg');
    }
    return account;
  }

  /**
   * A download on a connection of its own (not fetch: its pool leaves idle connections the app's
   * close() waits for), its response paused as soon as the status line is in: nothing more is read.
   */
  async function idleDownload(account: Account) {
    const served = new Promise<http.ServerResponse>((resolve) => t.app.server.once('request', (_request, response) => resolve(response)));
    const request = http.get({ host: '127.0.0.1', port, path: API.exportData, headers: { cookie: account.cookie }, agent: false });
    open.push(request);
    request.on('error', () => undefined);
    const [response] = (await once(request, 'response')) as [http.IncomingMessage];
    response.pause();
    const serverSide = await served;
    return {
      status: response.statusCode,
      /** Resolves once the server has closed its side (the export stopped). */
      cutOff: new Promise<void>((resolve) => serverSide.once('close', () => resolve())),
      /**
       * Reads again (the connection's end is only seen once read up to it) until the connection
       * ends; resolves with whether the ZIP had arrived whole.
       */
      async readToEnd(): Promise<boolean> {
        // The cut connection is an 'aborted' error: that is the point.
        response.on('error', () => undefined);
        const closed = new Promise((resolve) => response.once('close', resolve));
        response.resume();
        await closed;
        return response.complete;
      },
    };
  }

  /**
   * Lets a stall pass until `cut` settles: the first look that finds a response waiting notes the
   * time, a look after the clock has moved a stall on cuts it off. Real time only paces the looks.
   */
  async function stallUntil(cut: Promise<unknown>): Promise<void> {
    let settled = false;
    void cut.then(() => (settled = true));
    while (!settled) {
      clock.advance(STALL_MS);
      await Promise.race([cut, sleep(LOOK_MS)]);
    }
  }

  /** A whole download read in full, with its status and, when refused, its error code. */
  async function download(account: Account) {
    const response = await t.app.inject({ method: 'GET', url: API.exportData, headers: { cookie: account.cookie } });
    return { status: response.statusCode, code: response.statusCode === 200 ? undefined : (response.json().code as ErrorCode), response };
  }

  it('two idle connections hold the slots only until they have taken nothing for EXPORT_STALL_MS; then everyone gets theirs', async () => {
    const [first, second, other] = [await heavyAccount(), await heavyAccount(), await signUp(t.app)];
    const idle = [await idleDownload(first), await idleDownload(second)];
    expect(idle.map((download) => download.status)).toEqual([200, 200]);

    // The attack works: both slots are held, so another account is refused...
    const refused = await download(other);
    expect(refused.status).toBe(503);
    expect(refused.response.json()).toEqual({ code: 'EXPORT_BUSY', message: ERRORS.EXPORT_BUSY });
    // While the clock stands still, looking at them again and again does not cut them off...
    await sleep(3 * LOOK_MS);
    expect((await download(other)).status).toBe(503);
    // ...only once they have taken nothing for a stall does the server cut them off.
    await stallUntil(Promise.all(idle.map((download) => download.cutOff)));
    expect((await download(other)).status).toBe(200);
    // Cut off: the server closed both connections before their ZIPs were whole.
    expect(await Promise.all(idle.map((download) => download.readToEnd()))).toEqual([false, false]);

    // The cut-off accounts may download again (each a whole, valid ZIP).
    for (const account of [first, second]) {
      const again = await download(account);
      expect(again.status).toBe(200);
      const zip = await readZip(again.response.rawPayload);
      expect([...zip.keys()].filter((name) => name.startsWith('photos/'))).toHaveLength(PHOTOS);
    }
  }, 60_000);

  it('one export at a time per account: a second is 409 with our message (not counted), while other accounts still get theirs', async () => {
    const [greedy, other] = [await heavyAccount(), await signUp(t.app)];
    const held = await idleDownload(greedy);
    expect(held.status).toBe(200);

    const second = await download(greedy);
    expect(second.status).toBe(409);
    expect(second.response.json()).toEqual({ code: 'EXPORT_ALREADY_RUNNING', message: ERRORS.EXPORT_ALREADY_RUNNING });
    // A browser's navigation is sent back to the page with the code, as for every refusal.
    const navigation = await t.app.inject({
      method: 'GET',
      url: API.exportData,
      headers: { cookie: greedy.cookie, 'sec-fetch-mode': 'navigate', 'sec-fetch-site': 'same-origin' },
    });
    expect(navigation.statusCode).toBe(303);
    expect(navigation.headers.location).toBe('/settings/data?error=EXPORT_ALREADY_RUNNING');
    // The second slot is still free for someone else.
    expect((await download(other)).status).toBe(200);

    // Once the idle one is cut off, the account's next export runs (refusals took none of its five an hour).
    await stallUntil(held.cutOff);
    // Bounds only the wait for the cut-off export to give its slot back.
    await expect.poll(async () => (await download(greedy)).status, { timeout: 20_000, interval: 50 }).toBe(200);
    expect(await held.readToEnd()).toBe(false);
  }, 60_000);

  it('a slow reader that keeps reading is never cut off: its whole ZIP arrives', async () => {
    // Enough for six waits of the server once the connection's buffers are full (measured; four
    // gave only three): were they added up, with no 'drain' in between, it would be cut off.
    const photos = 6;
    const slow = await heavyAccount(photos);
    const request = http.get({ host: '127.0.0.1', port, path: API.exportData, headers: { cookie: slow.cookie }, agent: false });
    open.push(request);
    const [response] = (await once(request, 'response')) as [http.IncomingMessage];
    expect(response.statusCode).toBe(200);
    const chunks: Buffer[] = [];
    let burst = 0;
    let pauses = 0;
    // Reads 1 MiB at a time, with pauses of 0.3 × the stall time between: on loopback the
    // server's send buffer grows to 4 MB and wakes it only once ~1.4 MB of it is free, two bursts.
    // Each pause moves the clock on 0.3 × the stall, and lasts a few looks in real time so the
    // server sees it waiting (a late timer makes it longer in real time, not on the clock).
    const paused = () => {
      clock.advance(0.3 * STALL_MS);
      return sleep(3 * LOOK_MS);
    };
    response.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      burst += chunk.length;
      if (burst < 2 ** 20) return;
      burst = 0;
      response.pause();
      pauses += 1;
      void paused().then(() => response.resume());
    });
    // A cut-off download ends with 'close' and an 'aborted' error, never 'end'.
    response.on('error', () => undefined);
    await new Promise((resolve) => response.once('close', resolve));
    expect(response.complete).toBe(true);
    const zip = await readZip(Buffer.concat(chunks));
    expect([...zip.keys()].filter((name) => name.startsWith('photos/'))).toHaveLength(photos);
    // It really was slow: together its pauses were longer than a stall (on the app's clock).
    expect(pauses * 0.3).toBeGreaterThan(1);
  }, 120_000);
});
