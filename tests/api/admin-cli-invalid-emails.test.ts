import { describe, expect, it } from 'vitest';
import { standaloneAdminContext } from '../../src/server/admin/admin-context.js';
import { runCommandLine } from '../../src/server/admin/commands.js';
import { buildApp } from '../../src/server/app.js';
import { openDatabase, type Database } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrate.js';
import { query } from '../helpers/people.js';
import { tempDir } from '../helpers/processes.js';
import { toolDatabase } from '../helpers/tool-database.js';
import { runTool } from '../helpers/server-process.js';
import { TEST_DATABASE_URL } from '../helpers/services.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Addresses stored before the strict e-mail parser (issue 26 point 4): `npm run admin --
 * invalid-emails` lists every one it refuses, and changes nothing; the server says at start how
 * many there are. As a real process, on the embedded database with no server running, or on
 * PostgreSQL when TEST_DATABASE_URL is set.
 */

/** username -> stored address (the table holds lower case only): the first three are fine, the rest are what the parser refuses. */
const STORED: Array<[string, string]> = [
  ['goodone', 'goodone@campus.example.edu'],
  ['goodtwo', "o'neil+x@cs.campus.example.edu"],
  ['goodthree', 'x@example.com'],
  ['hostile', 'att@evil.test,x@campus.example.edu'],
  ['quoted', '"a b"@x.edu'],
  ['cyrillic', '\u0430lice@campus.edu'],
  ['trailing', 'trailing@example.test.'],
  ['terminal', 'esc\u001b[31m@x.edu'],
];
const REFUSED = [
  '@cyrillic  \\u{430}lice@campus.edu',
  '@hostile  att@evil.test,x@campus.example.edu',
  '@quoted  "a b"@x.edu',
  '@terminal  esc\\u{1b}[31m@x.edu',
  '@trailing  trailing@example.test.',
];

async function insertUsers(database: Database) {
  for (const [username, email] of STORED) {
    await query(database, `INSERT INTO users (id, username, email, password_hash) VALUES ($1, $2, $3, 'x')`, [
      `id-${username}`,
      username,
      email,
    ]);
  }
}

const stored = (database: Database) =>
  query<{ username: string; email: string }>(database, 'SELECT username, email FROM users ORDER BY username');

describe('npm run admin -- invalid-emails', () => {
  it('lists each stored address the parser refuses (username, address made printable), changes nothing, exits 0', async () => {
    const made = await toolDatabase('admin-emails');
    const { dataDir, env, drop } = made;
    let database = made.database;
    try {
      await migrate(database);
      await insertUsers(database);
      const before = await stored(database);
      // The embedded database is closed while the command line holds it.
      if (!TEST_DATABASE_URL) await database.close();

      const run = await runTool('admin', ['invalid-emails'], env);
      if (!TEST_DATABASE_URL) database = await openDatabase({ dataDir });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout).toBe(
        [`5 stored e-mail addresses are not valid (left unchanged; no mail goes to them):`, ...REFUSED].join('\n') + '\n',
      );
      expect(run.stdout).not.toContain('\u001b');
      expect(await stored(database)).toEqual(before);
    } finally {
      await database.close();
      await drop();
    }
  }, 60_000);

  it('takes no arguments: usage, exit code 2', async () => {
    const run = await runTool('admin', ['invalid-emails', 'now'], { DATA_DIR: tempDir('admin-emails') });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('invalid-emails: unexpected now\n\nUsage: npm run admin -- invalid-emails\n');
  }, 60_000);
});

describe('server start', () => {
  /** The start-up warnings about stored addresses (others, about other settings, may come too). */
  async function startWarnings(t: TestApp) {
    const lines: string[] = [];
    const app = await buildApp({
      config: { ...t.config, logLevel: 'warn' },
      database: t.database,
      logStream: { write: (line) => void lines.push(line) },
    });
    await app.ready();
    await app.close();
    return lines
      .map((line) => JSON.parse(line) as { level: number; msg: string; count?: number })
      .filter((line) => line.level === 40 && line.msg.includes('invalid-emails'));
  }

  it('none refused: nothing said; some: one warning naming how many, and the command that lists them', async () => {
    const t = await createTestApp();
    try {
      const none = await runCommandLine(standaloneAdminContext(t.database, t.config), ['invalid-emails']);
      expect(none).toEqual({ code: 0, stdout: 'Every stored e-mail address is valid.\n', stderr: '' });
      expect(await startWarnings(t)).toEqual([]);

      await insertUsers(t.database);
      expect(await startWarnings(t)).toEqual([
        expect.objectContaining({
          count: 5,
          msg: '5 stored e-mail address(es) are not valid and get no mail: list them with npm run admin -- invalid-emails',
        }),
      ]);
    } finally {
      await t.close();
    }
  });
});
