import pg from 'pg';
import { API } from '../../src/shared/api/paths.js';
import type { Role } from '../../src/shared/moderation.js';
import { newAccount } from './accounts.js';
import { startLocalS3, type LocalS3 } from './s3.js';
import { tempDir } from './processes.js';
import { buildServer, startServer, type ServerProcess } from './server-process.js';
import { createEmptyDatabase } from './services.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

export interface TwoServers {
  a: ServerProcess;
  b: ServerProcess;
  s3: LocalS3;
  /** The prefix both servers store under in the bucket. */
  s3Prefix: string;
  /** The database both use, for a test that sets up rows behind their back (a moderator's role). */
  databaseUrl: string;
  /** Gives a user a role behind the servers' backs (there is no route for it). */
  setRole(username: string, role: Role): Promise<void>;
  /** With `bThroughProxy`: the proxy between B and the database (to hold back B's listener, say). */
  proxyB?: TcpProxy;
  stop(): Promise<void>;
}

/**
 * Two real server processes (the built entry point) sharing one new PostgreSQL database and one
 * s3rver bucket, every cache on and held for a minute: what one process changes must reach the
 * other through the change feed, never by a cache running out. For suites guarded by
 * `describe.skipIf(noPostgres)`.
 */
export async function startTwoServers(
  name: string,
  env: Record<string, string> = {},
  { bThroughProxy = false }: { bThroughProxy?: boolean } = {},
): Promise<TwoServers> {
  const script = await buildServer();
  const [database, s3] = await Promise.all([createEmptyDatabase(), startLocalS3()]);
  const target = new URL(database.url);
  const proxyB = bThroughProxy ? await startTcpProxy({ host: target.hostname, port: Number(target.port) || 5432 }) : undefined;
  const viaProxy = new URL(database.url);
  if (proxyB) {
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxyB.port);
  }
  const s3Prefix = `${name}/`;
  const shared = {
    DATABASE_URL: database.url,
    ...s3.env(s3Prefix),
    DATA_DIR: tempDir(name),
    CACHE_TTL_MS: '60000',
    RATE_LIMIT_REGISTER_PER_IP: '1000',
    ...env,
  };
  // One after the other: the first migrates the empty database.
  const a = await startServer(shared, script);
  const b = await startServer({ ...shared, DATABASE_URL: viaProxy.toString() }, script);
  return {
    a,
    b,
    s3,
    s3Prefix,
    databaseUrl: database.url,
    proxyB,
    setRole: async (username, role) => {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        await client.query('UPDATE users SET role = $1 WHERE username = $2', [role, username]);
      } finally {
        await client.end();
      }
    },
    stop: async () => {
      await Promise.all([a.stop(), b.stop()]);
      await proxyB?.close();
      await s3.stop();
      await database.drop();
    },
  };
}

/** A request to one of the servers, as a browser would send it: JSON, or a FormData upload. */
export function callServer(server: ServerProcess, method: string, url: string, cookie?: string, body?: unknown) {
  return fetch(`${server.base}${url}`, {
    method,
    headers: {
      ...(cookie ? { cookie } : {}),
      ...(body !== undefined && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
  });
}

/** A new account signed up on `server`, with its session cookie and id. */
export async function registerOn(server: ServerProcess, prefix: string) {
  const account = newAccount(prefix);
  const response = await callServer(server, 'POST', API.register, undefined, account);
  if (response.status !== 201) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  const cookie = response.headers
    .getSetCookie()
    .find((c) => c.startsWith('session='))!
    .split(';')[0]!;
  return { ...account, cookie, uid: ((await response.json()) as { user: { uid: string } }).user.uid };
}
