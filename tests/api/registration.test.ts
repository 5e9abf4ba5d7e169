import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { registrationConfig, type RegistrationConfig } from '../../src/server/config.js';
import { API } from '../../src/shared/api/paths.js';
import type { InviteInfo, NewInvite } from '../../src/shared/api/invites.js';
import { ERRORS } from '../../src/shared/errors.js';
import { newAccount, signUp } from '../helpers/accounts.js';
import { expectError, query } from '../helpers/people.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Who may sign up (issue 17 point 6): REGISTRATION=open | domains | invite | closed, on one
 * database, as an operator would switch it and restart. Accounts made before sign in whatever the
 * mode. Invite codes: made by admins on the API (the admin command: admin-cli-invite.test.ts).
 */

const DOMAINS = ['uni.example.edu', '*.uni.example.edu', 'Staff.Example.org'];

let t: TestApp;
let existing: Awaited<ReturnType<typeof signUp>>;
let admin: Awaited<ReturnType<typeof signUp>>;
const apps = new Map<RegistrationConfig['mode'], FastifyInstance>();

/** The same database, served by an app with another REGISTRATION. */
async function appFor(registration: RegistrationConfig): Promise<FastifyInstance> {
  const app = await buildApp({ config: { ...t.config, registration }, database: t.database });
  await app.ready();
  return app;
}

const register = (app: FastifyInstance, body: object) => app.inject({ method: 'POST', url: API.register, payload: body });
const signIn = (app: FastifyInstance, identifier: string, password: string) =>
  app.inject({ method: 'POST', url: API.login, payload: { identifier, password } });
const userCount = async () => Number((await query<{ n: string }>(t.database, 'SELECT count(*) AS n FROM users'))[0]!.n);

beforeAll(async () => {
  t = await createTestApp();
  existing = await signUp(t.app, newAccount('before'));
  admin = await signUp(t.app, newAccount('admin'));
  await query(t.database, `UPDATE users SET role = 'admin' WHERE id = $1`, [admin.uid]);
  apps.set('domains', await appFor({ mode: 'domains', emailDomains: DOMAINS }));
  apps.set('invite', await appFor({ mode: 'invite', emailDomains: [] }));
  apps.set('closed', await appFor({ mode: 'closed', emailDomains: [] }));
});

afterAll(async () => {
  for (const app of apps.values()) await app.close();
  await t.close();
});

const app = (mode: RegistrationConfig['mode']) => apps.get(mode)!;

async function makeInvite(uses = 1, days = 7): Promise<NewInvite> {
  const response = await app('invite').inject({
    method: 'POST',
    url: API.invites,
    headers: { cookie: admin.cookie },
    payload: { uses, days },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<NewInvite>();
}

describe('REGISTRATION=open (the default)', () => {
  it('anyone may sign up, with or without an inviteCode field (ignored)', async () => {
    expect(registrationConfig({})).toEqual({ mode: 'open', emailDomains: [] });
    expect((await register(t.app, newAccount('open'))).statusCode).toBe(201);
    expect((await register(t.app, { ...newAccount('open'), inviteCode: 'whatever' })).statusCode).toBe(201);
  });
});

describe('REGISTRATION=domains', () => {
  const MESSAGE = 'Sign-ups are limited to addresses at uni.example.edu, *.uni.example.edu, Staff.Example.org.';

  it('an exact domain, any subdomain under *., and capitals or full-width forms of them (compared normalized)', async () => {
    const emails = [
      'ann@uni.example.edu',
      'bob@cs.uni.example.edu',
      'cat@a.b.uni.example.edu',
      'Dan@UNI.Example.EDU',
      'eve@staff.example.org',
      'ｆａｙ＠ｕｎｉ．ｅｘａｍｐｌｅ．ｅｄｕ',
    ];
    for (const [index, email] of emails.entries()) {
      const response = await register(app('domains'), { username: `okdomain${index}`, email, password: 'correct horse 1' });
      expect(response.statusCode, `${email}: ${response.body}`).toBe(201);
    }
  });

  it('anything else: the message, after the e-mail rules, with the other problems; nothing written', async () => {
    // A well-formed address outside the list is told the domains; a malformed one only that.
    const refused: Array<[string, string]> = [
      ['ann@example.edu', MESSAGE],
      ['ann@evil-uni.example.edu', MESSAGE],
      ['ann@uni.example.edu.evil.com', MESSAGE],
      ['ann@cs.staff.example.org', MESSAGE], // staff.example.org is listed without *.
      ['ann@example.org', MESSAGE],
      ['ann@unі.example.edu', ERRORS.EMAIL_INVALID], // Cyrillic і
      ['ann@uni.example.edu@evil.com', ERRORS.EMAIL_INVALID],
      ['uni.example.edu@evil.com', MESSAGE],
      ['ann@uni.example.edu..', ERRORS.EMAIL_INVALID],
    ];
    const before = await userCount();
    for (const [index, [email, message]] of refused.entries()) {
      const response = await register(app('domains'), { username: `nodomain${index}`, email, password: 'correct horse 1' });
      expect(response.statusCode, `${email}: ${response.body}`).toBe(400);
      expect(response.json<{ messages: string[] }>().messages, email).toEqual([message]);
      if (message === MESSAGE) expect(response.json()).toMatchObject({ code: 'EMAIL_DOMAIN_NOT_ALLOWED', message: MESSAGE });
    }
    const mixed = await register(app('domains'), { username: 'x', email: 'ann@gmail.com', password: 'short' });
    expect(mixed.json().messages).toEqual([ERRORS.USERNAME_LENGTH, MESSAGE, ERRORS.PASSWORD_LENGTH]);
    expect(await userCount()).toBe(before);
  });

  it('the bare domain is not in *.domain: only when listed itself', async () => {
    const only = await appFor({ mode: 'domains', emailDomains: ['*.uni.example.edu'] });
    const bare = await register(only, { username: 'baredomain', email: 'bare@uni.example.edu', password: 'correct horse 1' });
    expect(bare.json().messages).toEqual(['Sign-ups are limited to addresses at *.uni.example.edu.']);
    expect((await register(only, { username: 'subdomain', email: 'sub@x.uni.example.edu', password: 'correct horse 1' })).statusCode).toBe(
      201,
    );
    await only.close();
  });
});

describe('REGISTRATION=domains with a *. entry: one address, read by the one parser (issue 26 points 4, 13, 19)', () => {
  const CAMPUS = ['*.campus.example.edu'];
  let campus: FastifyInstance;
  beforeAll(async () => {
    campus = await appFor({ mode: 'domains', emailDomains: CAMPUS });
  });
  afterAll(async () => {
    await campus.close();
  });

  it('a string that holds a second address (, ; > < quotes, comments) is "Invalid email address." (400); nothing written', async () => {
    const attacks = [
      'att@evil.test,x.campus.example.edu',
      'att@evil.test;x.campus.example.edu',
      'att@evil.test>x.campus.example.edu',
      'att@evil.test<x.campus.example.edu',
      '<att@evil.test>x.campus.example.edu',
      'att@evil.test,x@cs.campus.example.edu',
      '"att@evil.test"@x.campus.example.edu',
      'att(x)@evil.test.campus.example.edu(y)',
      'att@evil.test\nx.campus.example.edu',
      'att@evil.test，x.campus.example.edu', // full-width comma: NFKC makes it a comma
    ];
    const before = await userCount();
    for (const [index, email] of attacks.entries()) {
      const username = `attack${index}`;
      const response = await register(campus, { username, email, password: 'correct horse 1' });
      expect(response.statusCode, `${email}: ${response.body}`).toBe(400);
      expect(response.json(), email).toEqual({ code: 'EMAIL_INVALID', message: ERRORS.EMAIL_INVALID, messages: [ERRORS.EMAIL_INVALID] });
    }
    expect(await userCount()).toBe(before);
    expect(await query(t.database, `SELECT username FROM users WHERE email LIKE '%evil%' OR username LIKE 'attack%'`)).toEqual([]);
  });

  it('a real subdomain address signs up, stored in its one spelling (capitals, full width, trailing dot)', async () => {
    for (const [username, email, stored] of [
      ['campus1', 'stu@cs.campus.example.edu', 'stu@cs.campus.example.edu'],
      ['campus2', 'ＳＴＵ２@Dorm.Campus.Example.EDU.', 'stu2@dorm.campus.example.edu'],
    ]) {
      const response = await register(campus, { username, email, password: 'correct horse 1' });
      expect(response.statusCode, `${email}: ${response.body}`).toBe(201);
      expect(await query(t.database, 'SELECT email FROM users WHERE username = $1', [username])).toEqual([{ email: stored }]);
    }
  });

  it('outside the list: the message (and messages) name the configured domains, never {domains}', async () => {
    const message = 'Sign-ups are limited to addresses at *.campus.example.edu.';
    const response = await register(campus, { username: 'outside1', email: 'stu@example.edu', password: 'correct horse 1' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 'EMAIL_DOMAIN_NOT_ALLOWED', message, messages: [message] });
    // Second in the list (the username's line first): the line is filled in there too.
    const mixed = await register(campus, { username: 'x', email: 'stu@example.edu', password: 'correct horse 1' });
    expect(mixed.json()).toEqual({ code: 'USERNAME_LENGTH', message: ERRORS.USERNAME_LENGTH, messages: [ERRORS.USERNAME_LENGTH, message] });
  });
});

describe('a trailing dot is the same address (issue 26 point 13)', () => {
  it('alice@example.test. collides with alice@example.test (EMAIL_TAKEN); one typed with the dot is stored and signs in without it', async () => {
    await signUp(t.app, { username: 'dotalice', email: 'dotalice@example.test', password: 'correct horse 1' });
    const before = await userCount();
    const again = await register(t.app, { username: 'dotalice2', email: 'dotalice@example.test.', password: 'correct horse 1' });
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json()).toEqual({ code: 'EMAIL_TAKEN', message: ERRORS.EMAIL_TAKEN, messages: [ERRORS.EMAIL_TAKEN] });
    expect(await userCount()).toBe(before);

    const bob = await signUp(t.app, { username: 'dotbob', email: 'DotBob@Example.Test.', password: 'correct horse 1' });
    expect(await query(t.database, 'SELECT email FROM users WHERE id = $1', [bob.uid])).toEqual([{ email: 'dotbob@example.test' }]);
    const taken = await register(t.app, { username: 'dotbob2', email: 'dotbob@example.test', password: 'correct horse 1' });
    expect(taken.json()).toMatchObject({ code: 'EMAIL_TAKEN' });
    for (const identifier of ['dotbob@example.test', 'dotbob@example.test.']) {
      expect((await signIn(t.app, identifier, 'correct horse 1')).statusCode, identifier).toBe(200);
    }
  });
});

describe('REGISTRATION=closed', () => {
  it('only "Sign-ups are closed." (403), whatever was typed; nothing written', async () => {
    const before = await userCount();
    for (const body of [newAccount('closed'), { username: '', email: '', password: '' }]) {
      expectError(await register(app('closed'), body), 403, 'SIGN_UPS_CLOSED');
    }
    expect(await userCount()).toBe(before);
  });
});

describe('REGISTRATION=invite', () => {
  it('no code, a wrong one, a malformed one: "Invalid invite code." last among the problems', async () => {
    const before = await userCount();
    for (const inviteCode of [undefined, '', 'AAAA-AAAA-AAAA', 'not a code at all', 'x'.repeat(200)]) {
      const response = await register(app('invite'), { ...newAccount('noinvite'), ...(inviteCode === undefined ? {} : { inviteCode }) });
      expectError(response, 400, 'INVITE_CODE_INVALID');
      expect(response.json().messages).toEqual([ERRORS.INVITE_CODE_INVALID]);
    }
    const invite = await makeInvite();
    const mixed = await register(app('invite'), { username: 'ok-but', email: 'nope', password: 'correct horse 1', inviteCode: 'WRONG' });
    expect(mixed.json().messages).toEqual([ERRORS.USERNAME_INVALID, ERRORS.EMAIL_INVALID, ERRORS.INVITE_CODE_INVALID]);
    // Problems elsewhere with a good code: the code is not used up.
    const bad = await register(app('invite'), {
      username: 'x',
      email: 'x@example.com',
      password: 'correct horse 1',
      inviteCode: invite.code,
    });
    expect(bad.json().messages).toEqual([ERRORS.USERNAME_LENGTH]);
    expect(await userCount()).toBe(before);
    expect((await register(app('invite'), { ...newAccount('invited'), inviteCode: invite.code })).statusCode).toBe(201);
  });

  it('a code works for its uses, typed in any case, with or without its dashes and spaces; then it is used up', async () => {
    const invite = await makeInvite(3);
    expect(invite).toMatchObject({ usesLeft: 3, createdBy: null });
    expect(invite.code).toMatch(/^[2-9A-HJKMNP-TW-Z]{4}-[2-9A-HJKMNP-TW-Z]{4}-[2-9A-HJKMNP-TW-Z]{4}$/);
    const spellings = [invite.code, invite.code.toLowerCase(), ` ${invite.code.replaceAll('-', ' ')} `];
    for (const inviteCode of spellings) {
      const response = await register(app('invite'), { ...newAccount('invited'), inviteCode });
      expect(response.statusCode, `${inviteCode}: ${response.body}`).toBe(201);
    }
    expectError(await register(app('invite'), { ...newAccount('late'), inviteCode: invite.code }), 400, 'INVITE_CODE_INVALID');
    const [row] = await query<{ uses_left: number }>(t.database, 'SELECT uses_left FROM invites WHERE code_hash = $1', [invite.id]);
    expect(row!.uses_left).toBe(0);
  });

  it('a sign-up that fails (its username taken meanwhile) gives its use back', async () => {
    const invite = await makeInvite(1);
    const taken = await register(app('invite'), { ...newAccount('x'), username: existing.username, inviteCode: invite.code });
    expectError(taken, 409, 'USERNAME_TAKEN');
    expect((await register(app('invite'), { ...newAccount('retry'), inviteCode: invite.code })).statusCode).toBe(201);
  });

  it('an expired code: "Invalid invite code."', async () => {
    const invite = await makeInvite(5, 1);
    await query(t.database, `UPDATE invites SET expires_at = now() - interval '1 second' WHERE code_hash = $1`, [invite.id]);
    expectError(await register(app('invite'), { ...newAccount('expired'), inviteCode: invite.code }), 400, 'INVITE_CODE_INVALID');
  });

  it('racing for the last use: exactly one of ten sign-ups wins', async () => {
    const invite = await makeInvite(1);
    const before = await userCount();
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => register(app('invite'), { ...newAccount('race'), inviteCode: invite.code })),
    );
    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, ...Array<number>(9).fill(400)]);
    for (const response of responses.filter((r) => r.statusCode === 400)) expectError(response, 400, 'INVITE_CODE_INVALID');
    expect(await userCount()).toBe(before + 1);
  });

  it('admins list the live codes (never the code itself) and revoke one; a revoked code lets no one in', async () => {
    const invite = await makeInvite(4, 2);
    const list = await app('invite').inject({ method: 'GET', url: API.invites, headers: { cookie: admin.cookie } });
    const live = list.json<{ invites: InviteInfo[] }>().invites;
    const shown = live.find((entry) => entry.id === invite.id)!;
    expect(shown).toMatchObject({ usesLeft: 4, createdBy: admin.username });
    expect(Date.parse(shown.expiresAt!) - Date.now()).toBeGreaterThan(2 * 86_400_000 - 60_000);
    expect(list.body).not.toContain(invite.code);
    // Used-up and expired ones are not live.
    expect(live.every((entry) => entry.usesLeft > 0)).toBe(true);

    const revoke = await app('invite').inject({ method: 'DELETE', url: API.invite(invite.id), headers: { cookie: admin.cookie } });
    expect(revoke.statusCode).toBe(204);
    const again = await app('invite').inject({ method: 'DELETE', url: API.invite(invite.id), headers: { cookie: admin.cookie } });
    expectError(again, 404, 'NOT_FOUND');
    expectError(await register(app('invite'), { ...newAccount('revoked'), inviteCode: invite.code }), 400, 'INVITE_CODE_INVALID');
  });

  it('to members and moderators, signed out too, the invites routes do not exist (404)', async () => {
    const member = await signUp(t.app, newAccount('member'));
    const moderator = await signUp(t.app, newAccount('mod'));
    await query(t.database, `UPDATE users SET role = 'moderator' WHERE id = $1`, [moderator.uid]);
    const invite = await makeInvite();
    for (const cookie of [undefined, member.cookie, moderator.cookie]) {
      const headers = cookie ? { cookie } : {};
      expectError(await app('invite').inject({ method: 'GET', url: API.invites, headers }), 404, 'NOT_FOUND');
      expectError(
        await app('invite').inject({ method: 'POST', url: API.invites, headers, payload: { uses: 1, days: 1 } }),
        404,
        'NOT_FOUND',
      );
      expectError(await app('invite').inject({ method: 'DELETE', url: API.invite(invite.id), headers }), 404, 'NOT_FOUND');
    }
    expect(await query(t.database, 'SELECT 1 FROM invites WHERE code_hash = $1', [invite.id])).toHaveLength(1);
  });

  it('bad limits: 400, nothing made', async () => {
    const before = (await query(t.database, 'SELECT 1 FROM invites')).length;
    for (const payload of [
      { uses: 0, days: 1 },
      { uses: 1, days: 0 },
      { uses: 1001, days: 1 },
      { uses: 1, days: 366 },
      { uses: 1.5, days: 1 },
      {},
    ]) {
      const response = await app('invite').inject({ method: 'POST', url: API.invites, headers: { cookie: admin.cookie }, payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await query(t.database, 'SELECT 1 FROM invites')).length).toBe(before);
  });

  it('the sign-up limit counts wrong codes', async () => {
    const limited = await buildApp({
      config: { ...t.config, registration: { mode: 'invite', emailDomains: [] }, rateLimits: { ...t.config.rateLimits, registerPerIp: 3 } },
      database: t.database,
    });
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await register(limited, { ...newAccount('guess'), inviteCode: `GUESS${i}` })).statusCode);
    expect(statuses).toEqual([400, 400, 400, 429]);
    await limited.close();
  });
});

describe('existing accounts sign in whatever REGISTRATION says', () => {
  it.each(['domains', 'invite', 'closed'] as const)('%s', async (mode) => {
    const response = await signIn(app(mode), existing.username, existing.password);
    expect(response.statusCode, response.body).toBe(200);
  });
});

describe('the settings', () => {
  it('an unknown mode, a bad domain, or domains without any: refuses to start with a clear message', () => {
    expect(() => registrationConfig({ REGISTRATION: 'invites' })).toThrow(
      'REGISTRATION must be one of open, domains, invite, sso, closed, got "invites"',
    );
    expect(() => registrationConfig({ REGISTRATION: 'domains' })).toThrow(/REGISTRATION=domains needs REGISTRATION_EMAIL_DOMAINS/);
    for (const entry of ['@uni.edu', 'uni', '*uni.edu', 'uni.edu/x', '*.*.uni.edu', 'uni..edu', '-uni.edu']) {
      expect(() => registrationConfig({ REGISTRATION: 'domains', REGISTRATION_EMAIL_DOMAINS: `ok.edu,${entry}` }), entry).toThrow(
        `REGISTRATION_EMAIL_DOMAINS: ${JSON.stringify(entry)} is not a domain`,
      );
    }
    expect(registrationConfig({ REGISTRATION: ' Domains ', REGISTRATION_EMAIL_DOMAINS: ' uni.example.edu , *.uni.example.edu,' })).toEqual({
      mode: 'domains',
      emailDomains: ['uni.example.edu', '*.uni.example.edu'],
    });
    expect(registrationConfig({ REGISTRATION: 'invite', REGISTRATION_EMAIL_DOMAINS: 'uni.example.edu' })).toEqual({
      mode: 'invite',
      emailDomains: [],
    });
  });

  it('the page tells the client the mode and the domains (escaped), so the form can say so before anything is sent', async () => {
    const clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dormboard-registration-client-'));
    fs.copyFileSync(path.resolve('src/client/index.html'), path.join(clientDir, 'index.html'));
    const served = await buildApp({
      config: { ...t.config, clientDir, registration: { mode: 'domains', emailDomains: ['uni.example.edu', '*.uni.example.edu'] } },
      database: t.database,
    });
    try {
      const page = (await served.inject({ method: 'GET', url: '/login' })).body;
      expect(page).toContain('<meta name="registration" content="domains" />');
      expect(page).toContain('<meta name="registration-email-domains" content="uni.example.edu,*.uni.example.edu" />');
      expect(page).not.toContain('__REGISTRATION');
    } finally {
      await served.close();
      fs.rmSync(clientDir, { recursive: true, force: true });
    }
  });
});
