import { createHash, createHmac } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { standaloneAdminContext } from '../../src/server/admin/admin-context.js';
import { ADMIN_COMMAND_PATH } from '../../src/server/admin/admin.routes.js';
import { runCommandLine } from '../../src/server/admin/commands.js';
import { buildApp } from '../../src/server/app.js';
import { VERIFY_CODE_ATTEMPTS, VERIFY_TTL_MS } from '../../src/server/auth/email-verification.service.js';
import { loadConfig } from '../../src/server/config.js';
import { loadServerSecret } from '../../src/server/server-secret.js';
import type { Me } from '../../src/shared/api/auth.js';
import { API } from '../../src/shared/api/paths.js';
import * as COPY from '../../src/shared/copy.js';
import { ERRORS } from '../../src/shared/errors.js';
import { newAccount, sessionCookie, signUp } from '../helpers/accounts.js';
import { boardRoutes, boardSteps, insertPostsBy } from '../helpers/boards.js';
import { jpeg } from '../helpers/images.js';
import { expectError, follow, get, mediaFiles, patchMe, query } from '../helpers/people.js';
import { createPost } from '../helpers/posts.js';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.js';
import { createTestApp, TEST_RATE_LIMITS, type TestApp } from '../helpers/test-app.js';
import {
  changeEmail,
  lastMailTo,
  MAIL_PUBLIC_URL,
  mailedVerification,
  mailingApp,
  mailsTo,
  meOf,
  resendVerification,
  verificationIn,
  verifyByMail,
  verifyCode,
  verifyLink,
  type MailingApp,
} from '../helpers/verification.js';

/**
 * Verified addresses (issue 29 point 1), through a real SMTP server: with SMTP_URL set, a new
 * account is mailed a link and a 6-digit code, and may not post, follow, save, report or invite
 * until it has used one (403 'Check your inbox to verify {email}.'). The link works anywhere
 * (signed in or not), the code on the signed-in device; both for 24 hours, once, stored only as
 * hashes. A new address waits, pending, for its own link. Without SMTP_URL nobody is held back.
 */

type Account = Awaited<ReturnType<typeof signUp>>;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const notVerifiedMessage = (email: string) => ERRORS.EMAIL_NOT_VERIFIED.replace('{email}', email);

const register = (app: FastifyInstance, body: { username: string; email: string; password: string }) =>
  app.inject({ method: 'POST', url: API.register, payload: body });
const login = (app: FastifyInstance, identifier: string, password: string) =>
  app.inject({ method: 'POST', url: API.login, payload: { identifier, password } });
const me = async (app: FastifyInstance, cookie: string): Promise<Me> => meOf(await get(app, API.me, cookie));
const report = (app: FastifyInstance, cookie: string | undefined, username: string) =>
  app.inject({ method: 'POST', url: API.reports, payload: { username, reason: 'spam' }, headers: cookie ? { cookie } : {} });
const deleteAccount = (app: FastifyInstance, account: Account) =>
  app.inject({ method: 'DELETE', url: API.me, payload: { password: account.password }, headers: { cookie: account.cookie } });

/** 403 EMAIL_NOT_VERIFIED, its message filled in with exactly this address. */
function expectNotVerified(response: LightMyRequestResponse, email: string) {
  expectError(response, 403, 'EMAIL_NOT_VERIFIED');
  expect(response.json()).toMatchObject({ message: notVerifiedMessage(email), messages: [notVerifiedMessage(email)] });
}

/** A 6-digit code that is not `code`. */
const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

async function usersRow(t: TestApp, uid: string) {
  const [row] = await query<{
    email: string;
    pending_email: string | null;
    verify_email: boolean;
    email_verified_at: Date | null;
    email_skeleton: string;
  }>(t.database, 'SELECT email, pending_email, verify_email, email_verified_at, email_skeleton FROM users WHERE id = $1', [uid]);
  expect(row, uid).toBeDefined();
  return row!;
}

async function verificationRows(t: TestApp, uid: string) {
  return query<{
    email: string;
    token_hash: string;
    code_hash: string;
    code_attempts: number;
    created_at: Date;
    expires_at: Date;
  }>(t.database, 'SELECT email, token_hash, code_hash, code_attempts, created_at, expires_at FROM email_verifications WHERE user_id = $1', [
    uid,
  ]);
}

async function makeRole(t: TestApp, account: Account, role: 'moderator' | 'admin') {
  await query(t.database, 'UPDATE users SET role = $1 WHERE id = $2', [role, account.uid]);
}

/** The five things an unverified account may not do, each with what it would change. */
interface Gated {
  name: string;
  route: string;
  success: number;
  send(cookie: string): Promise<LightMyRequestResponse>;
  /** Rows the attempt would have written. */
  written(): Promise<number>;
}

/**
 * The scene of the gated routes for `actor`: a verified stranger to follow, report and invite,
 * a post of theirs to save, and a board of the actor's own (making a board is not held back).
 */
async function gatedRoutes(t: TestApp, actor: Account, stranger: Account): Promise<Gated[]> {
  const board = await boardSteps(t.app).create(actor, { name: 'Mine already' });
  const [postId] = await insertPostsBy(t.database, stranger.uid, 1);
  const photo = await jpeg(40, 30);
  const count = async (sql: string, param: string) => (await query(t.database, sql, [param])).length;
  return [
    {
      name: 'post',
      route: `POST ${API.posts}`,
      success: 201,
      send: (cookie) => createPost(t.app, cookie, { bytes: photo, description: 'my first #dorm post' }),
      written: () => count('SELECT 1 FROM posts WHERE user_id = $1', actor.uid),
    },
    {
      name: 'follow',
      route: 'PUT /api/users/:username/follow',
      success: 200,
      send: (cookie) => follow(t.app, stranger.username, cookie),
      written: () => count('SELECT 1 FROM follows WHERE follower_id = $1', actor.uid),
    },
    {
      name: 'save',
      route: 'PUT /api/boards/:id/posts/:postId',
      success: 200,
      send: (cookie) => boardRoutes(t.app).save(cookie, board.id, postId!),
      written: () => count('SELECT 1 FROM board_posts WHERE board_id = $1', board.id),
    },
    {
      name: 'report',
      route: `POST ${API.reports}`,
      success: 204,
      send: (cookie) => report(t.app, cookie, stranger.username),
      written: () => count('SELECT 1 FROM reports WHERE reporter_id = $1', actor.uid),
    },
    {
      name: 'invite',
      route: 'PUT /api/boards/:id/members/:username',
      success: 200,
      send: (cookie) => boardRoutes(t.app).invite(cookie, board.id, stranger.username),
      written: () => count('SELECT 1 FROM board_members WHERE board_id = $1', board.id),
    },
  ];
}

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
});

describe('with mail on (SMTP_URL): sign-up, the gate, the link and the code', () => {
  let t: MailingApp;
  beforeAll(async () => {
    // Refusals of a new address are many here; their own limit is tested below.
    t = await mailingApp(smtp, { rateLimits: { ...TEST_RATE_LIMITS, passwordChangesPerUser: 10_000 } });
  });
  afterAll(async () => {
    await t.close();
  });

  /** A new account whose address is proved already (by its mail's link). */
  async function verifiedAccount(prefix = 'ok') {
    const account = await signUp(t.app, newAccount(prefix));
    await verifyByMail(t, account);
    return account;
  }

  it('a new account is mailed a link under PUBLIC_URL and a 6-digit code; only their hashes are stored, and the log has neither', async () => {
    const body = newAccount('fresh');
    const response = await register(t.app, body);
    expect(response.statusCode, response.body).toBe(201);
    const uid = response.json<{ user: Me }>().user.uid;
    expect(meOf(response)).toMatchObject({ email: body.email, emailVerified: false, pendingEmail: null, mustVerify: true });
    expect(await usersRow(t, uid)).toMatchObject({ verify_email: true, email_verified_at: null, pending_email: null });

    const mails = await mailsTo(t, body.email);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.to).toEqual([body.email]);
    expect(mail!.from).toBe('board@dorm.example.edu');
    const words = COPY.verifyMail;
    expect(mail!.text).toContain(`Subject: ${words.subject(t.config.appName)}`);
    for (const text of [
      words.greeting(body.username),
      words.asked(t.config.appName, body.email),
      words.expires,
      words.ignore(t.config.appName),
      words.button,
    ]) {
      expect(mail!.text).toContain(text);
    }
    expect(mail!.text).toMatch(/Content-Type: text\/plain/);
    expect(mail!.text).toMatch(/Content-Type: text\/html/);
    const { token, spaced, code } = verificationIn(mail!);
    expect(mail!.text).toContain(`${MAIL_PUBLIC_URL}/verify/${token}`);
    expect(mail!.text).toContain(words.code(spaced));
    expect(spaced).toMatch(/^\d{3} \d{3}$/);

    // One verification, for the account's address: the token's SHA-256 and the code keyed with the server's secret.
    const secret = await loadServerSecret(t.config);
    const rows = await verificationRows(t, uid);
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row).toMatchObject({
      email: body.email,
      token_hash: sha256(token),
      code_hash: createHmac('sha256', secret).update(`verify-code\0${uid}:${code}`).digest('hex'),
      code_attempts: 0,
    });
    expect(new Date(row!.expires_at).getTime() - new Date(row!.created_at).getTime()).toBe(VERIFY_TTL_MS);
    expect(VERIFY_TTL_MS).toBe(24 * 60 * 60 * 1000);
    const stored = JSON.stringify(row);
    for (const secretText of [token, code, sha256(code)]) expect(stored).not.toContain(secretText);

    // Proving it is logged as a security event; neither the link nor the code is ever in the log.
    expect((await verifyLink(t.app, token)).json()).toEqual({ email: body.email });
    const log = t.lines.join('\n');
    expect(log).toContain('"security":"signed up"');
    expect(log).toContain('"security":"verified e-mail"');
    for (const secretText of [token, spaced, `"${code}"`]) expect(log).not.toContain(secretText);
  });

  it('each of the five gated routes answers 403 "Check your inbox to verify {email}." and changes nothing; after the link each works', async () => {
    const account = await signUp(t.app, newAccount('gated'));
    const stranger = await verifiedAccount('stranger');
    const routes = await gatedRoutes(t, account, stranger);
    const files = mediaFiles(t);

    for (const route of routes) {
      expectNotVerified(await route.send(account.cookie), account.email);
      expect(await route.written(), route.name).toBe(0);
    }
    expect(mediaFiles(t)).toEqual(files);

    // Everything else an account does is open meanwhile: its profile, its boards, signing in again.
    expect(await me(t.app, account.cookie)).toMatchObject({ mustVerify: true, emailVerified: false });
    expect((await patchMe(t.app, account.cookie, [['bio', 'new here']])).statusCode).toBe(200);
    expect((await boardRoutes(t.app).create(account.cookie, { name: 'Another' })).statusCode).toBe(201);
    const again = await login(t.app, account.email, account.password);
    expect(meOf(again)).toMatchObject({ uid: account.uid, mustVerify: true });

    const { token } = await mailedVerification(t, account.email);
    const verified = await verifyLink(t.app, token);
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toEqual({ email: account.email });
    expect(await me(t.app, account.cookie)).toMatchObject({ emailVerified: true, mustVerify: false, pendingEmail: null });
    for (const route of routes) {
      const response = await route.send(account.cookie);
      expect(response.statusCode, `${route.name}: ${response.body}`).toBe(route.success);
      expect(await route.written(), route.name).toBe(1);
    }
    expect(await usersRow(t, account.uid)).toMatchObject({ email: account.email, pending_email: null });
    expect((await usersRow(t, account.uid)).email_verified_at).not.toBeNull();
  });

  it('the code proves the address on the signed-in device, with or without its space; then the link is used up too', async () => {
    for (const form of ['spaced', 'code'] as const) {
      const account = await signUp(t.app, newAccount('code'));
      const mailed = await mailedVerification(t, account.email);
      const response = await verifyCode(t.app, account.cookie, mailed[form]);
      expect(response.statusCode, response.body).toBe(200);
      expect(meOf(response)).toMatchObject({ uid: account.uid, email: account.email, emailVerified: true, mustVerify: false });
      expect(await verificationRows(t, account.uid)).toEqual([]);
      expectError(await verifyLink(t.app, mailed.token), 400, 'VERIFY_LINK_INVALID');
      expectError(await verifyCode(t.app, account.cookie, mailed.code), 409, 'ALREADY_VERIFIED');
      expect((await createPost(t.app, account.cookie, { bytes: await jpeg(40, 30) })).statusCode).toBe(201);
    }
    // Signed out there is no code to check.
    expectError(await verifyCode(t.app, undefined, '123456'), 401, 'NOT_SIGNED_IN');
  });

  it(`${VERIFY_CODE_ATTEMPTS} wrong codes void the code (the right one is then refused), but the link still works`, async () => {
    const account = await signUp(t.app, newAccount('guess'));
    const mailed = await mailedVerification(t, account.email);
    // Not a 6-digit code at all: refused without counting.
    for (const malformed of ['12345', '1234567', 'abcdef', '12 34 5', '']) {
      expectError(await verifyCode(t.app, account.cookie, malformed), 400, 'VERIFY_CODE_INVALID');
    }
    expect((await verificationRows(t, account.uid))[0]?.code_attempts).toBe(0);

    for (let i = 1; i <= VERIFY_CODE_ATTEMPTS; i++) {
      expectError(await verifyCode(t.app, account.cookie, otherCode(mailed.code)), 400, 'VERIFY_CODE_INVALID');
      expect((await verificationRows(t, account.uid))[0]?.code_attempts).toBe(i);
    }
    expectError(await verifyCode(t.app, account.cookie, mailed.code), 400, 'VERIFY_CODE_INVALID');
    expect(await me(t.app, account.cookie)).toMatchObject({ emailVerified: false, mustVerify: true });

    expect((await verifyLink(t.app, mailed.token)).statusCode).toBe(200);
    expect(await me(t.app, account.cookie)).toMatchObject({ emailVerified: true, mustVerify: false });
  });

  it('a link works once and for 24 hours: used, expired, malformed or unknown it is 400 VERIFY_LINK_INVALID, and bad bodies are 400', async () => {
    const used = await signUp(t.app, newAccount('once'));
    const { token } = await mailedVerification(t, used.email);
    expect((await verifyLink(t.app, token)).statusCode).toBe(200);
    const twice = await verifyLink(t.app, token);
    expectError(twice, 400, 'VERIFY_LINK_INVALID');
    expect(twice.json().message).toBe(ERRORS.VERIFY_LINK_INVALID);

    // Past its 24 hours the link and the code are refused, and nothing is proved.
    const late = await signUp(t.app, newAccount('late'));
    const mailed = await mailedVerification(t, late.email);
    await query(t.database, `UPDATE email_verifications SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [late.uid]);
    expectError(await verifyLink(t.app, mailed.token), 400, 'VERIFY_LINK_INVALID');
    expectError(await verifyCode(t.app, late.cookie, mailed.code), 400, 'VERIFY_CODE_INVALID');
    expect(await me(t.app, late.cookie)).toMatchObject({ emailVerified: false, mustVerify: true });
    expect((await usersRow(t, late.uid)).email_verified_at).toBeNull();

    const unknown = Buffer.alloc(32, 7).toString('base64url');
    for (const bad of [unknown, mailed.token.slice(1), `${mailed.token}A`, `${mailed.token.slice(0, 42)}!`, ' ', '']) {
      expectError(await verifyLink(t.app, bad), 400, 'VERIFY_LINK_INVALID');
    }
    for (const payload of [
      {},
      { token: 5 },
      { token: null },
      { token: [mailed.token] },
      { token: mailed.token, extra: 1 },
      { token: 'x'.repeat(5_000) },
    ]) {
      const response = await t.app.inject({ method: 'POST', url: API.verifyLink, payload });
      expect(response.statusCode, `${JSON.stringify(payload).slice(0, 80)}: ${response.body}`).toBe(400);
    }
    for (const payload of [{}, { code: 123456 }, { code: null }, { code: '123456', extra: 1 }]) {
      const response = await t.app.inject({ method: 'POST', url: API.verifyCode, payload, headers: { cookie: late.cookie } });
      expect(response.statusCode, `${JSON.stringify(payload)}: ${response.body}`).toBe(400);
    }
    expect((await usersRow(t, late.uid)).email_verified_at).toBeNull();
  });

  it('Resend mails a new link and code to the address being verified; the old ones stop working; 409 once verified', async () => {
    const account = await signUp(t.app, newAccount('resend'));
    const first = await mailedVerification(t, account.email);
    const resent = await resendVerification(t.app, account.cookie);
    expect([resent.statusCode, resent.body]).toEqual([204, '']);
    const mails = await mailsTo(t, account.email);
    expect(mails).toHaveLength(2);
    const second = verificationIn(mails[1]!);
    expect(second.token).not.toBe(first.token);
    expect(await verificationRows(t, account.uid)).toHaveLength(1);

    expectError(await verifyLink(t.app, first.token), 400, 'VERIFY_LINK_INVALID');
    // (The two codes are random: 1 in a million they are the same, and the old one is the new one.)
    if (first.code !== second.code) expectError(await verifyCode(t.app, account.cookie, first.code), 400, 'VERIFY_CODE_INVALID');
    expect(await me(t.app, account.cookie)).toMatchObject({ mustVerify: true });
    expect((await verifyLink(t.app, second.token)).statusCode).toBe(200);

    expectError(await resendVerification(t.app, account.cookie), 409, 'ALREADY_VERIFIED');
    expectError(await resendVerification(t.app, undefined), 401, 'NOT_SIGNED_IN');
    expect(await mailsTo(t, account.email)).toHaveLength(2);
  });

  it('verified in another browser (no cookie): the signed-in session may post at once, the session cache forgets the account', async () => {
    const account = await signUp(t.app, newAccount('elsewhere'));
    // The session is read, and remembered, as not verified.
    expect(await me(t.app, account.cookie)).toMatchObject({ mustVerify: true });
    expectNotVerified(await createPost(t.app, account.cookie, { bytes: await jpeg(40, 30) }), account.email);

    const { token } = await mailedVerification(t, account.email);
    expect((await verifyLink(t.app, token)).statusCode).toBe(200);

    const posted = await createPost(t.app, account.cookie, { bytes: await jpeg(40, 30), description: 'right away' });
    expect(posted.statusCode, posted.body).toBe(201);
    expect(await me(t.app, account.cookie)).toMatchObject({ mustVerify: false, emailVerified: true });
  });

  it('a verified account asking for a new address: pending until its own link, the old address signs in meanwhile, then the new one does', async () => {
    const account = await verifiedAccount('mover');
    const next = newAccount('moved').email;
    const asked = await changeEmail(t.app, account.cookie, { email: next.toUpperCase(), currentPassword: account.password });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(meOf(asked)).toMatchObject({ email: account.email, pendingEmail: next, emailVerified: true, mustVerify: false });
    expect(await me(t.app, account.cookie)).toMatchObject({ email: account.email, pendingEmail: next, mustVerify: false });
    expect(t.lines.join('\n')).toContain('"security":"changed e-mail"');

    // The mail goes to the new address only, naming it.
    const mail = await lastMailTo(t, next);
    expect(mail.text).toContain(COPY.verifyMail.asked(t.config.appName, next));
    expect(await mailsTo(t, account.email)).toHaveLength(1);
    const mailed = verificationIn(mail);
    expect(await verificationRows(t, account.uid)).toMatchObject([{ email: next, token_hash: sha256(mailed.token) }]);

    // A verified account is not held back while its new address waits.
    expect((await createPost(t.app, account.cookie, { bytes: await jpeg(40, 30) })).statusCode).toBe(201);
    expect((await login(t.app, account.email, account.password)).statusCode).toBe(200);
    expectError(await login(t.app, next, account.password), 401, 'INCORRECT_LOGIN');

    // Resend goes to the pending address.
    expect((await resendVerification(t.app, account.cookie)).statusCode).toBe(204);
    expect(await mailsTo(t, next)).toHaveLength(2);
    const fresh = await mailedVerification(t, next);

    const proved = await verifyCode(t.app, account.cookie, fresh.spaced);
    expect(proved.statusCode, proved.body).toBe(200);
    expect(meOf(proved)).toMatchObject({ email: next, pendingEmail: null, emailVerified: true, mustVerify: false });
    const row = await usersRow(t, account.uid);
    expect(row).toMatchObject({ email: next, pending_email: null });
    expect(row.email_verified_at).not.toBeNull();
    expect((await login(t.app, next, account.password)).statusCode).toBe(200);
    expectError(await login(t.app, account.email, account.password), 401, 'INCORRECT_LOGIN');
    // The old address is free for anyone now.
    expect((await register(t.app, { ...newAccount('heir'), email: account.email })).statusCode).toBe(201);
  });

  it('an unverified new account asking for a new address: the gate names the new address, and proving it lifts the gate', async () => {
    const account = await signUp(t.app, newAccount('typo'));
    const first = await mailedVerification(t, account.email);
    const next = newAccount('fixed').email;
    const asked = await changeEmail(t.app, account.cookie, { email: next, currentPassword: account.password });
    expect(meOf(asked)).toMatchObject({ email: account.email, pendingEmail: next, emailVerified: false, mustVerify: true });
    expectNotVerified(await createPost(t.app, account.cookie, { bytes: await jpeg(40, 30) }), next);
    expectNotVerified(await follow(t.app, account.username, account.cookie), next);

    // The new mail voids the first one's link.
    const mailed = await mailedVerification(t, next);
    expectError(await verifyLink(t.app, first.token), 400, 'VERIFY_LINK_INVALID');
    expect(await me(t.app, account.cookie)).toMatchObject({ email: account.email, emailVerified: false });

    expect((await verifyLink(t.app, mailed.token)).json()).toEqual({ email: next });
    expect(await me(t.app, account.cookie)).toMatchObject({ email: next, pendingEmail: null, emailVerified: true, mustVerify: false });
    expect((await createPost(t.app, account.cookie, { bytes: await jpeg(40, 30) })).statusCode).toBe(201);
  });

  it('the current address again cancels a pending change, and its link stops working; then it is "That is already your address."', async () => {
    const account = await verifiedAccount('keeper');
    const next = newAccount('never').email;
    expect((await changeEmail(t.app, account.cookie, { email: next, currentPassword: account.password })).statusCode).toBe(200);
    const mailed = await mailedVerification(t, next);

    const cancelled = await changeEmail(t.app, account.cookie, { email: account.email.toUpperCase(), currentPassword: account.password });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(meOf(cancelled)).toMatchObject({ email: account.email, pendingEmail: null, emailVerified: true, mustVerify: false });
    expect(await verificationRows(t, account.uid)).toEqual([]);
    expectError(await verifyLink(t.app, mailed.token), 400, 'VERIFY_LINK_INVALID');
    expect(await usersRow(t, account.uid)).toMatchObject({ email: account.email, pending_email: null });

    expectError(await changeEmail(t.app, account.cookie, { email: account.email, currentPassword: account.password }), 400, 'SAME_EMAIL');
    // No mail for a cancel: the new address got its one.
    expect(await mailsTo(t, next)).toHaveLength(1);
  });

  it('a pending address another account took meanwhile: proving it is 409 "Email already registered.", and nothing changes', async () => {
    const account = await verifiedAccount('slow');
    const next = newAccount('contested').email;
    expect((await changeEmail(t.app, account.cookie, { email: next, currentPassword: account.password })).statusCode).toBe(200);
    const mailed = await mailedVerification(t, next);
    // A pending address is not taken: someone may sign up with it.
    expect((await register(t.app, { ...newAccount('quick'), email: next })).statusCode).toBe(201);

    expectError(await verifyLink(t.app, mailed.token), 409, 'EMAIL_TAKEN');
    expect(await usersRow(t, account.uid)).toMatchObject({ email: account.email, pending_email: next });
    expect(await verificationRows(t, account.uid)).toHaveLength(1);
    expectError(await verifyCode(t.app, account.cookie, mailed.code), 409, 'EMAIL_TAKEN');
    expect(await me(t.app, account.cookie)).toMatchObject({ email: account.email, pendingEmail: next, emailVerified: true });
  });

  it('a new address refused: taken 409, a wrong password 401, empty, invalid or the same 400, malformed bodies 400; never a 500, nothing changed or mailed', async () => {
    const account = await verifiedAccount('refused');
    const other = await signUp(t.app, newAccount('owner'));
    const fresh = newAccount('unmailed').email;
    const put = (payload: unknown) => changeEmail(t.app, account.cookie, payload);

    expectError(await put({ email: other.email, currentPassword: account.password }), 409, 'EMAIL_TAKEN');
    expectError(await put({ email: other.email.toUpperCase(), currentPassword: account.password }), 409, 'EMAIL_TAKEN');
    expectError(await put({ email: fresh, currentPassword: 'not my password' }), 401, 'INCORRECT_PASSWORD');
    for (const [email, currentPassword] of [
      ['', account.password],
      ['   ', account.password],
      [fresh, ''],
    ]) {
      expectError(await put({ email, currentPassword }), 400, 'FILL_IN_ALL_FIELDS');
    }
    for (const email of ['not-an-address', 'a@b', `${fresh}, ${other.email}`, '@example.com']) {
      expectError(await put({ email, currentPassword: account.password }), 400, 'EMAIL_INVALID');
    }
    expectError(await put({ email: account.email, currentPassword: account.password }), 400, 'SAME_EMAIL');
    for (const payload of [
      {},
      { email: fresh },
      { currentPassword: account.password },
      { email: 5, currentPassword: account.password },
      { email: fresh, currentPassword: null },
      { email: [fresh], currentPassword: account.password },
      { email: fresh, currentPassword: account.password, role: 'admin' },
      { email: 'x'.repeat(5_000), currentPassword: account.password },
    ]) {
      const response = await put(payload);
      expect(response.statusCode, `${JSON.stringify(payload).slice(0, 80)}: ${response.body}`).toBe(400);
    }
    const bare = await t.app.inject({ method: 'PUT', url: API.email, headers: { cookie: account.cookie } });
    expect(bare.statusCode, bare.body).toBe(400);
    expectError(await changeEmail(t.app, undefined, { email: fresh, currentPassword: account.password }), 401, 'NOT_SIGNED_IN');

    expect(await usersRow(t, account.uid)).toMatchObject({ email: account.email, pending_email: null });
    expect(await mailsTo(t, fresh)).toEqual([]);
    expect(await mailsTo(t, other.email)).toHaveLength(1);
  });

  it('Me says the same in every answer that carries it: sign-up, sign-in, GET /api/me, a profile edit, a code', async () => {
    const body = newAccount('mirror');
    const signedUp = await register(t.app, body);
    const cookie = sessionCookie(signedUp);
    const pending = { emailVerified: false, pendingEmail: null, mustVerify: true };
    expect(meOf(signedUp)).toMatchObject(pending);
    expect(meOf(await login(t.app, body.username, body.password))).toMatchObject(pending);
    expect(await me(t.app, cookie)).toMatchObject(pending);
    expect(meOf(await patchMe(t.app, cookie, [['bio', 'hello']]))).toMatchObject(pending);
    const { code } = await mailedVerification(t, body.email);
    const done = { emailVerified: true, pendingEmail: null, mustVerify: false };
    expect(meOf(await verifyCode(t.app, cookie, code))).toMatchObject(done);
    expect(meOf(await login(t.app, body.email, body.password))).toMatchObject(done);
    expect(await me(t.app, cookie)).toMatchObject(done);
    expect(meOf(await patchMe(t.app, cookie, [['bio', 'hello again']]))).toMatchObject(done);
  });
});

describe('limits on verification mails and checks', () => {
  it('per account: a few mails (sign-up, Resend, a new address), then 429 "We have sent several e-mails already..."', async () => {
    const t = await mailingApp(smtp, { rateLimits: { ...TEST_RATE_LIMITS, verifyMailsPerAccount: 2, verifyMailsPerAddress: 3 } });
    try {
      const account = await signUp(t.app, newAccount('limited'));
      // The sign-up's mail is made after the answer: it has taken its slot once it is out.
      expect(await mailsTo(t, account.email)).toHaveLength(1);
      expect((await resendVerification(t.app, account.cookie)).statusCode).toBe(204);
      const refused = await resendVerification(t.app, account.cookie);
      expectError(refused, 429, 'VERIFY_MAILS_TOO_MANY');
      expect(refused.json().message).toBe(ERRORS.VERIFY_MAILS_TOO_MANY);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // A new address counts against the same account: refused before anything is kept.
      const next = newAccount('elsewhere').email;
      expectError(
        await changeEmail(t.app, account.cookie, { email: next, currentPassword: account.password }),
        429,
        'VERIFY_MAILS_TOO_MANY',
      );
      expect(await usersRow(t, account.uid)).toMatchObject({ email: account.email, pending_email: null });
      expect(await mailsTo(t, account.email)).toHaveLength(2);
      expect(await mailsTo(t, next)).toEqual([]);
      // The mails that did go work: the newest proves the address.
      expect((await verifyLink(t.app, (await mailedVerification(t, account.email)).token)).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('per address: whichever accounts name it, a few mails, then 429; a sign-up to that address still succeeds, unmailed', async () => {
    const t = await mailingApp(smtp, { rateLimits: { ...TEST_RATE_LIMITS, verifyMailsPerAccount: 2, verifyMailsPerAddress: 3 } });
    try {
      const target = newAccount('inbox').email;
      const accounts = [];
      for (let i = 0; i < 4; i++) accounts.push(await signUp(t.app, newAccount(`namer${i}`)));
      await t.outbox.idle();
      for (const account of accounts.slice(0, 3)) {
        const asked = await changeEmail(t.app, account.cookie, { email: target, currentPassword: account.password });
        expect(asked.statusCode, asked.body).toBe(200);
      }
      const fourth = accounts[3]!;
      expectError(
        await changeEmail(t.app, fourth.cookie, { email: target, currentPassword: fourth.password }),
        429,
        'VERIFY_MAILS_TOO_MANY',
      );
      expect(await usersRow(t, fourth.uid)).toMatchObject({ pending_email: null });
      expect(await mailsTo(t, target)).toHaveLength(3);
      // The fourth account had mail to spare: it is the address that had enough.
      expect((await resendVerification(t.app, fourth.cookie)).statusCode).toBe(204);

      // Nobody owns the address yet, so it may sign up: it is told nothing, and gets no mail.
      const late = await register(t.app, { ...newAccount('owner'), email: target });
      expect(late.statusCode, late.body).toBe(201);
      expect(meOf(late)).toMatchObject({ mustVerify: true });
      expect(await mailsTo(t, target)).toHaveLength(3);
      expect(t.lines.join('\n')).toContain('verification mail not sent: too many to this address');
    } finally {
      await t.close();
    }
  });

  it('link and code checks per client address (RATE_LIMIT_VERIFY_PER_IP): then 429 for a right one too; elsewhere it works', async () => {
    const t = await mailingApp(smtp, { rateLimits: { ...TEST_RATE_LIMITS, verifyPerIp: 3 } });
    try {
      const account = await signUp(t.app, newAccount('checks'));
      const mailed = await mailedVerification(t, account.email);
      const unknown = Buffer.alloc(32, 1).toString('base64url');
      const here = '203.0.113.7';
      for (const token of [unknown, 'junk', unknown])
        expectError(await verifyLink(t.app, token, { remoteAddress: here }), 400, 'VERIFY_LINK_INVALID');
      expectError(await verifyLink(t.app, mailed.token, { remoteAddress: here }), 429, 'RATE_LIMITED');
      // Codes count on the same limit, and a refused check is not a wrong guess.
      const there = '203.0.113.8';
      for (let i = 0; i < 3; i++) {
        expectError(await verifyCode(t.app, account.cookie, otherCode(mailed.code), there), 400, 'VERIFY_CODE_INVALID');
      }
      expectError(await verifyCode(t.app, account.cookie, mailed.code, there), 429, 'RATE_LIMITED');
      expect((await verificationRows(t, account.uid))[0]?.code_attempts).toBe(3);
      expect((await usersRow(t, account.uid)).email_verified_at).toBeNull();

      const response = await verifyCode(t.app, account.cookie, mailed.code, '198.51.100.20');
      expect(response.statusCode, response.body).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('asking for a new address is limited per account', () => {
  it('each try counts (it checks the password): past RATE_LIMIT_PASSWORD_CHANGES a right one is 429 too; Change Password has its own count', async () => {
    const t = await createTestApp({ rateLimits: { ...TEST_RATE_LIMITS, passwordChangesPerUser: 2 } });
    try {
      const account = await signUp(t.app, newAccount('tries'));
      const next = newAccount('tries').email;
      for (let i = 0; i < 2; i++) {
        expectError(await changeEmail(t.app, account.cookie, { email: next, currentPassword: `guess ${i}` }), 401, 'INCORRECT_PASSWORD');
      }
      expectError(await changeEmail(t.app, account.cookie, { email: next, currentPassword: account.password }), 429, 'RATE_LIMITED');
      expect(await usersRow(t, account.uid)).toMatchObject({ email: account.email, pending_email: null });
      const password = await t.app.inject({
        method: 'POST',
        url: API.password,
        payload: { currentPassword: account.password, newPassword: 'a new secret 77', confirmPassword: 'a new secret 77' },
        headers: { cookie: account.cookie },
      });
      expect(password.statusCode, password.body).toBe(204);
    } finally {
      await t.close();
    }
  });
});

describe('without mail (no SMTP_URL): nobody is held back', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('a new account may do everything at once; Resend is 404; there is no link or code to use', async () => {
    const account = await signUp(t.app, newAccount('nomail'));
    const stranger = await signUp(t.app, newAccount('nomail'));
    expect(await me(t.app, account.cookie)).toMatchObject({ emailVerified: false, pendingEmail: null, mustVerify: false });
    expect(await usersRow(t, account.uid)).toMatchObject({ verify_email: false, email_verified_at: null });
    const routes = await gatedRoutes(t, account, stranger);
    for (const route of routes) {
      const response = await route.send(account.cookie);
      expect(response.statusCode, `${route.name}: ${response.body}`).toBe(route.success);
      expect(await route.written(), route.name).toBe(1);
    }
    expectError(await resendVerification(t.app, account.cookie), 404, 'NOT_FOUND');
    expect(await verificationRows(t, account.uid)).toEqual([]);
    expectError(await verifyLink(t.app, Buffer.alloc(32, 2).toString('base64url')), 400, 'VERIFY_LINK_INVALID');
    expectError(await verifyCode(t.app, account.cookie, '123456'), 400, 'VERIFY_CODE_INVALID');
  });

  it('a new address applies at once, unproved (a verified one too), with the same refusals', async () => {
    const account = await signUp(t.app, newAccount('direct'));
    const other = await signUp(t.app, newAccount('direct'));
    const admin = await signUp(t.app, newAccount('admin'));
    await makeRole(t, admin, 'admin');
    expect(
      (await t.app.inject({ method: 'POST', url: API.moderationVerifyEmail(account.username), headers: { cookie: admin.cookie } }))
        .statusCode,
    ).toBe(204);
    expect(await me(t.app, account.cookie)).toMatchObject({ emailVerified: true });

    const next = newAccount('direct').email;
    const changed = await changeEmail(t.app, account.cookie, { email: next, currentPassword: account.password });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(meOf(changed)).toMatchObject({ email: next, pendingEmail: null, emailVerified: false, mustVerify: false });
    expect(await usersRow(t, account.uid)).toMatchObject({ email: next, pending_email: null, email_verified_at: null });
    expect((await login(t.app, next, account.password)).statusCode).toBe(200);
    expectError(await login(t.app, account.email, account.password), 401, 'INCORRECT_LOGIN');

    expectError(await changeEmail(t.app, account.cookie, { email: other.email, currentPassword: account.password }), 409, 'EMAIL_TAKEN');
    expectError(
      await changeEmail(t.app, account.cookie, { email: newAccount().email, currentPassword: 'wrong one' }),
      401,
      'INCORRECT_PASSWORD',
    );
    expectError(await changeEmail(t.app, account.cookie, { email: next, currentPassword: account.password }), 400, 'SAME_EMAIL');
    expectError(await changeEmail(t.app, account.cookie, { email: 'nope', currentPassword: account.password }), 400, 'EMAIL_INVALID');
    expectError(await changeEmail(t.app, account.cookie, { email: '', currentPassword: account.password }), 400, 'FILL_IN_ALL_FIELDS');
    expect((await usersRow(t, account.uid)).email).toBe(next);
  });
});

describe('REQUIRE_VERIFIED_EMAIL: accounts from before verification must verify too', () => {
  let t: MailingApp;
  /** The same database before SMTP_URL was set: its accounts were made without verify_email. */
  let before: FastifyInstance;
  beforeAll(async () => {
    t = await mailingApp(smtp, { requireVerifiedEmail: true });
    before = await buildApp({
      config: { ...t.config, mail: undefined, publicUrl: undefined, requireVerifiedEmail: false, logLevel: 'silent' },
      database: t.database,
    });
  });
  afterAll(async () => {
    await before.close();
    await t.close();
  });

  it('an unverified account made before mail is held back with its address until it verifies (Resend, then the code)', async () => {
    const old = await signUp(before, newAccount('old'));
    const stranger = await signUp(t.app, newAccount('stranger'));
    await verifyByMail(t, stranger);
    expect(await usersRow(t, old.uid)).toMatchObject({ verify_email: false, email_verified_at: null });
    expect(await mailsTo(t, old.email)).toEqual([]);

    expect(await me(t.app, old.cookie)).toMatchObject({ emailVerified: false, mustVerify: true });
    const routes = await gatedRoutes(t, old, stranger);
    for (const route of routes) {
      expectNotVerified(await route.send(old.cookie), old.email);
      expect(await route.written(), route.name).toBe(0);
    }

    expect((await resendVerification(t.app, old.cookie)).statusCode).toBe(204);
    const { code } = await mailedVerification(t, old.email);
    expect(meOf(await verifyCode(t.app, old.cookie, code))).toMatchObject({ emailVerified: true, mustVerify: false });
    for (const route of routes) expect((await route.send(old.cookie)).statusCode, route.name).toBe(route.success);
  });

  it("an admin's verify releases such an account at once, its remembered session too; a verified old account was never held", async () => {
    const old = await signUp(before, newAccount('old'));
    const admin = await signUp(t.app, newAccount('admin'));
    await makeRole(t, admin, 'admin');
    expect(await me(t.app, old.cookie)).toMatchObject({ mustVerify: true });
    expectNotVerified(await createPost(t.app, old.cookie, { bytes: await jpeg(40, 30) }), old.email);

    const done = await t.app.inject({ method: 'POST', url: API.moderationVerifyEmail(old.username), headers: { cookie: admin.cookie } });
    expect([done.statusCode, done.body]).toEqual([204, '']);
    expect((await createPost(t.app, old.cookie, { bytes: await jpeg(40, 30) })).statusCode).toBe(201);
    expect(await me(t.app, old.cookie)).toMatchObject({ emailVerified: true, mustVerify: false });

    const proved = await signUp(before, newAccount('proved'));
    await query(t.database, 'UPDATE users SET email_verified_at = now() WHERE id = $1', [proved.uid]);
    expect(await me(t.app, proved.cookie)).toMatchObject({ emailVerified: true, mustVerify: false });
    expect((await follow(t.app, old.username, proved.cookie)).statusCode).toBe(200);
  });

  it('without REQUIRE_VERIFIED_EMAIL the same old account is not held back (and may still verify)', async () => {
    const plain = await mailingApp(smtp);
    const plainBefore = await buildApp({
      config: { ...plain.config, mail: undefined, publicUrl: undefined, logLevel: 'silent' },
      database: plain.database,
    });
    try {
      const old = await signUp(plainBefore, newAccount('old'));
      expect(await me(plain.app, old.cookie)).toMatchObject({ emailVerified: false, mustVerify: false });
      expect((await createPost(plain.app, old.cookie, { bytes: await jpeg(40, 30) })).statusCode).toBe(201);
      expect((await resendVerification(plain.app, old.cookie)).statusCode).toBe(204);
      expect((await verifyLink(plain.app, (await mailedVerification(plain, old.email)).token)).statusCode).toBe(200);
      expect(await me(plain.app, old.cookie)).toMatchObject({ emailVerified: true, mustVerify: false });
    } finally {
      await plainBefore.close();
      await plain.close();
    }
  });
});

describe(`POST ${API.moderationVerifyEmail(':username')}: admins only`, () => {
  let t: MailingApp;
  beforeAll(async () => {
    t = await mailingApp(smtp);
  });
  afterAll(async () => {
    await t.close();
  });

  const verifyAs = (cookie: string | undefined, username: string) =>
    t.app.inject({ method: 'POST', url: API.moderationVerifyEmail(username), headers: cookie ? { cookie } : {} });
  const logRows = (uid: string) =>
    query<{ action: string; actor_id: string | null; actor_username: string; target_username: string; note: string }>(
      t.database,
      'SELECT action, actor_id, actor_username, target_username, note FROM moderation_log WHERE target_user_id = $1',
      [uid],
    );

  it('a member, a moderator and the signed-out get 404 as if it did not exist, and nothing changes', async () => {
    const target = await signUp(t.app, newAccount('target'));
    const member = await signUp(t.app, newAccount('member'));
    const moderator = await signUp(t.app, newAccount('mod'));
    await makeRole(t, moderator, 'moderator');
    for (const cookie of [undefined, member.cookie, moderator.cookie, target.cookie]) {
      expectError(await verifyAs(cookie, target.username), 404, 'NOT_FOUND');
      // A malformed name gets the same answer: nothing tells the route is there.
      expectError(await verifyAs(cookie, 'x'.repeat(65)), 404, 'NOT_FOUND');
    }
    expect((await usersRow(t, target.uid)).email_verified_at).toBeNull();
    expect(await logRows(target.uid)).toEqual([]);
  });

  it('an admin: 204, the address is verified (any case, with or without @), logged once as verify-email; an unknown user is 404', async () => {
    const target = await signUp(t.app, newAccount('target'));
    const admin = await signUp(t.app, newAccount('admin'));
    await makeRole(t, admin, 'admin');
    expect(await me(t.app, target.cookie)).toMatchObject({ mustVerify: true });

    const done = await verifyAs(admin.cookie, `@${target.username.toUpperCase()}`);
    expect([done.statusCode, done.body]).toEqual([204, '']);
    expect((await usersRow(t, target.uid)).email_verified_at).not.toBeNull();
    expect(await me(t.app, target.cookie)).toMatchObject({ emailVerified: true, mustVerify: false });
    expect(await logRows(target.uid)).toEqual([
      { action: 'verify-email', actor_id: admin.uid, actor_username: admin.username, target_username: target.username, note: '' },
    ]);
    // Shown as such to staff, in the log and on the person.
    const log = await get(t.app, API.moderationLog, admin.cookie);
    expect(log.json().entries[0]).toMatchObject({ actor: admin.username, action: 'verify-email', targetUsername: target.username });
    expect(COPY.moderation.actions['verify-email']).toBeTruthy();
    expect((await get(t.app, API.moderationPerson(target.username), admin.cookie)).json().user).toMatchObject({ emailVerified: true });
    expect(t.lines.join('\n')).toContain('"security":"moderation action"');

    // Again: nothing more to do, nothing more logged.
    expect((await verifyAs(admin.cookie, target.username)).statusCode).toBe(204);
    expect(await logRows(target.uid)).toHaveLength(1);
    expectError(await verifyAs(admin.cookie, 'nobody_here'), 404, 'USER_NOT_FOUND');
  });
});

describe('npm run admin -- verify <username>', () => {
  let t: MailingApp;
  beforeAll(async () => {
    t = await mailingApp(smtp);
  });
  afterAll(async () => {
    await t.close();
  });

  const logRows = (uid: string) =>
    query<{ action: string; actor_id: string | null; actor_username: string }>(
      t.database,
      'SELECT action, actor_id, actor_username FROM moderation_log WHERE target_user_id = $1',
      [uid],
    );

  it('with no server running (the command on the database): verifies, logs it as the admin command line; says so when already done', async () => {
    const target = await signUp(t.app, newAccount('cli'));
    const context = standaloneAdminContext(t.database, t.config);
    const help = await runCommandLine(context, ['help']);
    expect(help.stdout).toMatch(/npm run admin -- verify <username> +Mark an account's e-mail address as verified\./);

    const run = await runCommandLine(context, ['verify', `@${target.username.toUpperCase()}`]);
    expect(run).toEqual({ code: 0, stdout: `@${target.username}'s address is now verified.\n`, stderr: '' });
    expect(await me(t.app, target.cookie)).toMatchObject({ emailVerified: true, mustVerify: false });
    expect(await logRows(target.uid)).toEqual([{ action: 'verify-email', actor_id: null, actor_username: 'admin command line' }]);

    const again = await runCommandLine(context, ['verify', target.username]);
    expect(again).toEqual({ code: 0, stdout: `@${target.username}'s address was already verified.\n`, stderr: '' });
    expect(await logRows(target.uid)).toHaveLength(1);

    expect(await runCommandLine(context, ['verify', 'nobody_here'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'verify: no account is named @nobody_here\n',
    });
    for (const [argv, message] of [
      [['verify'], 'verify: missing <username>'],
      [['verify', 'a', 'b'], 'verify: unexpected b'],
      [['verify', 'no spaces'], 'verify: invalid username "no spaces"'],
    ] as const) {
      const usage = await runCommandLine(context, [...argv]);
      expect(usage.code, argv.join(' ')).toBe(2);
      expect(usage.stderr).toBe(`${message}\n\nUsage: npm run admin -- verify <username>\n`);
    }
  });

  it('while the server owns the embedded database (its admin command route): the signed-in account may post at once', async () => {
    const TOKEN = 'admin-token-for-tests';
    const app = await buildApp({
      config: t.config,
      database: t.database,
      adminToken: TOKEN,
      outbox: t.outbox,
      logStream: { write: (line) => void t.lines.push(line) },
    });
    try {
      const target = await signUp(app, newAccount('served'));
      expectNotVerified(await createPost(app, target.cookie, { bytes: await jpeg(40, 30) }), target.email);
      const command = (argv: string[]) =>
        app.inject({
          method: 'POST',
          url: ADMIN_COMMAND_PATH,
          payload: { argv },
          headers: { authorization: `Bearer ${TOKEN}` },
          remoteAddress: '127.0.0.1',
        });
      const response = await command(['verify', target.username]);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ code: 0, stdout: `@${target.username}'s address is now verified.\n`, stderr: '' });
      expect((await createPost(app, target.cookie, { bytes: await jpeg(40, 30) })).statusCode).toBe(201);
      expect(await logRows(target.uid)).toEqual([{ action: 'verify-email', actor_id: null, actor_username: 'admin command line' }]);
      expect((await command(['verify', 'nobody_here'])).json()).toMatchObject({
        code: 1,
        stderr: 'verify: no account is named @nobody_here\n',
      });
    } finally {
      await app.close();
    }
  });
});

describe('the name of a deleted account, and its own address', () => {
  const holds = (t: TestApp, username: string) => query(t.database, 'SELECT 1 FROM released_usernames WHERE username = $1', [username]);

  it('with mail on too: its own address is refused the name exactly as another is, so a guess at the address learns nothing', async () => {
    const t = await mailingApp(smtp);
    try {
      const alice = await signUp(t.app, newAccount('alice'));
      await verifyByMail(t, alice);
      expect((await deleteAccount(t.app, alice)).statusCode).toBe(204);
      expect(await holds(t, alice.username)).toHaveLength(1);

      const stranger = await register(t.app, { ...newAccount('imp'), username: alice.username });
      // Her own address, however it is typed: the very same answer.
      const own = await register(t.app, {
        username: alice.username.toUpperCase(),
        email: alice.email.toUpperCase(),
        password: 'back again 42',
      });
      for (const answer of [stranger, own]) expectError(answer, 409, 'USERNAME_TAKEN');
      expect(own.body).toBe(stranger.body);
      expect(await holds(t, alice.username)).toHaveLength(1);
      expect(await query(t.database, 'SELECT 1 FROM users WHERE username = $1', [alice.username])).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('without mail nobody can prove an address: the same address is refused the name too', async () => {
    const t = await createTestApp();
    try {
      const bob = await signUp(t.app, newAccount('bob'));
      expect((await deleteAccount(t.app, bob)).statusCode).toBe(204);
      for (const email of [bob.email, newAccount('bob').email]) {
        expectError(await register(t.app, { username: bob.username, email, password: 'back again 42' }), 409, 'USERNAME_TAKEN');
      }
      expect(await holds(t, bob.username)).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});

describe('settings that need mail refuse to start without SMTP_URL, saying why', () => {
  it('REGISTRATION=domains: only a verified address shows someone is at one of those domains', () => {
    expect(() => loadConfig({ REGISTRATION: 'domains', REGISTRATION_EMAIL_DOMAINS: 'uni.example.edu' })).toThrow(
      /^REGISTRATION=domains needs SMTP_URL\b.*: only a verified address shows that someone is at one of those domains\. Set SMTP_URL/,
    );
    const mailing = { SMTP_URL: 'smtp://127.0.0.1:25', PUBLIC_URL: MAIL_PUBLIC_URL };
    expect(loadConfig({ ...mailing, REGISTRATION: 'domains', REGISTRATION_EMAIL_DOMAINS: 'uni.example.edu' }).registration).toEqual({
      mode: 'domains',
      emailDomains: ['uni.example.edu'],
    });
  });

  it('REQUIRE_VERIFIED_EMAIL: addresses are verified by mail', () => {
    expect(() => loadConfig({ REQUIRE_VERIFIED_EMAIL: 'true' })).toThrow(
      'REQUIRE_VERIFIED_EMAIL needs SMTP_URL: addresses are verified by mail',
    );
    const mailing = { SMTP_URL: 'smtp://127.0.0.1:25', PUBLIC_URL: MAIL_PUBLIC_URL };
    expect(loadConfig({ ...mailing, REQUIRE_VERIFIED_EMAIL: 'true' }).requireVerifiedEmail).toBe(true);
    expect(loadConfig(mailing).requireVerifiedEmail).toBe(false);
    expect(loadConfig({}).requireVerifiedEmail).toBe(false);
  });
});
