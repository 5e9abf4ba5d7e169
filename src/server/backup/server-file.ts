import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * DATA_DIR/server.json tells local tools (npm run backup, npm run admin) that an app is running on this data
 * directory, where, and the secret it accepts for admin calls. Readable by the owner only.
 */
export interface ServerFile {
  pid: number;
  port: number;
  token: string;
}

const fileOf = (dataDir: string) => path.join(dataDir, 'server.json');

export function newAdminToken(): string {
  return randomBytes(32).toString('base64url');
}

export async function writeServerFile(dataDir: string, info: ServerFile): Promise<void> {
  await fs.mkdir(dataDir, { recursive: true });
  await fs.writeFile(fileOf(dataDir), JSON.stringify(info), { mode: 0o600 });
}

export async function removeServerFile(dataDir: string): Promise<void> {
  await fs.rm(fileOf(dataDir), { force: true });
}

/** The running app's details, or undefined when none is running on this data directory. */
export async function readServerFile(dataDir: string): Promise<ServerFile | undefined> {
  try {
    const info = JSON.parse(await fs.readFile(fileOf(dataDir), 'utf8')) as ServerFile;
    process.kill(info.pid, 0); // throws when no such process: a stale file from a crash
    return info;
  } catch {
    return undefined;
  }
}

/** POSTs JSON to an admin route of the running app (over loopback, with its token). */
export function callServer(server: ServerFile, path: string, body: unknown): Promise<Response> {
  return fetch(`http://127.0.0.1:${server.port}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}
