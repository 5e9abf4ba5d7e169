import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/processes.js';
import { buildServer, client, startServer } from '../helpers/server-process.js';

/**
 * The real entry point as a separate process on the embedded database: it starts, keeps its
 * data across restarts on the same DATA_DIR, and closes cleanly on SIGTERM and SIGINT.
 */
// Embedded-only: the PostgreSQL run covers the database, not the process.
describe.skipIf(process.env.TEST_DATABASE_URL)('server process', () => {
  // The bundle `npm run build:server` makes, as `npm start` runs it (and seconds sooner than tsx).
  // Each test starts real processes: 40 s under a load average of 13 on 2 cores, hence 180 s each.
  let script: string;
  beforeAll(async () => {
    script = await buildServer();
  });

  it('keeps accounts across a restart and exits cleanly on SIGTERM and SIGINT', async () => {
    const dataDir = tempDir('process');
    const first = await startServer({ DATA_DIR: dataDir }, script);
    const account = { username: 'persisted', email: 'persisted@example.com', password: 'still here 1' };
    expect((await client(first.base).call('POST', '/api/auth/register', account)).status).toBe(201);
    // While running, the server tells local tools where it is (readable by the owner only).
    expect(fs.statSync(path.join(dataDir, 'server.json')).mode & 0o777).toBe(0o600);
    // Ready, as the real process checks it: its database thread, its migrations, DATA_DIR/media.
    const ready = await fetch(`${first.base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { database: 'ok', migrations: 'ok', storage: 'ok' } });
    expect(await first.stop('SIGTERM')).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'server.json'))).toBe(false);

    const second = await startServer({ DATA_DIR: dataDir }, script);
    const api = client(second.base);
    const login = await api.call('POST', '/api/auth/login', { identifier: account.email, password: account.password });
    expect(login.status).toBe(200);
    expect((await login.json()).user.username).toBe('persisted');
    // The username is still taken after the restart.
    expect((await api.call('POST', '/api/auth/register', { ...account, email: 'other@example.com' })).status).toBe(409);
    expect(await second.stop('SIGINT')).toBe(0);
  }, 180_000);

  it('shuts down even while a connection that never sent a request stays open', async () => {
    // The server's own timeouts would cut the silent connection only after this test's timeout:
    // what ends it in time is the shutdown's grace period (main.ts), whatever the machine's load.
    const longerThanTheTest = String(4 * 60_000);
    const server = await startServer(
      { DATA_DIR: tempDir('idle'), REQUEST_TIMEOUT_MS: longerThanTheTest, HEADERS_TIMEOUT_MS: longerThanTheTest },
      script,
    );
    // What a browser's spare connection looks like to the server: open, silent.
    const { port } = new URL(server.base);
    const silent = net.connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => silent.once('connect', resolve));
    try {
      expect(await server.stop('SIGTERM')).toBe(0);
    } finally {
      silent.destroy();
    }
  }, 180_000);

  it('warns once at start when PUBLIC_URL is not set, naming what it affects; not when it is; one line a missing setting', async () => {
    /** Its warnings of missing settings (pino's JSON lines), by the setting each names. */
    const warningsOf = (output: string) =>
      output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; msg: string; setting?: string })
        .filter((entry) => entry.level === 40 && entry.setting !== undefined);
    const warnings = (output: string) => warningsOf(output).filter((entry) => entry.setting === 'PUBLIC_URL');

    const without = await startServer({ DATA_DIR: tempDir('no-public-url'), PUBLIC_URL: '', LOG_LEVEL: 'info' }, script, { logs: true });
    // Logged right after listening, which startServer waited for.
    await expect.poll(() => warnings(without.output()).length).toBe(1);
    expect(await without.stop()).toBe(0);
    const [warning] = warnings(without.output());
    for (const affected of ['reset-link', 'SMTP_URL', 'Sec-Fetch-Site', 'X-Forwarded-Host', 'https://dorm.example.edu']) {
      expect(warning!.msg).toContain(affected);
    }

    const env = { DATA_DIR: tempDir('public-url'), PUBLIC_URL: 'https://dorm.example.edu', LOG_LEVEL: 'info' };
    const withIt = await startServer(env, script, { logs: true });
    // Its start-up line is read, so a warning would have been too.
    await expect.poll(() => withIt.output()).toContain('is running at');
    expect(await withIt.stop()).toBe(0);
    expect(warnings(withIt.output())).toEqual([]);
    // The others, one line each (src/server/config/recommended-settings.ts has what they say).
    expect(warningsOf(withIt.output()).map((entry) => entry.setting)).toEqual(['TRUST_PROXY', 'SMTP_URL']);
  }, 120_000);
});
