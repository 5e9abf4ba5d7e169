import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { test, type Page } from '@playwright/test';

/**
 * The port of the server under test (the page's, or the project's base URL before any page: a
 * describe's `test.use({ baseURL })` is not the project's, so go to a page of that server first).
 */
export const serverPort = (page: Page) =>
  Number(new URL(page.url() === 'about:blank' ? test.info().project.use.baseURL! : page.url()).port);

/**
 * `npm run admin -- reset-link <username>` for real, against the e2e server: its DATA_DIR holds
 * server.json, so the command line asks that server to run it. Returns the link's path.
 */
export async function adminResetLink(page: Page, username: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/server/tools/admin.ts', 'reset-link', username], {
    env: { PATH: process.env.PATH, DATA_DIR: path.resolve('.e2e-data', String(serverPort(page))) },
  });
  const link = /https?:\/\/[^/\s]+(\/reset\/[\w-]{43})/.exec(stdout)?.[1];
  if (!link) throw new Error(`no link in: ${stdout}`);
  return link;
}

/** `npm run admin -- role <username> <role>` for real, against the e2e server (issue 17). */
export async function adminRole(page: Page, username: string, role: 'member' | 'moderator' | 'admin'): Promise<void> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/server/tools/admin.ts', 'role', username, role], {
    env: { PATH: process.env.PATH, DATA_DIR: path.resolve('.e2e-data', String(serverPort(page))) },
  });
  if (!stdout.includes(`@${username}`)) throw new Error(`unexpected output: ${stdout}`);
}

/** `npm run admin -- verify <username>` for real, against the e2e server (issue 29). */
export async function adminVerify(page: Page, username: string): Promise<void> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/server/tools/admin.ts', 'verify', username], {
    env: { PATH: process.env.PATH, DATA_DIR: path.resolve('.e2e-data', String(serverPort(page))) },
  });
  if (!stdout.includes(`@${username}'s address is now verified.`)) throw new Error(`unexpected output: ${stdout}`);
}
