import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeUserAgent } from '../../src/server/auth/user-agent.js';
import { DEFAULT_RATE_LIMITS } from '../../src/server/config.js';
import { API } from '../../src/shared/api/paths.js';
import type { SessionInfo } from '../../src/shared/api/sessions.js';
import { ERRORS } from '../../src/shared/errors.js';
import { newAccount, sessionCookie, signUp } from '../helpers/accounts.js';
import { expectError, get, query } from '../helpers/people.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Settings → Security (issue 16): Change Password and the Sessions list. On the embedded
 * database the session cache is on, as in production, so "ends at once" covers it too.
 */
const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

const NEW_PASSWORD = 'a brand new one 2';

async function signIn(app: FastifyInstance, identifier: string, password: string, userAgent?: string) {
  const response = await app.inject({
    method: 'POST',
    url: API.login,
    payload: { identifier, password },
    headers: userAgent ? { 'user-agent': userAgent } : {},
  });
  expect(response.statusCode, response.body).toBe(200);
  return sessionCookie(response);
}

const changePassword = (app: FastifyInstance, cookie: string | undefined, payload: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: API.password, payload, headers: cookie ? { cookie } : {} });

const listSessions = async (app: FastifyInstance, cookie: string) => {
  const response = await get(app, API.sessions, cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ sessions: SessionInfo[] }>().sessions;
};

const endSession = (app: FastifyInstance, cookie: string | undefined, id: string) =>
  app.inject({ method: 'DELETE', url: API.session(id), headers: cookie ? { cookie } : {} });

const passwordHashOf = async (t: TestApp, uid: string) =>
  (await query<{ password_hash: string }>(t.database, 'SELECT password_hash FROM users WHERE id = $1', [uid]))[0]!.password_hash;

describe('describeUserAgent', () => {
  it('names the browser with its major version and the system by name', () => {
    expect(describeUserAgent(CHROME_MAC)).toEqual({ browser: 'Chrome 131', system: 'macOS' });
    expect(describeUserAgent(SAFARI_IPHONE)).toEqual({ browser: 'Safari 17', system: 'iOS' });
    expect(describeUserAgent(FIREFOX_WINDOWS)).toEqual({ browser: 'Firefox 133', system: 'Windows' });
  });

  it('says nothing rather than guess for headers it does not know', () => {
    expect(describeUserAgent('')).toEqual({ browser: null, system: null });
    expect(describeUserAgent('curl/8.5.0').system).toBeNull();
    expect(describeUserAgent('\u0000\uffff<script>')).toEqual({ browser: null, system: null });
  });
});

describe.each([
  ['session cache on (the embedded default)', 60_000],
  ['session cache off', 0],
])('account security, %s', (_name, sessionCacheMs) => {
  let t: TestApp;
  beforeAll(async () => {
    // The cache only exists on the embedded database; on PostgreSQL both runs are the same.
    t = await createTestApp({
      sessionCacheMs,
      rateLimits: {
        ...DEFAULT_RATE_LIMITS,
        loginPerIp: 10_000,
        registerPerIp: 10_000,
        passwordChangesPerUser: 3,
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('Change Password', () => {
    it('sets the new password, keeps this session and ends every other one', async () => {
      const account = await signUp(t.app, newAccount('chpw'));
      const phone = await signIn(t.app, account.username, account.password, SAFARI_IPHONE);
      const laptop = await signIn(t.app, account.username, account.password, FIREFOX_WINDOWS);
      // Every session has been used (and cached, where the cache is on) before the change.
      for (const cookie of [account.cookie, phone, laptop]) expect((await get(t.app, API.me, cookie)).statusCode).toBe(200);

      const response = await changePassword(t.app, phone, {
        currentPassword: account.password,
        newPassword: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      expect(response.statusCode, response.body).toBe(204);

      expect((await get(t.app, API.me, phone)).statusCode).toBe(200);
      expect((await get(t.app, API.me, laptop)).statusCode).toBe(401);
      expect((await get(t.app, API.me, account.cookie)).statusCode).toBe(401);
      expect(await listSessions(t.app, phone)).toHaveLength(1);
      // The old password no longer signs in; the new one does.
      const old = await t.app.inject({
        method: 'POST',
        url: API.login,
        payload: { identifier: account.username, password: account.password },
      });
      expectError(old, 401, 'INCORRECT_LOGIN');
      await signIn(t.app, account.username, NEW_PASSWORD);
    });

    it('refuses a wrong current password with "Incorrect password." and changes nothing', async () => {
      const account = await signUp(t.app, newAccount('chpw'));
      const other = await signIn(t.app, account.username, account.password);
      const before = await passwordHashOf(t, account.uid);
      const response = await changePassword(t.app, account.cookie, {
        currentPassword: 'not my password',
        newPassword: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      expectError(response, 401, 'INCORRECT_PASSWORD');
      expect(response.json().message).toBe('Incorrect password.');
      expect(await passwordHashOf(t, account.uid)).toBe(before);
      expect((await get(t.app, API.me, other)).statusCode).toBe(200);
      // The session that asked is still signed in (a wrong password is not a sign-out).
      expect((await get(t.app, API.me, account.cookie)).statusCode).toBe(200);
    });

    it.each([
      ['an empty box', { currentPassword: '', newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }, [ERRORS.FILL_IN_ALL_FIELDS]],
      ['a missing confirmation', { currentPassword: 'x', newPassword: NEW_PASSWORD, confirmPassword: '' }, [ERRORS.FILL_IN_ALL_FIELDS]],
      ['too short', { currentPassword: 'x', newPassword: 'short', confirmPassword: 'short' }, [ERRORS.PASSWORD_LENGTH]],
      ['too long', { currentPassword: 'x', newPassword: 'y'.repeat(33), confirmPassword: 'y'.repeat(33) }, [ERRORS.PASSWORD_LENGTH]],
      [
        'spaces around it',
        { currentPassword: 'x', newPassword: ' padded password ', confirmPassword: ' padded password ' },
        [ERRORS.PASSWORD_SPACES],
      ],
      ['too common', { currentPassword: 'x', newPassword: 'password123', confirmPassword: 'password123' }, [ERRORS.PASSWORD_TOO_COMMON]],
      [
        'typed differently twice',
        { currentPassword: 'x', newPassword: NEW_PASSWORD, confirmPassword: `${NEW_PASSWORD}!` },
        [ERRORS.PASSWORDS_DO_NOT_MATCH],
      ],
    ])('follows the sign-up rules: %s', async (_case, body, messages) => {
      const account = await signUp(t.app, newAccount('chpw'));
      const before = await passwordHashOf(t, account.uid);
      const response = await changePassword(t.app, account.cookie, body);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().messages).toEqual(messages);
      expect(await passwordHashOf(t, account.uid)).toBe(before);
    });

    it('answers bad bodies with a 400 and the signed-out with a 401', async () => {
      const account = await signUp(t.app, newAccount('chpw'));
      for (const payload of [
        {},
        { currentPassword: 1, newPassword: 2, confirmPassword: 3 },
        { currentPassword: 'a', newPassword: 'b', confirmPassword: 'c', extra: 1 },
      ]) {
        expect((await changePassword(t.app, account.cookie, payload)).statusCode).toBe(400);
      }
      const long = 'x'.repeat(5_000);
      expect(
        (await changePassword(t.app, account.cookie, { currentPassword: long, newPassword: long, confirmPassword: long })).statusCode,
      ).toBe(400);
      expectError(
        await changePassword(t.app, undefined, { currentPassword: 'a', newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }),
        401,
        'NOT_SIGNED_IN',
      );
    });

    it('limits attempts per account (each costs two argon2 hashes)', async () => {
      const account = await signUp(t.app, newAccount('chpw'));
      const wrong = { currentPassword: 'wrong wrong', newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD };
      for (let i = 0; i < 3; i += 1) expectError(await changePassword(t.app, account.cookie, wrong), 401, 'INCORRECT_PASSWORD');
      expectError(await changePassword(t.app, account.cookie, { ...wrong, currentPassword: account.password }), 429, 'RATE_LIMITED');
      // Per account: someone else is not held back.
      const other = await signUp(t.app, newAccount('chpw'));
      expectError(await changePassword(t.app, other.cookie, wrong), 401, 'INCORRECT_PASSWORD');
    });

    it('voids a reset link made for the old password', async () => {
      const account = await signUp(t.app, newAccount('chpw'));
      await query(t.database, "INSERT INTO password_resets (user_id, token_hash, expires_at) VALUES ($1, 'h', now() + interval '1 hour')", [
        account.uid,
      ]);
      const response = await changePassword(t.app, account.cookie, {
        currentPassword: account.password,
        newPassword: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      expect(response.statusCode).toBe(204);
      expect(await query(t.database, 'SELECT 1 FROM password_resets WHERE user_id = $1', [account.uid])).toHaveLength(0);
    });
  });

  describe('Sessions', () => {
    it('lists every live session with browser, system, times; this device first, then the newest use', async () => {
      const account = await signUp(t.app, newAccount('sess'));
      const phone = await signIn(t.app, account.username, account.password, SAFARI_IPHONE);
      const laptop = await signIn(t.app, account.username, account.password, CHROME_MAC);
      // An ended session is not listed even while its row waits to be swept.
      await query(
        t.database,
        "UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1 AND user_agent NOT LIKE 'Mozilla%'",
        [account.uid],
      );

      // Asked from the phone, which signed in before the laptop: this device comes first anyway.
      const sessions = await listSessions(t.app, phone);
      expect(sessions.map(({ browser, system, current }) => ({ browser, system, current }))).toEqual([
        { browser: 'Safari 17', system: 'iOS', current: true },
        { browser: 'Chrome 131', system: 'macOS', current: false },
      ]);
      expect((await listSessions(t.app, laptop)).map((session) => session.current)).toEqual([true, false]);
      for (const session of sessions) {
        expect(Date.parse(session.signedInAt)).toBeLessThanOrEqual(Date.now());
        expect(Date.parse(session.lastActiveAt)).toBeGreaterThanOrEqual(Date.parse(session.signedInAt));
        // The id is not the token, nor the token's hash.
        expect(laptop).not.toContain(session.id);
        expect(session.id).not.toMatch(/^[0-9a-f]{64}$/);
      }
      // Only the user's own sessions, and never a token hash or a User-Agent string.
      const body = JSON.stringify(sessions);
      expect(body).not.toContain('Mozilla');
      expect(body).not.toMatch(/[0-9a-f]{64}/);
    });

    it('moves "last active" on a use at most every few minutes', async () => {
      const account = await signUp(t.app, newAccount('sess'));
      const cookie = await signIn(t.app, account.username, account.password);
      await query(t.database, "UPDATE sessions SET last_seen_at = now() - interval '1 hour' WHERE user_id = $1", [account.uid]);
      await get(t.app, API.me, cookie);
      const [own] = (await listSessions(t.app, cookie)).filter((session) => session.current);
      expect(Date.now() - Date.parse(own!.lastActiveAt)).toBeLessThan(60_000);
      // Within the few minutes no use writes again.
      const seen = await query<{ last_seen_at: Date }>(
        t.database,
        'SELECT last_seen_at FROM sessions WHERE user_id = $1 ORDER BY last_seen_at DESC',
        [account.uid],
      );
      await get(t.app, API.me, cookie);
      const again = await query<{ last_seen_at: Date }>(
        t.database,
        'SELECT last_seen_at FROM sessions WHERE user_id = $1 ORDER BY last_seen_at DESC',
        [account.uid],
      );
      expect(again.map((row) => row.last_seen_at.getTime())).toEqual(seen.map((row) => row.last_seen_at.getTime()));
    });

    it('signs out another session: its next request is signed out, the rest carry on', async () => {
      const account = await signUp(t.app, newAccount('sess'));
      const phone = await signIn(t.app, account.username, account.password, SAFARI_IPHONE);
      expect((await get(t.app, API.me, phone)).statusCode).toBe(200);
      const target = (await listSessions(t.app, account.cookie)).find((session) => session.browser === 'Safari 17')!;

      const response = await endSession(t.app, account.cookie, target.id);
      expect(response.statusCode, response.body).toBe(204);
      expect(response.cookies.find((cookie) => cookie.name === 'session')).toBeUndefined();
      expect((await get(t.app, API.me, phone)).statusCode).toBe(401);
      expect((await get(t.app, API.me, account.cookie)).statusCode).toBe(200);
      expectError(await endSession(t.app, account.cookie, target.id), 404, 'SESSION_NOT_FOUND');
    });

    it('signing out "this device" from the list ends it and clears its cookie', async () => {
      const account = await signUp(t.app, newAccount('sess'));
      const [own] = await listSessions(t.app, account.cookie);
      const response = await endSession(t.app, account.cookie, own!.id);
      expect(response.statusCode).toBe(204);
      const cleared = response.cookies.find((cookie) => cookie.name === 'session');
      expect(cleared?.value).toBe('');
      expect((await get(t.app, API.me, account.cookie)).statusCode).toBe(401);
    });

    it("never lists or ends someone else's session: to them it does not exist", async () => {
      const alice = await signUp(t.app, newAccount('sess'));
      const mallory = await signUp(t.app, newAccount('sess'));
      const [aliceSession] = await listSessions(t.app, alice.cookie);
      expect((await listSessions(t.app, mallory.cookie)).map((session) => session.id)).not.toContain(aliceSession!.id);
      expectError(await endSession(t.app, mallory.cookie, aliceSession!.id), 404, 'SESSION_NOT_FOUND');
      expect((await get(t.app, API.me, alice.cookie)).statusCode).toBe(200);
    });

    it('refuses the signed-out and bad ids', async () => {
      const account = await signUp(t.app, newAccount('sess'));
      expectError(await get(t.app, API.sessions), 401, 'NOT_SIGNED_IN');
      expectError(await endSession(t.app, undefined, 'anything'), 401, 'NOT_SIGNED_IN');
      expect((await endSession(t.app, account.cookie, 'x'.repeat(65))).statusCode).toBe(400);
      expectError(await endSession(t.app, account.cookie, "' OR 1=1 --"), 404, 'SESSION_NOT_FOUND');
    });

    it('keeps a long or odd User-Agent bounded', async () => {
      const account = await signUp(t.app, newAccount('sess'));
      await signIn(t.app, account.username, account.password, `Mozilla/5.0 ${'é'.repeat(3_000)}`);
      const rows = await query<{ n: number }>(t.database, 'SELECT char_length(user_agent) AS n FROM sessions WHERE user_id = $1', [
        account.uid,
      ]);
      expect(Math.max(...rows.map((row) => Number(row.n)))).toBe(512);
    });
  });
});
