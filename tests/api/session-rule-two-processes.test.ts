import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../src/shared/api/paths.js';
import type { ServerProcess } from '../helpers/server-process.js';
import { noPostgres } from '../helpers/services.js';
import { race, raceRounds, type Thief } from '../helpers/session-race.js';
import { callServer, registerOn, startTwoServers, type TwoServers } from '../helpers/two-servers.js';

/**
 * The session rule across processes (issue 26): thieves sign in on A with the old password while
 * the owner changes it, or a moderator suspends the account, on B. Two real server processes (the
 * built entry point, the servers' own argon2 cost) on one PostgreSQL database.
 */
describe.skipIf(noPostgres)('the session rule, two processes on PostgreSQL', { timeout: 180_000 }, () => {
  let servers: TwoServers;

  beforeAll(async () => {
    servers = await startTwoServers('session-rule', { RATE_LIMIT_PASSWORD_CHANGES: '1000', RATE_LIMIT_LOGIN_FAILURES: '1000' });
  }, 180_000);

  afterAll(async () => {
    await servers?.stop();
  });

  const thiefOn = (server: ServerProcess, username: string, password: string): Thief => ({
    signIn: async () => {
      const response = await callServer(server, 'POST', API.login, undefined, { identifier: username, password });
      await response.arrayBuffer();
      return response.headers
        .getSetCookie()
        .find((c) => c.startsWith('session=') && !c.startsWith('session=;'))
        ?.split(';')[0];
    },
    // Tried on both processes: the session must be over everywhere.
    isAlive: async (cookie) => {
      const answers = await Promise.all([servers.a, servers.b].map((s) => callServer(s, 'GET', API.me, cookie)));
      await Promise.all(answers.map((answer) => answer.arrayBuffer()));
      return answers.some((answer) => answer.status === 200);
    },
  });

  it('Change Password on B: 0 of the sessions signed in on A stay alive', async () => {
    const owner = await registerOn(servers.b, 'rule2p');
    const passwords = [owner.password, 'battery staple 2'];
    const outcome = await raceRounds('password change, two processes', async (n) => {
      const [current, next] = [passwords[n % 2]!, passwords[(n + 1) % 2]!];
      return race(thiefOn(servers.a, owner.username, current), async () => {
        const changed = await callServer(servers.b, 'POST', API.password, owner.cookie, {
          currentPassword: current,
          newPassword: next,
          confirmPassword: next,
        });
        expect(changed.status, await changed.text()).toBe(204);
      });
    });
    expect(outcome.signIns).toBeGreaterThanOrEqual(50);
    expect(outcome.alive, JSON.stringify(outcome)).toBe(0);
  });

  it('a suspension on B: 0 of the sessions signed in on A stay alive', async () => {
    const [owner, moderator, admin] = [
      await registerOn(servers.b, 'rule2p'),
      await registerOn(servers.b, 'mod2p'),
      await registerOn(servers.b, 'adm2p'),
    ];
    const client = new pg.Client({ connectionString: servers.databaseUrl });
    await client.connect();
    try {
      await client.query(`UPDATE users SET role = 'moderator' WHERE id = $1`, [moderator.uid]);
      await client.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [admin.uid]);
    } finally {
      await client.end();
    }
    const outcome = await raceRounds('suspension, two processes', async () => {
      const outcome = await race(thiefOn(servers.a, owner.username, owner.password), async () => {
        const suspended = await callServer(servers.b, 'POST', API.moderationSuspend, moderator.cookie, {
          username: owner.username,
          days: 1,
        });
        expect(suspended.status, await suspended.text()).toBe(200);
      });
      const lifted = await callServer(servers.b, 'POST', API.moderationUnsuspend, admin.cookie, { username: owner.username });
      expect(lifted.status, await lifted.text()).toBe(204);
      return outcome;
    });
    expect(outcome.signIns).toBeGreaterThanOrEqual(50);
    expect(outcome.alive, JSON.stringify(outcome)).toBe(0);
  });
});
