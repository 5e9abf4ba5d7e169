import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config, type SsoConfig } from '../../src/server/config.js';
import type { Me } from '../../src/shared/api/auth.js';
import { API } from '../../src/shared/api/paths.js';
import { ssoApi } from '../../src/shared/api/sso.js';
import { ERRORS } from '../../src/shared/errors.js';
import { deleteOwnAccount, newAccount, signUp } from '../helpers/accounts.js';
import { startOidcProvider, type TestOidcAccount, type TestOidcProvider } from '../helpers/oidc-provider.js';
import { expectError, get, insertUsers, query } from '../helpers/people.js';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';
import { createTestApp, TEST_ARGON2ID, type TestApp } from '../helpers/test-app.js';
import { hashPassword } from '../../src/server/auth/password.js';
import { resetLinkFor } from '../helpers/reset-links.js';
import { mailedVerification, mailingApp, mailsTo, resendVerification, verifyLink, type MailingApp } from '../helpers/verification.js';

/**
 * Single sign-on with the university's OpenID provider (issue 29 point 2), over HTTP end to end:
 * the app's routes by inject, a real OpenID provider (tests/helpers/oidc-provider.ts) on a
 * loopback port that the app's openid-client talks to over real HTTP, and a browser played here
 * by carrying the cookies each answer sets to the requests it would send them with.
 */

const PUBLIC_URL = 'https://dorm.example.edu';
const CALLBACK = ssoApi.ssoCallback.path;
const REDIRECT_URI = `${PUBLIC_URL}${CALLBACK}`;
const SIGNUP = ssoApi.ssoSignup.path;
const SSO_STATE = ssoApi.ssoState.path;

/** The domain the provider's students are at. */
const UNI = 'uni.example.edu';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Everything secret seen on the way (states, codes, verifiers, nonces, tokens, cookies): never in a log line. */
const SECRETS = new Set<string>();
/** Every log line of every app here. */
const LINES: string[] = [];
const logStream = { write: (line: string) => void LINES.push(line) };

let op: TestOidcProvider;

/** Records the tokens a provider hands out at its token endpoint. */
function watchTokens(provider: TestOidcProvider) {
  provider.provider.on('grant.success', (ctx: { body?: unknown }) => {
    const body = (ctx.body ?? {}) as Record<string, unknown>;
    for (const key of ['access_token', 'id_token', 'refresh_token']) if (typeof body[key] === 'string') SECRETS.add(body[key]);
  });
  SECRETS.add(provider.clientSecret);
}

/** OIDC_* as an operator sets them, for `provider` (this file's by default). */
function ssoConfig(provider: TestOidcProvider = op, env: Record<string, string> = {}): SsoConfig {
  const config = loadConfig({
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET: provider.clientSecret,
    OIDC_NAME: 'Uni Login',
    PUBLIC_URL,
    ...env,
  }).sso;
  expect(config?.redirectUri).toBe(REDIRECT_URI);
  return config!;
}

/** An app with single sign-on set up (sign-up open unless `overrides` say otherwise), logging at info. */
function ssoApp(overrides: Partial<Config> = {}, provider: TestOidcProvider = op): Promise<TestApp> {
  return createTestApp({ sso: ssoConfig(provider), publicUrl: PUBLIC_URL, logLevel: 'info', ...overrides }, { logStream });
}

let serial = 0;

/**
 * A new account at the provider: a unique sub, a vouched address at UNI and a preferred_username
 * that fits the username rules, unless `claims` say otherwise (undefined: the claim is left out).
 */
function student(claims: Partial<TestOidcAccount> = {}, provider: TestOidcProvider = op): TestOidcAccount {
  serial += 1;
  const tag = `${process.pid % 1000}x${serial}`;
  const account: TestOidcAccount = {
    sub: `sub-${tag}`,
    email: `st${tag}@${UNI}`,
    email_verified: true,
    preferred_username: `st${tag}`,
    name: `Student ${tag}`,
    ...claims,
  };
  for (const [claim, value] of Object.entries(account))
    if (value === undefined) delete (account as unknown as Record<string, unknown>)[claim];
  provider.accounts.set(account.sub, account);
  return account;
}

interface Cookie {
  value: string;
  path: string;
}

/**
 * A browser at the app: it keeps the cookies answers set (and drops those they clear), and sends
 * each where its Path says, as a browser would. Never answered a 500.
 */
class Browser {
  readonly cookies = new Map<string, Cookie>();

  constructor(
    readonly t: TestApp,
    sessionCookie?: string,
  ) {
    if (sessionCookie) this.cookies.set('session', { value: sessionCookie.replace(/^session=/, ''), path: '/' });
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name)?.value;
  }

  /** The session cookie, as helpers/accounts.ts's accounts hold it. */
  get session(): string {
    const value = this.cookie('session');
    if (!value) throw new Error('this browser is not signed in');
    return `session=${value}`;
  }

  async send(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object): Promise<LightMyRequestResponse> {
    const path = url.split('?')[0]!;
    const cookie = [...this.cookies]
      .filter(([, c]) => path === c.path || path.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .map(([name, c]) => `${name}=${c.value}`)
      .join('; ');
    const response = await this.t.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload && { payload }) });
    for (const set of response.cookies as Array<{ name: string; value: string; path?: string; maxAge?: number; expires?: Date }>) {
      const cleared = (set.maxAge !== undefined && set.maxAge <= 0) || (set.expires !== undefined && set.expires.getTime() <= Date.now());
      if (cleared) this.cookies.delete(set.name);
      else {
        this.cookies.set(set.name, { value: set.value, path: set.path ?? '/' });
        SECRETS.add(set.value);
      }
    }
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(500);
    return response;
  }

  get(url: string) {
    return this.send('GET', url);
  }

  /** Who this browser is signed in as (GET /api/me), or null. */
  async me(): Promise<Me | null> {
    const response = await this.get(API.me);
    if (response.statusCode === 401) return null;
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ user: Me }>().user;
  }
}

function expectRedirect(response: LightMyRequestResponse, location: string) {
  expect(response.statusCode, response.body).toBe(302);
  expect(response.headers.location).toBe(location);
}

/**
 * The sign-in button (or, with `link`, Settings' Connect): the app's 302 to the provider, whose
 * authorization URL it returns. The state cookie is set; the attempt's secrets are noted.
 */
async function begin(browser: Browser, { link = false, provider = op } = {}): Promise<URL> {
  const response = await browser.get(link ? API.ssoLink : API.ssoStart);
  expect(response.statusCode, response.body).toBe(302);
  const location = new URL(String(response.headers.location));
  expect(location.origin).toBe(provider.issuer);
  const state = location.searchParams.get('state')!;
  expect(browser.cookie('sso_state')).toBe(state);
  const [attempt] = await query<{ code_verifier: string; nonce: string }>(
    browser.t.database,
    'SELECT code_verifier, nonce FROM sso_attempts WHERE state_hash = $1',
    [sha256(state)],
  );
  expect(attempt).toBeDefined();
  for (const secret of [state, attempt!.code_verifier, attempt!.nonce]) SECRETS.add(secret);
  return location;
}

/** The user signs in at the provider as `sub`: the path and query of the app's callback it sends them back to. */
async function atProvider(authorization: URL, sub: string, provider: TestOidcProvider = op): Promise<string> {
  const back = await provider.signIn(authorization, sub);
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
  SECRETS.add(back.searchParams.get('code')!);
  return `${back.pathname}${back.search}`;
}

/** A whole round (start, the provider, the callback): the callback's answer. */
async function round(browser: Browser, sub: string, options: { link?: boolean; provider?: TestOidcProvider } = {}) {
  const back = await atProvider(await begin(browser, options), sub, options.provider);
  return browser.get(back);
}

/** A first sign-in through to the account: the browser (signed in) and its Me. */
async function ssoSignUp(t: TestApp, account: TestOidcAccount, username = `u${account.sub.replace(/\W/g, '')}`.slice(0, 20)) {
  const browser = new Browser(t);
  expectRedirect(await round(browser, account.sub), '/sso/welcome');
  const made = await browser.send('POST', SIGNUP, { username });
  expect(made.statusCode, made.body).toBe(201);
  return { browser, me: made.json<{ user: Me }>().user };
}

/** The accounts linked to the provider's `sub`. */
const linkedTo = async (t: TestApp, sub: string) =>
  (await query<{ user_id: string }>(t.database, 'SELECT user_id FROM sso_identities WHERE subject = $1', [sub])).map((row) => row.user_id);

/** A refusal: on its page, and nothing signed in, linked or waiting for a username. */
async function expectRefused(browser: Browser, response: LightMyRequestResponse, location: string, sub?: string) {
  expectRedirect(response, location);
  expect(response.cookies.map((cookie) => cookie.name)).not.toContain('session');
  expect(response.cookies.map((cookie) => cookie.name)).not.toContain('sso_signup');
  if (sub) {
    expect(await linkedTo(browser.t, sub)).toEqual([]);
    expect(await query(browser.t.database, 'SELECT 1 FROM sso_signups WHERE subject = $1', [sub])).toEqual([]);
  }
}

const login = (t: TestApp, identifier: string, password: string) =>
  t.app.inject({ method: 'POST', url: API.login, payload: { identifier, password } });

beforeAll(async () => {
  op = await startOidcProvider({ redirectUris: [REDIRECT_URI] });
  watchTokens(op);
});
afterAll(async () => {
  await op?.close();
});

describe('single sign-on with sign-up open', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await ssoApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('start: a 302 to the provider with PKCE (S256), state, nonce and the registered redirect URI; the state in an httpOnly cookie for the SSO routes only', async () => {
    const response = await t.app.inject({ method: 'GET', url: API.ssoStart });
    expect(response.statusCode, response.body).toBe(302);
    const location = new URL(String(response.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe(`${op.issuer}/auth`);
    const params = Object.fromEntries(location.searchParams);
    expect(params).toMatchObject({
      client_id: op.clientId,
      response_type: 'code',
      redirect_uri: REDIRECT_URI,
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    expect(params.state).toMatch(/^[\w-]{43}$/);
    expect(params.nonce).toMatch(/^[\w-]{43}$/);
    expect(params.code_challenge).toMatch(/^[\w-]{43}$/);
    SECRETS.add(params.state!);
    const [cookie] = response.cookies;
    expect(response.cookies).toHaveLength(1);
    expect(cookie).toMatchObject({ name: 'sso_state', value: params.state, path: '/api/auth/sso', httpOnly: true, sameSite: 'Lax' });
    // Only the hash of the state is kept; the verifier never leaves the server.
    const rows = await query<{ state_hash: string; purpose: string; user_id: string | null; code_verifier: string }>(
      t.database,
      'SELECT state_hash, purpose, user_id, code_verifier FROM sso_attempts WHERE state_hash = $1',
      [sha256(params.state!)],
    );
    expect(rows).toEqual([{ state_hash: sha256(params.state!), purpose: 'sign-in', user_id: null, code_verifier: expect.any(String) }]);
    expect(location.href).not.toContain(rows[0]!.code_verifier);
  });

  it("a first sign-in goes to /sso/welcome, which shows the provider's address and its username as the suggestion", async () => {
    const account = student({ email: `Mixed.Case${serial}@Uni.Example.EDU`, preferred_username: 'Ada_Lovelace' });
    const browser = new Browser(t);
    const response = await round(browser, account.sub);
    expectRedirect(response, '/sso/welcome');
    // No session yet: a username first. The state is used up and its cookie cleared.
    expect(browser.cookie('session')).toBeUndefined();
    expect(browser.cookie('sso_state')).toBeUndefined();
    expect(response.cookies.find((cookie) => cookie.name === 'sso_signup')).toMatchObject({
      path: '/api/auth/sso',
      httpOnly: true,
      sameSite: 'Lax',
    });
    expect(await browser.me()).toBeNull();

    const signup = await browser.get(SIGNUP);
    expect(signup.statusCode, signup.body).toBe(200);
    expect(signup.json()).toEqual({ email: account.email!.toLowerCase(), suggestedUsername: 'ada_lovelace' });
    // Nothing is made or linked before the username is chosen.
    expect(await linkedTo(t, account.sub)).toEqual([]);
    expect(await query(t.database, 'SELECT 1 FROM users WHERE email = $1', [account.email!.toLowerCase()])).toEqual([]);
  });

  it.each([
    ['too short', 'jo'],
    ['with a space', 'ada lovelace'],
    ['with an @', 'ada@uni'],
    ['too long', 'a'.repeat(21)],
    ['not there', undefined],
  ])('preferred_username %s: no suggestion (an empty one)', async (_what, preferred) => {
    const browser = new Browser(t);
    expectRedirect(await round(browser, student({ preferred_username: preferred }).sub), '/sso/welcome');
    expect((await browser.get(SIGNUP)).json()).toMatchObject({ suggestedUsername: '' });
  });

  it("choosing the username: the spec's messages for a bad one, 409 for a taken one, then 201 signed in with the provider's vouched address and no password", async () => {
    const taken = await signUp(t.app, newAccount('taken'));
    const account = student();
    const browser = new Browser(t);
    expectRedirect(await round(browser, account.sub), '/sso/welcome');
    const choose = (username: string) => browser.send('POST', SIGNUP, { username });
    const signupToken = browser.cookie('sso_signup')!;

    const refusals: Array<[string, number, keyof typeof ERRORS, string[]]> = [
      ['', 400, 'FILL_IN_ALL_FIELDS', [ERRORS.FILL_IN_ALL_FIELDS]],
      ['ab', 400, 'USERNAME_LENGTH', [ERRORS.USERNAME_LENGTH]],
      ['a'.repeat(21), 400, 'USERNAME_LENGTH', [ERRORS.USERNAME_LENGTH]],
      [' ada', 400, 'USERNAME_SPACES', [ERRORS.USERNAME_SPACES, ERRORS.USERNAME_INVALID]],
      ['ada lovelace', 400, 'USERNAME_INVALID', [ERRORS.USERNAME_INVALID]],
      ['ada-lovelace!', 400, 'USERNAME_INVALID', [ERRORS.USERNAME_INVALID]],
      ['é', 400, 'USERNAME_LENGTH', [ERRORS.USERNAME_LENGTH, ERRORS.USERNAME_INVALID]],
      [taken.username, 409, 'USERNAME_TAKEN', [ERRORS.USERNAME_TAKEN]],
      [taken.username.toUpperCase(), 409, 'USERNAME_TAKEN', [ERRORS.USERNAME_TAKEN]],
    ];
    for (const [username, status, code, messages] of refusals) {
      const refused = await choose(username);
      expectError(refused, status, code);
      const body = refused.json<{ message: string; messages?: string[] }>();
      expect(body.messages ?? [body.message], JSON.stringify(username)).toEqual(messages);
      expect(refused.cookies.map((cookie) => cookie.name)).not.toContain('session');
    }
    expect(ERRORS.USERNAME_TAKEN).toBe('Username has already been registered.');
    expect((await browser.send('POST', SIGNUP, {})).statusCode).toBe(400);
    expect(await linkedTo(t, account.sub)).toEqual([]);

    const username = `New${serial}Name`;
    const made = await choose(username);
    expect(made.statusCode, made.body).toBe(201);
    const me = made.json<{ user: Me }>().user;
    expect(me).toMatchObject({
      username: username.toLowerCase(),
      email: account.email,
      emailVerified: true,
      pendingEmail: null,
      mustVerify: false,
      role: 'member',
    });
    // Signed in, the sign-up used up (its cookie cleared), the account linked by the provider's sub.
    expect(browser.cookie('sso_signup')).toBeUndefined();
    expect((await browser.me())?.uid).toBe(me.uid);
    expect((await browser.get(SSO_STATE)).json()).toMatchObject({ linked: true, hasPassword: false });
    expect(await linkedTo(t, account.sub)).toEqual([me.uid]);
    expect(await query(t.database, 'SELECT has_password FROM users WHERE id = $1', [me.uid])).toEqual([{ has_password: false }]);

    // Nobody knows its password: any sign-in with one fails as a wrong password does.
    for (const identifier of [me.username, me.email]) {
      for (const password of ['correct horse 1', '', 'x'.repeat(64)]) {
        const refused = await login(t, identifier, password);
        if (password === '') expectError(refused, 400, 'FILL_IN_ALL_FIELDS');
        else expectError(refused, 401, 'INCORRECT_LOGIN');
      }
    }

    // The sign-up is used up: a second username for it is refused.
    const again = new Browser(t);
    again.cookies.set('sso_signup', { value: signupToken, path: '/api/auth/sso' });
    expectError(await again.send('POST', SIGNUP, { username: `other${serial}` }), 400, 'SSO_SIGNUP_EXPIRED');
    expectError(await again.get(SIGNUP), 400, 'SSO_SIGNUP_EXPIRED');
  });

  it('the username page without a sign-up waiting: SSO_SIGNUP_EXPIRED', async () => {
    const browser = new Browser(t);
    expectError(await browser.get(SIGNUP), 400, 'SSO_SIGNUP_EXPIRED');
    expectError(await browser.send('POST', SIGNUP, { username: 'nobodyhere' }), 400, 'SSO_SIGNUP_EXPIRED');
    browser.cookies.set('sso_signup', { value: randomBytes(32).toString('base64url'), path: '/api/auth/sso' });
    expectError(await browser.get(SIGNUP), 400, 'SSO_SIGNUP_EXPIRED');
    expectError(await browser.send('POST', SIGNUP, { username: 'nobodyhere' }), 400, 'SSO_SIGNUP_EXPIRED');
  });

  it('a sign-up past its time (30 minutes): SSO_SIGNUP_EXPIRED, nothing made; signing in again starts over', async () => {
    const account = student();
    const browser = new Browser(t);
    expectRedirect(await round(browser, account.sub), '/sso/welcome');
    const token = browser.cookie('sso_signup')!;
    const [row] = await query<{ created: Date; expires_at: Date }>(
      t.database,
      'SELECT now() AS created, expires_at FROM sso_signups WHERE token_hash = $1',
      [sha256(token)],
    );
    expect(new Date(row!.expires_at).getTime() - new Date(row!.created).getTime()).toBeGreaterThan(29 * 60_000);
    await query(t.database, `UPDATE sso_signups SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, [sha256(token)]);

    expectError(await browser.get(SIGNUP), 400, 'SSO_SIGNUP_EXPIRED');
    expectError(await browser.send('POST', SIGNUP, { username: `late${serial}` }), 400, 'SSO_SIGNUP_EXPIRED');
    expect(await query(t.database, 'SELECT 1 FROM users WHERE email = $1', [account.email])).toEqual([]);
    expect(await linkedTo(t, account.sub)).toEqual([]);
    expect(await browser.me()).toBeNull();

    expectRedirect(await round(browser, account.sub), '/sso/welcome');
    expect((await browser.get(SIGNUP)).json()).toMatchObject({ email: account.email });
  });

  it("a returning sign-in goes home signed in, as the linked account, and ends the browser's other session", async () => {
    const account = student();
    const { me } = await ssoSignUp(t, account);
    const someoneElse = await signUp(t.app, newAccount('prior'));

    // Another account was signed in in this browser: signing in replaces its session.
    const browser = new Browser(t, someoneElse.cookie);
    const response = await round(browser, account.sub);
    expectRedirect(response, '/');
    expect(response.cookies.map((cookie) => cookie.name)).not.toContain('sso_signup');
    expect(browser.session).not.toBe(someoneElse.cookie);
    expect((await browser.me())?.uid).toBe(me.uid);
    expectError(await get(t.app, API.me, someoneElse.cookie), 401, 'NOT_SIGNED_IN');
    // No second account, and the link is the same one.
    expect(await query(t.database, 'SELECT 1 FROM users WHERE email = $1', [account.email])).toHaveLength(1);
    expect(await linkedTo(t, account.sub)).toEqual([me.uid]);

    // The session works for the rest of the app.
    const sessions = await get(t.app, API.sessions, browser.session);
    expect(sessions.statusCode, sessions.body).toBe(200);
  });

  it('a first sign-in whose address an account here has is refused (SSO_EMAIL_TAKEN): never linked by e-mail alone', async () => {
    const owner = await signUp(t.app, { ...newAccount('owner'), email: `owner${serial}@${UNI}` });
    for (const email of [owner.email, owner.email.toUpperCase()]) {
      const account = student({ email });
      const browser = new Browser(t);
      await expectRefused(browser, await round(browser, account.sub), '/login?sso=SSO_EMAIL_TAKEN', account.sub);
      expect(await browser.me()).toBeNull();
    }
    expect((await get(t.app, SSO_STATE, owner.cookie)).json()).toMatchObject({ linked: false, hasPassword: true });

    // Taken between the sign-in and the username: refused then, nothing made.
    const late = student();
    const browser = new Browser(t);
    expectRedirect(await round(browser, late.sub), '/sso/welcome');
    await signUp(t.app, { ...newAccount('quick'), email: late.email! });
    expectError(await browser.send('POST', SIGNUP, { username: `late${serial}` }), 409, 'SSO_EMAIL_TAKEN');
    expect(await linkedTo(t, late.sub)).toEqual([]);
    expect(await browser.me()).toBeNull();
  });

  it('a provider account without an e-mail claim: SSO_NO_EMAIL', async () => {
    for (const claims of [{ email: undefined, email_verified: undefined }, { email: 'not an address' }]) {
      const account = student(claims);
      const browser = new Browser(t);
      await expectRefused(browser, await round(browser, account.sub), '/login?sso=SSO_NO_EMAIL', account.sub);
    }
  });

  it('an account with a password connects the provider from Settings, then signs in with it', async () => {
    const owner = await signUp(t.app, newAccount('linker'));
    const account = student();
    const browser = new Browser(t, owner.cookie);
    expect((await browser.get(SSO_STATE)).json()).toMatchObject({ linked: false, hasPassword: true });

    const linkStart = await begin(browser, { link: true });
    const [attempt] = await query<{ purpose: string; user_id: string }>(
      t.database,
      'SELECT purpose, user_id FROM sso_attempts WHERE state_hash = $1',
      [sha256(linkStart.searchParams.get('state')!)],
    );
    expect(attempt).toEqual({ purpose: 'link', user_id: owner.uid });
    const response = await browser.get(await atProvider(linkStart, account.sub));
    expectRedirect(response, '/settings/sso?linked=1');
    // Still the same session, now linked (whatever the provider's address: the link is by sub).
    expect(browser.session).toBe(owner.cookie);
    expect((await browser.get(SSO_STATE)).json()).toMatchObject({ linked: true, hasPassword: true });
    expect(await linkedTo(t, account.sub)).toEqual([owner.uid]);

    // Connecting it again is no change.
    expectRedirect(await round(browser, account.sub, { link: true }), '/settings/sso?linked=1');
    expect(await linkedTo(t, account.sub)).toEqual([owner.uid]);

    const elsewhere = new Browser(t);
    expectRedirect(await round(elsewhere, account.sub), '/');
    expect((await elsewhere.me())?.uid).toBe(owner.uid);
    // And the password still works.
    expect((await login(t, owner.username, owner.password)).statusCode).toBe(200);
  });

  it('connecting without being signed in sends the browser to sign in first, and begins nothing', async () => {
    const browser = new Browser(t);
    const response = await browser.get(API.ssoLink);
    expectRedirect(response, '/login');
    expect(response.cookies).toEqual([]);
  });

  it('connecting a provider account linked to another account: SSO_ALREADY_LINKED on Settings; one account, one link', async () => {
    const account = student();
    const { me: first } = await ssoSignUp(t, account);
    const other = await signUp(t.app, newAccount('second'));
    const browser = new Browser(t, other.cookie);
    expectRedirect(await round(browser, account.sub, { link: true }), '/settings/sso?sso=SSO_ALREADY_LINKED');
    expect(await linkedTo(t, account.sub)).toEqual([first.uid]);
    expect((await browser.get(SSO_STATE)).json()).toMatchObject({ linked: false, hasPassword: true });
    expect(browser.session).toBe(other.cookie);

    // An account linked already connects no second provider account (one per provider).
    const linked = await signUp(t.app, newAccount('once'));
    const mine = student();
    const linkedBrowser = new Browser(t, linked.cookie);
    expectRedirect(await round(linkedBrowser, mine.sub, { link: true }), '/settings/sso?linked=1');
    const another = student();
    expectRedirect(await round(linkedBrowser, another.sub, { link: true }), '/settings/sso?sso=SSO_ALREADY_LINKED');
    expect(await linkedTo(t, mine.sub)).toEqual([linked.uid]);
    expect(await linkedTo(t, another.sub)).toEqual([]);
  });

  it('a link begun by one account cannot be finished by another, nor signed out: SSO_FAILED on Settings', async () => {
    const owner = await signUp(t.app, newAccount('begun'));
    const intruder = await signUp(t.app, newAccount('finisher'));
    const account = student();

    const browser = new Browser(t, owner.cookie);
    const back = await atProvider(await begin(browser, { link: true }), account.sub);
    // The same browser, now signed in as someone else.
    browser.cookies.set('session', { value: intruder.cookie.replace('session=', ''), path: '/' });
    expectRedirect(await browser.get(back), '/settings/sso?sso=SSO_FAILED');

    const signedOut = new Browser(t, owner.cookie);
    const back2 = await atProvider(await begin(signedOut, { link: true }), account.sub);
    signedOut.cookies.delete('session');
    await expectRefused(signedOut, await signedOut.get(back2), '/settings/sso?sso=SSO_FAILED', account.sub);
    expect(await linkedTo(t, account.sub)).toEqual([]);
  });

  it('disconnecting: 204 with a password of its own; 409 SSO_NEEDS_PASSWORD without; 404 when not connected; 401 signed out', async () => {
    const owner = await signUp(t.app, { ...newAccount('unlink'), email: `unlink${serial}@example.com` });
    const account = student();
    const browser = new Browser(t, owner.cookie);
    expectRedirect(await round(browser, account.sub, { link: true }), '/settings/sso?linked=1');
    const unlinked = await browser.send('DELETE', SSO_STATE);
    expect(unlinked.statusCode, unlinked.body).toBe(204);
    expect((await browser.get(SSO_STATE)).json()).toMatchObject({ linked: false, hasPassword: true });
    expect(await linkedTo(t, account.sub)).toEqual([]);
    expectError(await browser.send('DELETE', SSO_STATE), 404, 'NOT_FOUND');
    // The provider account no longer signs in to it: it is a first sign-in again.
    const elsewhere = new Browser(t);
    expectRedirect(await round(elsewhere, account.sub), '/sso/welcome');
    expect(await elsewhere.me()).toBeNull();

    // An account made by single sign-on has no password: it could not sign in without the provider.
    const made = await ssoSignUp(t, student());
    expectError(await made.browser.send('DELETE', SSO_STATE), 409, 'SSO_NEEDS_PASSWORD');
    expect((await made.browser.get(SSO_STATE)).json()).toMatchObject({ linked: true, hasPassword: false });

    const signedOut = new Browser(t);
    expectError(await signedOut.send('DELETE', SSO_STATE), 401, 'NOT_SIGNED_IN');
    expectError(await signedOut.get(SSO_STATE), 401, 'NOT_SIGNED_IN');
  });

  describe('a callback that is not the answer to this browser’s own sign-in: SSO_FAILED, nobody signed in', () => {
    it('the state cookie of another sign-in', async () => {
      const account = student();
      const browser = new Browser(t);
      const back = await atProvider(await begin(browser), account.sub);
      // Another sign-in's live state, say an attacker's own (login CSRF).
      const other = new Browser(t);
      await begin(other);
      browser.cookies.set('sso_state', other.cookies.get('sso_state')!);
      const response = await browser.get(back);
      await expectRefused(browser, response, '/login?sso=SSO_FAILED', account.sub);
      expect(browser.cookie('sso_state')).toBeUndefined();
      expect(await browser.me()).toBeNull();
    });

    it('no state cookie', async () => {
      const account = student();
      const browser = new Browser(t);
      const back = await atProvider(await begin(browser), account.sub);
      browser.cookies.delete('sso_state');
      await expectRefused(browser, await browser.get(back), '/login?sso=SSO_FAILED', account.sub);
    });

    it('a state of its own making, in the cookie and the URL alike', async () => {
      const account = student();
      const browser = new Browser(t);
      const back = new URL(await atProvider(await begin(browser), account.sub), PUBLIC_URL);
      const forged = randomBytes(32).toString('base64url');
      back.searchParams.set('state', forged);
      browser.cookies.set('sso_state', { value: forged, path: '/api/auth/sso' });
      await expectRefused(browser, await browser.get(`${back.pathname}${back.search}`), '/login?sso=SSO_FAILED', account.sub);
    });

    it('a replayed callback (its code and state used already), for a first sign-in and a returning one', async () => {
      for (const returning of [false, true]) {
        const account = student();
        if (returning) await ssoSignUp(t, account);
        const browser = new Browser(t);
        const back = await atProvider(await begin(browser), account.sub);
        const stateCookie = browser.cookies.get('sso_state')!;
        expectRedirect(await browser.get(back), returning ? '/' : '/sso/welcome');
        // Whoever saw the URL and the cookie sends them again.
        const replay = new Browser(t);
        replay.cookies.set('sso_state', stateCookie);
        const response = await replay.get(back);
        expectRedirect(response, '/login?sso=SSO_FAILED');
        expect(response.cookies.map((cookie) => cookie.name)).toEqual(['sso_state']);
        expect(await replay.me()).toBeNull();
      }
    });

    it('a sign-in begun more than 10 minutes ago', async () => {
      const account = student();
      const browser = new Browser(t);
      const start = await begin(browser);
      const back = await atProvider(start, account.sub);
      await query(t.database, `UPDATE sso_attempts SET expires_at = now() - interval '1 second' WHERE state_hash = $1`, [
        sha256(start.searchParams.get('state')!),
      ]);
      await expectRefused(browser, await browser.get(back), '/login?sso=SSO_FAILED', account.sub);
    });

    it.each([
      ['a code of its own', (url: URL) => url.searchParams.set('code', randomBytes(32).toString('base64url'))],
      ['no code', (url: URL) => url.searchParams.delete('code')],
      ['another issuer (a mix-up)', (url: URL) => url.searchParams.set('iss', 'https://evil.example')],
      [
        "the provider's error (the user said no)",
        (url: URL) => {
          url.searchParams.delete('code');
          url.searchParams.set('error', 'access_denied');
        },
      ],
    ])('%s', async (_what, change) => {
      const account = student();
      const browser = new Browser(t);
      const back = new URL(await atProvider(await begin(browser), account.sub), PUBLIC_URL);
      change(back);
      await expectRefused(browser, await browser.get(`${back.pathname}${back.search}`), '/login?sso=SSO_FAILED', account.sub);
    });

    it('nothing at all, or junk', async () => {
      const browser = new Browser(t);
      for (const url of [CALLBACK, `${CALLBACK}?code=x`, `${CALLBACK}?state=&code=`, `${CALLBACK}?state=${'%00'.repeat(10)}`]) {
        await expectRefused(browser, await browser.get(url), '/login?sso=SSO_FAILED');
      }
    });
  });

  describe('a forged or altered ID token: SSO_FAILED', () => {
    const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;

    const part = (json: object) => Buffer.from(JSON.stringify(json)).toString('base64url');
    const parse = (jwt: string) => {
      const [header, payload] = jwt.split('.');
      return {
        header: JSON.parse(Buffer.from(header!, 'base64url').toString()) as Record<string, unknown>,
        payload: JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>,
      };
    };
    const signed = (header: object, payload: object, key: KeyObject) => {
      const input = `${part(header)}.${part(payload)}`;
      return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
    };
    const resigned =
      (change: (payload: Record<string, unknown>) => void, key: () => KeyObject = () => op.signingKey.privateKey) =>
      (jwt: string) => {
        const { header, payload } = parse(jwt);
        change(payload);
        return signed(header, payload, key());
      };
    const now = () => Math.floor(Date.now() / 1000);

    /** Runs `run` with the provider's token endpoint answering ID tokens changed by `change`. */
    async function withIdTokens(change: (jwt: string) => string, run: () => Promise<void>) {
      const { prototype } = op.provider.IdToken;
      // Put back as it was, and called with its own `this`.
      // eslint-disable-next-line @typescript-eslint/unbound-method
      const issue = prototype.issue;
      prototype.issue = async function (this: typeof prototype, context) {
        const jwt = await issue.call(this, context);
        return context.use === 'idtoken' ? change(jwt) : jwt;
      };
      try {
        await run();
      } finally {
        prototype.issue = issue;
      }
    }

    it('the same claims signed again with the provider’s key pass: the forging itself is sound', async () => {
      await withIdTokens(
        resigned(() => undefined),
        async () => {
          expectRedirect(await round(new Browser(t), student().sub), '/sso/welcome');
        },
      );
    });

    it.each<[string, (jwt: string) => string]>([
      [
        'signed by another key (under the provider’s key id)',
        resigned(
          () => undefined,
          () => otherKey,
        ),
      ],
      ['for another client (audience)', resigned((p) => void (p.aud = 'someone-else'))],
      ['from another issuer', resigned((p) => void (p.iss = 'https://evil.example'))],
      ['expired', resigned((p) => Object.assign(p, { iat: now() - 7200, exp: now() - 3600 }))],
      ['for another sign-in (nonce)', resigned((p) => void (p.nonce = randomBytes(32).toString('base64url')))],
      ['without its nonce', resigned((p) => void delete p.nonce)],
      ['unsigned (alg none)', (jwt) => `${part({ ...parse(jwt).header, alg: 'none' })}.${part(parse(jwt).payload)}.`],
      [
        'another account’s sub, with the signature left as it was',
        (jwt) => {
          const [header, , signature] = jwt.split('.');
          return `${header}.${part({ ...parse(jwt).payload, sub: 'someone-else' })}.${signature}`;
        },
      ],
    ])('%s', async (_what, change) => {
      const account = student();
      await withIdTokens(change, async () => {
        const browser = new Browser(t);
        await expectRefused(browser, await round(browser, account.sub), '/login?sso=SSO_FAILED', account.sub);
        expect(await browser.me()).toBeNull();
      });
      // The provider's real tokens still work.
      expectRedirect(await round(new Browser(t), account.sub), '/sso/welcome');
    });
  });

  it('a suspended account linked to the provider is refused with its suspension (never signed in)', async () => {
    const account = student();
    const { me } = await ssoSignUp(t, account);
    await query(t.database, `UPDATE users SET suspended_until = now() + interval '3 days' WHERE id = $1`, [me.uid]);
    const browser = new Browser(t);
    await expectRefused(browser, await round(browser, account.sub), '/login?sso=ACCOUNT_SUSPENDED_UNTIL');
    expect(await browser.me()).toBeNull();

    await query(t.database, `UPDATE users SET suspended_until = '9999-12-31T00:00:00Z' WHERE id = $1`, [me.uid]);
    await expectRefused(browser, await round(browser, account.sub), '/login?sso=ACCOUNT_SUSPENDED');

    await query(t.database, 'UPDATE users SET suspended_until = NULL WHERE id = $1', [me.uid]);
    expectRedirect(await round(browser, account.sub), '/');
    expect((await browser.me())?.uid).toBe(me.uid);
  });
});

describe('single sign-on with OIDC_ALLOWED_DOMAINS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await ssoApp({ sso: ssoConfig(op, { OIDC_ALLOWED_DOMAINS: `${UNI},*.staff.${UNI}` }) });
  });
  afterAll(async () => {
    await t.close();
  });

  it('a vouched address at an allowed domain signs up', async () => {
    for (const email of [`a${serial}@${UNI}`, `b${serial}@it.staff.${UNI}`]) {
      const { me } = await ssoSignUp(t, student({ email }));
      expect(me).toMatchObject({ email, emailVerified: true });
    }
  });

  it.each([
    ['an address elsewhere', { email: 'student@gmail.com' }],
    ['a look-alike domain', { email: `student@${UNI}.evil.com` }],
    ['the wildcard’s own domain', { email: `student@staff.${UNI}` }],
    ['an address the provider does not vouch for', { email_verified: false }],
    ['no email_verified claim', { email_verified: undefined }],
    ['no address', { email: undefined }],
  ])('%s: SSO_DOMAIN_NOT_ALLOWED', async (_what, claims) => {
    const account = student(claims);
    const browser = new Browser(t);
    await expectRefused(browser, await round(browser, account.sub), '/login?sso=SSO_DOMAIN_NOT_ALLOWED', account.sub);
  });

  it('is checked at every sign-in and link: an account whose provider address moved elsewhere is refused', async () => {
    const account = student();
    const { me } = await ssoSignUp(t, account);
    op.accounts.set(account.sub, { ...account, email: `moved${serial}@gmail.com` });
    const browser = new Browser(t);
    await expectRefused(browser, await round(browser, account.sub), '/login?sso=SSO_DOMAIN_NOT_ALLOWED');

    const owner = await signUp(t.app, newAccount('domlink'));
    const elsewhere = student({ email: `else${serial}@gmail.com` });
    const linking = new Browser(t, owner.cookie);
    expectRedirect(await round(linking, elsewhere.sub, { link: true }), '/settings/sso?sso=SSO_DOMAIN_NOT_ALLOWED');
    expect(await linkedTo(t, elsewhere.sub)).toEqual([]);
    expect(await linkedTo(t, account.sub)).toEqual([me.uid]);
  });
});

describe('single sign-on and REGISTRATION', () => {
  it.each(['closed', 'invite'] as const)(
    'REGISTRATION=%s: a first sign-in is SIGN_UPS_CLOSED; a linked account still signs in',
    async (mode) => {
      const t = await ssoApp({ registration: { mode, emailDomains: [] } });
      try {
        const account = student();
        const browser = new Browser(t);
        await expectRefused(browser, await round(browser, account.sub), '/login?sso=SIGN_UPS_CLOSED', account.sub);

        const [existing] = await insertUsers(t.database, 1, `reg${mode}`);
        const linked = student();
        await query(t.database, 'INSERT INTO sso_identities (issuer, subject, user_id) VALUES ($1, $2, $3)', [
          op.issuer,
          linked.sub,
          existing!.id,
        ]);
        expectRedirect(await round(browser, linked.sub), '/');
        expect((await browser.me())?.uid).toBe(existing!.id);
      } finally {
        await t.close();
      }
    },
  );

  it('REGISTRATION=domains: a vouched address at a listed domain signs up (verified); otherwise the filled EMAIL_DOMAIN_NOT_ALLOWED', async () => {
    const t = await ssoApp({ registration: { mode: 'domains', emailDomains: [UNI] } });
    try {
      const { me } = await ssoSignUp(t, student());
      expect(me).toMatchObject({ emailVerified: true, mustVerify: false });

      for (const claims of [{ email_verified: false }, { email: `st${serial}@gmail.com` }, { email_verified: undefined }]) {
        const account = student(claims);
        const browser = new Browser(t);
        await expectRefused(browser, await round(browser, account.sub), '/login?sso=EMAIL_DOMAIN_NOT_ALLOWED', account.sub);
      }
    } finally {
      await t.close();
    }
  });
});

describe('single sign-on with mail on', () => {
  let smtp: TestSmtpServer;
  let t: MailingApp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await mailingApp(smtp, { sso: ssoConfig() });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('an address the provider does not vouch for must be verified by mail; a vouched one is verified at once', async () => {
    const unvouched = student({ email_verified: false });
    const { browser, me } = await ssoSignUp(t, unvouched);
    expect(me).toMatchObject({ email: unvouched.email, emailVerified: false, mustVerify: true });
    const posted = await browser.send('POST', API.resendVerification);
    expect(posted.statusCode, posted.body).toBe(204);
    const { token } = await mailedVerification(t, unvouched.email!);
    expect((await verifyLink(t.app, token)).statusCode).toBe(200);
    expect(await browser.me()).toMatchObject({ emailVerified: true, mustVerify: false });

    const vouched = student();
    const made = await ssoSignUp(t, vouched);
    expect(made.me).toMatchObject({ email: vouched.email, emailVerified: true, mustVerify: false });
    expectError(await resendVerification(t.app, made.browser.session), 409, 'ALREADY_VERIFIED');
    expect(await mailsTo(t, vouched.email!)).toEqual([]);
    for (const line of t.lines) for (const secret of SECRETS) expect(line).not.toContain(secret);
  });
});

describe('the provider down', () => {
  let down: TestOidcProvider;
  let t: TestApp;
  beforeAll(async () => {
    down = await startOidcProvider({ redirectUris: [REDIRECT_URI] });
    watchTokens(down);
    t = await ssoApp({}, down);
  });
  afterAll(async () => {
    await t.close();
    await down.close();
  });

  it('unreachable: SSO_UNAVAILABLE on the page (never a 500); back up, its discovery is read again and sign-ins work', async () => {
    await down.stop();
    const browser = new Browser(t);
    const response = await browser.get(API.ssoStart);
    expectRedirect(response, '/login?sso=SSO_UNAVAILABLE');
    expect(response.cookies).toEqual([]);
    expect(await query(t.database, 'SELECT 1 FROM sso_attempts')).toEqual([]);
    const owner = await signUp(t.app, newAccount('downlink'));
    expectRedirect(await new Browser(t, owner.cookie).get(API.ssoLink), '/settings/sso?sso=SSO_UNAVAILABLE');
    // Asked again each time, not remembered as down.
    expectRedirect(await browser.get(API.ssoStart), '/login?sso=SSO_UNAVAILABLE');

    await down.restart();
    const account = student({}, down);
    expectRedirect(await round(browser, account.sub, { provider: down }), '/sso/welcome');
  });

  it('gone between the sign-in there and the way back: SSO_UNAVAILABLE, and that sign-in is used up', async () => {
    const account = student({}, down);
    const browser = new Browser(t);
    const start = await begin(browser, { provider: down });
    const back = await atProvider(start, account.sub, down);
    const stateCookie = browser.cookies.get('sso_state')!;
    await down.stop();
    try {
      await expectRefused(browser, await browser.get(back), '/login?sso=SSO_UNAVAILABLE', account.sub);
    } finally {
      await down.restart();
    }
    browser.cookies.set('sso_state', stateCookie);
    expectRedirect(await browser.get(back), '/login?sso=SSO_FAILED');
    expect(LINES.some((line) => line.includes('"sso":"unavailable"'))).toBe(true);
  });
});

describe("an issuer that is not the provider's own", () => {
  it('discovery answered by the provider under another issuer (its document names its own): SSO_FAILED, never a 500', async () => {
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(op.issuer).port) });
    const t = await ssoApp({ sso: { ...ssoConfig(), issuer: `http://127.0.0.1:${proxy.port}` } });
    try {
      const browser = new Browser(t);
      expectRedirect(await browser.get(API.ssoStart), '/login?sso=SSO_FAILED');
      const owner = await signUp(t.app, newAccount('mixup'));
      expectRedirect(await new Browser(t, owner.cookie).get(API.ssoLink), '/settings/sso?sso=SSO_FAILED');
      expect(await query(t.database, 'SELECT 1 FROM sso_attempts')).toEqual([]);
    } finally {
      await t.close();
      await proxy.close();
    }
  });

  it('an issuer with no discovery document: SSO_FAILED', async () => {
    const t = await ssoApp({ sso: { ...ssoConfig(), issuer: `${op.issuer}/realms/elsewhere` } });
    try {
      expectRedirect(await new Browser(t).get(API.ssoStart), '/login?sso=SSO_FAILED');
    } finally {
      await t.close();
    }
  });
});

describe('without single sign-on set up', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ publicUrl: PUBLIC_URL });
  });
  afterAll(async () => {
    await t.close();
  });

  it('every single sign-on route answers 404, signed in or out', async () => {
    expect(t.config.sso).toBeUndefined();
    const account = await signUp(t.app);
    const sends: Array<[string, 'GET' | 'POST' | 'DELETE', string, object?]> = [
      ['out', 'GET', API.ssoStart],
      ['in', 'GET', API.ssoLink],
      ['out', 'GET', `${CALLBACK}?code=abc&state=def`],
      ['in', 'GET', CALLBACK],
      ['out', 'GET', SIGNUP],
      ['out', 'POST', SIGNUP, { username: 'someone' }],
      ['in', 'GET', SSO_STATE],
      ['in', 'DELETE', SSO_STATE],
    ];
    for (const [who, method, url, payload] of sends) {
      const headers = { cookie: `sso_state=def; sso_signup=ghi${who === 'in' ? `; ${account.cookie}` : ''}` };
      const response = await t.app.inject({ method, url, headers, ...(payload && { payload }) });
      expectError(response, 404, 'NOT_FOUND');
    }
  });
});

describe('OIDC_* settings (loadConfig)', () => {
  const full = {
    OIDC_ISSUER: 'https://login.uni.example.edu/realms/students/',
    OIDC_CLIENT_ID: 'dormboard',
    OIDC_CLIENT_SECRET: 'a-secret',
    PUBLIC_URL,
  };

  it('all three with PUBLIC_URL: single sign-on, with its defaults and the callback under PUBLIC_URL', () => {
    expect(loadConfig(full).sso).toEqual({
      issuer: 'https://login.uni.example.edu/realms/students',
      clientId: 'dormboard',
      clientSecret: 'a-secret',
      name: 'Single Sign-On',
      scopes: 'openid email profile',
      allowedDomains: [],
      redirectUri: REDIRECT_URI,
      only: false,
      staleDays: 400,
    });
    expect(loadConfig({ ...full, SSO_ONLY: 'true' }).sso?.only).toBe(true);
    expect(
      loadConfig({ ...full, OIDC_NAME: 'Uni Login', OIDC_SCOPES: ' openid  email ', OIDC_ALLOWED_DOMAINS: `${UNI},*.${UNI}` }).sso,
    ).toMatchObject({ name: 'Uni Login', scopes: 'openid email', allowedDomains: [UNI, `*.${UNI}`] });
    expect(loadConfig({}).sso).toBeUndefined();
    expect(loadConfig({ PUBLIC_URL }).sso).toBeUndefined();
  });

  it.each([
    ['only the issuer', { OIDC_ISSUER: full.OIDC_ISSUER, PUBLIC_URL }, /OIDC_CLIENT_ID, OIDC_CLIENT_SECRET not set/],
    ['no secret', { ...full, OIDC_CLIENT_SECRET: undefined }, /OIDC_CLIENT_SECRET not set/],
    ['no issuer', { ...full, OIDC_ISSUER: undefined }, /OIDC_ISSUER not set/],
    ['only the client', { OIDC_CLIENT_ID: 'x', OIDC_CLIENT_SECRET: 'y', PUBLIC_URL }, /OIDC_ISSUER not set/],
    ['no PUBLIC_URL', { ...full, PUBLIC_URL: undefined }, /PUBLIC_URL/],
    ['scopes without openid', { ...full, OIDC_SCOPES: 'email profile' }, /OIDC_SCOPES must include openid and email/],
    ['scopes without email', { ...full, OIDC_SCOPES: 'openid profile' }, /OIDC_SCOPES must include openid and email/],
    ['an issuer that is no URL', { ...full, OIDC_ISSUER: 'login.uni.example.edu' }, /OIDC_ISSUER must be an http\(s\) URL/],
    ['an issuer of another scheme', { ...full, OIDC_ISSUER: 'ftp://login.uni.example.edu' }, /OIDC_ISSUER must be an http\(s\) URL/],
    ['a bad allowed domain', { ...full, OIDC_ALLOWED_DOMAINS: 'uni' }, /OIDC_ALLOWED_DOMAINS/],
  ])('refused: %s', (_what, env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('REGISTRATION=domains needs SMTP_URL, unless single sign-on vouches for the addresses', () => {
    const domains = { REGISTRATION: 'domains', REGISTRATION_EMAIL_DOMAINS: UNI };
    expect(() => loadConfig({ ...domains, PUBLIC_URL })).toThrow(/REGISTRATION=domains needs SMTP_URL/);
    const config = loadConfig({ ...domains, ...full });
    expect(config.registration).toEqual({ mode: 'domains', emailDomains: [UNI] });
    expect(config.mail).toBeUndefined();
    expect(config.sso?.issuer).toBe('https://login.uni.example.edu/realms/students');
    // REQUIRE_VERIFIED_EMAIL still needs mail.
    expect(() => loadConfig({ ...full, REQUIRE_VERIFIED_EMAIL: 'true' })).toThrow(/REQUIRE_VERIFIED_EMAIL needs SMTP_URL/);
  });
});

describe('logs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await ssoApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('no state, code, verifier, nonce, token or cookie of single sign-on is in any log line of this file', async () => {
    // A first sign-in, a returning one, a replay, a link and a refusal of openid-client's, on this app too.
    const account = student();
    const { browser } = await ssoSignUp(t, account);
    const again = new Browser(t);
    const back = await atProvider(await begin(again), account.sub);
    const stateCookie = again.cookies.get('sso_state')!;
    expectRedirect(await again.get(back), '/');
    const replay = new Browser(t);
    replay.cookies.set('sso_state', stateCookie);
    expectRedirect(await replay.get(back), '/login?sso=SSO_FAILED');
    const owner = await signUp(t.app, newAccount('loglink'));
    expectRedirect(await round(new Browser(t, owner.cookie), student().sub, { link: true }), '/settings/sso?linked=1');
    const refused = new Browser(t);
    const wrong = new URL(await atProvider(await begin(refused), student().sub), PUBLIC_URL);
    wrong.searchParams.set('code', randomBytes(32).toString('base64url'));
    SECRETS.add(wrong.searchParams.get('code')!);
    expectRedirect(await refused.get(`${wrong.pathname}${wrong.search}`), '/login?sso=SSO_FAILED');
    expect(browser.session).toBeTruthy();

    // The lines are there (requests, security events, refusals), and the callbacks are named in them.
    expect(LINES.some((line) => line.includes('"security":"signed in"'))).toBe(true);
    expect(LINES.some((line) => line.includes('"security":"linked single sign-on"'))).toBe(true);
    expect(LINES.some((line) => line.includes('single sign-on failed'))).toBe(true);
    expect(LINES.some((line) => line.includes(`"url":"${CALLBACK}`))).toBe(true);
    expect(SECRETS.size).toBeGreaterThan(50);
    const leaks = LINES.flatMap((line) => [...SECRETS].filter((secret) => secret.length >= 8 && line.includes(secret)).map(() => line));
    expect(leaks).toEqual([]);
    // Nothing was answered twice (a redirect sent, then the handler's answer on top of it).
    expect(LINES.filter((line) => line.includes('FST_ERR_REP_ALREADY_SENT'))).toEqual([]);
  });
});

describe('an account made through single sign-on proves itself by a fresh sign-in (issue 29 point 3)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // No session cache, so a session's sign-in time moved back in the database is what the next request reads.
    t = await ssoApp({ sessionCacheMs: 0 });
  });
  afterAll(async () => {
    await t?.close();
  });
  it('adds its first password without a current one, only within 10 minutes of signing in; then signs in with it and may disconnect', async () => {
    const account = student();
    const { browser, me } = await ssoSignUp(t, account);
    expect(me.hasPassword).toBe(false);
    const password = { currentPassword: '', newPassword: 'graduated at last 1', confirmPassword: 'graduated at last 1' };

    await query(t.database, `UPDATE sessions SET created_at = now() - interval '11 minutes' WHERE user_id = $1`, [me.uid]);
    expectError(await browser.send('POST', API.password, password), 401, 'SSO_REAUTH_NEEDED');
    expectError(await browser.send('DELETE', ssoApi.ssoUnlink.path), 409, 'SSO_NEEDS_PASSWORD');

    await query(t.database, `UPDATE sessions SET created_at = now() - interval '1 minute' WHERE user_id = $1`, [me.uid]);
    expect((await browser.send('POST', API.password, { ...password, newPassword: 'short', confirmPassword: 'short' })).statusCode).toBe(
      400,
    );
    const added = await browser.send('POST', API.password, password);
    expect(added.statusCode, added.body).toBe(204);
    expect((await browser.get(API.me)).json<{ user: Me }>().user.hasPassword).toBe(true);
    expect((await login(t, me.username, password.newPassword)).statusCode).toBe(200);

    // A password of its own now: the university sign-in may go, and the current password is asked from now on.
    expect((await browser.send('DELETE', ssoApi.ssoUnlink.path)).statusCode).toBe(204);
    expectError(
      await browser.send('POST', API.password, { ...password, newPassword: 'graduated again 22', confirmPassword: 'graduated again 22' }),
      400,
      'FILL_IN_ALL_FIELDS',
    );
  });

  it('deletes itself without a password only within 10 minutes of signing in', async () => {
    const account = student();
    const { browser, me } = await ssoSignUp(t, account);
    await query(t.database, `UPDATE sessions SET created_at = now() - interval '30 minutes' WHERE user_id = $1`, [me.uid]);
    expectError(await browser.send('DELETE', API.me, { password: '' }), 401, 'SSO_REAUTH_NEEDED');
    expect(await query(t.database, 'SELECT 1 FROM users WHERE id = $1', [me.uid])).toHaveLength(1);

    await query(t.database, `UPDATE sessions SET created_at = now() WHERE user_id = $1`, [me.uid]);
    const deleted = await browser.send('DELETE', API.me, { password: '' });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await query(t.database, 'SELECT 1 FROM users WHERE id = $1', [me.uid])).toEqual([]);
    expect(await linkedTo(t, account.sub)).toEqual([]);
  });
});

describe('graduation: signing in again, and a university account that may have ended (issue 29 point 3)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await ssoApp({ sessionCacheMs: 0 });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Settings' "Sign in again": the app's 302 to the provider, for the signed-in account, back to `page`. */
  async function beginAgain(browser: Browser, page: string): Promise<URL> {
    const response = await browser.get(`${API.ssoStart}?again=${encodeURIComponent(page)}`);
    expect(response.statusCode, response.body).toBe(302);
    const location = new URL(String(response.headers.location));
    expect(location.origin).toBe(op.issuer);
    SECRETS.add(location.searchParams.get('state')!);
    return location;
  }
  const signedInLongAgo = (userId: string) =>
    query(t.database, `UPDATE sessions SET created_at = now() - interval '1 hour' WHERE user_id = $1`, [userId]);

  it('signing in again: the provider is told whose sign-in it is and to ask afresh; the browser comes back to the page with a new session, and the address changes without a password', async () => {
    const account = student();
    const { browser, me } = await ssoSignUp(t, account);
    await signedInLongAgo(me.uid);
    const ownAddress = `own${serial}@personal.example.org`;
    expectError(await browser.send('PUT', API.email, { email: ownAddress, currentPassword: '' }), 401, 'SSO_REAUTH_NEEDED');
    const before = browser.session;

    const authorization = await beginAgain(browser, '/settings/email');
    expect(authorization.searchParams.get('login_hint')).toBe(account.email);
    expect(authorization.searchParams.get('prompt')).toBe('login');
    expectRedirect(await browser.get(await atProvider(authorization, account.sub)), '/settings/email');
    expect(browser.session).not.toBe(before);

    const changed = await browser.send('PUT', API.email, { email: ownAddress, currentPassword: '' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<{ user: Me }>().user.email).toBe(ownAddress);
  });

  it('signing in again comes back to the page only for the same account: another account at the provider is signed in and goes home', async () => {
    const { browser } = await ssoSignUp(t, student());
    const otherAccount = student();
    const other = await ssoSignUp(t, otherAccount);
    expectRedirect(await browser.get(await atProvider(await beginAgain(browser, '/settings/password'), otherAccount.sub)), '/');
    expect((await browser.me())?.uid).toBe(other.me.uid);
  });

  it('signing in again needs a signed-in browser, and comes back only to the settings pages that ask for it', async () => {
    const signedOut = new Browser(t);
    expectRedirect(await signedOut.get(`${API.ssoStart}?again=/settings/email`), '/login');
    const { browser } = await ssoSignUp(t, student());
    for (const page of ['/', '/settings', 'https://evil.example/settings/email', '//evil.example', '/settings/email/../../x']) {
      expectError(await browser.get(`${API.ssoStart}?again=${encodeURIComponent(page)}`), 400, 'BAD_REQUEST');
    }
  });

  it('the provider answering a sign-in meant for the account with an error marks it, deletes nothing, and the next sign-in clears the mark', async () => {
    const account = student();
    const { browser, me } = await ssoSignUp(t, account);
    const fresh = await browser.get(SSO_STATE);
    expect(fresh.json()).toMatchObject({ linked: true, hasPassword: false, refusedAt: null, stale: false });
    expect(Date.parse(fresh.json<{ lastSignInAt: string }>().lastSignInAt)).toBeGreaterThan(Date.now() - 60_000);

    // The provider's own answer when it cannot sign the hinted account in without asking (no
    // session there): an error redirect (login_required) instead of a code.
    const authorization = await beginAgain(browser, '/settings/password');
    authorization.searchParams.set('prompt', 'none');
    const answer = await fetch(authorization, { redirect: 'manual' });
    const back = new URL(answer.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get('error')).toBe('login_required');
    expectRedirect(await browser.get(`${back.pathname}${back.search}`), '/settings/sso?sso=SSO_FAILED');

    const marked = (await browser.get(SSO_STATE)).json<{ refusedAt: string | null; linked: boolean }>();
    expect(marked.linked).toBe(true);
    expect(Date.parse(marked.refusedAt!)).toBeGreaterThan(Date.now() - 60_000);
    // Nothing is deleted: the account, its link and this session are all still there.
    expect((await browser.me())?.uid).toBe(me.uid);
    expect(await linkedTo(t, account.sub)).toEqual([me.uid]);

    expectRedirect(await round(new Browser(t), account.sub), '/');
    expect((await browser.get(SSO_STATE)).json()).toMatchObject({ refusedAt: null, stale: false });
  });

  it('an error for a sign-in that was not meant for an account (signed out) marks nobody', async () => {
    const account = student();
    const { browser } = await ssoSignUp(t, account);
    const signedOut = new Browser(t);
    const authorization = await begin(signedOut);
    authorization.searchParams.set('prompt', 'none');
    const back = new URL((await fetch(authorization, { redirect: 'manual' })).headers.get('location')!);
    expectRedirect(await signedOut.get(`${back.pathname}${back.search}`), '/login?sso=SSO_FAILED');
    expect((await browser.get(SSO_STATE)).json()).toMatchObject({ refusedAt: null });
  });

  it('no sign-in through the provider for SSO_STALE_DAYS: the account is told its university account may have ended, and nothing is deleted', async () => {
    const stale = await ssoApp({ sessionCacheMs: 0, sso: { ...ssoConfig(op, { SSO_STALE_DAYS: '30' }) } });
    try {
      const account = student();
      const { browser, me } = await ssoSignUp(stale, account);
      const setLast = (days: number) =>
        query(stale.database, `UPDATE sso_identities SET last_sign_in_at = now() - make_interval(days => $2) WHERE user_id = $1`, [
          me.uid,
          days,
        ]);
      await setLast(29);
      expect((await browser.get(SSO_STATE)).json()).toMatchObject({ stale: false });
      await setLast(31);
      expect((await browser.get(SSO_STATE)).json()).toMatchObject({ linked: true, stale: true, refusedAt: null });
      expect((await browser.me())?.uid).toBe(me.uid);
      expect(await linkedTo(stale, account.sub)).toEqual([me.uid]);
      // A sign-in through it again, and it is not stale any more.
      expectRedirect(await round(new Browser(stale), account.sub), '/');
      expect((await browser.get(SSO_STATE)).json()).toMatchObject({ stale: false });
    } finally {
      await stale.close();
    }
  });

  it('SSO_STALE_DAYS is 400 unless set (longer than a session lasts), and must be a whole number of days', () => {
    expect(ssoConfig().staleDays).toBe(400);
    expect(ssoConfig(op, { SSO_STALE_DAYS: '30' }).staleDays).toBe(30);
    for (const bad of ['0', '-1', 'soon', '1.5']) expect(() => ssoConfig(op, { SSO_STALE_DAYS: bad }), bad).toThrow(/SSO_STALE_DAYS/);
  });

  it('an account with a password still types it to change its address, signed in however recently', async () => {
    const account = await signUp(t.app, newAccount('ownpw'));
    const browser = new Browser(t, account.cookie);
    expectError(
      await browser.send('PUT', API.email, { email: `x${serial}@personal.example.org`, currentPassword: '' }),
      400,
      'FILL_IN_ALL_FIELDS',
    );
    expectError(
      await browser.send('PUT', API.email, { email: `x${serial}@personal.example.org`, currentPassword: 'not it at all 1' }),
      401,
      'INCORRECT_PASSWORD',
    );
  });
});

describe("a deleted account's held name, back to the owner of its address (issue 29 point 1)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await ssoApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  /** An account with a password, deleted: its name held for its address. */
  async function deletedAt(email: string) {
    const account = await signUp(t.app, { ...newAccount('held'), email });
    await deleteOwnAccount(t.app, account);
    return account.username;
  }
  const choose = async (account: TestOidcAccount, username: string) => {
    const browser = new Browser(t);
    expectRedirect(await round(browser, account.sub), '/sso/welcome');
    return browser.send('POST', SIGNUP, { username });
  };

  it('a first sign-in whose address the provider vouches for gets the name it was held for; the hold goes', async () => {
    const account = student();
    const held = await deletedAt(account.email!);
    const made = await choose(account, held);
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json<{ user: Me }>().user).toMatchObject({ username: held, email: account.email, emailVerified: true });
    expect(await query(t.database, 'SELECT 1 FROM released_usernames WHERE username = $1', [held])).toEqual([]);
  });

  it('an address the provider does not vouch for, or another one, gets the 409 everyone gets', async () => {
    const unvouched = student({ email_verified: false });
    const heldForIt = await deletedAt(unvouched.email!);
    expectError(await choose(unvouched, heldForIt), 409, 'USERNAME_TAKEN');
    const other = student();
    expectError(await choose(other, heldForIt), 409, 'USERNAME_TAKEN');
    expect(await query(t.database, 'SELECT 1 FROM released_usernames WHERE username = $1', [heldForIt])).toHaveLength(1);
  });
});

describe('REGISTRATION=sso and SSO_ONLY (issue 29)', () => {
  it('REGISTRATION=sso: a password sign-up is refused with its words; single sign-on makes accounts; password accounts still sign in', async () => {
    const t = await ssoApp({ registration: { mode: 'sso', emailDomains: [] } });
    try {
      const [existing] = await insertUsers(t.database, 1, 'regsso');
      const typed = newAccount('nosso');
      const refused = await t.app.inject({ method: 'POST', url: API.register, payload: typed });
      expectError(refused, 403, 'SIGN_UP_WITH_SSO');
      expect(refused.json().message).toBe(ERRORS.SIGN_UP_WITH_SSO);
      expect(await query(t.database, 'SELECT 1 FROM users WHERE username = $1', [typed.username])).toEqual([]);

      const { me } = await ssoSignUp(t, student());
      expect(me.emailVerified).toBe(true);
      await query(t.database, 'UPDATE users SET password_hash = $1 WHERE id = $2', [
        await hashPassword('correct horse 1', TEST_ARGON2ID),
        existing!.id,
      ]);
      expect((await login(t, existing!.username, 'correct horse 1')).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('SSO_ONLY: a right password signs in an admin alone (anyone else is told to use the university sign-in); a wrong one is wrong for all', async () => {
    const t = await ssoApp({ sso: { ...ssoConfig(), only: true } });
    try {
      const member = await signUp(t.app, newAccount('member'));
      const admin = await signUp(t.app, newAccount('admin'));
      await query(t.database, `UPDATE users SET role = 'admin' WHERE id = $1`, [admin.uid]);

      expectError(await login(t, member.username, member.password), 403, 'SIGN_IN_WITH_SSO');
      // Told only after the password is right: a wrong one learns nothing of the rule.
      expectError(await login(t, member.username, 'not the password 9'), 401, 'INCORRECT_LOGIN');
      const signedIn = await login(t, admin.username, admin.password);
      expect(signedIn.statusCode, signedIn.body).toBe(200);

      // Nor does a reset link sign a member in (the link is left, of no use); an admin's works.
      const { token: memberLink } = await resetLinkFor(t, member.username);
      const body = (token: string) => ({ token, newPassword: 'brand new pass 7', confirmPassword: 'brand new pass 7' });
      expectError(await t.app.inject({ method: 'POST', url: API.reset, payload: body(memberLink) }), 403, 'SIGN_IN_WITH_SSO');
      const { token: adminLink } = await resetLinkFor(t, admin.username);
      expect((await t.app.inject({ method: 'POST', url: API.reset, payload: body(adminLink) })).statusCode).toBe(200);

      // The member signs in through the university sign-in, once linked.
      const linked = student();
      await query(t.database, 'INSERT INTO sso_identities (issuer, subject, user_id) VALUES ($1, $2, $3)', [
        op.issuer,
        linked.sub,
        member.uid,
      ]);
      const browser = new Browser(t);
      expectRedirect(await round(browser, linked.sub), '/');
      expect((await browser.me())?.uid).toBe(member.uid);
    } finally {
      await t.close();
    }
  });

  it('SSO_ONLY with mail: Forgot password? mails an admin their link, and a member nothing (the same answer for both)', async () => {
    const smtp = await startSmtpServer();
    const t = await mailingApp(smtp, { sso: { ...ssoConfig(), only: true } });
    try {
      const member = await signUp(t.app, newAccount('member'));
      const admin = await signUp(t.app, newAccount('admin'));
      await query(t.database, `UPDATE users SET role = 'admin' WHERE id = $1`, [admin.uid]);
      const forgot = (identifier: string) => t.app.inject({ method: 'POST', url: API.forgotPassword, payload: { identifier } });
      expect((await forgot(member.username)).statusCode).toBe(204);
      expect((await forgot(admin.username)).statusCode).toBe(204);
      const resetMails = async (email: string) => (await mailsTo(t, email)).filter((mail) => mail.text.includes('/reset/'));
      expect(await resetMails(member.email)).toEqual([]);
      expect(await resetMails(admin.email)).toHaveLength(1);
    } finally {
      await t.close();
      await smtp.close();
    }
  });

  it('REGISTRATION=sso and SSO_ONLY refuse to start without single sign-on, saying why', () => {
    expect(() => loadConfig({ REGISTRATION: 'sso' })).toThrow(/^REGISTRATION=sso needs single sign-on/);
    expect(() => loadConfig({ SSO_ONLY: 'true' })).toThrow(/^SSO_ONLY needs single sign-on/);
  });
});
