import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The real entry point as a separate process on the embedded database: it starts, keeps its
 * data across restarts on the same DATA_DIR, and closes cleanly on SIGTERM and SIGINT.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dormboard-process-'));
const port = 3200 + (process.pid % 500);
const base = `http://127.0.0.1:${port}`;

function start(): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function waitUntilUp() {
  for (let i = 0; i < 120; i++) {
    try {
      await fetch(`${base}/api/me`);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error('server did not start');
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

const post = (url: string, body: unknown) =>
  fetch(`${base}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

// Embedded-only: the PostgreSQL run covers the database, not the process.
describe.skipIf(process.env.TEST_DATABASE_URL)('server process', () => {
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('keeps accounts across a restart and exits cleanly on SIGTERM and SIGINT', async () => {
    const first = start();
    await waitUntilUp();
    const account = { username: 'persisted', email: 'persisted@example.com', password: 'still here 1' };
    expect((await post('/api/auth/register', account)).status).toBe(201);

    const firstExit = exitOf(first);
    first.kill('SIGTERM');
    expect(await firstExit).toBe(0);

    const second = start();
    await waitUntilUp();
    const login = await post('/api/auth/login', { identifier: account.email, password: account.password });
    expect(login.status).toBe(200);
    expect((await login.json()).user.username).toBe('persisted');
    // The username is still taken after the restart.
    expect((await post('/api/auth/register', { ...account, email: 'other@example.com' })).status).toBe(409);

    const secondExit = exitOf(second);
    second.kill('SIGINT');
    expect(await secondExit).toBe(0);
  }, 90_000);
});
