import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../src/shared/api/paths.js';
import type { ServerProcess } from '../helpers/server-process.js';
import { noPostgres } from '../helpers/services.js';
import { callServer, registerOn, startTwoServers, type TwoServers } from '../helpers/two-servers.js';

/**
 * A suspension made on one process ends the user's sessions on the other at once, and the other
 * process's cached reads stop showing them (the 'suspension' change over LISTEN/NOTIFY), not
 * after the caches' minute. Lifting it shows them again.
 */
/**
 * How long B may take to hear of a change: generous for a loaded machine, yet a third of the
 * caches' minute (CACHE_TTL_MS in two-servers.ts), so a lost notice still fails.
 */
const NOTICE_WAIT_MS = 20_000;

describe.skipIf(noPostgres)('suspension across two processes (PostgreSQL, caches on)', { timeout: 120_000 }, () => {
  let servers: TwoServers;
  let a: ServerProcess;
  let b: ServerProcess;

  const call = callServer;
  const register = registerOn;

  const setRole = (username: string, role: 'moderator' | 'admin') => servers.setRole(username, role);

  beforeAll(async () => {
    servers = await startTwoServers('moderation');
    ({ a, b } = servers);
  }, 120_000);
  afterAll(() => servers?.stop(), 60_000);

  it('suspended on A: their cookie fails on B at once, B stops showing their profile; lifted on A, B shows it again', async () => {
    const author = await register(b, 'susp');
    const moderator = await register(a, 'smod');
    const admin = await register(a, 'sadm');
    await setRole(moderator.username, 'moderator');
    await setRole(admin.username, 'admin');
    // B has answered (and cached) the profile.
    expect((await call(b, 'GET', API.user(author.username))).status).toBe(200);
    expect((await call(b, 'GET', API.me, author.cookie)).status).toBe(200);

    const suspended = await call(a, 'POST', API.moderationSuspend, moderator.cookie, { username: author.username, days: 1 });
    expect(suspended.status, await suspended.clone().text()).toBe(200);

    expect((await call(b, 'GET', API.me, author.cookie)).status).toBe(401);
    await expect.poll(async () => (await call(b, 'GET', API.user(author.username))).status, { timeout: NOTICE_WAIT_MS }).toBe(404);
    const refused = await call(b, 'POST', API.login, undefined, { identifier: author.username, password: author.password });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('ACCOUNT_SUSPENDED_UNTIL');

    expect((await call(a, 'POST', API.moderationUnsuspend, admin.cookie, { username: author.username })).status).toBe(204);
    await expect.poll(async () => (await call(b, 'GET', API.user(author.username))).status, { timeout: NOTICE_WAIT_MS }).toBe(200);
    expect((await call(b, 'POST', API.login, undefined, { identifier: author.username, password: author.password })).status).toBe(200);
  });
});
