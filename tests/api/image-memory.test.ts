import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/shared/errors.js';
import { imageCorpus, type CorpusEntry } from '../helpers/image-bombs.js';
import { tempDir } from '../helpers/processes.js';
import { canMeasureRss, peakMiB, resetPeak, rssMiB, settledRss } from '../helpers/rss.js';
import { buildServer, client, startServer, type ServerProcess } from '../helpers/server-process.js';

/**
 * Bounded memory per upload (issue 12): every input of the bomb corpus, uploaded once as a post
 * photo and once as a profile icon through the real HTTP API of the built server, raises the
 * server's peak RSS at most 256 MiB above its idle RSS, and gets the right answer. Each 50-MP
 * bomb of the corpus took the server 0.9 to 4.1 GB before the decode budget (BENCHMARKS.md).
 *
 * Peak RSS is the kernel's high-water mark (VmHWM in /proc/<pid>/status), reset before each
 * upload by writing 5 to /proc/<pid>/clear_refs; idle is the RSS just before the upload, once it
 * has stopped moving.
 */
const LIMIT_MIB = 256;

// Embedded-only: the database is not what is measured.
const skip = Boolean(process.env.TEST_DATABASE_URL) || !canMeasureRss();
// Generated once (~20-30 s) and cached in the temporary folder for later runs.
const corpus = skip ? [] : await imageCorpus();

describe.skipIf(skip)('memory per upload, image bombs', () => {
  let server: ServerProcess;
  let api: ReturnType<typeof client>;
  let pid: number;
  let startIdle: number;
  const peaks: string[] = [];

  beforeAll(async () => {
    server = await startServer(
      // One account uploads everything: the hourly upload limits are not what is tested here.
      { DATA_DIR: tempDir('image-memory'), RATE_LIMIT_POSTS_PER_USER: '1000', RATE_LIMIT_ICONS_PER_USER: '1000' },
      await buildServer(),
    );
    pid = server.child.pid!;
    api = client(server.base);
    const account = { username: 'bomber', email: 'bomber@example.com', password: 'memory test 1' };
    expect((await api.call('POST', '/api/auth/register', account)).status).toBe(201);
    // Warm: the first upload loads libvips and the encoders.
    const photo = corpus.find((entry) => entry.name === '12-MP JPEG photo')!;
    expect((await upload('post', photo)).status).toBe(201);
    startIdle = await settledRss(pid);
  }, 180_000);

  afterAll(async () => {
    // For the record only: glibc keeps freed memory of libvips' threads in its arenas, and the
    // embedded database grows with the posts, so this is not a bound.
    if (server && peaks.length > 0)
      peaks.push(`RSS after the corpus: ${Math.round(rssMiB(pid) - startIdle)} MiB over ${Math.round(startIdle)} at the start`);
    await server?.stop();
    if (peaks.length > 0) console.log(`peak RSS above idle:\n${peaks.join('\n')}`);
  });

  function upload(as: 'post' | 'icon', entry: CorpusEntry) {
    const form = new FormData();
    const file = new Blob([new Uint8Array(entry.bytes)], { type: entry.mimetype });
    if (as === 'post') {
      form.set('photo', file, entry.filename);
      form.set('description', `memory test: ${entry.name}`);
      return api.call('POST', '/api/posts', form);
    }
    form.set('icon', file, entry.filename);
    return api.call('PATCH', '/api/me', form);
  }

  const expected = {
    post: { accepted: { status: 201 }, 'too-large': { status: 413, code: 'IMAGE_TOO_LARGE', message: ERRORS.IMAGE_TOO_LARGE } },
    icon: { accepted: { status: 200 }, 'too-large': { status: 413, code: 'ICON_TOO_LARGE', message: ERRORS.ICON_TOO_LARGE } },
  } as const;

  describe.each(['post', 'icon'] as const)('as a %s', (as) => {
    it.each(corpus.map((entry) => [entry.name, entry.expected, entry] as const))(
      '%s: %s, peak RSS ≤ idle + 256 MiB',
      async (_name, _expected, entry) => {
        const idle = await settledRss(pid);
        resetPeak(pid);
        const started = performance.now();
        const response = await upload(as, entry);
        const ms = Math.round(performance.now() - started);
        const peak = peakMiB(pid) - idle;
        peaks.push(
          `${as} ${entry.name} (${entry.bytes.length} bytes): ${response.status}, +${Math.round(peak)} MiB over ${Math.round(idle)}, ${ms} ms`,
        );
        const want = expected[as][entry.expected];
        expect(response.status, `${entry.name}: ${await response.clone().text()}`).toBe(want.status);
        if ('code' in want) expect(await response.json()).toMatchObject({ code: want.code, message: want.message });
        expect(peak, `${entry.name}: peak RSS ${Math.round(peak)} MiB above idle`).toBeLessThanOrEqual(LIMIT_MIB);
      },
      120_000,
    );
  });
});
