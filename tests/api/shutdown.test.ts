import net from 'node:net';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp, openServerDatabase } from '../../src/server/app.js';
import { loadConfig, type Config } from '../../src/server/config.js';
import { openDatabase } from '../../src/server/db/database.js';
import { shutdownServer } from '../../src/server/health/shutdown.js';
import { API } from '../../src/shared/api/paths.js';
import { signUp } from '../helpers/accounts.js';
import { jpeg } from '../helpers/images.js';
import { multipart } from '../helpers/posts.js';
import { tempDir } from '../helpers/processes.js';
import { TEST_ARGON2ID, TEST_RATE_LIMITS } from '../helpers/test-app.js';

/** A raw HTTP/1.1 exchange's answer, read until the server closes the connection. */
interface RawAnswer {
  status: number;
  headers: string;
  body: string;
}

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server sends on `socket` until it closes it (draining answers carry Connection: close). */
function answerOf(socket: net.Socket): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('error', reject);
    socket.once('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body });
    });
  });
}

async function until(condition: () => boolean, what: string) {
  // A hang guard only: the condition is a state, not a time.
  const deadline = Date.now() + 60_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Shutdown (SIGTERM, main.ts) as main.ts runs it, on a server listening on a real port and the
 * embedded database in its own thread on disk: the database closes after the requests in flight,
 * not under them (issue 28: an upload in flight at SIGTERM died with a database error).
 */
// Embedded-only: the bug was the embedded database closing first; the PostgreSQL run covers the database, not the process.
describe.skipIf(process.env.TEST_DATABASE_URL)('shutting down', () => {
  it('finishes an upload in flight, answers /readyz 503 meanwhile, then closes the database', async () => {
    const dataDir = tempDir('shutdown');
    const config: Config = {
      ...loadConfig({}),
      dataDir,
      logLevel: 'silent',
      clientDir: '/nonexistent',
      rateLimits: TEST_RATE_LIMITS,
      passwordHashing: TEST_ARGON2ID,
    };
    const database = await openServerDatabase(config);
    const app = await buildApp({ config, database });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as net.AddressInfo;
    const member = await signUp(app);

    // A connection opened before the shutdown that has not sent its request yet (a balancer's
    // probe, a browser's spare connection).
    const probe = await connect(port);
    // An upload whose request is in flight: headers and half of its body sent, the rest held back.
    const { payload, contentType } = await multipart([
      ['photo', { bytes: await jpeg(64, 64) }],
      ['description', 'sent while the server stops'],
    ]);
    const upload = await connect(port);
    const uploadAnswer = answerOf(upload);
    upload.write(
      `POST ${API.posts} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${member.cookie}\r\n` +
        `Content-Type: ${contentType}\r\nContent-Length: ${payload.length}\r\n\r\n`,
    );
    const half = Math.floor(payload.length / 2);
    upload.write(payload.subarray(0, half));
    await until(() => app.draining.inFlight === 1, 'the upload is in flight');

    // A generous grace: this test is about the order, not about how fast a loaded machine is.
    const stopping = shutdownServer(app, database, { graceMs: 120_000 });
    let stopped = false;
    void stopping.then(() => (stopped = true));

    // At once: the balancer's probe is told to drain this process, which closes that connection.
    const probeAnswer = answerOf(probe);
    probe.write(`GET /readyz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    const readyz = await probeAnswer;
    expect(readyz.status).toBe(503);
    expect(JSON.parse(readyz.body)).toEqual({ status: 'draining' });
    expect(readyz.headers).toContain('connection: close');
    // No new connection is accepted.
    await expect(connect(port)).rejects.toThrow(/ECONNREFUSED/);
    // Still waiting for the upload (a state, not a time: its body is not all there yet).
    expect(stopped).toBe(false);

    upload.write(payload.subarray(half));
    const answer = await uploadAnswer;
    expect(answer.status, answer.body).toBe(201);
    const postId = (JSON.parse(answer.body) as { post: { id: string } }).post.id;
    await stopping;

    // Committed and flushed before the database closed: it is there when the files are opened again.
    const reopened = await openDatabase({ dataDir });
    try {
      const result = await reopened.orm.execute<{ description: string }>(sql`SELECT description FROM posts WHERE id = ${postId}`);
      expect((result as { rows: Array<{ description: string }> }).rows).toEqual([{ description: 'sent while the server stops' }]);
    } finally {
      await reopened.close();
    }
  }, 180_000);
});
