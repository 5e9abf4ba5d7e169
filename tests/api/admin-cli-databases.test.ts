import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/server/auth/password.js';
import { writeServerFile } from '../../src/server/backup/server-file.js';
import { openDatabase, type Database } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrate.js';
import { API } from '../../src/shared/api/paths.js';
import { query } from '../helpers/people.js';
import { tempDir } from '../helpers/processes.js';
import { resetTokenIn } from '../helpers/reset-links.js';
import { client, runTool, startServer } from '../helpers/server-process.js';
import { createEmptyDatabase, noPostgres } from '../helpers/services.js';
import { TEST_ARGON2ID } from '../helpers/test-app.js';

/**
 * `npm run admin -- reset-link` as a real process wherever the database is (issue 16 point 6):
 * on the embedded database with no server running (the command line opens it), with a server
 * running on it (the server runs the command, and the link works through it), and on
 * PostgreSQL (the command line opens it, whatever a server.json says).
 */

const OLD_PASSWORD = 'the old password 1';
const NEW_PASSWORD = 'the new password 2';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** An account made straight in the database, with a password that signs in. */
async function insertAccount(database: Database, username: string) {
  const passwordHash = await hashPassword(OLD_PASSWORD, TEST_ARGON2ID);
  await query(database, 'INSERT INTO users (id, username, email, password_hash) VALUES ($1, $2, $3, $4)', [
    `id-${username}`,
    username,
    `${username}@example.com`,
    passwordHash,
  ]);
}

const resetHashes = async (database: Database) =>
  (await query<{ token_hash: string }>(database, 'SELECT token_hash FROM password_resets')).map((row) => row.token_hash);

describe.skipIf(process.env.TEST_DATABASE_URL)('npm run admin on the embedded database', () => {
  it('no server running: the command line opens the database; with one running: the server runs it, and its link works there', async () => {
    const dataDir = tempDir('admin-embedded');
    const setup = await openDatabase({ dataDir });
    await migrate(setup);
    await insertAccount(setup, 'alice');
    await setup.close();

    // No server: the command opens DATA_DIR itself.
    const offline = await runTool('admin', ['reset-link', 'alice'], { DATA_DIR: dataDir, PUBLIC_URL: 'https://offline.example' });
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.stdout).toMatch(/https:\/\/offline\.example\/reset\/[\w-]{43}\n/);
    const first = resetTokenIn(offline.stdout)!;
    const missing = await runTool('admin', ['reset-link', 'nobody'], { DATA_DIR: dataDir, PUBLIC_URL: 'https://offline.example' });
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toBe('reset-link: no account is named @nobody\n');

    // A server on the same DATA_DIR: it owns the database now, and runs the command itself.
    const server = await startServer({ DATA_DIR: dataDir, PUBLIC_URL: 'https://online.example' });
    const browser = client(server.base);
    expect((await browser.call('POST', API.resetCheck, { token: first })).status).toBe(200);
    expect((await browser.call('POST', API.login, { identifier: 'alice', password: OLD_PASSWORD })).status).toBe(200);
    const signedIn = browser.cookie;

    // The server's PUBLIC_URL, not the command line's (which has none here).
    const online = await runTool('admin', ['reset-link', 'alice'], { DATA_DIR: dataDir, PUBLIC_URL: '' });
    expect(online.code, online.stderr).toBe(0);
    expect(online.stdout).toMatch(/https:\/\/online\.example\/reset\/[\w-]{43}\n/);
    const second = resetTokenIn(online.stdout)!;
    // Written by the server into its own database: the old link is void there, the new one live.
    expect((await browser.call('POST', API.resetCheck, { token: first })).status).toBe(400);
    expect(await (await browser.call('POST', API.resetCheck, { token: second })).json()).toEqual({ username: 'alice' });
    const unknown = await runTool('admin', ['reset-link', 'nobody'], { DATA_DIR: dataDir });
    expect(unknown).toMatchObject({ code: 1, stderr: 'reset-link: no account is named @nobody\n' });

    const reset = await browser.call('POST', API.reset, { token: second, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(reset.status, await reset.clone().text()).toBe(200);
    expect(browser.cookie).not.toBe(signedIn);
    const stranger = client(server.base);
    expect((await stranger.call('POST', API.login, { identifier: 'alice', password: OLD_PASSWORD })).status).toBe(401);
    expect((await stranger.call('POST', API.login, { identifier: 'alice', password: NEW_PASSWORD })).status).toBe(200);
    // The session from before the reset is over (every session of the account ended).
    const before = await fetch(`${server.base}${API.me}`, { headers: { cookie: signedIn } });
    expect(before.status).toBe(401);
    expect(await server.stop()).toBe(0);
  }, 120_000);
});

describe.skipIf(noPostgres)('npm run admin on PostgreSQL', () => {
  it('DATABASE_URL: the command line runs the command on PostgreSQL itself (a server.json is not asked)', async () => {
    const fresh = await createEmptyDatabase();
    const database = await openDatabase({ databaseUrl: fresh.url });
    try {
      await migrate(database);
      await insertAccount(database, 'pgalice');
      // A server.json naming a live process (this one) at a port nothing answers: never used with DATABASE_URL.
      const dataDir = tempDir('admin-postgres');
      await writeServerFile(dataDir, { pid: process.pid, port: 9, token: 'not-for-postgres' });
      const env = { DATABASE_URL: fresh.url, DATA_DIR: dataDir, PUBLIC_URL: 'https://dorm.example.edu' };

      const run = await runTool('admin', ['reset-link', '@PGAlice'], env);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/https:\/\/dorm\.example\.edu\/reset\/[\w-]{43}\n/);
      expect(await resetHashes(database)).toEqual([sha256(resetTokenIn(run.stdout)!)]);

      const missing = await runTool('admin', ['reset-link', 'nobody'], env);
      expect(missing).toMatchObject({ code: 1, stderr: 'reset-link: no account is named @nobody\n' });
    } finally {
      await database.close();
      await fresh.drop();
    }
  }, 60_000);
});
