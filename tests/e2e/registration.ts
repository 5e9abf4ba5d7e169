import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * Who may sign up (issue 17): a server's REGISTRATION is fixed when it starts, so the e2e run
 * starts one more server with REGISTRATION=invite (playwright.config.ts) on E2E_PORT + 3 (+ 2 is
 * the SMTP server's), and the invite-mode specs go there by its URL.
 */
export const invitePortFor = (serverPort: number) => serverPort + 3;

/**
 * `npm run admin -- <args>` for real, against the e2e server on `port`: its DATA_DIR holds
 * server.json, so the command line asks that server to run it. Returns what it printed.
 */
export async function runAdmin(port: number, args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/server/tools/admin.ts', ...args], {
    env: { PATH: process.env.PATH, DATA_DIR: path.resolve('.e2e-data', String(port)) },
  });
  return stdout;
}

/** A new invite code on the server on `port` (npm run admin -- invite). */
export async function adminInvite(port: number, uses = 1): Promise<string> {
  const stdout = await runAdmin(port, ['invite', '--uses', String(uses)]);
  const code = /^Invite code: (\S+)$/m.exec(stdout)?.[1];
  if (!code) throw new Error(`no code in: ${stdout}`);
  return code;
}
