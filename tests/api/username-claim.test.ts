import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServerSecret } from '../../src/server/server-secret.js';
import { UsernameClaims } from '../../src/server/auth/username-claim.service.js';
import { MemoryCounterStore, RateLimiter } from '../../src/server/http/rate-limiter.js';
import type { Me } from '../../src/shared/api/auth.js';
import { API } from '../../src/shared/api/paths.js';
import { usernameClaimApi } from '../../src/shared/api/username-claim.js';
import * as COPY from '../../src/shared/copy.js';
import { ERRORS } from '../../src/shared/errors.js';
import { deleteOwnAccount, newAccount, sessionCookie, signUp } from '../helpers/accounts.js';
import { expectError, get, query } from '../helpers/people.js';
import type { ReceivedMail } from '../helpers/smtp.js';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.js';
import { createTestApp, TEST_ARGON2ID, TEST_RATE_LIMITS } from '../helpers/test-app.js';
import { MAIL_PUBLIC_URL, mailingApp, mailsTo, type MailingApp } from '../helpers/verification.js';

/**
 * A deleted account's held name back early (issue 29 point 1), through real mail: a sign-up that
 * asks for the name gets the same 409 whatever address it gives, and only the address the name
 * was held for is mailed a link; the link makes the account asked for.
 */

const CHECK = usernameClaimApi.claimCheck.path;
const CLAIM = usernameClaimApi.claimUsername.path;

const register = (app: FastifyInstance, body: { username: string; email: string; password: string }) =>
  app.inject({ method: 'POST', url: API.register, payload: body });
const post = (app: FastifyInstance, url: string, payload: unknown) => app.inject({ method: 'POST', url, payload: payload as object });
const login = (app: FastifyInstance, identifier: string, password: string) =>
  app.inject({ method: 'POST', url: API.login, payload: { identifier, password } });

/** An account, deleted: its name is held for its address. */
async function deleted(t: MailingApp) {
  const account = await signUp(t.app, newAccount('gone'));
  await deleteOwnAccount(t.app, account);
  return account;
}

const claimLinks = (mails: ReceivedMail[]) =>
  mails.flatMap((mail) => [...new Set([...mail.text.matchAll(/\/claim\/([\w-]{43})(?![\w-])/g)].map((match) => match[1]!))]);

/** The claim link's token in the newest claim mail to `address`. */
async function mailedClaim(t: MailingApp, address: string): Promise<string> {
  const tokens = claimLinks(await mailsTo(t, address));
  expect(tokens.length, `no claim mail reached ${address}`).toBeGreaterThan(0);
  return tokens.at(-1)!;
}

let smtp: TestSmtpServer;
let t: MailingApp;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await mailingApp(smtp);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe('a sign-up asking for a held name', () => {
  it('gets the same 409 whatever address it gives; only the address the name was held for is mailed a link', async () => {
    const gone = await deleted(t);
    const stranger = newAccount('guess');
    const answers = [];
    for (const email of [gone.email.toUpperCase(), stranger.email]) {
      const refused = await register(t.app, { username: gone.username, email, password: 'a new password 9' });
      expectError(refused, 409, 'USERNAME_TAKEN');
      answers.push(refused.json());
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]).toEqual({ code: 'USERNAME_TAKEN', message: ERRORS.USERNAME_TAKEN, messages: [ERRORS.USERNAME_TAKEN] });

    expect(claimLinks(await mailsTo(t, stranger.email))).toEqual([]);
    const [mail] = (await mailsTo(t, gone.email)).filter((m) => claimLinks([m]).length > 0);
    expect(mail!.text).toContain(`Subject: ${COPY.claimMail.subject(t.config.appName)}`);
    expect(mail!.text).toContain(COPY.claimMail.asked(t.config.appName, gone.username));
    expect(mail!.text).toContain(`${MAIL_PUBLIC_URL}/claim/`);
    expect(mail!.text).toContain(COPY.claimMail.button(gone.username));
    // Nothing is made, and the name is still held, until the link is used.
    expect(await query(t.database, 'SELECT 1 FROM users WHERE username = $1', [gone.username])).toEqual([]);
    expect(await query(t.database, 'SELECT 1 FROM released_usernames WHERE username = $1', [gone.username])).toHaveLength(1);
  });

  it('the link: shows the name and address, then makes the account (verified, with the password chosen at sign-up), signed in; once', async () => {
    const gone = await deleted(t);
    const password = 'back again soon 7';
    expectError(await register(t.app, { username: gone.username, email: gone.email, password }), 409, 'USERNAME_TAKEN');
    const token = await mailedClaim(t, gone.email);

    const check = await post(t.app, CHECK, { token });
    expect(check.statusCode, check.body).toBe(200);
    expect(check.json()).toEqual({ username: gone.username, email: gone.email });
    // Asking does not use it up.
    expect((await post(t.app, CHECK, { token })).statusCode).toBe(200);

    const made = await post(t.app, CLAIM, { token });
    expect(made.statusCode, made.body).toBe(201);
    const me = made.json<{ user: Me }>().user;
    expect(me).toMatchObject({ username: gone.username, email: gone.email, emailVerified: true, mustVerify: false, hasPassword: true });
    expect((await get(t.app, API.me, sessionCookie(made))).statusCode).toBe(200);
    expect((await login(t.app, gone.username, password)).statusCode).toBe(200);
    expect(await query(t.database, 'SELECT 1 FROM released_usernames WHERE username = $1', [gone.username])).toEqual([]);
    // The claim row held the hash of the password only, and is gone now.
    expect(await query(t.database, 'SELECT 1 FROM username_claims WHERE username = $1', [gone.username])).toEqual([]);

    expectError(await post(t.app, CLAIM, { token }), 400, 'CLAIM_LINK_INVALID');
    expectError(await post(t.app, CHECK, { token }), 400, 'CLAIM_LINK_INVALID');
  });

  it('mails nothing for a live account’s name, nor for a sign-up that has other problems too', async () => {
    const live = await signUp(t.app, newAccount('live'));
    expectError(await register(t.app, { ...newAccount('other'), username: live.username, email: live.email }), 409, 'USERNAME_TAKEN');
    const gone = await deleted(t);
    const weak = await register(t.app, { username: gone.username, email: gone.email, password: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(claimLinks(await mailsTo(t, live.email))).toEqual([]);
    expect(claimLinks(await mailsTo(t, gone.email))).toEqual([]);
  });

  it('a link past its 24 hours, a made-up one, junk: 400 CLAIM_LINK_INVALID or a bad request, nothing made', async () => {
    const gone = await deleted(t);
    expectError(await register(t.app, { username: gone.username, email: gone.email, password: 'a new password 9' }), 409, 'USERNAME_TAKEN');
    const token = await mailedClaim(t, gone.email);
    await query(t.database, `UPDATE username_claims SET expires_at = now() - interval '1 second' WHERE username = $1`, [gone.username]);
    expectError(await post(t.app, CHECK, { token }), 400, 'CLAIM_LINK_INVALID');
    expectError(await post(t.app, CLAIM, { token }), 400, 'CLAIM_LINK_INVALID');
    expectError(await post(t.app, CLAIM, { token: 'x'.repeat(43) }), 400, 'CLAIM_LINK_INVALID');
    expectError(await post(t.app, CLAIM, { token: '../../etc' }), 400, 'CLAIM_LINK_INVALID');
    for (const junk of [{}, { token: 5 }, { token, extra: 1 }]) expectError(await post(t.app, CLAIM, junk), 400, 'BAD_REQUEST');
    expect(await query(t.database, 'SELECT 1 FROM users WHERE username = $1', [gone.username])).toEqual([]);
  });

  it('the name taken meanwhile (its hold ran out and someone signed up): 409, and nothing is made', async () => {
    const gone = await deleted(t);
    expectError(await register(t.app, { username: gone.username, email: gone.email, password: 'a new password 9' }), 409, 'USERNAME_TAKEN');
    const token = await mailedClaim(t, gone.email);
    await query(t.database, 'DELETE FROM released_usernames WHERE username = $1', [gone.username]);
    expect((await register(t.app, { ...newAccount('quick'), username: gone.username })).statusCode).toBe(201);
    expectError(await post(t.app, CLAIM, { token }), 409, 'USERNAME_TAKEN');
    expect(await query(t.database, 'SELECT 1 FROM users WHERE email = $1', [gone.email])).toEqual([]);
  });

  it('the name held for another address meanwhile (its hold ran out, another account took it and was deleted): 409, the link kept', async () => {
    const gone = await deleted(t);
    expectError(await register(t.app, { username: gone.username, email: gone.email, password: 'a new password 9' }), 409, 'USERNAME_TAKEN');
    const token = await mailedClaim(t, gone.email);
    await query(t.database, `UPDATE released_usernames SET email_hmac = 'another address' WHERE username = $1`, [gone.username]);
    expectError(await post(t.app, CLAIM, { token }), 409, 'USERNAME_TAKEN');
    expect(await query(t.database, 'SELECT 1 FROM users WHERE username = $1', [gone.username])).toEqual([]);
    expect((await post(t.app, CHECK, { token })).statusCode).toBe(200);
  });

  it('mails to one address are limited (RATE_LIMIT_VERIFY_MAILS_PER_ADDRESS), the answers staying the same', async () => {
    const limited = await mailingApp(smtp, { rateLimits: { ...TEST_RATE_LIMITS, verifyMailsPerAddress: 2 } });
    try {
      const gone = await deleted(limited);
      for (let i = 0; i < 4; i += 1) {
        expectError(
          await register(limited.app, { username: gone.username, email: gone.email, password: `a new password ${i}x` }),
          409,
          'USERNAME_TAKEN',
        );
      }
      expect(claimLinks(await mailsTo(limited, gone.email))).toHaveLength(2);
    } finally {
      await limited.close();
    }
  });

  it('sign-up no longer open to it when the link is used (REGISTRATION changed): refused, nothing made', async () => {
    const gone = await deleted(t);
    expectError(await register(t.app, { username: gone.username, email: gone.email, password: 'a new password 9' }), 409, 'USERNAME_TAKEN');
    const token = await mailedClaim(t, gone.email);
    const secret = await loadServerSecret(t.config);
    const under = (registration: ConstructorParameters<typeof UsernameClaims>[0]['registration']) =>
      new UsernameClaims({
        db: t.database.orm,
        secret,
        limiter: new RateLimiter(new MemoryCounterStore()),
        limits: TEST_RATE_LIMITS,
        registration,
        passwordCost: TEST_ARGON2ID,
      });
    const refusals: Array<[ConstructorParameters<typeof UsernameClaims>[0]['registration'], string]> = [
      [{ mode: 'closed', emailDomains: [] }, 'SIGN_UPS_CLOSED'],
      [{ mode: 'sso', emailDomains: [] }, 'SIGN_UP_WITH_SSO'],
      [{ mode: 'invite', emailDomains: [] }, 'INVITE_CODE_INVALID'],
      [{ mode: 'domains', emailDomains: ['uni.example.edu'] }, 'EMAIL_DOMAIN_NOT_ALLOWED'],
    ];
    for (const [registration, code] of refusals) {
      await expect(under(registration).claim(token, '127.0.0.1')).rejects.toMatchObject({ status: 403, code });
    }
    expect(await query(t.database, 'SELECT 1 FROM users WHERE username = $1', [gone.username])).toEqual([]);
    expect((await post(t.app, CLAIM, { token })).statusCode).toBe(201);
  });
});

describe('without mail', () => {
  it('the claim routes answer that no link is good', async () => {
    const plain = await createTestApp();
    try {
      expectError(await post(plain.app, CHECK, { token: 'x'.repeat(43) }), 400, 'CLAIM_LINK_INVALID');
      expectError(await post(plain.app, CLAIM, { token: 'x'.repeat(43) }), 400, 'CLAIM_LINK_INVALID');
    } finally {
      await plain.close();
    }
  });
});
