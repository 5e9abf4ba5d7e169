import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type { Redis } from 'ioredis';
import pg from 'pg';

/**
 * The services some tests need, used only when named:
 *
 * - PostgreSQL through TEST_DATABASE_URL: a server where the tests may create databases. Each
 *   test creates its own `dormboard_test_<random>` and drops only that one.
 * - Redis through TEST_REDIS_URL: each test file writes under a key prefix of its own and deletes
 *   only the keys under it (never FLUSHDB).
 *
 * Never DATABASE_URL, REDIS_URL or a default port, and no probing: a PostgreSQL or Redis that
 * happens to listen on this machine is a developer's own, not the tests'. Unset, the suites that
 * need a service are skipped, and global-setup.ts says so once per run; set but unreachable, they
 * fail.
 */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

export const noPostgres = !TEST_DATABASE_URL;
export const noRedis = !TEST_REDIS_URL;

/** What global-setup.ts prints or checks for each service. */
export const SERVICES = [
  {
    name: 'PostgreSQL',
    variable: 'TEST_DATABASE_URL',
    url: TEST_DATABASE_URL,
    example: 'postgres://postgres@127.0.0.1:5432/test',
    port: 5432,
  },
  { name: 'Redis', variable: 'TEST_REDIS_URL', url: TEST_REDIS_URL, example: 'redis://127.0.0.1:6379', port: 6379 },
] as const;

function named(url: string | undefined, variable: string): string {
  // Only reached from a suite skipped without it, so this is a test written wrong.
  if (!url) throw new Error(`${variable} is not set: guard this suite with describe.skipIf()`);
  return url;
}

/** TEST_DATABASE_URL, for suites guarded by `describe.skipIf(noPostgres)`. */
export const postgresAdminUrl = () => named(TEST_DATABASE_URL, 'TEST_DATABASE_URL');

/** TEST_REDIS_URL, for suites guarded by `describe.skipIf(noRedis)`. */
export const redisUrl = () => named(TEST_REDIS_URL, 'TEST_REDIS_URL');

/** A key prefix no other run or file shares: everything a test writes to Redis goes under it. */
export function redisTestPrefix(name: string): string {
  return `dormboard-test:${name}:${process.pid}:${randomBytes(4).toString('hex')}:`;
}

/** Every key under `prefix`: SCAN (never KEYS, which blocks the server), the prefix's glob characters escaped. */
export async function redisKeys(redis: Redis, prefix: string): Promise<string[]> {
  if (!prefix) throw new Error('give a prefix: the tests only ever look at their own keys');
  const pattern = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    found.push(...keys);
  } while (cursor !== '0');
  return [...new Set(found)];
}

/** Deletes every key under `prefix` and nothing else; returns how many there were. */
export async function deleteRedisKeys(redis: Redis, prefix: string): Promise<number> {
  const keys = await redisKeys(redis, prefix);
  for (let i = 0; i < keys.length; i += 500) await redis.unlink(...keys.slice(i, i + 500));
  return keys.length;
}

/** Whether something accepts TCP connections at the URL's host and port (within `ms`). */
export function reachable(url: string, defaultPort: number, ms = 2_000): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname.replace(/^\[|\]$/g, '') || '127.0.0.1', port: Number(port) || defaultPort });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(ms, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
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
export async function createEmptyDatabase(
  adminUrl = postgresAdminUrl(),
): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `dormboard_test_${randomBytes(6).toString('hex')}`;
  await asAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    // Only ever the database made here: the name is ours and random.
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
