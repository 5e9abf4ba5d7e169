import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/processes.js';
import { runTool } from '../helpers/server-process.js';

/**
 * `npm run admin` as a real process (tsx, as npm runs it): the help, and every bad command line
 * answered with exit code 2 before any database is opened. Running commands against a database
 * (embedded with and without a server, PostgreSQL) is in admin-cli-databases.test.ts (slow suite).
 */

const admin = (args: string[], env: Record<string, string> = {}) => runTool('admin', args, env);

describe('npm run admin: help and bad command lines', () => {
  it('help, --help and no command at all: every command with its usage, exit code 0', async () => {
    const runs = await Promise.all([['help'], ['--help'], []].map((args) => admin(args)));
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('Usage: npm run admin -- <command> [arguments]');
      expect(run.stdout).toMatch(/npm run admin -- reset-link <username> +Print a one-time link \(valid for 1 hour\)/);
      expect(run.stdout).toContain('npm run admin -- help');
    }
    expect(new Set(runs.map((run) => run.stdout)).size).toBe(1);
  });

  it('an unknown command, a missing or extra argument, an invalid username: a clear message, the usage, exit code 2, no database opened', async () => {
    const dataDir = path.join(tempDir('admin-cli'), 'never-made');
    const cases: Array<[string[], RegExp, RegExp]> = [
      [['promote-everyone'], /^Unknown command: promote-everyone\n/, /reset-link <username>/],
      [['reset-link'], /^reset-link: missing <username>\n/, /Usage: npm run admin -- reset-link <username>/],
      [['reset-link', 'alice', 'bob'], /^reset-link: unexpected bob\n/, /Usage: npm run admin -- reset-link <username>/],
      [['reset-link', 'no spaces allowed'], /^reset-link: invalid username "no spaces allowed"\n/, /Usage: npm run admin -- reset-link/],
      [['reset-link', 'ab'], /^reset-link: invalid username "ab"\n/, /Usage: npm run admin -- reset-link/],
    ];
    const runs = await Promise.all(cases.map(([args]) => admin(args, { DATA_DIR: dataDir })));
    for (const [index, run] of runs.entries()) {
      const [args, message, usage] = cases[index]!;
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(message);
      expect(run.stderr).toMatch(usage);
    }
    expect(fs.existsSync(dataDir)).toBe(false);
  });
});

describe('npm run admin -- reset-link without PUBLIC_URL', () => {
  it('refuses with exit code 1, saying why and what to set: no localhost link', async () => {
    const run = await admin(['reset-link', 'alice'], { DATA_DIR: tempDir('admin-no-public-url'), PUBLIC_URL: '' });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('reset-link: PUBLIC_URL is not set, so there is no address for the link.');
    expect(run.stderr).toContain('Set PUBLIC_URL to the address users reach the site at (like https://dorm.example.edu)');
    expect(run.stderr).not.toMatch(/localhost|\/reset\//);
  }, 60_000);
});
