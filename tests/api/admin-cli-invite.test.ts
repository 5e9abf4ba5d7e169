import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { openDatabase } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrate.js';
import { API } from '../../src/shared/api/paths.js';
import { newAccount } from '../helpers/accounts.js';
import { query } from '../helpers/people.js';
import { tempDir } from '../helpers/processes.js';
import { toolDatabase } from '../helpers/tool-database.js';
import { runTool } from '../helpers/server-process.js';
import { TEST_DATABASE_URL } from '../helpers/services.js';
import { createTestApp } from '../helpers/test-app.js';

/**
 * `npm run admin -- invite [--uses N] [--days D]` as a real process (issue 17 point 6): the help
 * lists it, bad flags exit 2 before any database is opened, and the code it prints lets exactly
 * that many people sign up on a REGISTRATION=invite server. On the embedded database with no
 * server running, or on PostgreSQL when TEST_DATABASE_URL is set.
 */

const admin = (args: string[], env: Record<string, string>) => runTool('admin', args, env);
const CODE = /^Invite code: ([2-9A-HJKMNP-TW-Z]{4}-[2-9A-HJKMNP-TW-Z]{4}-[2-9A-HJKMNP-TW-Z]{4})$/m;

describe('npm run admin -- invite', () => {
  it('help lists it; bad flags: the message, the usage, exit code 2, no database opened', async () => {
    const dataDir = path.join(tempDir('admin-invite'), 'never-made');
    const help = await admin(['help'], { DATA_DIR: dataDir });
    expect(help.stdout).toMatch(
      /npm run admin -- invite \[--uses N\] \[--days D\] +Print a new invite code for sign-ups \(default: 1 use, valid 7 days\)\./,
    );
    const cases: Array<[string[], string]> = [
      [['invite', '--uses'], 'invite: --uses needs a number'],
      [['invite', '--uses', '0'], 'invite: --uses must be a whole number from 1 to 1000, got "0"'],
      [['invite', '--days', '400'], 'invite: --days must be a whole number from 1 to 365, got "400"'],
      [['invite', '--days', '2.5'], 'invite: --days must be a whole number from 1 to 365, got "2.5"'],
      [['invite', '--uses', '2', '--uses', '3'], 'invite: --uses given twice'],
      [['invite', '--forever'], 'invite: unknown option "--forever"'],
      [['invite', '5'], 'invite: unknown option "5"'],
    ];
    const runs = await Promise.all(cases.map(([args]) => admin(args, { DATA_DIR: dataDir })));
    for (const [index, run] of runs.entries()) {
      const [args, message] = cases[index]!;
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(`${message}\n\nUsage: npm run admin -- invite [--uses N] [--days D]\n`);
    }
  }, 60_000);

  it('prints a code that signs up exactly --uses people on a REGISTRATION=invite server', async () => {
    const made = await toolDatabase('admin-invite');
    const { dataDir, env, drop } = made;
    let database = made.database;
    await migrate(database);
    if (!TEST_DATABASE_URL) await database.close();

    const run = await admin(['invite', '--uses', '2', '--days=3'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    const code = CODE.exec(run.stdout)?.[1];
    expect(code, run.stdout).toBeDefined();
    const until = /Works for 2 sign-ups, until (\S+)\.$/m.exec(run.stdout)?.[1];
    expect(Date.parse(until!) - Date.now()).toBeGreaterThan(3 * 86_400_000 - 60_000);
    expect(Date.parse(until!) - Date.now()).toBeLessThanOrEqual(3 * 86_400_000);

    if (!TEST_DATABASE_URL) database = await openDatabase({ dataDir });
    // Only the hash is stored.
    const rows = await query<{ code_hash: string; uses_left: number }>(database, 'SELECT code_hash, uses_left FROM invites');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ uses_left: 2 });
    expect(rows[0]!.code_hash).toMatch(/^[0-9a-f]{64}$/);

    const t = await createTestApp();
    const app = await buildApp({ config: { ...t.config, registration: { mode: 'invite', emailDomains: [] } }, database });
    try {
      const register = (inviteCode: string) =>
        app.inject({ method: 'POST', url: API.register, payload: { ...newAccount('cli'), inviteCode } });
      expect((await register(code!)).statusCode).toBe(201);
      expect((await register(code!.toLowerCase())).statusCode).toBe(201);
      expect((await register(code!)).json()).toMatchObject({ code: 'INVITE_CODE_INVALID' });
    } finally {
      await app.close();
      await t.close();
      await database.close();
      await drop();
    }
  }, 60_000);
});
