import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../src/shared/api/paths.js';
import { newAccount, signUp } from '../helpers/accounts.js';
import { patchMe, query } from '../helpers/people.js';
import { createTestApp, TestClock, type TestApp } from '../helpers/test-app.js';

/**
 * On the embedded database the session's user is remembered between requests. What this
 * process changes must show at once; the cache must never outlive the session itself. The
 * cache's time stands still until a test moves it on; sessions themselves keep real time.
 */
const TTL = 60 * 60 * 1000;

describe.skipIf(process.env.TEST_DATABASE_URL)('session cache (embedded database)', () => {
  let t: TestApp;
  const clock = new TestClock();
  beforeAll(async () => {
    t = await createTestApp({ sessionCacheMs: TTL }, { clock: clock.now });
  });
  afterAll(async () => {
    await t?.close();
  });

  const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });

  /** A second session of the account (another browser): its cookie. */
  const signInAgain = async (account: { username: string; password: string }) => {
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { identifier: account.username, password: account.password },
    });
    return `session=${second.cookies.find((c) => c.name === 'session')!.value}`;
  };

  it('answers from memory: a change behind its back is not seen until it expires', async () => {
    const alice = await signUp(t.app, newAccount('cache'));
    expect((await me(alice.cookie)).statusCode).toBe(200);
    await query(t.database, "UPDATE users SET bio = 'changed behind its back' WHERE id = $1", [alice.uid]);
    // The remembered user is used (this is what saves a query per request)...
    clock.advance(TTL - 1);
    expect((await me(alice.cookie)).json().user.bio).toBe('');
    // ...until it expires.
    clock.advance(1);
    expect((await me(alice.cookie)).json().user.bio).toBe('changed behind its back');
  });

  it('signing out ends the session at once', async () => {
    const bob = await signUp(t.app, newAccount('cache'));
    expect((await me(bob.cookie)).statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: bob.cookie } });
    expect(out.statusCode).toBe(204);
    expect((await me(bob.cookie)).statusCode).toBe(401);
  });

  it('signing out everywhere ends every remembered session of that user at once', async () => {
    const erin = await signUp(t.app, newAccount('cache'));
    const frank = await signUp(t.app, newAccount('cache'));
    const otherCookie = await signInAgain(erin);
    for (const cookie of [erin.cookie, otherCookie, frank.cookie]) expect((await me(cookie)).statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout-all', headers: { cookie: erin.cookie } });
    expect(out.statusCode).toBe(204);
    expect((await me(erin.cookie)).statusCode).toBe(401);
    expect((await me(otherCookie)).statusCode).toBe(401);
    expect((await me(frank.cookie)).statusCode).toBe(200);
  });

  it('a profile update shows at once on every session of that user', async () => {
    const carol = await signUp(t.app, newAccount('cache'));
    const otherCookie = await signInAgain(carol);
    expect((await me(otherCookie)).statusCode).toBe(200);
    expect((await patchMe(t.app, carol.cookie, [['bio', 'fresh bio']])).statusCode).toBe(200);
    expect((await me(otherCookie)).json().user.bio).toBe('fresh bio');
  });

  it('a suspension ends every remembered session of that user at once, and no one else’s', async () => {
    const [gina, bystander, moderator] = [
      await signUp(t.app, newAccount('cache')),
      await signUp(t.app, newAccount('cache')),
      await signUp(t.app, newAccount('cache')),
    ];
    await query(t.database, "UPDATE users SET role = 'moderator' WHERE id = $1", [moderator.uid]);
    const otherCookie = await signInAgain(gina);
    // In use: memory holds all three now.
    for (const cookie of [gina.cookie, otherCookie, bystander.cookie]) expect((await me(cookie)).statusCode).toBe(200);
    const suspended = await t.app.inject({
      method: 'POST',
      url: API.moderationSuspend,
      headers: { cookie: moderator.cookie },
      payload: { username: gina.username, days: 1 },
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect((await me(gina.cookie)).statusCode).toBe(401);
    expect((await me(otherCookie)).statusCode).toBe(401);
    expect((await me(bystander.cookie)).statusCode).toBe(200);
  });

  it('a session read near its end is extended, and memory holds the new end', async () => {
    const dave = await signUp(t.app, newAccount('cache'));
    expect((await me(dave.cookie)).statusCode).toBe(200);
    // Move the end to ten minutes from now, then forget and re-read, as for a long-unused session.
    clock.catchUp();
    const soon = new Date(clock.now() + 10 * 60 * 1000);
    await query(t.database, 'UPDATE sessions SET expires_at = $1 WHERE user_id = $2', [soon.toISOString(), dave.uid]);
    await patchMe(t.app, dave.cookie, [['bio', 'x']]);
    const renewed = await me(dave.cookie);
    expect(renewed.statusCode).toBe(200);
    expect(renewed.cookies.map((c) => c.name)).toEqual(['session']);
    // Past the old end (within the cache's time to live): memory still answers, so it holds the
    // new end. Had it kept the old one, it would have dropped the entry and re-read the bio.
    await query(t.database, "UPDATE users SET bio = 'changed behind its back' WHERE id = $1", [dave.uid]);
    clock.advance(11 * 60 * 1000);
    const later = await me(dave.cookie);
    expect(later.statusCode).toBe(200);
    expect(later.json().user.bio).toBe('x');
    const [row] = await query<{ expires_at: Date }>(t.database, 'SELECT expires_at FROM sessions WHERE user_id = $1', [dave.uid]);
    expect(new Date(row!.expires_at).getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 60 * 60 * 1000);
  });

  it('a session unused past its end is refused, even one this process read before', async () => {
    const erin = await signUp(t.app, newAccount('cache'));
    expect((await me(erin.cookie)).statusCode).toBe(200);
    await query(t.database, "UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1", [erin.uid]);
    // Profile changes make the process re-read the session; the re-read finds it expired.
    await patchMe(t.app, erin.cookie, [['bio', 'y']]);
    expect((await me(erin.cookie)).statusCode).toBe(401);
  });
});
