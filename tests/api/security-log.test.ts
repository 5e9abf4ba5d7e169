import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API } from '../../src/shared/api/paths.js';
import { DEFAULT_RATE_LIMITS } from '../../src/server/config.js';
import { newAccount, sessionCookie, signUp } from '../helpers/accounts.js';
import { jpeg } from '../helpers/images.js';
import { query } from '../helpers/people.js';
import { createPost } from '../helpers/posts.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The security log (ASVS V16.3): sign-ups, sign-ins, failures, sign-outs, rate limits, refused
 * cross-site writes and refused deletions each leave one line tagged `security`, naming the
 * account by id and never holding a password, a session token or an e-mail address.
 */

interface LogLine {
  level: number;
  security?: string;
  userId?: string;
  code?: string;
  ip?: string;
  route?: string;
}
const INFO = 30;
const WARN = 40;

describe('security log', () => {
  const raw: string[] = [];
  const logStream = { write: (line: string) => void raw.push(line) };
  const events = () => raw.map((line) => JSON.parse(line) as LogLine).filter((line) => line.security);
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(
      { logLevel: 'info', rateLimits: { ...DEFAULT_RATE_LIMITS, loginPerIp: 10_000, registerPerIp: 10_000, loginFailuresPerAccount: 3 } },
      { logStream },
    );
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(() => {
    raw.length = 0;
  });

  const login = (identifier: string, password: string) =>
    t.app.inject({ method: 'POST', url: API.login, payload: { identifier, password } });

  it('a sign-up and a sign-in: one info line each, with the account id and the route', async () => {
    const me = await signUp(t.app);
    const signedIn = await login(me.username, me.password);
    expect(signedIn.statusCode).toBe(200);
    expect(events()).toEqual([
      expect.objectContaining({ level: INFO, security: 'signed up', userId: me.uid, route: API.register, ip: '127.0.0.1' }),
      expect.objectContaining({ level: INFO, security: 'signed in', userId: me.uid, route: API.login }),
    ]);
  });

  it('wrong passwords are warnings naming the account; the lock-out after them is a rate-limit event for it', async () => {
    const me = await signUp(t.app);
    raw.length = 0;
    for (let i = 0; i < 3; i += 1) expect((await login(me.email, 'wrong password 1')).statusCode).toBe(401);
    expect((await login(me.email, me.password)).statusCode).toBe(429);
    // Typed the other way, the right password is checked and signs in (issue 26).
    expect((await login(me.username, me.password)).statusCode).toBe(200);
    expect(events()).toEqual([
      ...Array.from({ length: 3 }, () =>
        expect.objectContaining({ level: WARN, security: 'sign-in failed', code: 'INCORRECT_LOGIN', userId: me.uid }),
      ),
      expect.objectContaining({ level: WARN, security: 'rate limited', code: 'RATE_LIMITED', userId: me.uid }),
      expect.objectContaining({ level: INFO, security: 'signed in', userId: me.uid }),
    ]);
  });

  it('an unknown username is a failed sign-in with no account', async () => {
    expect((await login('nobody_here', 'whatever 123')).statusCode).toBe(404);
    const [line, ...rest] = events();
    expect(rest).toEqual([]);
    expect(line).toMatchObject({ level: WARN, security: 'sign-in failed', code: 'USERNAME_NOT_REGISTERED' });
    expect(line!.userId).toBeUndefined();
  });

  it("a cross-site write and a deletion of someone else's post are logged; deleting a missing post is not", async () => {
    const author = await signUp(t.app);
    const other = await signUp(t.app);
    const created = await createPost(t.app, author.cookie, { bytes: await jpeg(64, 48), description: 'mine #log' });
    expect(created.statusCode).toBe(201);
    const postId = created.json().post.id as string;
    raw.length = 0;

    const crossSite = await t.app.inject({
      method: 'POST',
      url: API.logout,
      headers: { cookie: other.cookie, 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.statusCode).toBe(403);
    const refused = await t.app.inject({ method: 'DELETE', url: API.post(postId), headers: { cookie: other.cookie } });
    expect(refused.statusCode).toBe(404);
    const missing = await t.app.inject({ method: 'DELETE', url: API.post('nosuchpost'), headers: { cookie: other.cookie } });
    expect(missing.statusCode).toBe(404);

    expect(events()).toEqual([
      expect.objectContaining({ level: WARN, security: 'cross-site request refused', code: 'CROSS_SITE_REQUEST' }),
      expect.objectContaining({ level: WARN, security: 'authorization refused', code: 'POST_NOT_FOUND', userId: other.uid }),
    ]);
  });

  it('signing out and signing out everywhere', async () => {
    const me = await signUp(t.app);
    const second = sessionCookie(await login(me.username, me.password));
    raw.length = 0;
    expect((await t.app.inject({ method: 'POST', url: API.logout, headers: { cookie: me.cookie } })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'POST', url: API.logoutAll, headers: { cookie: second } })).statusCode).toBe(204);
    expect(events()).toEqual([
      expect.objectContaining({ level: INFO, security: 'signed out', userId: me.uid }),
      expect.objectContaining({ level: INFO, security: 'signed out everywhere', userId: me.uid }),
    ]);
  });

  it('no log line, security or request, holds a password, its hash, a session token or an e-mail address', async () => {
    const account = newAccount('secret');
    const registered = await t.app.inject({ method: 'POST', url: API.register, payload: account });
    const token = sessionCookie(registered).slice('session='.length);
    await login(account.email, account.password);
    await login(account.email, 'wrong password 1');
    await t.app.inject({ method: 'POST', url: API.logout, headers: { cookie: `session=${token}` } });
    const [row] = await query<{ password_hash: string }>(t.database, 'SELECT password_hash FROM users WHERE username = $1', [
      account.username,
    ]);
    const hash = row!.password_hash;

    expect(raw.length).toBeGreaterThan(4);
    const everything = raw.join('\n');
    for (const secret of [account.password, 'wrong password 1', hash, token, account.email]) {
      expect(everything).not.toContain(secret);
    }
  });
});
