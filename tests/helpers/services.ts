import { randomBytes } from 'node:crypto';
import net from 'node:net';
import pg from 'pg';

/**
 * The shared services of the scale-out tests: PostgreSQL (TEST_DATABASE_URL, else the local
 * default) and Redis (TEST_REDIS_URL, else REDIS_URL, else the local default).
 */
export const POSTGRES_ADMIN_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

/** The test Redis on database `db`: each test file picks its own, so files running side by side never share keys. */
export function testRedisUrl(db: number): string {
  const url = new URL(process.env.TEST_REDIS_URL || process.env.REDIS_URL || 'redis://127.0.0.1:6379');
  url.pathname = `/${db}`;
  return url.toString();
}

/** Whether something accepts TCP connections at the URL's host and port (within `ms`). */
export function reachable(url: string, ms = 1_000): Promise<boolean> {
  const { protocol, hostname, port } = new URL(url);
  const fallback = protocol.startsWith('postgres') ? 5432 : 6379;
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) || fallback });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(ms, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Skip a suite only when its service is really absent on a developer machine. In CI the services
 * are part of the job, so a missing one fails the run instead of silently skipping the suite.
 */
export async function unavailable(...urls: string[]): Promise<boolean> {
  if (process.env.CI) return false;
  for (const url of urls) if (!(await reachable(url))) return true;
  return false;
}

async function asAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A new, empty (unmigrated) database on the admin URL's server; drop() removes it, connections and all. */
export async function createEmptyDatabase(adminUrl = POSTGRES_ADMIN_URL): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `dormboard_test_${randomBytes(6).toString('hex')}`;
  await asAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => asAdmin(adminUrl, async (client) => void (await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))),
  };
}

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
