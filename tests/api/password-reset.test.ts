import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { standaloneAdminContext } from '../../src/server/admin/admin-context.js';
import { runCommandLine } from '../../src/server/admin/commands.js';
import { RESET_LINK_TTL_MS } from '../../src/server/auth/password-reset.service.js';
import { DEFAULT_RATE_LIMITS, loadConfig, type RateLimitConfig } from '../../src/server/config.js';
import { Mailer } from '../../src/server/mail/mailer.js';
import { Outbox } from '../../src/server/mail/outbox.js';
import { API } from '../../src/shared/api/paths.js';
import * as COPY from '../../src/shared/copy.js';
import { sessionCookie, signUp } from '../helpers/accounts.js';
import { expectError, get, query } from '../helpers/people.js';
import { freePort } from '../helpers/services.js';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.js';
import { resetLinkFor, resetTokenIn, TEST_PUBLIC_URL } from '../helpers/reset-links.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Password recovery (issue 16): one-time reset links, from `npm run admin -- reset-link` (run
 * here in-process, the same code the CLI runs) or mailed by "Forgot password?" through a real
 * SMTP server. A link is random, stored hashed, single-use, expires in an hour, and a new one
 * voids the old; using it ends every session of the account and signs this browser in.
 */

const NEW_PASSWORD = 'a fresh start 42';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const check = (t: TestApp, token: string, remoteAddress?: string) =>
  t.app.inject({ method: 'POST', url: API.resetCheck, payload: { token }, ...(remoteAddress && { remoteAddress }) });

const reset = (t: TestApp, token: string, password = NEW_PASSWORD, options: { cookie?: string; confirm?: string } = {}) =>
  t.app.inject({
    method: 'POST',
    url: API.reset,
    payload: { token, newPassword: password, confirmPassword: options.confirm ?? password },
    headers: options.cookie ? { cookie: options.cookie } : {},
  });

const login = (t: TestApp, identifier: string, password: string) =>
  t.app.inject({ method: 'POST', url: API.login, payload: { identifier, password } });

const sessionCount = async (t: TestApp, uid: string) =>
  (await query(t.database, 'SELECT 1 FROM sessions WHERE user_id = $1', [uid])).length;

const limits = (overrides: Partial<RateLimitConfig>): RateLimitConfig => ({
  ...DEFAULT_RATE_LIMITS,
  loginPerIp: 10_000,
  registerPerIp: 10_000,
  ...overrides,
});

describe('reset links (the admin command, the reset page API)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ rateLimits: limits({ resetPerIp: 10_000 }) });
  });
  afterAll(async () => {
    await t.close();
  });

  it('reset-link prints a link under PUBLIC_URL; only the hash is stored, for an hour', async () => {
    const owner = await signUp(t.app);
    const { token, output } = await resetLinkFor(t, owner.username);
    expect(output).toContain(`${TEST_PUBLIC_URL}/reset/${token}`);
    const rows = await query<{ token_hash: string; created_at: Date; expires_at: Date }>(
      t.database,
      'SELECT token_hash, created_at, expires_at FROM password_resets WHERE user_id = $1',
      [owner.uid],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toBe(sha256(token));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(new Date(rows[0]!.expires_at).getTime() - new Date(rows[0]!.created_at).getTime()).toBe(RESET_LINK_TTL_MS);
  });

  it('reset-link: PUBLIC_URL when set; @ and capitals in the username are fine', async () => {
    const owner = await signUp(t.app);
    const context = standaloneAdminContext(t.database, { ...t.config, publicUrl: 'https://dorm.example.edu' });
    const result = await runCommandLine(context, ['reset-link', `@${owner.username.toUpperCase()}`]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/https:\/\/dorm\.example\.edu\/reset\/[\w-]{43}\n/);
  });

  it('checking a live link names its account; a wrong or garbage token is RESET_LINK_INVALID (400)', async () => {
    const owner = await signUp(t.app);
    const { token } = await resetLinkFor(t, owner.username);
    const checked = await check(t, token);
    expect(checked.statusCode, checked.body).toBe(200);
    expect(checked.json()).toEqual({ username: owner.username });

    const flipped = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [flipped, '', 'x', token.toLowerCase(), `${token}x`, sha256(token), '../../etc/passwd', 'a\u0000b']) {
      expectError(await check(t, bad), 400, 'RESET_LINK_INVALID');
      expectError(await reset(t, bad), 400, 'RESET_LINK_INVALID');
    }
    // Nothing was used up by the attempts.
    expect((await check(t, token)).statusCode).toBe(200);
  });

  it("a reset sets the password, ends every session (the asking browser's too), and signs this browser in", async () => {
    const owner = await signUp(t.app);
    // Signed in on a second device, and this browser holds a session of its own (the one that asked).
    const otherDevice = sessionCookie(await login(t, owner.username, owner.password));
    expect(await sessionCount(t, owner.uid)).toBe(2);
    const { token } = await resetLinkFor(t, owner.username);

    const response = await reset(t, token, NEW_PASSWORD, { cookie: owner.cookie });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().user).toMatchObject({ uid: owner.uid, username: owner.username });
    const fresh = sessionCookie(response);
    expect([owner.cookie, otherDevice]).not.toContain(fresh);

    // Exactly one session now: the new one. The old cookies no longer sign anyone in.
    expect(await sessionCount(t, owner.uid)).toBe(1);
    for (const old of [owner.cookie, otherDevice]) expectError(await get(t.app, API.me, old), 401, 'NOT_SIGNED_IN');
    expect((await get(t.app, API.me, fresh)).json().user.uid).toBe(owner.uid);

    expectError(await login(t, owner.username, owner.password), 401, 'INCORRECT_LOGIN');
    expect((await login(t, owner.username, NEW_PASSWORD)).statusCode).toBe(200);
    expect(await query(t.database, 'SELECT 1 FROM password_resets WHERE user_id = $1', [owner.uid])).toEqual([]);
  });

  it('a link works once: the second use, and a check after, are RESET_LINK_INVALID', async () => {
    const owner = await signUp(t.app);
    const { token } = await resetLinkFor(t, owner.username);
    expect((await reset(t, token)).statusCode).toBe(200);
    expectError(await reset(t, token, 'yet another one 7'), 400, 'RESET_LINK_INVALID');
    expectError(await check(t, token), 400, 'RESET_LINK_INVALID');
    expect((await login(t, owner.username, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('two uses at the same moment: exactly one succeeds, and its password is the one set', async () => {
    const owner = await signUp(t.app);
    const { token } = await resetLinkFor(t, owner.username);
    const passwords = ['first of the two 1', 'second of the two 2'];
    const responses = await Promise.all(passwords.map((password) => reset(t, token, password)));
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([200, 400]);
    const winner = passwords[responses.findIndex((response) => response.statusCode === 200)]!;
    const loser = passwords.find((password) => password !== winner)!;
    expect((await login(t, owner.username, winner)).statusCode).toBe(200);
    expectError(await login(t, owner.username, loser), 401, 'INCORRECT_LOGIN');
    expect(await sessionCount(t, owner.uid)).toBe(2);
  });

  it('a new link voids the one before', async () => {
    const owner = await signUp(t.app);
    const first = await resetLinkFor(t, owner.username);
    const second = await resetLinkFor(t, owner.username);
    expect(second.token).not.toBe(first.token);
    expectError(await check(t, first.token), 400, 'RESET_LINK_INVALID');
    expectError(await reset(t, first.token), 400, 'RESET_LINK_INVALID');
    expect((await reset(t, second.token)).statusCode).toBe(200);
  });

  it('an expired link is refused, and its password is not changed', async () => {
    const owner = await signUp(t.app);
    const { token } = await resetLinkFor(t, owner.username);
    // An hour and a moment later, as the database's clock would have it.
    await query(t.database, `UPDATE password_resets SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [owner.uid]);
    expectError(await check(t, token), 400, 'RESET_LINK_INVALID');
    expectError(await reset(t, token), 400, 'RESET_LINK_INVALID');
    expect((await login(t, owner.username, owner.password)).statusCode).toBe(200);
  });

  it('the new password follows the sign-up rules; a refused one leaves the link usable and the sessions alive', async () => {
    const owner = await signUp(t.app);
    const { token } = await resetLinkFor(t, owner.username);
    const refused: Array<[string, string | undefined, string]> = [
      ['short', undefined, 'PASSWORD_LENGTH'],
      [' padded password ', undefined, 'PASSWORD_SPACES'],
      ['password123', undefined, 'PASSWORD_TOO_COMMON'],
      [NEW_PASSWORD, 'something else 1', 'PASSWORDS_DO_NOT_MATCH'],
      ['', undefined, 'FILL_IN_ALL_FIELDS'],
    ];
    for (const [password, confirm, code] of refused) {
      const response = await reset(t, token, password, { confirm });
      expect(response.statusCode, `${password}: ${response.body}`).toBe(400);
      expect(response.json().code).toBe(code);
    }
    expect((await get(t.app, API.me, owner.cookie)).statusCode).toBe(200);
    expect((await reset(t, token)).statusCode).toBe(200);
  });

  it('bad bodies are 400, never a 500', async () => {
    for (const payload of [{}, { token: 5 }, { token: 'x', extra: 1 }, { token: 'a'.repeat(5_000) }, null]) {
      for (const url of [API.resetCheck, API.reset]) {
        const response = await t.app.inject({ method: 'POST', url, payload: payload ?? undefined });
        expect(response.statusCode, `${url} ${JSON.stringify(payload)}: ${response.body}`).toBe(400);
      }
    }
  });

  it('reset-link without PUBLIC_URL: exit code 1, saying why and what to set; no link is made, and an earlier one still works', async () => {
    const owner = await signUp(t.app);
    const { token } = await resetLinkFor(t, owner.username);
    const result = await runCommandLine(standaloneAdminContext(t.database, { ...t.config, publicUrl: undefined }), [
      'reset-link',
      owner.username,
    ]);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toMatch(/^reset-link: PUBLIC_URL is not set, so there is no address for the link\.\nSet PUBLIC_URL to /);
    expect(result.stderr).not.toContain('localhost');
    const rows = await query<{ token_hash: string }>(t.database, 'SELECT token_hash FROM password_resets WHERE user_id = $1', [owner.uid]);
    expect(rows.map((row) => row.token_hash)).toEqual([sha256(token)]);
    expect((await check(t, token)).statusCode).toBe(200);
  });

  it('reset-link for an account that does not exist: exit code 1, and nothing written', async () => {
    const config = { ...t.config, publicUrl: TEST_PUBLIC_URL };
    const result = await runCommandLine(standaloneAdminContext(t.database, config), ['reset-link', 'nobody_here']);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toContain('@nobody_here');
  });

  it('without SMTP_URL, "Forgot password?" does not exist (404)', async () => {
    const owner = await signUp(t.app);
    expectError(await t.app.inject({ method: 'POST', url: API.forgotPassword, payload: { identifier: owner.username } }), 404, 'NOT_FOUND');
    expect(await query(t.database, 'SELECT 1 FROM password_resets WHERE user_id = $1', [owner.uid])).toEqual([]);
  });
});

describe('a reset with the session cache on (the embedded database remembers sessions)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ sessionCacheMs: 60_000 });
  });
  afterAll(async () => {
    await t.close();
  });

  it('a session used (and so remembered) just before the reset stops working at its next request', async () => {
    const owner = await signUp(t.app);
    expect((await get(t.app, API.me, owner.cookie)).statusCode).toBe(200);
    expect((await get(t.app, API.me, owner.cookie)).statusCode).toBe(200);
    const { token } = await resetLinkFor(t, owner.username);
    expect((await reset(t, token)).statusCode).toBe(200);
    expectError(await get(t.app, API.me, owner.cookie), 401, 'NOT_SIGNED_IN');
  });
});

describe('reset link rate limits (per address)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ rateLimits: limits({ resetPerIp: 3 }) });
  });
  afterAll(async () => {
    await t.close();
  });

  it('checks and uses from one address share its limit: then 429, while another address goes on', async () => {
    const owner = await signUp(t.app);
    const { token } = await resetLinkFor(t, owner.username);
    for (let i = 0; i < 3; i++) expect((await check(t, token, '203.0.113.7')).statusCode).toBe(200);
    const refused = await check(t, token, '203.0.113.7');
    expectError(refused, 429, 'RATE_LIMITED');
    expect(refused.headers['retry-after']).toBeDefined();
    // A guess from the same /64 of IPv6 is the same address; another address is not.
    for (let i = 0; i < 3; i++) expect((await check(t, token, `2001:db8::${i + 1}`)).statusCode).toBe(200);
    expectError(await check(t, token, '2001:db8::ffff'), 429, 'RATE_LIMITED');
    expect((await check(t, token, '198.51.100.1')).statusCode).toBe(200);
  });
});

describe('a reset link page served by the server: no Referer, and no token in the log', () => {
  const lines: string[] = [];
  let t: TestApp;
  let clientDir: string;
  beforeAll(async () => {
    clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dormboard-reset-client-'));
    fs.writeFileSync(
      path.join(clientDir, 'index.html'),
      '<title>__APP_NAME__</title><meta name="forgot-password" content="__FORGOT_PASSWORD__">',
    );
    t = await createTestApp({ clientDir, logLevel: 'info' }, { logStream: { write: (line) => void lines.push(line) } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(clientDir, { recursive: true, force: true });
  });

  it('GET /reset/{token}: the page, with Referrer-Policy: no-referrer; the log line has the path without the token', async () => {
    const owner = await signUp(t.app);
    const { token } = await resetLinkFor(t, owner.username);
    lines.length = 0;
    for (const url of [`/reset/${token}`, `/reset/${token}?from=mail`, `/%72eset/${token}`]) {
      const page = await get(t.app, url);
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['referrer-policy'], url).toBe('no-referrer');
    }
    expect((await check(t, token)).statusCode).toBe(200);
    expect((await reset(t, token)).statusCode).toBe(200);
    const log = lines.join('\n');
    expect(log).toContain('/reset/[redacted]');
    expect(log).not.toContain(token);
    expect(log).not.toContain(sha256(token));
    // Everywhere else the app's usual policy stands.
    expect((await get(t.app, '/login')).headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('index.html says whether "Forgot password?" is offered: off without SMTP_URL', async () => {
    expect((await get(t.app, '/login')).body).toContain('<meta name="forgot-password" content="off">');
  });
});

describe('"Forgot password?" through a real SMTP server', () => {
  const PUBLIC_URL = 'https://dorm.example.edu';
  const lines: string[] = [];
  let smtp: TestSmtpServer;
  let outbox: Outbox;
  let t: TestApp;

  async function appWith(smtpUrl: string, rateLimits: Partial<RateLimitConfig> = {}) {
    const config = loadConfig({ SMTP_URL: smtpUrl, PUBLIC_URL, MAIL_FROM: 'Dorm Board <board@dorm.example.edu>' });
    outbox = new Outbox(new Mailer(config.mail!));
    t = await createTestApp(
      {
        mail: config.mail,
        publicUrl: config.publicUrl,
        logLevel: 'info',
        rateLimits: limits({ forgotPerIp: 10_000, forgotPerAccount: 10_000, resetPerIp: 10_000, ...rateLimits }),
      },
      { outbox, logStream: { write: (line) => void lines.push(line) } },
    );
  }
  const forgot = (identifier: unknown, remoteAddress = '127.0.0.1') =>
    t.app.inject({ method: 'POST', url: API.forgotPassword, payload: { identifier }, remoteAddress });
  /** A new account: with mail on, its verification mail comes first (issue 29), taken here. */
  async function signUpMailed() {
    const account = await signUp(t.app);
    await outbox.idle();
    expect((await smtp.next()).text).toContain(`Subject: ${COPY.verifyMail.subject(t.config.appName)}`);
    return account;
  }

  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterEach(async () => {
    await t?.close();
    lines.length = 0;
  });
  afterAll(async () => {
    await smtp.close();
  });

  it('mails the account a link under PUBLIC_URL (by username or e-mail), and that link resets the password', async () => {
    await appWith(smtp.url);
    const owner = await signUpMailed();
    const response = await forgot(owner.username);
    expect(response.statusCode, response.body).toBe(204);
    const mail = await smtp.next();
    expect(mail.to).toEqual([owner.email]);
    expect(mail.from).toBe('board@dorm.example.edu');
    expect(mail.text).toContain(`Subject: ${COPY.resetMail.subject(t.config.appName)}`);
    for (const words of [COPY.resetMail.expires, COPY.resetMail.ignore, COPY.resetMail.greeting(owner.username)]) {
      expect(mail.text).toContain(words);
    }
    expect(mail.text).toMatch(/Content-Type: text\/plain/);
    expect(mail.text).toMatch(/Content-Type: text\/html/);
    const links = [...mail.text.matchAll(/https:\/\/dorm\.example\.edu\/reset\/([\w-]{43})/g)].map((match) => match[1]);
    expect(links.length).toBeGreaterThanOrEqual(1);
    expect(new Set(links).size).toBe(1);

    expect((await reset(t, links[0]!, NEW_PASSWORD, { cookie: owner.cookie })).statusCode).toBe(200);
    expect((await login(t, owner.username, NEW_PASSWORD)).statusCode).toBe(200);
    expectError(await get(t.app, API.me, owner.cookie), 401, 'NOT_SIGNED_IN');

    // By e-mail address, typed in capitals: the same account, a new link.
    expect((await forgot(owner.email.toUpperCase())).statusCode).toBe(204);
    const second = await smtp.next();
    expect(second.to).toEqual([owner.email]);
    expect(resetTokenIn(second.text)).not.toBe(links[0]);
    // The log has the event, never the link.
    const log = lines.join('\n');
    expect(log).toContain('mailed a reset link');
    expect(log).not.toContain(links[0]);
    expect(log).not.toContain(resetTokenIn(second.text));
  });

  it('no such account: the same answer, and no mail', async () => {
    await appWith(smtp.url);
    const owner = await signUpMailed();
    const before = smtp.mails.length;
    const known = await forgot(owner.username);
    await outbox.idle();
    await smtp.next();
    for (const identifier of ['nobody_at_all', 'nobody@example.com']) {
      const unknown = await forgot(identifier);
      expect([unknown.statusCode, unknown.body, unknown.headers['content-type']]).toEqual([
        known.statusCode,
        known.body,
        known.headers['content-type'],
      ]);
    }
    await outbox.idle();
    expect(smtp.mails.length).toBe(before + 1);
  });

  it('an empty identifier is "Fill in all the fields."; bad bodies are 400', async () => {
    await appWith(smtp.url);
    expectError(await forgot('   '), 400, 'FILL_IN_ALL_FIELDS');
    for (const payload of [{}, { identifier: 5 }, { identifier: 'a', x: 1 }, { identifier: 'a'.repeat(2_000) }]) {
      expect((await t.app.inject({ method: 'POST', url: API.forgotPassword, payload })).statusCode).toBe(400);
    }
  });

  it('per account: a few mails per window, then silence with the very same answer', async () => {
    await appWith(smtp.url, { forgotPerAccount: 2 });
    const owner = await signUpMailed();
    const before = smtp.mails.length;
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await forgot(owner.username, `198.51.100.${i + 1}`));
    await outbox.idle();
    expect(new Set(answers.map((answer) => `${answer.statusCode} ${answer.body}`))).toEqual(new Set(['204 ']));
    expect(smtp.mails.length - before).toBe(2);
    expect(lines.join('\n')).toContain('"security":"rate limited"');
  });

  it('per address: 429 once the address has asked enough, whatever the account', async () => {
    await appWith(smtp.url, { forgotPerIp: 2 });
    const owner = await signUp(t.app);
    expect((await forgot(owner.username, '203.0.113.9')).statusCode).toBe(204);
    expect((await forgot('nobody_at_all', '203.0.113.9')).statusCode).toBe(204);
    expectError(await forgot(owner.username, '203.0.113.9'), 429, 'RATE_LIMITED');
    expectError(await forgot('nobody_at_all', '203.0.113.9'), 429, 'RATE_LIMITED');
    expect((await forgot(owner.username, '203.0.113.10')).statusCode).toBe(204);
    await outbox.idle();
  });

  it('SMTP down: still the same answer; the failure is logged, without the link', async () => {
    await appWith(`smtp://mailer:secret@127.0.0.1:${await freePort()}`);
    const owner = await signUp(t.app);
    const response = await forgot(owner.username);
    expect([response.statusCode, response.body]).toEqual([204, '']);
    await outbox.idle();
    const failed = lines.map((line) => JSON.parse(line) as { msg: string; mail?: string }).filter((line) => line.msg === 'mail not sent');
    expect(failed.map((line) => line.mail)).toEqual(['address verification', 'password reset']);
    // The link was made (and may be re-sent by asking again) but never shown anywhere.
    expect(await query(t.database, 'SELECT 1 FROM password_resets WHERE user_id = $1', [owner.uid])).toHaveLength(1);
  });
});

describe('mail settings', () => {
  it('SMTP_URL without PUBLIC_URL: the server refuses to start', () => {
    expect(() => loadConfig({ SMTP_URL: 'smtp://127.0.0.1:25' })).toThrow(/PUBLIC_URL/);
  });

  it('PUBLIC_URL must be an http(s) origin, nothing more', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://Dorm.Example.edu/' }).publicUrl).toBe('https://dorm.example.edu');
    for (const bad of ['dorm.example.edu', 'ftp://dorm.example.edu', 'https://dorm.example.edu/app', 'https://u:p@dorm.example.edu']) {
      expect(() => loadConfig({ PUBLIC_URL: bad }), bad).toThrow(/PUBLIC_URL/);
    }
  });

  it('mail is off without SMTP_URL; MAIL_FROM defaults to no-reply at the public host', () => {
    expect(loadConfig({}).mail).toBeUndefined();
    expect(loadConfig({ SMTP_URL: 'smtp://127.0.0.1:25', PUBLIC_URL: 'https://dorm.example.edu', APP_NAME: 'Dorm' }).mail).toEqual({
      smtpUrl: 'smtp://127.0.0.1:25',
      from: 'Dorm <no-reply@dorm.example.edu>',
    });
  });
});
