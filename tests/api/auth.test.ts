import { createHash, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../src/shared/api/paths.js';
import { ERRORS, type ErrorCode } from '../../src/shared/errors.js';
import { DEFAULT_RATE_LIMITS, loadConfig, trustProxySetting } from '../../src/server/config.js';
import type { Database } from '../../src/server/db/database.js';
import { sessions, users } from '../../src/server/db/schema.js';
import { expectedMe, newAccount, sessionCookie, signUp } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

// ---------------------------------------------------------------- helpers

type Headers = Record<string, string>;

function post(app: FastifyInstance, url: string, payload?: object, extra: Partial<InjectOptions> = {}) {
  return app.inject({ method: 'POST', url, ...(payload === undefined ? {} : { payload }), ...extra });
}

function me(app: FastifyInstance, cookie?: string) {
  return app.inject({ method: 'GET', url: API.me, headers: cookie ? { cookie } : {} });
}

/** An API error: the status, `{ code, message }` with the catalogue text, and `messages` if given. */
function expectError(response: LightMyRequestResponse, status: number, code: ErrorCode, messages?: string[]) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = response.json();
  expect(body.code).toBe(code);
  expect(body.message).toBe(ERRORS[code]);
  if (messages) {
    expect(body.messages).toEqual(messages);
    // The headline is the first line.
    expect(body.message).toBe(messages[0]);
  }
  return body;
}

function setCookieHeaders(response: LightMyRequestResponse): string[] {
  const raw = response.headers['set-cookie'];
  return raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)];
}

function sessionSetCookie(response: LightMyRequestResponse): string {
  const header = setCookieHeaders(response).find((value) => value.startsWith('session='));
  if (!header) throw new Error(`no session Set-Cookie (status ${response.statusCode})`);
  return header;
}

const tokenOf = (cookie: string) => cookie.slice('session='.length);
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

async function userRow(database: Database, username: string) {
  const [row] = await database.orm.select().from(users).where(eq(users.username, username));
  return row;
}

async function sessionRows(database: Database, userId: string) {
  return database.orm.select().from(sessions).where(eq(sessions.userId, userId));
}

async function countRows(database: Database, table: typeof users | typeof sessions): Promise<number> {
  const [row] = await database.orm.select({ n: sql<number>`count(*)::int` }).from(table);
  return Number(row!.n);
}

const SIGNUP_MESSAGES = [
  ERRORS.FILL_IN_ALL_FIELDS,
  ERRORS.USERNAME_SPACES,
  ERRORS.USERNAME_LENGTH,
  ERRORS.USERNAME_INVALID,
  ERRORS.USERNAME_TAKEN,
  ERRORS.EMAIL_INVALID,
  ERRORS.PASSWORD_SPACES,
  ERRORS.PASSWORD_LENGTH,
  ERRORS.PASSWORD_TOO_COMMON,
];

const DAY_MS = 24 * 60 * 60 * 1000;

/** Makes every session of the user look last used `ms` ago: its expiry is 30 days after that use. */
async function lastUsedAgo(database: Database, userId: string, ms: number) {
  await database.orm
    .update(sessions)
    .set({ expiresAt: new Date(Date.now() - ms + 30 * DAY_MS) })
    .where(eq(sessions.userId, userId));
}

let ipCounter = 0;
/** A client address no other test uses. */
function freshIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

// ---------------------------------------------------------------- register

describe('POST /api/auth/register', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates the account: 201, lower-cased user, a working session cookie', async () => {
    const account = newAccount('Reg');
    const body = { username: account.username.toUpperCase(), email: account.email.toUpperCase(), password: account.password };
    const response = await post(t.app, API.register, body);
    expect(response.statusCode, response.body).toBe(201);
    const { user } = response.json();
    expect(user).toEqual(
      expectedMe({ uid: expect.any(String), username: account.username.toLowerCase(), email: account.email.toLowerCase() }),
    );
    // Nothing else leaks (no hash, no internal columns).
    expect(response.body).not.toContain('argon2');
    expect(response.body).not.toContain(account.password);

    const cookie = sessionCookie(response);
    const current = await me(t.app, cookie);
    expect(current.statusCode).toBe(200);
    expect(current.json()).toEqual({ user });
  });

  it('sets the session cookie HttpOnly, SameSite=Lax, Path=/, without Secure over plain http', async () => {
    const response = await post(t.app, API.register, newAccount());
    expect(response.statusCode).toBe(201);
    const header = sessionSetCookie(response);
    expect(header).toMatch(/;\s*HttpOnly/i);
    expect(header).toMatch(/;\s*SameSite=Lax/i);
    expect(header).toMatch(/;\s*Path=\/(;|$)/);
    expect(header).not.toMatch(/;\s*Secure/i);
    const cookie = response.cookies.find((c) => c.name === 'session')!;
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits, base64url
    // Lasts about 30 days, and Max-Age says the same as Expires.
    const days = (new Date(cookie.expires!).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    expect(cookie.maxAge).toBeGreaterThan(30 * 86_400 - 5);
    expect(cookie.maxAge).toBeLessThanOrEqual(30 * 86_400);
  });

  it('does not believe X-Forwarded-Proto unless the app trusts a proxy', async () => {
    const response = await post(t.app, API.register, newAccount(), { headers: { 'x-forwarded-proto': 'https' } });
    expect(response.statusCode).toBe(201);
    expect(sessionSetCookie(response)).not.toMatch(/;\s*Secure/i);
  });

  it('stores the password as argon2id (OWASP parameters, what a server always uses), never the password itself', async () => {
    // Test apps hash cheaply (helpers/test-app.ts); this one hashes as every server does.
    const production = await createTestApp({ passwordHashing: loadConfig({}).passwordHashing });
    try {
      const account = await signUp(production.app, newAccount());
      const row = await userRow(production.database, account.username);
      expect(row).toBeDefined();
      expect(row!.passwordHash.startsWith('$argon2id$v=19$m=19456,t=2,p=1$')).toBe(true);
      expect(row!.passwordHash).not.toContain(account.password);
      expect(JSON.stringify(row)).not.toContain(account.password);
      // Salted: the same password gives another hash for another account.
      const other = await signUp(production.app, { ...newAccount(), password: account.password });
      expect((await userRow(production.database, other.username))!.passwordHash).not.toBe(row!.passwordHash);
      // And signing in checks it.
      const login = await post(production.app, API.login, { identifier: account.username, password: account.password });
      expect(login.statusCode, login.body).toBe(200);
    } finally {
      await production.close();
    }
  });

  it('stores only a SHA-256 hash of the session token, never the token', async () => {
    const account = await signUp(t.app, newAccount());
    const token = tokenOf(account.cookie);
    const rows = await sessionRows(t.database, account.uid);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.tokenHash).toBe(sha256(token));
    expect(JSON.stringify(rows)).not.toContain(token);
    const all = await t.database.orm.select().from(sessions);
    expect(all.some((row) => row.tokenHash === token)).toBe(false);
  });

  describe('every sign-up rule, with the spec text, 400, in the spec order', () => {
    const cases: Array<[string, (a: ReturnType<typeof newAccount>) => object, string[]]> = [
      ['empty username', (a) => ({ ...a, username: '' }), ['Fill in all the fields.']],
      ['empty email', (a) => ({ ...a, email: '' }), ['Fill in all the fields.']],
      ['empty password', (a) => ({ ...a, password: '' }), ['Fill in all the fields.']],
      ['all empty', () => ({ username: '', email: '', password: '' }), ['Fill in all the fields.']],
      [
        'leading space in username',
        (a) => ({ ...a, username: ` ${a.username}` }),
        ['Remove spaces or tabs in your username.', 'Invalid username.'],
      ],
      [
        'trailing tab in username',
        (a) => ({ ...a, username: `${a.username}\t` }),
        ['Remove spaces or tabs in your username.', 'Invalid username.'],
      ],
      ['2-character username', (a) => ({ ...a, username: 'ab' }), ['Username must be 3-20 characters long.']],
      ['21-character username', (a) => ({ ...a, username: 'a'.repeat(21) }), ['Username must be 3-20 characters long.']],
      ['invalid username characters', (a) => ({ ...a, username: 'bad-name!' }), ['Invalid username.']],
      ['invalid email', (a) => ({ ...a, email: 'not-an-email' }), ['Invalid email address.']],
      ['email without a dot in the domain', (a) => ({ ...a, email: 'a@localhost' }), ['Invalid email address.']],
      ['leading space in password', (a) => ({ ...a, password: ' password1' }), ['Remove spaces or tabs in your password.']],
      ['trailing tab in password', (a) => ({ ...a, password: 'password1\t' }), ['Remove spaces or tabs in your password.']],
      ['7-character password', (a) => ({ ...a, password: 'p'.repeat(7) }), ['Password must be 8-32 characters long.']],
      ['33-character password', (a) => ({ ...a, password: 'p'.repeat(33) }), ['Password must be 8-32 characters long.']],
      [
        'everything wrong at once',
        () => ({ username: ' a', email: 'bad', password: ' x' }),
        [
          'Remove spaces or tabs in your username.',
          'Username must be 3-20 characters long.',
          'Invalid username.',
          'Invalid email address.',
          'Remove spaces or tabs in your password.',
          'Password must be 8-32 characters long.',
        ],
      ],
      [
        'empty field and others',
        (a) => ({ username: '', email: 'bad', password: a.password }),
        ['Fill in all the fields.', 'Invalid email address.'],
      ],
      ['a common password, in any case', (a) => ({ ...a, password: 'Password1' }), ['This password is too common.']],
      ['another common password', (a) => ({ ...a, password: 'qwertyuiop' }), ['This password is too common.']],
      [
        'a common password after the other rules',
        (a) => ({ ...a, email: 'bad', password: 'iloveyou' }),
        ['Invalid email address.', 'This password is too common.'],
      ],
      [
        'a common password under 8 characters (only the length rule)',
        (a) => ({ ...a, password: 'qwerty' }),
        ['Password must be 8-32 characters long.'],
      ],
    ];

    it.each(cases)('%s', async (_, make, expected) => {
      const before = await countRows(t.database, users);
      const response = await post(t.app, API.register, make(newAccount()));
      const codes = expected.map((text) => Object.entries(ERRORS).find(([, v]) => v === text)![0] as ErrorCode);
      expectError(response, 400, codes[0]!, expected);
      // The order is the spec's order.
      const order = expected.map((text) => SIGNUP_MESSAGES.indexOf(text as (typeof SIGNUP_MESSAGES)[number]));
      expect(order).toEqual([...order].sort((x, y) => x - y));
      expect(response.cookies).toHaveLength(0);
      expect(await countRows(t.database, users)).toBe(before);
    });

    it('a strong password is not refused as common', async () => {
      const response = await post(t.app, API.register, { ...newAccount(), password: 'Tr4mpoline-Dormitory' });
      expect(response.statusCode, response.body).toBe(201);
    });

    it('accepts the boundary lengths 3/20 username and 8/32 password', async () => {
      const n = newAccount();
      const short = { username: `u${n.username.slice(-2)}`.padEnd(3, '0'), email: `s${n.email}`, password: 'p'.repeat(8) };
      const long = { username: `u${n.username}`.padEnd(20, '0').slice(0, 20), email: `l${n.email}`, password: 'p'.repeat(32) };
      expect(short.username).toHaveLength(3);
      expect(long.username).toHaveLength(20);
      const a = await post(t.app, API.register, short);
      const b = await post(t.app, API.register, long);
      expect(a.statusCode, a.body).toBe(201);
      expect(b.statusCode, b.body).toBe(201);
    });
  });

  describe('already registered (409)', () => {
    it('"Username has already been registered." ignoring case', async () => {
      const alice = await signUp(t.app, newAccount('alice'));
      const response = await post(t.app, API.register, { ...newAccount(), username: alice.username.toUpperCase() });
      expectError(response, 409, 'USERNAME_TAKEN', ['Username has already been registered.']);
      expect(response.cookies).toHaveLength(0);
    });

    it('"Email already registered." ignoring case', async () => {
      const alice = await signUp(t.app, newAccount('alice'));
      const response = await post(t.app, API.register, { ...newAccount(), email: alice.email.toUpperCase() });
      expectError(response, 409, 'EMAIL_TAKEN', ['Email already registered.']);
    });

    it('full-width and other compatibility forms of a taken address are the taken address', async () => {
      const alice = await signUp(t.app, newAccount('alice'));
      const fullWidth = Array.from(alice.email, (char) =>
        char >= '!' && char <= '~' ? String.fromCodePoint(char.codePointAt(0)! + 0xfee0) : char,
      ).join('');
      expect(fullWidth).not.toBe(alice.email);
      const response = await post(t.app, API.register, { ...newAccount(), email: fullWidth.toUpperCase() });
      expectError(response, 409, 'EMAIL_TAKEN', ['Email already registered.']);
      // Typed that way at sign-in, it is still alice's address.
      const login = await post(t.app, API.login, { identifier: fullWidth, password: alice.password });
      expect(login.statusCode).toBe(200);
      expect(login.json().user.uid).toBe(alice.uid);
    });

    it('an address with an invisible character is "Invalid email address.", never a second account', async () => {
      const alice = await signUp(t.app, newAccount('alice'));
      const [local, domain] = alice.email.split('@') as [string, string];
      const hidden = [
        '\u200b',
        '\u200d',
        '\u2060',
        '\ufeff',
        '\u00ad',
        '\u200e',
        '\u202e',
        '\u3164',
        '\u00a0',
        '\u0007',
        '\u034f',
        '\ufe0f',
      ];
      for (const char of hidden) {
        const response = await post(t.app, API.register, { ...newAccount(), email: `${local}${char}@${domain}` });
        expectError(response, 400, 'EMAIL_INVALID', ['Invalid email address.']);
      }
      expect((await post(t.app, API.register, { ...newAccount(), email: `${local}@${domain.replace('.', '\u200b.')}` })).statusCode).toBe(
        400,
      );
    });

    it('a new address in full-width is stored in its plain form', async () => {
      const account = newAccount('wide');
      const response = await post(t.app, API.register, { ...account, email: account.email.replace('@', '＠').replace('.com', '．ｃｏｍ') });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().user.email).toBe(account.email);
    });

    it('both messages accumulate when both are taken (by one account or by two)', async () => {
      const alice = await signUp(t.app, newAccount('alice'));
      const bob = await signUp(t.app, newAccount('bob'));
      const same = await post(t.app, API.register, { username: alice.username, email: alice.email, password: 'other password' });
      expectError(same, 409, 'USERNAME_TAKEN', ['Username has already been registered.', 'Email already registered.']);
      const mixed = await post(t.app, API.register, {
        username: alice.username.toUpperCase(),
        email: bob.email.toUpperCase(),
        password: 'other password',
      });
      expectError(mixed, 409, 'USERNAME_TAKEN', ['Username has already been registered.', 'Email already registered.']);
    });

    it('a taken username joins the other messages, in the spec order', async () => {
      const alice = await signUp(t.app, newAccount('alice'));
      // Issue 15's case: only the username and the e-mail are wrong; both lines, username first.
      const onlyTwo = await post(t.app, API.register, { username: alice.username, email: 'bad', password: 'a fine password' });
      expectError(onlyTwo, 400, 'USERNAME_TAKEN', ['Username has already been registered.', 'Invalid email address.']);
      const badEmail = await post(t.app, API.register, { username: alice.username, email: 'bad', password: 'short' });
      expectError(badEmail, 400, 'USERNAME_TAKEN', [
        'Username has already been registered.',
        'Invalid email address.',
        'Password must be 8-32 characters long.',
      ]);
      const takenBoth = await post(t.app, API.register, { username: alice.username, email: alice.email, password: 'short' });
      expectError(takenBoth, 400, 'USERNAME_TAKEN', [
        'Username has already been registered.',
        'Password must be 8-32 characters long.',
        'Email already registered.',
      ]);
      const common = await post(t.app, API.register, { ...newAccount(), email: alice.email, password: 'PASSWORD1' });
      expectError(common, 400, 'PASSWORD_TOO_COMMON', ['This password is too common.', 'Email already registered.']);
    });

    it('a refused sign-up writes nothing and leaves the first account working', async () => {
      const alice = await signUp(t.app, newAccount('alice'));
      const before = await countRows(t.database, users);
      await post(t.app, API.register, { ...newAccount(), username: alice.username });
      expect(await countRows(t.database, users)).toBe(before);
      const login = await post(t.app, API.login, { identifier: alice.username, password: alice.password });
      expect(login.statusCode).toBe(200);
      expect(login.json().user.uid).toBe(alice.uid);
    });

    it('simultaneous sign-ups with one username: exactly one 201, the rest 409 USERNAME_TAKEN', async () => {
      const base = newAccount('race');
      const attempts = Array.from({ length: 4 }, (_, i) => ({ ...base, email: `race${i}.${base.email}` }));
      const responses = await Promise.all(attempts.map((body) => post(t.app, API.register, body)));
      const statuses = responses.map((r) => r.statusCode).sort();
      expect(statuses, responses.map((r) => r.body).join('\n')).toEqual([201, 409, 409, 409]);
      for (const response of responses.filter((r) => r.statusCode === 409)) {
        expectError(response, 409, 'USERNAME_TAKEN', ['Username has already been registered.']);
      }
      const [{ n }] = (await t.database.orm
        .select({ n: sql<number>`count(*)::int` })
        .from(users)
        .where(eq(users.username, base.username))) as [{ n: number }];
      expect(Number(n)).toBe(1);
    });

    it('simultaneous sign-ups with one e-mail: exactly one 201, the rest 409 EMAIL_TAKEN', async () => {
      const base = newAccount('race');
      const attempts = Array.from({ length: 4 }, (_, i) => ({ ...base, username: `${base.username.slice(0, 17)}_${i}` }));
      const responses = await Promise.all(attempts.map((body) => post(t.app, API.register, body)));
      const statuses = responses.map((r) => r.statusCode).sort();
      expect(statuses, responses.map((r) => r.body).join('\n')).toEqual([201, 409, 409, 409]);
      for (const response of responses.filter((r) => r.statusCode === 409)) {
        expectError(response, 409, 'EMAIL_TAKEN', ['Email already registered.']);
      }
    });

    it('simultaneous identical sign-ups: one 201, the rest 409 with both messages', async () => {
      const base = newAccount('twin');
      const responses = await Promise.all([1, 2, 3].map(() => post(t.app, API.register, base)));
      expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
      for (const response of responses.filter((r) => r.statusCode === 409)) {
        const body = response.json();
        expect(body.code).toBe('USERNAME_TAKEN');
        expect(body.messages[0]).toBe('Username has already been registered.');
        expect(body.messages).toEqual(expect.arrayContaining(['Username has already been registered.']));
        // Whoever lost the race hears about everything that is taken, not only the first clash.
        expect(body.messages).toEqual(['Username has already been registered.', 'Email already registered.']);
      }
    });
  });
});

// ---------------------------------------------------------------- HTTPS behind a proxy

describe('session cookie behind an HTTPS proxy (trustProxy)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ trustProxy: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  const https: Headers = { 'x-forwarded-proto': 'https' };
  const hostCookie = (response: LightMyRequestResponse) => {
    const header = setCookieHeaders(response).find((value) => value.startsWith('__Host-session='));
    if (!header) throw new Error(`no __Host-session Set-Cookie (status ${response.statusCode})`);
    return header;
  };

  it('is __Host-session, Secure, Path=/ and without Domain when the proxy says the request came over https', async () => {
    const account = newAccount();
    const register = await post(t.app, API.register, account, { headers: https });
    expect(register.statusCode).toBe(201);
    const login = await post(t.app, API.login, { identifier: account.username, password: account.password }, { headers: https });
    expect(login.statusCode).toBe(200);
    for (const response of [register, login]) {
      const header = hostCookie(response);
      expect(header).toMatch(/;\s*Secure/i);
      expect(header).toMatch(/;\s*HttpOnly/i);
      expect(header).toMatch(/;\s*Path=\/(;|$)/i);
      expect(header).not.toMatch(/Domain=/i);
      expect(setCookieHeaders(response).some((value) => value.startsWith('session='))).toBe(false);
    }
    const token = hostCookie(register).split(';')[0]!;
    expect((await t.app.inject({ method: 'GET', url: API.me, headers: { ...https, cookie: token } })).statusCode).toBe(200);
  });

  it('over https a plain "session" cookie is not a session (a sibling subdomain could have planted it)', async () => {
    const response = await post(t.app, API.register, newAccount(), { headers: { 'x-forwarded-proto': 'http' } });
    const plain = sessionCookie(response);
    expect((await t.app.inject({ method: 'GET', url: API.me, headers: { 'x-forwarded-proto': 'http', cookie: plain } })).statusCode).toBe(
      200,
    );
    expectError(await t.app.inject({ method: 'GET', url: API.me, headers: { ...https, cookie: plain } }), 401, 'NOT_SIGNED_IN');
  });

  it('is session and not Secure when the proxy says http', async () => {
    const response = await post(t.app, API.register, newAccount(), { headers: { 'x-forwarded-proto': 'http' } });
    expect(response.statusCode).toBe(201);
    expect(sessionSetCookie(response)).not.toMatch(/;\s*Secure/i);
  });
});

describe('two session cookies (cookie tossing)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a request carrying two session cookies is signed out, and both are cleared, whichever comes first', async () => {
    const victim = sessionCookie(await post(t.app, API.register, newAccount()));
    const attacker = sessionCookie(await post(t.app, API.register, newAccount()));
    for (const cookie of [`${attacker}; ${victim}`, `${victim}; ${attacker}`, `${victim}; theme=dark; ${victim}`]) {
      const response = await t.app.inject({ method: 'GET', url: API.me, headers: { cookie, host: 'dorm.campus.example.edu' } });
      expectError(response, 401, 'NOT_SIGNED_IN');
      const cleared = setCookieHeaders(response).filter((value) => value.startsWith('session=;'));
      // This host, each parent domain a sibling could have used, and each path prefix.
      expect(cleared.some((value) => /Path=\/(;|$)/i.test(value) && !/Domain=/i.test(value))).toBe(true);
      expect(cleared.some((value) => /Domain=campus\.example\.edu/i.test(value))).toBe(true);
      expect(cleared.some((value) => /Domain=example\.edu/i.test(value))).toBe(true);
      expect(cleared.some((value) => /Path=\/api\/me/i.test(value))).toBe(true);
      for (const value of cleared) expect(value).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);
    }
    // Whatever the path holds, the clearing never breaks the answer.
    for (const url of ['/api/users/%EF%BF%BF', '/api/users/%00/follow', '/api/users/a%20b;c']) {
      const odd = await t.app.inject({ method: 'GET', url, headers: { cookie: `${attacker}; ${victim}` } });
      expect(odd.statusCode, url).toBeLessThan(500);
      expect(
        setCookieHeaders(odd).some((value) => /^session=;.*Path=\/api\/users(;|$)/i.test(value)),
        url,
      ).toBe(true);
    }
    // Writes are refused as signed out too, and the sessions themselves live on.
    const write = await t.app.inject({ method: 'POST', url: API.logoutAll, headers: { cookie: `${attacker}; ${victim}` } });
    expectError(write, 401, 'NOT_SIGNED_IN');
    expect((await me(t.app, victim)).statusCode).toBe(200);
    expect((await me(t.app, attacker)).statusCode).toBe(200);
  });

  it('signing in with two session cookies ends neither session it cannot attribute, and sets one fresh cookie', async () => {
    const account = newAccount();
    const victim = sessionCookie(await post(t.app, API.register, account));
    const planted = sessionCookie(await post(t.app, API.register, newAccount()));
    const response = await post(
      t.app,
      API.login,
      { identifier: account.username, password: account.password },
      { headers: { cookie: `${planted}; ${victim}` } },
    );
    expect(response.statusCode).toBe(200);
    expect((await me(t.app, sessionCookie(response))).statusCode).toBe(200);
    expect((await me(t.app, planted)).statusCode).toBe(200);
  });
});

// ---------------------------------------------------------------- login

describe('POST /api/auth/login', () => {
  let t: TestApp;
  let alice: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    t = await createTestApp();
    alice = await signUp(t.app, newAccount('alice'));
  });
  afterAll(async () => {
    await t?.close();
  });

  const login = (identifier: string, password: string) => post(t.app, API.login, { identifier, password });

  it.each<[string, (a: typeof alice) => string]>([
    ['username', (a) => a.username],
    ['upper-case username', (a) => a.username.toUpperCase()],
    ['username with spaces around it', (a) => `  ${a.username}\t`],
    ['e-mail', (a) => a.email],
    ['upper-case e-mail', (a) => a.email.toUpperCase()],
  ])('signs in by %s', async (_, identifier) => {
    const response = await login(identifier(alice), alice.password);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ user: expectedMe(alice) });
    const header = sessionSetCookie(response);
    expect(header).toMatch(/;\s*HttpOnly/i);
    expect(header).toMatch(/;\s*SameSite=Lax/i);
    expect(header).toMatch(/;\s*Path=\//);
    const current = await me(t.app, sessionCookie(response));
    expect(current.statusCode).toBe(200);
    expect(current.json().user.uid).toBe(alice.uid);
  });

  it('gives a new token at every sign-in, and each one works', async () => {
    const first = await login(alice.username, alice.password);
    const second = await login(alice.email, alice.password);
    const a = sessionCookie(first);
    const b = sessionCookie(second);
    expect(a).not.toBe(b);
    expect(a).not.toBe(alice.cookie);
    for (const cookie of [a, b, alice.cookie]) expect((await me(t.app, cookie)).statusCode).toBe(200);
    const hashes = (await sessionRows(t.database, alice.uid)).map((row) => row.tokenHash);
    expect(hashes).toEqual(expect.arrayContaining([sha256(tokenOf(a)), sha256(tokenOf(b))]));
  });

  it('ignores a session cookie sent with the sign-in: the new token is fresh', async () => {
    const response = await post(
      t.app,
      API.login,
      { identifier: alice.username, password: alice.password },
      { headers: { cookie: alice.cookie } },
    );
    expect(response.statusCode).toBe(200);
    expect(sessionCookie(response)).not.toBe(alice.cookie);
  });

  it("ends the session whose cookie came with the sign-in: on a shared browser, the last user's session is over", async () => {
    const first = await signUp(t.app, newAccount('shared'));
    const second = await signUp(t.app, newAccount('shared'));
    const elsewhere = sessionCookie(await post(t.app, API.login, { identifier: first.username, password: first.password }));
    const response = await post(
      t.app,
      API.login,
      { identifier: second.username, password: second.password },
      { headers: { cookie: first.cookie } },
    );
    expect(response.statusCode).toBe(200);
    expectError(await me(t.app, first.cookie), 401, 'NOT_SIGNED_IN');
    expect((await sessionRows(t.database, first.uid)).map((row) => row.tokenHash)).toEqual([sha256(tokenOf(elsewhere))]);
    // The first user's other browser is not touched; the new cookie is the second user's.
    expect((await me(t.app, elsewhere)).json().user.uid).toBe(first.uid);
    expect((await me(t.app, sessionCookie(response))).json().user.uid).toBe(second.uid);
  });

  it('a sign-up ends the session whose cookie came with it too', async () => {
    const first = await signUp(t.app, newAccount('shared'));
    const response = await post(t.app, API.register, newAccount('shared'), { headers: { cookie: first.cookie } });
    expect(response.statusCode).toBe(201);
    expectError(await me(t.app, first.cookie), 401, 'NOT_SIGNED_IN');
    expect(await sessionRows(t.database, first.uid)).toEqual([]);
  });

  it('a failed sign-in leaves the session whose cookie came with it alone', async () => {
    const first = await signUp(t.app, newAccount('shared'));
    const response = await post(
      t.app,
      API.login,
      { identifier: first.username, password: 'wrong password 1' },
      { headers: { cookie: first.cookie } },
    );
    expectError(response, 401, 'INCORRECT_LOGIN');
    expect((await me(t.app, first.cookie)).statusCode).toBe(200);
  });

  it.each([
    ['empty identifier', { identifier: '', password: 'password1' }],
    ['empty password', { identifier: 'alice', password: '' }],
    ['both empty', { identifier: '', password: '' }],
    ['identifier of spaces', { identifier: '  \t ', password: 'password1' }],
  ])('"Fill in all the fields." (400) for %s', async (_, body) => {
    const response = await post(t.app, API.login, body);
    expectError(response, 400, 'FILL_IN_ALL_FIELDS', ['Fill in all the fields.']);
    expect(response.json().message).toBe('Fill in all the fields.');
    expect(response.cookies).toHaveLength(0);
  });

  it('"Username not registered." (404) for an unknown username', async () => {
    const response = await login('nobody_here', 'password1');
    const body = expectError(response, 404, 'USERNAME_NOT_REGISTERED');
    expect(body.message).toBe('Username not registered.');
    expect(response.cookies).toHaveLength(0);
  });

  it('"Incorrect log in details." (401) for a wrong password, by username and by e-mail', async () => {
    for (const identifier of [alice.username, alice.email, alice.email.toUpperCase()]) {
      const response = await login(identifier, 'wrong password');
      const body = expectError(response, 401, 'INCORRECT_LOGIN');
      expect(body.message).toBe('Incorrect log in details.');
      expect(response.cookies).toHaveLength(0);
    }
  });

  it('the password is exact: case and outer spaces matter', async () => {
    for (const password of [alice.password.toUpperCase(), ` ${alice.password}`, `${alice.password} `, alice.password.slice(0, -1)]) {
      expectError(await login(alice.username, password), 401, 'INCORRECT_LOGIN');
    }
  });

  it('"Incorrect log in details." (401) for an unknown e-mail (no hint that it is unknown)', async () => {
    const response = await login('nobody@example.com', 'password1');
    expectError(response, 401, 'INCORRECT_LOGIN');
  });

  it('a password over the 32-character sign-up limit is just wrong, not an error', async () => {
    expectError(await login(alice.username, 'x'.repeat(200)), 401, 'INCORRECT_LOGIN');
  });
});

// ---------------------------------------------------------------- logout and /api/me

describe('POST /api/auth/logout and GET /api/me', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('logout deletes the session, clears the cookie and answers 204', async () => {
    const account = await signUp(t.app, newAccount());
    expect(await sessionRows(t.database, account.uid)).toHaveLength(1);
    const response = await post(t.app, API.logout, undefined, { headers: { cookie: account.cookie } });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    const cleared = response.cookies.find((c) => c.name === 'session');
    expect(cleared).toBeDefined();
    expect(cleared!.value).toBe('');
    const expired = cleared!.maxAge === 0 || (cleared!.expires !== undefined && new Date(cleared!.expires).getTime() <= Date.now());
    expect(expired).toBe(true);
    // Cleared with the same attributes it was set with, so the browser really drops it.
    expect(sessionSetCookie(response)).toMatch(/;\s*Path=\/(;|$)/);
    expect(sessionSetCookie(response)).toMatch(/;\s*HttpOnly/i);

    expect(await sessionRows(t.database, account.uid)).toHaveLength(0);
    expectError(await me(t.app, account.cookie), 401, 'NOT_SIGNED_IN');
  });

  it('logout signs out only this browser', async () => {
    const account = await signUp(t.app, newAccount());
    const other = sessionCookie(await post(t.app, API.login, { identifier: account.username, password: account.password }));
    expect((await post(t.app, API.logout, undefined, { headers: { cookie: account.cookie } })).statusCode).toBe(204);
    expect((await me(t.app, account.cookie)).statusCode).toBe(401);
    expect((await me(t.app, other)).statusCode).toBe(200);
  });

  it('logout without a cookie, or with a stale or garbage one, is still 204', async () => {
    const account = await signUp(t.app, newAccount());
    expect((await post(t.app, API.logout)).statusCode).toBe(204);
    expect((await post(t.app, API.logout, undefined, { headers: { cookie: 'session=garbage' } })).statusCode).toBe(204);
    await post(t.app, API.logout, undefined, { headers: { cookie: account.cookie } });
    expect((await post(t.app, API.logout, undefined, { headers: { cookie: account.cookie } })).statusCode).toBe(204);
    // Another user's session is untouched by all this.
    const bystander = await signUp(t.app, newAccount());
    await post(t.app, API.logout, undefined, { headers: { cookie: 'session=' } });
    expect((await me(t.app, bystander.cookie)).statusCode).toBe(200);
  });

  it('/api/me is 401 NOT_SIGNED_IN without a cookie', async () => {
    expectError(await me(t.app), 401, 'NOT_SIGNED_IN');
  });

  it.each([
    ['garbage', 'session=garbage'],
    ['empty', 'session='],
    ['a well-formed but unknown token', `session=${'A'.repeat(43)}`],
    ['the hash instead of the token', ''],
    ['another cookie name', ''],
  ])('/api/me is 401 NOT_SIGNED_IN with %s', async (label, given) => {
    let cookie = given;
    if (label === 'the hash instead of the token') {
      const account = await signUp(t.app, newAccount());
      cookie = `session=${sha256(tokenOf(account.cookie))}`;
    }
    if (label === 'another cookie name') {
      const account = await signUp(t.app, newAccount());
      cookie = `sid=${tokenOf(account.cookie)}`;
    }
    expectError(await me(t.app, cookie), 401, 'NOT_SIGNED_IN');
  });

  it('/api/me is 401 once the session has expired', async () => {
    const account = await signUp(t.app, newAccount());
    expect((await me(t.app, account.cookie)).statusCode).toBe(200);
    // The expiry is written behind the app's back: the session cache (on, as in production) is
    // told as after any write to the account, or it would answer from memory until its time ran out.
    await t.app.changes.changed({ kind: 'profile', userId: account.uid, username: account.username });
    await t.database.orm
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, account.uid));
    expectError(await me(t.app, account.cookie), 401, 'NOT_SIGNED_IN');
  });

  it('expired sessions are swept at the next sign-in, whoever signs in', async () => {
    const gone = await signUp(t.app, newAccount());
    const kept = await signUp(t.app, newAccount());
    await lastUsedAgo(t.database, gone.uid, 31 * DAY_MS);
    const someone = await signUp(t.app, newAccount());
    expect((await post(t.app, API.login, { identifier: someone.username, password: someone.password })).statusCode).toBe(200);
    expect(await sessionRows(t.database, gone.uid)).toEqual([]);
    expect(await sessionRows(t.database, kept.uid)).toHaveLength(1);
  });

  it('expired sessions are swept at the next sign-in', async () => {
    const account = await signUp(t.app, newAccount());
    await t.database.rawTransaction((tx) =>
      tx.query(`UPDATE sessions SET expires_at = now() - interval '1 day' WHERE user_id = $1`, [account.uid]),
    );
    const login = await post(t.app, API.login, { identifier: account.username, password: account.password });
    expect(login.statusCode).toBe(200);
    const rows = await sessionRows(t.database, account.uid);
    expect(rows.map((row) => row.tokenHash)).toEqual([sha256(tokenOf(sessionCookie(login)))]);
  });

  it('/api/me is 200 with the user for a valid session', async () => {
    const account = await signUp(t.app, newAccount());
    const response = await me(t.app, account.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ user: expectedMe(account) });
  });
});

// ---------------------------------------------------------------- sign out everywhere

describe('POST /api/auth/logout-all', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const logoutAll = (cookie?: string) => post(t.app, API.logoutAll, undefined, { headers: cookie ? { cookie } : {} });
  const signInAgain = async (account: { username: string; password: string }) =>
    sessionCookie(await post(t.app, API.login, { identifier: account.username, password: account.password }));

  it('ends every session of the user, clears the cookie and answers 204', async () => {
    const account = await signUp(t.app, newAccount('all'));
    const second = await signInAgain(account);
    expect((await me(t.app, account.cookie)).statusCode).toBe(200);
    expect((await me(t.app, second)).statusCode).toBe(200);

    const response = await logoutAll(second);
    expect(response.statusCode, response.body).toBe(204);
    const cleared = response.cookies.find((c) => c.name === 'session');
    expect(cleared?.value).toBe('');
    expect(sessionSetCookie(response)).toMatch(/;\s*Path=\/(;|$)/);
    expect(sessionSetCookie(response)).toMatch(/;\s*HttpOnly/i);

    expectError(await me(t.app, account.cookie), 401, 'NOT_SIGNED_IN');
    expectError(await me(t.app, second), 401, 'NOT_SIGNED_IN');
    expect(await sessionRows(t.database, account.uid)).toEqual([]);
  });

  it("leaves other users' sessions alone", async () => {
    const account = await signUp(t.app, newAccount('all'));
    const bystander = await signUp(t.app, newAccount('by'));
    const bystanderSecond = await signInAgain(bystander);
    expect((await logoutAll(account.cookie)).statusCode).toBe(204);
    expect((await me(t.app, bystander.cookie)).statusCode).toBe(200);
    expect((await me(t.app, bystanderSecond)).statusCode).toBe(200);
    expect(await sessionRows(t.database, bystander.uid)).toHaveLength(2);
  });

  it('is 401 NOT_SIGNED_IN when signed out, with a garbage cookie or an ended session', async () => {
    const account = await signUp(t.app, newAccount('all'));
    expectError(await logoutAll(), 401, 'NOT_SIGNED_IN');
    expectError(await logoutAll('session=garbage'), 401, 'NOT_SIGNED_IN');
    expect((await logoutAll(account.cookie)).statusCode).toBe(204);
    expectError(await logoutAll(account.cookie), 401, 'NOT_SIGNED_IN');
  });

  it('signing in again afterwards works', async () => {
    const account = await signUp(t.app, newAccount('all'));
    expect((await logoutAll(account.cookie)).statusCode).toBe(204);
    const fresh = await signInAgain(account);
    expect((await me(t.app, fresh)).json().user.uid).toBe(account.uid);
  });
});

// ---------------------------------------------------------------- sliding expiry

describe('sessions expire after 30 days unused', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const expiryOf = async (userId: string) => (await sessionRows(t.database, userId))[0]!.expiresAt.getTime();

  it('a session unused for 31 days is refused and deleted', async () => {
    const account = await signUp(t.app, newAccount('exp'));
    await lastUsedAgo(t.database, account.uid, 31 * DAY_MS);
    const response = await me(t.app, account.cookie);
    expectError(response, 401, 'NOT_SIGNED_IN');
    expect(response.cookies).toHaveLength(0);
    expect(await sessionRows(t.database, account.uid)).toEqual([]);
  });

  it('a session last used 29 days ago still works, and the use gives it 30 days more (cookie too)', async () => {
    const account = await signUp(t.app, newAccount('exp'));
    await lastUsedAgo(t.database, account.uid, 29 * DAY_MS);
    const before = Date.now();
    const response = await me(t.app, account.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json().user.uid).toBe(account.uid);

    const expiry = await expiryOf(account.uid);
    expect(expiry).toBeGreaterThanOrEqual(before + 30 * DAY_MS - 1000);
    expect(expiry).toBeLessThanOrEqual(Date.now() + 30 * DAY_MS);
    // The browser keeps the same token for as long as the server now does.
    const cookie = response.cookies.find((c) => c.name === 'session')!;
    expect(`session=${cookie.value}`).toBe(account.cookie);
    expect(cookie.maxAge).toBeGreaterThan(30 * 86_400 - 5);
    expect(cookie.maxAge).toBeLessThanOrEqual(30 * 86_400);
    expect(Math.abs(new Date(cookie.expires!).getTime() - expiry)).toBeLessThan(1000);
    expect(sessionSetCookie(response)).toMatch(/;\s*HttpOnly/i);
    expect(sessionSetCookie(response)).toMatch(/;\s*SameSite=Lax/i);
  });

  /** Moves the account's sessions back in time: signed in `signedInAgo`, expiring in `expiresIn`. */
  async function backdate(userId: string, signedInAgo: number, expiresIn: number) {
    await t.database.orm
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - signedInAgo), expiresAt: new Date(Date.now() + expiresIn) })
      .where(eq(sessions.userId, userId));
  }

  it('a session a year past its sign-in ends, however recently it was used', async () => {
    const account = await signUp(t.app, newAccount('old'));
    await backdate(account.uid, 365 * DAY_MS + 60_000, 20 * DAY_MS);
    expectError(await me(t.app, account.cookie), 401, 'NOT_SIGNED_IN');
    expect(await sessionRows(t.database, account.uid)).toEqual([]);
  });

  it('near its first birthday, a use extends a session only up to a year after sign-in (cookie too)', async () => {
    const account = await signUp(t.app, newAccount('old'));
    await backdate(account.uid, 364 * DAY_MS, 2 * 60 * 60 * 1000);
    const signedIn = (await sessionRows(t.database, account.uid))[0]!.createdAt.getTime();
    const response = await me(t.app, account.cookie);
    expect(response.statusCode).toBe(200);
    expect(await expiryOf(account.uid)).toBe(signedIn + 365 * DAY_MS);
    const cookie = response.cookies.find((c) => c.name === 'session')!;
    expect(cookie.maxAge).toBeGreaterThan(86_400 - 5);
    expect(cookie.maxAge).toBeLessThanOrEqual(86_400);

    // At the cap, further uses write nothing.
    const again = await me(t.app, account.cookie);
    expect(again.statusCode).toBe(200);
    expect(again.cookies).toHaveLength(0);
  });

  it('a use within the hour does not write: no new expiry, no Set-Cookie', async () => {
    const account = await signUp(t.app, newAccount('exp'));
    await lastUsedAgo(t.database, account.uid, 30 * 60 * 1000);
    const expiry = await expiryOf(account.uid);
    const response = await me(t.app, account.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.cookies).toHaveLength(0);
    expect(await expiryOf(account.uid)).toBe(expiry);
  });

  it('a use after more than an hour extends it', async () => {
    const account = await signUp(t.app, newAccount('exp'));
    await lastUsedAgo(t.database, account.uid, 2 * 60 * 60 * 1000);
    const expiry = await expiryOf(account.uid);
    const response = await me(t.app, account.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.cookies.map((c) => c.name)).toEqual(['session']);
    expect(await expiryOf(account.uid)).toBeGreaterThan(expiry + 60 * 60 * 1000);
  });

  it('signing out of an extended session still clears the cookie', async () => {
    const account = await signUp(t.app, newAccount('exp'));
    await lastUsedAgo(t.database, account.uid, 2 * DAY_MS);
    const response = await post(t.app, API.logout, undefined, { headers: { cookie: account.cookie } });
    expect(response.statusCode).toBe(204);
    expect(setCookieHeaders(response).filter((h) => h.startsWith('session='))).toEqual([expect.stringMatching(/^session=;/)]);
    expectError(await me(t.app, account.cookie), 401, 'NOT_SIGNED_IN');
  });
});

// ---------------------------------------------------------------- rate limits

describe('rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      rateLimits: { ...DEFAULT_RATE_LIMITS, loginFailuresPerAccount: 3, loginPerIp: 1000, registerPerIp: 2, windowMs: 60_000 },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Registers from an address of its own, so the per-IP register limit stays out of the way. */
  async function register() {
    const account = newAccount('rl');
    const response = await post(t.app, API.register, account, { remoteAddress: freshIp() });
    expect(response.statusCode, response.body).toBe(201);
    return account;
  }
  const login = (identifier: string, password: string, ip: string, headers: Headers = {}) =>
    post(t.app, API.login, { identifier, password }, { remoteAddress: ip, headers });

  function expectLimited(response: LightMyRequestResponse) {
    expectError(response, 429, 'RATE_LIMITED');
    const retryAfter = Number(response.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(response.cookies).toHaveLength(0);
  }

  it('a burst of wrong passwords gets 429 with retry-after; even the right password is refused then', async () => {
    const account = await register();
    const attacker = freshIp();
    for (let i = 0; i < 3; i++) expectError(await login(account.username, 'wrong password', attacker), 401, 'INCORRECT_LOGIN');
    expectLimited(await login(account.username, 'wrong password', attacker));
    expectLimited(await login(account.username, account.password, attacker));
    expectLimited(await login(account.username.toUpperCase(), account.password, attacker));
  });

  it('a stranger cannot lock the owner out: the owner still signs in from another address', async () => {
    const account = await register();
    const stranger = freshIp();
    for (let i = 0; i < 4; i++) await login(account.username, 'wrong password', stranger);
    expectLimited(await login(account.username, account.password, stranger));
    const owner = await login(account.username, account.password, freshIp());
    expect(owner.statusCode).toBe(200);
  });

  it('a successful sign-in resets the failure count', async () => {
    const account = await register();
    const ip = freshIp();
    for (let i = 0; i < 2; i++) expectError(await login(account.username, 'wrong password', ip), 401, 'INCORRECT_LOGIN');
    expect((await login(account.username, account.password, ip)).statusCode).toBe(200);
    // Without the reset the third of these would already be refused.
    for (let i = 0; i < 3; i++) expectError(await login(account.username, 'wrong password', ip), 401, 'INCORRECT_LOGIN');
    expectLimited(await login(account.username, 'wrong password', ip));
  });

  it('failures for one account do not limit another account from the same address', async () => {
    const victim = await register();
    const other = await register();
    const ip = freshIp();
    for (let i = 0; i < 4; i++) await login(victim.username, 'wrong password', ip);
    expectLimited(await login(victim.username, victim.password, ip));
    expect((await login(other.username, other.password, ip)).statusCode).toBe(200);
  });

  it('the username and the e-mail each have their own count: a right password is never called wrong, and never tells whose e-mail it is', async () => {
    const account = await register();
    const ip = freshIp();
    // A guesser at the owner's e-mail (from the owner's own campus NAT, say) uses its guesses up.
    for (let i = 0; i < 3; i++) expectError(await login(account.email, 'wrong password', ip), 401, 'INCORRECT_LOGIN');
    // The e-mail as typed is limited: 429, even for the right password, which the owner can read
    // as "wait": never "Incorrect log in details." for a right password.
    expectLimited(await login(account.email, account.password, ip));
    // The username was never guessed at: the owner's right password is checked and signs in
    // (before issue 26 a count joining the two answered it as a wrong password).
    const owner = await login(account.username, account.password, ip);
    expect(owner.statusCode, owner.body).toBe(200);
    // The same the other way round, on another account: the username used up, the e-mail works.
    const other = await register();
    for (let i = 0; i < 3; i++) expectError(await login(other.username.toUpperCase(), 'wrong password', ip), 401, 'INCORRECT_LOGIN');
    expectLimited(await login(other.username, other.password, ip));
    expect((await login(other.email, other.password, ip)).statusCode).toBe(200);
  });

  it("after a username's guesses are used up, an e-mail's answer does not depend on whose account it is (no oracle)", async () => {
    const victim = await register();
    const other = await register();
    const ip = freshIp();
    for (let i = 0; i < 3; i++) await login(victim.username, 'wrong password', ip);
    expectLimited(await login(victim.username, 'wrong password', ip));
    const answers = await Promise.all(
      [victim.email, other.email, `nobody-${randomUUID().slice(0, 8)}@example.com`].map(async (email) => {
        const response = await login(email, 'a guessed password', ip);
        return { status: response.statusCode, body: response.json(), cookies: response.cookies.length };
      }),
    );
    expect(answers[0]).toEqual({ status: 401, body: { code: 'INCORRECT_LOGIN', message: ERRORS.INCORRECT_LOGIN }, cookies: 0 });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    // And the victim's right password, typed as the e-mail, signs in like the other's.
    expect((await login(victim.email, victim.password, ip)).statusCode).toBe(200);
    expect((await login(other.email, other.password, ip)).statusCode).toBe(200);
  });

  it('simultaneous wrong guesses: exactly the limit are checked, the rest get 429 (no check-then-record race)', async () => {
    const account = await register();
    const ip = freshIp();
    const responses = await Promise.all(Array.from({ length: 12 }, () => login(account.username, 'wrong password', ip)));
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([...Array(3).fill(401), ...Array(9).fill(429)]);
    // A mix of username and e-mail at once: each as typed has its limit, exactly.
    const mixed = await register();
    const other = freshIp();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => login(i % 2 ? mixed.email : mixed.username, 'wrong password', other)),
    );
    expect(answers.filter((response) => response.statusCode === 401)).toHaveLength(6);
    expect(answers.filter((response) => response.statusCode === 429)).toHaveLength(6);
  });

  it('an IPv6 /64 is one address: guesses from across it share one limit; the next /64 is free', async () => {
    const account = await register();
    for (let i = 0; i < 3; i++) {
      expectError(await login(account.username, 'wrong password', `2001:db8:1:2::${(i + 1).toString(16)}`), 401, 'INCORRECT_LOGIN');
    }
    expectLimited(await login(account.username, account.password, '2001:db8:1:2:ffff:ffff:ffff:ffff'));
    expectLimited(await login(account.username, account.password, '2001:0db8:0001:0002:abcd::9'));
    expect((await login(account.username, account.password, '2001:db8:1:3::1')).statusCode).toBe(200);
  });

  it('an IPv4-mapped IPv6 address is the IPv4 address', async () => {
    const account = await register();
    const ip = freshIp();
    for (let i = 0; i < 3; i++) await login(account.username, 'wrong password', ip);
    expectLimited(await login(account.username, account.password, `::ffff:${ip}`));
  });

  it('guessing at unknown usernames is limited too', async () => {
    const ip = freshIp();
    for (let i = 0; i < 3; i++) expectError(await login('ghost_user', 'password1', ip), 404, 'USERNAME_NOT_REGISTERED');
    expectLimited(await login('ghost_user', 'password1', ip));
  });

  it('X-Forwarded-For is not trusted without trustProxy: a client cannot dodge the limit with it', async () => {
    const account = await register();
    const ip = freshIp();
    for (let i = 0; i < 3; i++) {
      await login(account.username, 'wrong password', ip, { 'x-forwarded-for': `192.168.0.${i}` });
    }
    expectLimited(await login(account.username, account.password, ip, { 'x-forwarded-for': '192.168.1.1' }));
  });

  it('sign-ups from across one IPv6 /64 share the per-address limit', async () => {
    const addresses = ['2001:db8:77:1::1', '2001:db8:77:1::2', '2001:db8:77:1:8000::3'];
    expect((await post(t.app, API.register, newAccount('rl'), { remoteAddress: addresses[0] })).statusCode).toBe(201);
    expect((await post(t.app, API.register, newAccount('rl'), { remoteAddress: addresses[1] })).statusCode).toBe(201);
    expectLimited(await post(t.app, API.register, newAccount('rl'), { remoteAddress: addresses[2] }));
    expect((await post(t.app, API.register, newAccount('rl'), { remoteAddress: '2001:db8:77:2::1' })).statusCode).toBe(201);
  });

  it('the per-address register limit gives 429 with retry-after; other addresses still register', async () => {
    const ip = freshIp();
    for (let i = 0; i < 2; i++) {
      const response = await post(t.app, API.register, newAccount('rl'), { remoteAddress: ip });
      expect(response.statusCode).toBe(201);
    }
    const before = await countRows(t.database, users);
    const limited = await post(t.app, API.register, newAccount('rl'), { remoteAddress: ip });
    expectLimited(limited);
    expect(await countRows(t.database, users)).toBe(before);
    expect((await post(t.app, API.register, newAccount('rl'), { remoteAddress: freshIp() })).statusCode).toBe(201);
  });
});

describe('behind a proxy (TRUST_PROXY)', () => {
  it('reads the setting: off, one proxy for "true", a number of hops, or the proxies\' addresses', () => {
    expect(trustProxySetting(undefined)).toBe(false);
    expect(trustProxySetting('')).toBe(false);
    expect(trustProxySetting('false')).toBe(false);
    const one = trustProxySetting('true') as (address: string, hop: number) => boolean;
    expect([one('127.0.0.1', 0), one('203.0.113.9', 1)]).toEqual([true, false]);
    const two = trustProxySetting('2') as (address: string, hop: number) => boolean;
    expect([two('a', 0), two('b', 1), two('c', 2)]).toEqual([true, true, false]);
    expect(trustProxySetting('10.0.0.0/8, 127.0.0.1')).toBe('10.0.0.0/8, 127.0.0.1');
  });

  it('with TRUST_PROXY=true a client cannot dodge the sign-in limit by forging X-Forwarded-For', async () => {
    const t = await createTestApp({
      trustProxy: trustProxySetting('true'),
      rateLimits: { ...DEFAULT_RATE_LIMITS, loginFailuresPerAccount: 3, loginPerIp: 1000, windowMs: 60_000 },
    });
    try {
      const account = await signUp(t.app, newAccount('px'));
      // nginx appends the address it saw; everything before it is whatever the client sent.
      const login = (password: string, forged: string) =>
        post(
          t.app,
          API.login,
          { identifier: account.username, password },
          { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': `${forged}, 198.51.100.7` } },
        );
      for (let i = 0; i < 3; i++) expectError(await login('wrong password', `203.0.113.${i}`), 401, 'INCORRECT_LOGIN');
      expectError(await login(account.password, '203.0.113.99'), 429, 'RATE_LIMITED');
      // The student's real address, as the proxy reports it, is what counts: another one is free.
      const elsewhere = await post(
        t.app,
        API.login,
        { identifier: account.username, password: account.password },
        {
          remoteAddress: '127.0.0.1',
          headers: { 'x-forwarded-for': '198.51.100.8' },
        },
      );
      expect(elsewhere.statusCode, elsewhere.body).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('rate limit: sign-ins per address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ rateLimits: { ...DEFAULT_RATE_LIMITS, loginPerIp: 2, registerPerIp: 100, windowMs: 60_000 } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('past loginPerIp failures from one address, whatever the account, wrong passwords get 429 but a right one still signs in', async () => {
    const a = await signUp(t.app, newAccount());
    const b = await signUp(t.app, newAccount());
    const nat = freshIp();
    expect((await post(t.app, API.login, { identifier: a.username, password: 'nope nope' }, { remoteAddress: nat })).statusCode).toBe(401);
    expect((await post(t.app, API.login, { identifier: b.username, password: 'nope nope' }, { remoteAddress: nat })).statusCode).toBe(401);
    // The address's failures are used up: a wrong password, an unknown name or e-mail is refused.
    for (const identifier of [b.username, 'ghost_user', 'nobody@example.com']) {
      const limited = await post(t.app, API.login, { identifier, password: 'nope nope' }, { remoteAddress: nat });
      expectError(limited, 429, 'RATE_LIMITED');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(limited.cookies).toHaveLength(0);
    }
    // A student behind the same NAT who types the right password is let in (before issue 26: 429
    // for the whole window), by username or by e-mail.
    const student = await post(t.app, API.login, { identifier: b.username, password: b.password }, { remoteAddress: nat });
    expect(student.statusCode, student.body).toBe(200);
    expect((await post(t.app, API.login, { identifier: a.email, password: a.password }, { remoteAddress: nat })).statusCode).toBe(200);
  });

  it('past both per-address budgets (loginPerIp, then loginChecksPerIp) nothing is checked: the right password gets 429 too', async () => {
    const bounded = await createTestApp({
      rateLimits: { ...DEFAULT_RATE_LIMITS, loginPerIp: 2, loginChecksPerIp: 3, registerPerIp: 100, windowMs: 60_000 },
    });
    try {
      const students = await Promise.all(Array.from({ length: 3 }, () => signUp(bounded.app, newAccount())));
      const nat = freshIp();
      const login = (identifier: string, password: string) =>
        post(bounded.app, API.login, { identifier, password }, { remoteAddress: nat });
      // Different accounts, so no typed name's own limit is met.
      expect((await login(students[0]!.username, 'nope nope')).statusCode).toBe(401);
      expect((await login(students[1]!.username, 'nope nope')).statusCode).toBe(401);
      // Checked past the first budget: a right password there gives its place back.
      expect((await login(students[2]!.username, students[2]!.password)).statusCode).toBe(200);
      for (const identifier of [students[0]!.email, students[1]!.email, 'ghost_user']) {
        expectError(await login(identifier, 'nope nope'), 429, 'RATE_LIMITED');
      }
      // Both budgets used up: 2 + 3 wrong passwords checked from this address, and no more.
      const refused = await login(students[2]!.email, students[2]!.password);
      expectError(refused, 429, 'RATE_LIMITED');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      const elsewhere = await post(
        bounded.app,
        API.login,
        { identifier: students[2]!.email, password: students[2]!.password },
        { remoteAddress: freshIp() },
      );
      expect(elsewhere.statusCode).toBe(200);
    } finally {
      await bounded.close();
    }
    // Over the default 30 s at a load average of 28 on 2 cores (two apps, many sign-ins).
  }, 120_000);

  it('successful sign-ins do not count: a campus NAT full of students is never locked out by its own sign-ins', async () => {
    const students = await Promise.all(Array.from({ length: 5 }, () => signUp(t.app, newAccount())));
    const nat = freshIp();
    for (const student of students) {
      const response = await post(t.app, API.login, { identifier: student.username, password: student.password }, { remoteAddress: nat });
      expect(response.statusCode).toBe(200);
    }
    expect(
      (await post(t.app, API.login, { identifier: students[0]!.username, password: 'nope nope' }, { remoteAddress: nat })).statusCode,
    ).toBe(401);
    expect(
      (await post(t.app, API.login, { identifier: students[1]!.username, password: students[1]!.password }, { remoteAddress: nat }))
        .statusCode,
    ).toBe(200);
  });
});

// ---------------------------------------------------------------- bad input

interface BadCase {
  name: string;
  /** Raw body and its content type, or an object sent as JSON. */
  payload?: string | object;
  contentType?: string;
  /** The status expected on register and login (logout ignores its body). */
  status: number;
}

function badCases(valid: Record<string, string>): BadCase[] {
  const [first, second] = Object.keys(valid) as [string, string];
  const json = 'application/json';
  return [
    { name: 'malformed JSON', payload: '{"username": "abc", ', contentType: json, status: 400 },
    { name: 'trailing garbage after JSON', payload: `${JSON.stringify(valid)} x`, contentType: json, status: 400 },
    { name: 'empty body declared as JSON', payload: '', contentType: json, status: 400 },
    { name: 'JSON array', payload: '[]', contentType: json, status: 400 },
    { name: 'JSON array holding a valid body', payload: JSON.stringify([valid]), contentType: json, status: 400 },
    { name: 'JSON number', payload: '42', contentType: json, status: 400 },
    { name: 'JSON null', payload: 'null', contentType: json, status: 400 },
    { name: 'JSON string', payload: '"hello"', contentType: json, status: 400 },
    { name: 'JSON true', payload: 'true', contentType: json, status: 400 },
    { name: 'a number field', payload: { ...valid, [first]: 12345 }, status: 400 },
    { name: 'an object field', payload: { ...valid, [second]: { $ne: '' } }, status: 400 },
    { name: 'an array field', payload: { ...valid, [first]: [valid[first]] }, status: 400 },
    { name: 'a null field', payload: { ...valid, [first]: null }, status: 400 },
    { name: 'a boolean field', payload: { ...valid, [second]: true }, status: 400 },
    { name: 'a missing field', payload: { [first]: valid[first] }, status: 400 },
    { name: 'an empty object', payload: {}, status: 400 },
    { name: 'an unknown extra field', payload: { ...valid, admin: true }, status: 400 },
    {
      name: '__proto__ in the body',
      payload: `{"__proto__": {"admin": true}, ${JSON.stringify(valid).slice(1)}`,
      contentType: json,
      status: 400,
    },
    {
      name: 'constructor.prototype in the body',
      payload: `{"constructor": {"prototype": {"admin": true}}, ${JSON.stringify(valid).slice(1)}`,
      contentType: json,
      status: 400,
    },
    { name: 'a field of 1001 characters', payload: { ...valid, [first]: 'a'.repeat(1001) }, status: 400 },
    { name: 'a password of 1001 characters', payload: { ...valid, password: 'p'.repeat(1001) }, status: 400 },
    { name: 'a body over 1 MiB', payload: { ...valid, password: 'p'.repeat(1024 * 1024 + 16) }, status: 413 },
    { name: 'text/plain', payload: JSON.stringify(valid), contentType: 'text/plain', status: 400 },
    { name: 'a form post', payload: new URLSearchParams(valid).toString(), contentType: 'application/x-www-form-urlencoded', status: 415 },
  ];
}

function send(app: FastifyInstance, url: string, bad: BadCase, cookie?: string) {
  const headers: Headers = {};
  if (bad.contentType) headers['content-type'] = bad.contentType;
  if (cookie) headers.cookie = cookie;
  return app.inject({ method: 'POST', url, headers, ...(bad.payload === undefined ? {} : { payload: bad.payload as string }) });
}

/** Any refusal: a 4xx with a JSON `{ code, message }` from the catalogue; never a 5xx. */
function expectCleanRefusal(response: LightMyRequestResponse, status: number) {
  expect(response.statusCode, response.body.slice(0, 300)).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = response.json();
  expect(typeof body.code).toBe('string');
  expect(body.message).toBe(ERRORS[body.code as ErrorCode]);
  expect(response.cookies).toHaveLength(0);
}

describe('bad input on every POST route', () => {
  let t: TestApp;
  // Real credentials inside the bad login bodies: the shape alone must refuse them.
  const survivorAccount = newAccount('surv');
  let survivor: Awaited<ReturnType<typeof signUp>>;
  let usersBefore: number;
  let sessionsBefore: number;
  beforeAll(async () => {
    t = await createTestApp();
    survivor = await signUp(t.app, survivorAccount);
    usersBefore = await countRows(t.database, users);
    sessionsBefore = await countRows(t.database, sessions);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('register', () => {
    it.each(badCases(newAccount('bad')).map((c) => [c.name, c] as const))('%s', async (_, bad) => {
      expectCleanRefusal(await send(t.app, API.register, bad), bad.status);
    });
  });

  describe('login', () => {
    const valid = { identifier: survivorAccount.username, password: survivorAccount.password };
    it.each(badCases(valid).map((c) => [c.name, c] as const))('%s', async (_, bad) => {
      expectCleanRefusal(await send(t.app, API.login, bad), bad.status);
    });
  });

  describe('logout (no body expected)', () => {
    it.each(badCases({ username: 'abc', password: 'password1' }).map((c) => [c.name, c] as const))('%s', async (_, bad) => {
      const response = await send(t.app, API.logout, bad);
      expect(response.statusCode, response.body.slice(0, 300)).toBeLessThan(500);
      if (response.statusCode !== 204) expectCleanRefusal(response, response.statusCode);
      expect(response.statusCode === 204 || (response.statusCode >= 400 && response.statusCode < 500)).toBe(true);
    });

    it('an oversized body is refused with 413', async () => {
      const response = await send(t.app, API.logout, { name: 'big', payload: { x: 'p'.repeat(1024 * 1024 + 16) }, status: 413 });
      expectCleanRefusal(response, 413);
    });
  });

  it('invalid but well-formed sign-ups are refused too', async () => {
    for (const body of [
      { username: '', email: '', password: '' },
      { username: ' x', email: 'nope', password: 'short' },
      { username: 'Robert"); DROP TABLE users;--', email: 'x@y.zz', password: 'password1' },
      { username: 'valid_name', email: "a'; DELETE FROM users; --@x.com", password: 'password1' },
    ]) {
      const response = await post(t.app, API.register, body);
      expect(response.statusCode, response.body).toBe(400);
    }
  });

  it('afterwards: nothing half-written, and the app still answers', async () => {
    expect(await countRows(t.database, users)).toBe(usersBefore);
    expect(await countRows(t.database, sessions)).toBe(sessionsBefore);
    const current = await me(t.app, survivor.cookie);
    expect(current.statusCode).toBe(200);
    expect(current.json().user.uid).toBe(survivor.uid);
    expectError(await me(t.app), 401, 'NOT_SIGNED_IN');
  });
});

// ---------------------------------------------------------------- not found and OpenAPI

describe('unknown API paths and the OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each([
    ['GET', '/api/does-not-exist'],
    ['POST', '/api/auth/nope'],
    // DELETE /api/me deletes the account (issue 16); PUT is no route.
    ['PUT', '/api/me'],
    ['GET', API.login],
    ['GET', '/api/'],
  ] as const)('%s %s is a JSON 404 NOT_FOUND', async (method, url) => {
    const response = await t.app.inject({ method, url });
    expectError(response, 404, 'NOT_FOUND');
  });

  it('serves the OpenAPI 3 document with the five account routes', async () => {
    const response = await t.app.inject({ method: 'GET', url: API.openapi });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const doc = response.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths[API.register]?.post).toBeDefined();
    expect(doc.paths[API.login]?.post).toBeDefined();
    expect(doc.paths[API.logout]?.post).toBeDefined();
    expect(doc.paths[API.logoutAll]?.post).toBeDefined();
    expect(doc.paths[API.me]?.get).toBeDefined();
    // The request bodies are described from the shared schemas.
    const registerSchema = JSON.stringify(doc.paths[API.register].post.requestBody ?? {});
    for (const field of ['username', 'email', 'password']) expect(registerSchema).toContain(field);
  });

  it('documents every boards route (issue 18): its parameters, body and answers from the shared schemas', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: API.openapi })).json();
    /** Each route as declared, its success status, and the shared schema its answer names. */
    const routes: Array<[method: string, path: string, success: string, answer: string]> = [
      ['get', '/api/users/{username}/boards', '200', 'BoardSummary'],
      ['get', '/api/users/{username}/boards/{slug}', '200', 'BoardDetail'],
      ['get', '/api/users/{username}/boards/{slug}/posts', '200', 'BoardPostCard'],
      ['get', '/api/me/boards', '200', 'SaveTarget'],
      ['post', '/api/boards', '201', 'BoardDetail'],
      ['patch', '/api/boards/{id}', '200', 'BoardDetail'],
      ['delete', '/api/boards/{id}', '204', ''],
      ['put', '/api/boards/{id}/posts/{postId}', '200', 'SaveState'],
      ['delete', '/api/boards/{id}/posts/{postId}', '200', 'SaveState'],
      ['put', '/api/boards/{id}/members/{username}', '200', 'BoardMember'],
      ['delete', '/api/boards/{id}/members/{username}', '200', 'BoardMember'],
      ['post', '/api/boards/{id}/join', '200', 'BoardMember'],
    ];
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .filter(([path]) => /\/boards(\/|$)/.test(path))
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`));
    expect(documented.sort()).toEqual(routes.map(([method, path]) => `${method} ${path}`).sort());
    for (const [method, path, success, answer] of routes) {
      const operation = doc.paths[path][method];
      const where = `${method} ${path}`;
      expect(operation.tags, where).toEqual(['boards']);
      expect(operation.summary, where).toBeTruthy();
      const inPath = [...path.matchAll(/{(\w+)}/g)].map((match) => match[1]);
      const params = (operation.parameters ?? [])
        .filter((param: { in: string }) => param.in === 'path')
        .map((param: { name: string }) => param.name);
      expect(params.sort(), where).toEqual(inPath.sort());
      expect(Object.keys(operation.responses), where).toContain(success);
      if (answer) expect(JSON.stringify(operation.responses[success]), where).toContain(`#/components/schemas/${answer}`);
      // Every refusal is the one error shape; writes name who may not (401) and what is not there (404).
      for (const [status, response] of Object.entries(operation.responses as Record<string, unknown>)) {
        if (Number(status) >= 400) expect(JSON.stringify(response), `${where} ${status}`).toContain('#/components/schemas/Error');
      }
      if (method !== 'get') expect(Object.keys(operation.responses), where).toEqual(expect.arrayContaining(['400', '401']));
    }
    // The bodies, from the shared schemas: what may be sent, and nothing else.
    const body = (method: string, path: string) => doc.paths[path][method].requestBody.content['application/json'].schema;
    expect(Object.keys(body('post', '/api/boards').properties).sort()).toEqual(['description', 'name', 'secret']);
    expect(body('post', '/api/boards').required).toEqual(['name']);
    expect(Object.keys(body('patch', '/api/boards/{id}').properties).sort()).toEqual(['coverPostId', 'description', 'name', 'secret']);
    for (const [method, path] of [
      ['post', '/api/boards'],
      ['patch', '/api/boards/{id}'],
    ] as const) {
      expect(body(method, path).additionalProperties, path).toBe(false);
    }
    expect(doc.paths['/api/me/boards'].get.parameters.map((param: { name: string; in: string }) => `${param.in}:${param.name}`)).toEqual([
      'query:post',
    ]);
    for (const schema of ['BoardSummary', 'BoardDetail', 'BoardMember', 'BoardPostCard', 'SaveTarget', 'SaveState']) {
      expect(doc.components.schemas[schema], schema).toBeDefined();
    }
  });
});
