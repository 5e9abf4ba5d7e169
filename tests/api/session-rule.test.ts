import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../src/shared/api/paths.js';
import { ERRORS } from '../../src/shared/errors.js';
import type { Role } from '../../src/shared/moderation.js';
import { OWASP_ARGON2ID } from '../../src/server/config.js';
import { newAccount, signUp } from '../helpers/accounts.js';
import { expectError, query } from '../helpers/people.js';
import { resetLinkFor } from '../helpers/reset-links.js';
import { race, raceRounds, type Thief } from '../helpers/session-race.js';
import { createTestApp, TEST_RATE_LIMITS, type TestApp } from '../helpers/test-app.js';

/**
 * The session rule (issue 26): a session acts only while its account exists, is not suspended,
 * and was made after the account's last credential or status change. Every cache is on, as in
 * production (the embedded database's session cache included), and the races run over real HTTP
 * with the servers' own argon2 cost, so a sign-in spends as long between reading the account and
 * making its session as it does for a real thief.
 */

type Account = Awaited<ReturnType<typeof signUp>>;
let t: TestApp;
let base: string;

const PASSWORDS = ['correct horse 1', 'battery staple 2'] as const;

async function account(role: Role = 'member'): Promise<Account> {
  const made = await signUp(t.app, newAccount('rule'));
  if (role !== 'member') await query(t.database, 'UPDATE users SET role = $1 WHERE id = $2', [role, made.uid]);
  return made;
}

/** A request over HTTP, as a browser (or a thief's script) sends it. */
async function call(method: string, url: string, cookie?: string, body?: unknown) {
  const response = await fetch(base + url, {
    method,
    headers: { ...(cookie ? { cookie } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const cookies = response.headers.getSetCookie().filter((c) => c.startsWith('session=') && !c.startsWith('session=;'));
  return { status: response.status, text, cookie: cookies[0]?.split(';')[0] };
}

const signIn = (username: string, password: string) => call('POST', API.login, undefined, { identifier: username, password });
const isAlive = async (cookie: string) => (await call('GET', API.me, cookie)).status === 200;

const thiefOf = (username: string, password: string): Thief => ({
  signIn: async () => (await signIn(username, password)).cookie,
  isAlive,
});

beforeAll(async () => {
  t = await createTestApp(
    {
      // The servers' own cost: the window between reading the account and making the session.
      passwordHashing: OWASP_ARGON2ID,
      rateLimits: { ...TEST_RATE_LIMITS, passwordChangesPerUser: 10_000, resetPerIp: 10_000, loginFailuresPerAccount: 10_000 },
    },
    // As the server runs it: the embedded database in a thread of its own.
    { ownThread: true },
  );
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('sign-ins in flight never outlive "every other session ends"', () => {
  it('Change Password: 0 thief sessions alive', async () => {
    const owner = await account();
    const ownerSession = owner.cookie;
    const outcome = await raceRounds('password change', async (n) => {
      const [current, next] = [PASSWORDS[n % 2]!, PASSWORDS[(n + 1) % 2]!];
      return race(thiefOf(owner.username, current), async () => {
        const changed = await call('POST', API.password, ownerSession, {
          currentPassword: current,
          newPassword: next,
          confirmPassword: next,
        });
        expect(changed.status, changed.text).toBe(204);
      });
    });
    expect(outcome.signIns).toBeGreaterThanOrEqual(50);
    expect(outcome.given).toBeGreaterThan(0);
    expect(outcome.alive, JSON.stringify(outcome)).toBe(0);
    // The owner's own session is the one that stays.
    expect(await isAlive(ownerSession)).toBe(true);
  });

  it('a reset link: 0 thief sessions alive', async () => {
    const owner = await account();
    const outcome = await raceRounds('reset link', async (n) => {
      const [current, next] = [PASSWORDS[n % 2]!, PASSWORDS[(n + 1) % 2]!];
      const { token } = await resetLinkFor(t, owner.username);
      return race(thiefOf(owner.username, current), async () => {
        const reset = await call('POST', API.reset, undefined, { token, newPassword: next, confirmPassword: next });
        expect(reset.status, reset.text).toBe(200);
      });
    });
    expect(outcome.signIns).toBeGreaterThanOrEqual(50);
    expect(outcome.alive, JSON.stringify(outcome)).toBe(0);
  });

  it('a suspension: 0 sessions alive, and none of them can post', async () => {
    const [owner, moderator, admin] = [await account(), await account('moderator'), await account('admin')];
    const outcome = await raceRounds('suspension', async () => {
      const outcome = await race(thiefOf(owner.username, PASSWORDS[0]), async () => {
        const suspended = await call('POST', API.moderationSuspend, moderator.cookie, { username: owner.username, days: 1 });
        expect(suspended.status, suspended.text).toBe(200);
      });
      const lifted = await call('POST', API.moderationUnsuspend, admin.cookie, { username: owner.username });
      expect(lifted.status, lifted.text).toBe(204);
      return outcome;
    });
    expect(outcome.signIns).toBeGreaterThanOrEqual(50);
    expect(outcome.alive, JSON.stringify(outcome)).toBe(0);
  });
});

describe('the rule, on every authenticated request', () => {
  it('a session made before the last credential change is refused, even if its row is still there', async () => {
    const owner = await account();
    const [row] = await query<{ token_hash: string; id: string; epoch: number }>(
      t.database,
      'SELECT token_hash, id, epoch FROM sessions WHERE user_id = $1',
      [owner.uid],
    );
    const other = await signIn(owner.username, owner.password);
    expect(await isAlive(other.cookie!)).toBe(true);
    // Signing out everywhere (another device) moves the account on; a row of the old epoch put
    // back behind the app's back (what a racing insert would have left) does not act.
    expect((await call('POST', API.logoutAll, other.cookie)).status).toBe(204);
    await query(
      t.database,
      "INSERT INTO sessions (token_hash, user_id, expires_at, id, epoch) VALUES ($1, $2, now() + interval '1 day', $3, $4)",
      [row!.token_hash, owner.uid, row!.id, row!.epoch],
    );
    expectError(await t.app.inject({ method: 'GET', url: API.me, headers: { cookie: owner.cookie } }), 401, 'NOT_SIGNED_IN');
    expect(await query(t.database, 'SELECT 1 FROM sessions WHERE token_hash = $1', [row!.token_hash])).toEqual([]);
  });

  it('a session in use when its account is suspended stops at its next request (the session cache forgets it)', async () => {
    const [owner, moderator] = [await account(), await account('moderator')];
    // In use: the session cache holds it now.
    expect(await isAlive(owner.cookie)).toBe(true);
    expect((await call('POST', API.moderationSuspend, moderator.cookie, { username: owner.username, days: null })).status).toBe(200);
    expect(await isAlive(owner.cookie)).toBe(false);
    expect((await call('PUT', API.follow(moderator.username), owner.cookie)).status).toBe(401);
  });
});

describe('a reset link does not let a suspended account back in', () => {
  it("answers 'This account is suspended until {date}.' with no session, and changes nothing", async () => {
    const [owner, moderator] = [await account(), await account('moderator')];
    const { token } = await resetLinkFor(t, owner.username);
    const suspended = await call('POST', API.moderationSuspend, moderator.cookie, { username: owner.username, days: 7 });
    const until = new Date((JSON.parse(suspended.text) as { until: string }).until);
    const [before] = await query<{ password_hash: string }>(t.database, 'SELECT password_hash FROM users WHERE id = $1', [owner.uid]);

    const reset = await call('POST', API.reset, undefined, { token, newPassword: PASSWORDS[1], confirmPassword: PASSWORDS[1] });
    expect(reset.status, reset.text).toBe(403);
    expect(reset.cookie).toBeUndefined();
    const date = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(until);
    expect(JSON.parse(reset.text)).toMatchObject({
      code: 'ACCOUNT_SUSPENDED_UNTIL',
      messages: [`This account is suspended until ${date} UTC.`],
    });
    expect(await query(t.database, 'SELECT 1 FROM sessions WHERE user_id = $1', [owner.uid])).toEqual([]);
    const [after] = await query<{ password_hash: string }>(t.database, 'SELECT password_hash FROM users WHERE id = $1', [owner.uid]);
    expect(after!.password_hash).toBe(before!.password_hash);
  });

  it("a permanent suspension: 'This account is suspended.'", async () => {
    const [owner, moderator] = [await account(), await account('moderator')];
    const { token } = await resetLinkFor(t, owner.username);
    expect((await call('POST', API.moderationSuspend, moderator.cookie, { username: owner.username, days: null })).status).toBe(200);
    const reset = await call('POST', API.reset, undefined, { token, newPassword: PASSWORDS[1], confirmPassword: PASSWORDS[1] });
    expect(reset.status).toBe(403);
    expect(reset.cookie).toBeUndefined();
    expect(JSON.parse(reset.text)).toMatchObject({ code: 'ACCOUNT_SUSPENDED', message: ERRORS.ACCOUNT_SUSPENDED });
  });
});
