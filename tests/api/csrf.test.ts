import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import type { Outbox } from '../../src/server/mail/outbox.js';
import { activityApi, NotificationTopic } from '../../src/shared/api/activity.js';
import { API } from '../../src/shared/api/paths.js';
import { ssoApi } from '../../src/shared/api/sso.js';
import { usernameClaimApi } from '../../src/shared/api/username-claim.js';
import { deleteOwnAccount, newAccount, signUp } from '../helpers/accounts.js';
import { boardRows, boardSteps, insertPostsBy } from '../helpers/boards.js';
import { jpeg } from '../helpers/images.js';
import { startOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider.js';
import { edgesOf, expectError, follow, get, query } from '../helpers/people.js';
import { createPost, multipart } from '../helpers/posts.js';
import { resetLinkFor } from '../helpers/reset-links.js';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.js';
import { browserSubscription } from '../helpers/push-service.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { mailedVerification, mailingApp, mailsTo, verifyByMail, type MailingApp } from '../helpers/verification.js';
import { bellCounter } from '../helpers/notification-steps.js';

/**
 * Cross-site request forgery (OWASP ASVS V3): a page on another site must not be able to make
 * a signed-in browser change anything, even where SameSite=Lax lets the cookie through (a
 * sibling subdomain). The browser says where a request comes from (Sec-Fetch-Site, or Origin
 * in older browsers); requests without either (curl, scripts) are not from a page and pass.
 */

type Headers = Record<string, string>;

/** The site the app is served as in these tests. */
const HOST = 'dorm.example';

/** One state-changing request, ready to send, and whether it took effect. */
interface Attempt {
  send(headers: Headers): Promise<LightMyRequestResponse>;
  changed(): Promise<boolean>;
}

interface Write {
  name: string;
  success: number;
  prepare(t: TestApp): Promise<Attempt>;
}

async function sessionCount(t: TestApp, uid: string): Promise<number> {
  return (await query(t.database, 'SELECT 1 FROM sessions WHERE user_id = $1', [uid])).length;
}

const inject = (t: TestApp, method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, headers: Headers, payload?: object | Buffer) =>
  t.app.inject({ method, url, headers: { host: HOST, ...headers }, payload });

/** Mail is on ("Forgot password?", verified addresses): it goes to a real SMTP server. */
let outbox: Outbox;
let mailing: MailingApp;
/** Single sign-on is set up too (issue 29), with a real OpenID provider. */
let provider: TestOidcProvider;
let providerAccounts = 0;

/** A new account at the provider, with a vouched address of its own. */
function providerAccount(): string {
  providerAccounts += 1;
  const sub = `csrf-${process.pid % 1000}-${providerAccounts}`;
  provider.accounts.set(sub, { sub, email: `${sub}@uni.example.edu`, email_verified: true });
  return sub;
}

/**
 * A browser with `cookie` (a session, or none) signs in at the provider as `sub`, from the sign-in
 * button (or, with `link`, Settings' Connect): the app's answer to the provider's redirect back.
 */
async function ssoRound(t: TestApp, cookie: string | undefined, sub: string, link: boolean) {
  const start = await t.app.inject({ method: 'GET', url: link ? API.ssoLink : API.ssoStart, headers: cookie ? { cookie } : {} });
  expect(start.statusCode, start.body).toBe(302);
  const state = start.cookies.find((c) => c.name === 'sso_state')?.value;
  const back = await provider.signIn(String(start.headers.location), sub);
  const cookies = [cookie, `sso_state=${state}`].filter(Boolean).join('; ');
  return t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}`, headers: { cookie: cookies } });
}

const ssoLinked = async (t: TestApp, sub: string) =>
  (await query(t.database, 'SELECT 1 FROM sso_identities WHERE subject = $1', [sub])).length > 0;

/**
 * A new account whose address is proved: with mail on, an unverified one may not post, follow,
 * save, report or invite (issue 29), and these requests are not about that.
 */
async function member(t: TestApp) {
  const account = await signUp(t.app);
  await verifyByMail(mailing, account);
  return account;
}

const addressVerified = async (t: TestApp, uid: string) =>
  (await query(t.database, 'SELECT 1 FROM users WHERE id = $1 AND email_verified_at IS NOT NULL', [uid])).length > 0;

const hasResetLink = async (t: TestApp, uid: string) =>
  (await query(t.database, 'SELECT 1 FROM password_resets WHERE user_id = $1', [uid])).length > 0;

/** A new account made an admin (invite codes are theirs to make). */
async function signUpAdmin(t: TestApp) {
  const admin = await member(t);
  await query(t.database, `UPDATE users SET role = 'admin' WHERE id = $1`, [admin.uid]);
  return admin;
}

/** A new account made a moderator or an admin (issue 17: moderation is theirs). */
async function signUpStaff(t: TestApp, role: 'moderator' | 'admin') {
  const made = await member(t);
  await query(t.database, 'UPDATE users SET role = $1 WHERE id = $2', [role, made.uid]);
  return made;
}

/** A board of a new account's (issue 18), and a post of someone else's to save to it. */
async function boardOfNewAccount(t: TestApp) {
  const owner = await member(t);
  const board = await boardSteps(t.app).create(owner, { name: 'Before' });
  const [postId] = await insertPostsBy(t.database, (await member(t)).uid, 1);
  return { owner, board, postId: postId! };
}

const pushDevices = async (t: TestApp, uid: string) =>
  (await query<{ id: string }>(t.database, 'SELECT id FROM push_subscriptions WHERE user_id = $1', [uid])).map((row) => row.id);

const WRITES: Write[] = [
  {
    name: 'POST register',
    success: 201,
    async prepare(t) {
      const account = newAccount('csrf');
      return {
        send: (headers) => inject(t, 'POST', API.register, headers, account),
        changed: async () => (await query(t.database, 'SELECT 1 FROM users WHERE username = $1', [account.username])).length > 0,
      };
    },
  },
  {
    name: 'POST login',
    success: 200,
    async prepare(t) {
      const user = await member(t);
      return {
        send: (headers) => inject(t, 'POST', API.login, headers, { identifier: user.username, password: user.password }),
        changed: async () => (await sessionCount(t, user.uid)) > 1,
      };
    },
  },
  {
    name: 'POST logout',
    success: 204,
    async prepare(t) {
      const user = await member(t);
      return {
        send: (headers) => inject(t, 'POST', API.logout, { ...headers, cookie: user.cookie }),
        changed: async () => (await sessionCount(t, user.uid)) === 0,
      };
    },
  },
  {
    name: 'POST change password',
    success: 204,
    async prepare(t) {
      const user = await member(t);
      const body = { currentPassword: user.password, newPassword: 'chosen by another site', confirmPassword: 'chosen by another site' };
      const before = await query(t.database, 'SELECT password_hash FROM users WHERE id = $1', [user.uid]);
      return {
        send: (headers) => inject(t, 'POST', API.password, { ...headers, cookie: user.cookie }, body),
        changed: async () =>
          JSON.stringify(await query(t.database, 'SELECT password_hash FROM users WHERE id = $1', [user.uid])) !== JSON.stringify(before),
      };
    },
  },
  {
    name: 'POST reset (a reset link)',
    success: 200,
    async prepare(t) {
      const user = await member(t);
      const { token } = await resetLinkFor(t, user.username);
      const body = { token, newPassword: 'chosen by another site', confirmPassword: 'chosen by another site' };
      return {
        send: (headers) => inject(t, 'POST', API.reset, headers, body),
        changed: async () => !(await hasResetLink(t, user.uid)),
      };
    },
  },
  {
    name: 'POST forgot password',
    success: 204,
    async prepare(t) {
      const user = await member(t);
      return {
        send: (headers) => inject(t, 'POST', API.forgotPassword, headers, { identifier: user.username }),
        changed: async () => {
          await outbox.idle();
          return hasResetLink(t, user.uid);
        },
      };
    },
  },
  {
    name: 'DELETE a session',
    success: 204,
    async prepare(t) {
      const user = await member(t);
      const [session] = await query<{ id: string }>(t.database, 'SELECT id FROM sessions WHERE user_id = $1', [user.uid]);
      return {
        send: (headers) => inject(t, 'DELETE', API.session(session!.id), { ...headers, cookie: user.cookie }),
        changed: async () => (await sessionCount(t, user.uid)) === 0,
      };
    },
  },
  {
    name: 'DELETE /api/me (delete the account)',
    success: 204,
    async prepare(t) {
      const user = await member(t);
      return {
        send: (headers) => inject(t, 'DELETE', API.me, { ...headers, cookie: user.cookie }, { password: user.password }),
        changed: async () => (await query(t.database, 'SELECT 1 FROM users WHERE id = $1', [user.uid])).length === 0,
      };
    },
  },
  {
    name: 'PATCH /api/me (multipart)',
    success: 200,
    async prepare(t) {
      const user = await member(t);
      const form = await multipart([['bio', 'planted by another site']]);
      return {
        send: (headers) => inject(t, 'PATCH', API.me, { ...headers, cookie: user.cookie, 'content-type': form.contentType }, form.payload),
        changed: async () => (await query(t.database, "SELECT 1 FROM users WHERE id = $1 AND bio <> ''", [user.uid])).length > 0,
      };
    },
  },
  {
    name: 'POST /api/posts (multipart)',
    success: 201,
    async prepare(t) {
      const user = await member(t);
      const form = await multipart([
        ['photo', { bytes: await jpeg(64, 48) }],
        ['description', 'posted by another site'],
      ]);
      return {
        send: (headers) =>
          inject(t, 'POST', API.posts, { ...headers, cookie: user.cookie, 'content-type': form.contentType }, form.payload),
        changed: async () => (await query(t.database, 'SELECT 1 FROM posts WHERE user_id = $1', [user.uid])).length > 0,
      };
    },
  },
  {
    name: 'DELETE /api/posts/:id',
    success: 204,
    async prepare(t) {
      const user = await member(t);
      const created = await createPost(t.app, user.cookie, { bytes: await jpeg(64, 48), description: 'keep me' });
      expect(created.statusCode, created.body).toBe(201);
      const id: string = created.json().post.id;
      return {
        send: (headers) => inject(t, 'DELETE', API.post(id), { ...headers, cookie: user.cookie }),
        changed: async () => (await query(t.database, 'SELECT 1 FROM posts WHERE id = $1', [id])).length === 0,
      };
    },
  },
  {
    name: 'PUT follow',
    success: 200,
    async prepare(t) {
      const [fan, star] = [await member(t), await member(t)];
      return {
        send: (headers) => inject(t, 'PUT', API.follow(star.username), { ...headers, cookie: fan.cookie }),
        changed: async () => (await edgesOf(t.database, fan.uid)).length > 0,
      };
    },
  },
  {
    name: 'DELETE follow',
    success: 200,
    async prepare(t) {
      const [fan, star] = [await member(t), await member(t)];
      expect((await follow(t.app, star.username, fan.cookie)).statusCode).toBe(200);
      return {
        send: (headers) => inject(t, 'DELETE', API.follow(star.username), { ...headers, cookie: fan.cookie }),
        changed: async () => (await edgesOf(t.database, fan.uid)).length === 0,
      };
    },
  },
  {
    name: 'PUT block',
    success: 200,
    async prepare(t) {
      const [blocker, blocked] = [await member(t), await member(t)];
      const blocks = async () => (await query(t.database, 'SELECT 1 FROM blocks WHERE blocker_id = $1', [blocker.uid])).length;
      return {
        send: (headers) => inject(t, 'PUT', API.block(blocked.username), { ...headers, cookie: blocker.cookie }),
        changed: async () => (await blocks()) > 0,
      };
    },
  },
  {
    name: 'DELETE block',
    success: 200,
    async prepare(t) {
      const [blocker, blocked] = [await member(t), await member(t)];
      expect((await inject(t, 'PUT', API.block(blocked.username), { cookie: blocker.cookie })).statusCode).toBe(200);
      const blocks = async () => (await query(t.database, 'SELECT 1 FROM blocks WHERE blocker_id = $1', [blocker.uid])).length;
      return {
        send: (headers) => inject(t, 'DELETE', API.block(blocked.username), { ...headers, cookie: blocker.cookie }),
        changed: async () => (await blocks()) === 0,
      };
    },
  },
  {
    name: 'POST invite code (an admin)',
    success: 201,
    async prepare(t) {
      const admin = await signUpAdmin(t);
      const made = async () => (await query(t.database, 'SELECT 1 FROM invites WHERE created_by = $1', [admin.uid])).length;
      return {
        send: (headers) => inject(t, 'POST', API.invites, { ...headers, cookie: admin.cookie }, { uses: 1, days: 1 }),
        changed: async () => (await made()) > 0,
      };
    },
  },
  {
    name: 'DELETE invite code (an admin)',
    success: 204,
    async prepare(t) {
      const admin = await signUpAdmin(t);
      const made = await inject(t, 'POST', API.invites, { cookie: admin.cookie }, { uses: 1, days: 1 });
      const id = made.json<{ id: string }>().id;
      return {
        send: (headers) => inject(t, 'DELETE', API.invite(id), { ...headers, cookie: admin.cookie }),
        changed: async () => (await query(t.database, 'SELECT 1 FROM invites WHERE code_hash = $1', [id])).length === 0,
      };
    },
  }, // Reports and moderation (issue 17): staff act on a fresh member.
  {
    name: 'POST report',
    success: 204,
    async prepare(t) {
      const [reporter, target] = [await member(t), await member(t)];
      return {
        send: (headers) =>
          inject(t, 'POST', API.reports, { ...headers, cookie: reporter.cookie }, { username: target.username, reason: 'spam' }),
        changed: async () => (await query(t.database, 'SELECT 1 FROM reports WHERE reporter_id = $1', [reporter.uid])).length > 0,
      };
    },
  },
  {
    name: 'POST dismiss (a moderator)',
    success: 204,
    async prepare(t) {
      const [moderator, target, reporter] = [await signUpStaff(t, 'moderator'), await member(t), await member(t)];
      await inject(t, 'POST', API.reports, { cookie: reporter.cookie }, { username: target.username, reason: 'spam' });
      return {
        send: (headers) =>
          inject(t, 'POST', API.moderationDismiss, { ...headers, cookie: moderator.cookie }, { username: target.username }),
        changed: async () =>
          (await query(t.database, `SELECT 1 FROM reports WHERE target_user_id = $1 AND status = 'dismissed'`, [target.uid])).length > 0,
      };
    },
  },
  {
    name: 'POST remove-post (a moderator)',
    success: 204,
    async prepare(t) {
      const [moderator, author] = [await signUpStaff(t, 'moderator'), await member(t)];
      const post = (await createPost(t.app, author.cookie, { bytes: await jpeg(40, 30) })).json().post as { id: string };
      return {
        send: (headers) => inject(t, 'POST', API.moderationRemovePost, { ...headers, cookie: moderator.cookie }, { postId: post.id }),
        changed: async () => (await query(t.database, 'SELECT 1 FROM posts WHERE id = $1', [post.id])).length === 0,
      };
    },
  },
  {
    name: 'POST suspend (a moderator)',
    success: 200,
    async prepare(t) {
      const [moderator, target] = [await signUpStaff(t, 'moderator'), await member(t)];
      return {
        send: (headers) =>
          inject(t, 'POST', API.moderationSuspend, { ...headers, cookie: moderator.cookie }, { username: target.username, days: 1 }),
        changed: async () =>
          (await query(t.database, 'SELECT 1 FROM users WHERE id = $1 AND suspended_until IS NOT NULL', [target.uid])).length > 0,
      };
    },
  },
  {
    name: 'POST unsuspend (an admin)',
    success: 204,
    async prepare(t) {
      const [admin, target] = [await signUpStaff(t, 'admin'), await member(t)];
      await query(t.database, `UPDATE users SET suspended_until = now() + interval '1 day' WHERE id = $1`, [target.uid]);
      return {
        send: (headers) => inject(t, 'POST', API.moderationUnsuspend, { ...headers, cookie: admin.cookie }, { username: target.username }),
        changed: async () =>
          (await query(t.database, 'SELECT 1 FROM users WHERE id = $1 AND suspended_until IS NULL', [target.uid])).length > 0,
      };
    },
  },
  {
    name: 'PUT role (an admin)',
    success: 200,
    async prepare(t) {
      const [admin, target] = [await signUpStaff(t, 'admin'), await member(t)];
      return {
        send: (headers) =>
          inject(t, 'PUT', API.moderationRole(target.username), { ...headers, cookie: admin.cookie }, { role: 'moderator' }),
        changed: async () => (await query(t.database, `SELECT 1 FROM users WHERE id = $1 AND role = 'moderator'`, [target.uid])).length > 0,
      };
    },
  },
  {
    name: 'POST verify-email (an admin)',
    success: 204,
    async prepare(t) {
      const [admin, target] = [await signUpStaff(t, 'admin'), await signUp(t.app)];
      return {
        send: (headers) => inject(t, 'POST', API.moderationVerifyEmail(target.username), { ...headers, cookie: admin.cookie }),
        changed: () => addressVerified(t, target.uid),
      };
    },
  },
  // Verified addresses (issue 29): a new account's link (opened anywhere) and code, a new mail, a new address.
  {
    name: 'POST verify (a mailed link)',
    success: 200,
    async prepare(t) {
      const user = await signUp(t.app);
      const { token } = await mailedVerification(mailing, user.email);
      return {
        send: (headers) => inject(t, 'POST', API.verifyLink, headers, { token }),
        changed: () => addressVerified(t, user.uid),
      };
    },
  },
  // Issue 29: a held name back to its address's owner, by a mailed link (opened anywhere).
  {
    name: 'POST claim (a mailed link)',
    success: 201,
    async prepare(t) {
      const gone = await signUp(t.app);
      await deleteOwnAccount(t.app, gone);
      const again = await t.app.inject({
        method: 'POST',
        url: API.register,
        payload: { ...newAccount(), username: gone.username, email: gone.email },
      });
      expectError(again, 409, 'USERNAME_TAKEN');
      const token = /\/claim\/([\w-]{43})/.exec((await mailsTo(mailing, gone.email)).at(-1)?.text ?? '')?.[1];
      return {
        send: (headers) => inject(t, 'POST', usernameClaimApi.claimUsername.path, headers, { token }),
        changed: async () => (await query(t.database, 'SELECT 1 FROM users WHERE username = $1', [gone.username])).length === 1,
      };
    },
  },
  {
    name: 'POST verify code',
    success: 200,
    async prepare(t) {
      const user = await signUp(t.app);
      const { code } = await mailedVerification(mailing, user.email);
      return {
        send: (headers) => inject(t, 'POST', API.verifyCode, { ...headers, cookie: user.cookie }, { code }),
        changed: () => addressVerified(t, user.uid),
      };
    },
  },
  {
    name: 'POST resend verification',
    success: 204,
    async prepare(t) {
      const user = await signUp(t.app);
      expect(await mailsTo(mailing, user.email)).toHaveLength(1);
      return {
        send: (headers) => inject(t, 'POST', API.resendVerification, { ...headers, cookie: user.cookie }),
        changed: async () => (await mailsTo(mailing, user.email)).length > 1,
      };
    },
  },
  {
    name: 'PUT /api/me/email (a new address)',
    success: 200,
    async prepare(t) {
      const user = await member(t);
      const email = newAccount('csrf').email;
      return {
        send: (headers) => inject(t, 'PUT', API.email, { ...headers, cookie: user.cookie }, { email, currentPassword: user.password }),
        changed: async () =>
          (await query(t.database, 'SELECT 1 FROM users WHERE id = $1 AND pending_email = $2', [user.uid, email])).length > 0,
      };
    },
  },
  // Single sign-on (issue 29): a first sign-in's username (its cookie, not a session, is the
  // authority), and disconnecting the provider.
  {
    name: 'POST single sign-on username (a first sign-in)',
    success: 201,
    async prepare(t) {
      const sub = providerAccount();
      const back = await ssoRound(t, undefined, sub, false);
      expect(back.headers.location).toBe('/sso/welcome');
      const token = back.cookies.find((c) => c.name === 'sso_signup')!.value;
      const username = `sso${sub.replace(/\W/g, '')}`.slice(0, 20);
      return {
        send: (headers) => inject(t, 'POST', ssoApi.ssoCompleteSignup.path, { ...headers, cookie: `sso_signup=${token}` }, { username }),
        changed: () => ssoLinked(t, sub),
      };
    },
  },
  {
    name: 'DELETE single sign-on (disconnect)',
    success: 204,
    async prepare(t) {
      const user = await signUp(t.app);
      const sub = providerAccount();
      expect((await ssoRound(t, user.cookie, sub, true)).headers.location).toBe('/settings/sso?linked=1');
      return {
        send: (headers) => inject(t, 'DELETE', ssoApi.ssoUnlink.path, { ...headers, cookie: user.cookie }),
        changed: async () => !(await ssoLinked(t, sub)),
      };
    },
  },
  // Boards (issue 18).
  {
    name: 'POST board',
    success: 201,
    async prepare(t) {
      const owner = await member(t);
      return {
        send: (headers) => inject(t, 'POST', API.boards, { ...headers, cookie: owner.cookie }, { name: 'Made' }),
        changed: async () => (await query(t.database, 'SELECT 1 FROM boards WHERE owner_id = $1', [owner.uid])).length > 0,
      };
    },
  },
  {
    name: 'PATCH board',
    success: 200,
    async prepare(t) {
      const { owner, board } = await boardOfNewAccount(t);
      return {
        send: (headers) => inject(t, 'PATCH', API.board(board.id), { ...headers, cookie: owner.cookie }, { name: 'After', secret: true }),
        changed: async () => (await boardRows(t.database, board.id)).board?.name === 'After',
      };
    },
  },
  {
    name: 'DELETE board',
    success: 204,
    async prepare(t) {
      const { owner, board } = await boardOfNewAccount(t);
      return {
        send: (headers) => inject(t, 'DELETE', API.board(board.id), { ...headers, cookie: owner.cookie }),
        changed: async () => (await boardRows(t.database, board.id)).board === undefined,
      };
    },
  },
  {
    name: 'PUT board post (save)',
    success: 200,
    async prepare(t) {
      const { owner, board, postId } = await boardOfNewAccount(t);
      return {
        send: (headers) => inject(t, 'PUT', API.boardPost(board.id, postId), { ...headers, cookie: owner.cookie }),
        changed: async () => (await boardRows(t.database, board.id)).saves.length > 0,
      };
    },
  },
  {
    name: 'DELETE board post (remove)',
    success: 200,
    async prepare(t) {
      const { owner, board, postId } = await boardOfNewAccount(t);
      await boardSteps(t.app).save(owner, board.id, postId);
      return {
        send: (headers) => inject(t, 'DELETE', API.boardPost(board.id, postId), { ...headers, cookie: owner.cookie }),
        changed: async () => (await boardRows(t.database, board.id)).saves.length === 0,
      };
    },
  },
  {
    name: 'PUT board member (invite)',
    success: 200,
    async prepare(t) {
      const { owner, board } = await boardOfNewAccount(t);
      const invitee = await member(t);
      return {
        send: (headers) => inject(t, 'PUT', API.boardMember(board.id, invitee.username), { ...headers, cookie: owner.cookie }),
        changed: async () => (await boardRows(t.database, board.id)).members.length > 0,
      };
    },
  },
  {
    name: 'DELETE board member (leave)',
    success: 200,
    async prepare(t) {
      const { owner, board } = await boardOfNewAccount(t);
      const joined = await member(t);
      await boardSteps(t.app).addMember(owner, board.id, joined);
      return {
        send: (headers) => inject(t, 'DELETE', API.boardMember(board.id, joined.username), { ...headers, cookie: joined.cookie }),
        changed: async () => (await boardRows(t.database, board.id)).members.length === 0,
      };
    },
  },
  {
    name: 'POST board join',
    success: 200,
    async prepare(t) {
      const { owner, board } = await boardOfNewAccount(t);
      const invitee = await member(t);
      await boardSteps(t.app).invite(owner, board.id, invitee.username);
      return {
        send: (headers) => inject(t, 'POST', API.boardJoin(board.id), { ...headers, cookie: invitee.cookie }),
        changed: async () => (await boardRows(t.database, board.id)).members.some((member) => member.joined),
      };
    },
  },
  // Notifications (issue 30).
  {
    name: 'POST mark notifications read',
    success: 200,
    async prepare(t) {
      const user = await member(t);
      const follower = await member(t);
      expect((await follow(t.app, user.username, follower.cookie)).statusCode).toBe(200);
      const unread = () => bellCounter(t.database, user.uid);
      expect(await unread()).toBe(1);
      return {
        send: (headers) => inject(t, 'POST', activityApi.markRead.path, { ...headers, cookie: user.cookie }, {}),
        changed: async () => (await unread()) === 0,
      };
    },
  },
  {
    name: 'PUT notification settings',
    success: 200,
    async prepare(t) {
      const user = await member(t);
      const body = Object.fromEntries(NotificationTopic.options.map((topic) => [topic, { app: false, push: false }]));
      return {
        send: (headers) => inject(t, 'PUT', activityApi.updateNotificationSettings.path, { ...headers, cookie: user.cookie }, body),
        changed: async () =>
          (await query<{ off: string[] }>(t.database, 'SELECT notifications_off AS off FROM users WHERE id = $1', [user.uid]))[0]!.off
            .length > 0,
      };
    },
  },
  {
    name: 'POST push device',
    success: 201,
    async prepare(t) {
      const user = await member(t);
      const subscription = browserSubscription();
      return {
        send: (headers) => inject(t, 'POST', activityApi.addPushDevice.path, { ...headers, cookie: user.cookie }, subscription),
        changed: async () => (await pushDevices(t, user.uid)).length > 0,
      };
    },
  },
  {
    name: 'DELETE push device',
    success: 200,
    async prepare(t) {
      const user = await member(t);
      const added = await inject(t, 'POST', activityApi.addPushDevice.path, { cookie: user.cookie }, browserSubscription());
      expect(added.statusCode, added.body).toBe(201);
      const [id] = await pushDevices(t, user.uid);
      return {
        send: (headers) => inject(t, 'DELETE', activityApi.removePushDevice.path.replace(':id', id!), { ...headers, cookie: user.cookie }),
        changed: async () => (await pushDevices(t, user.uid)).length === 0,
      };
    },
  },
];

const REFUSED: Array<[string, Headers]> = [
  ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }],
  // SameSite=Lax sends the cookie from a sibling subdomain: only this check stops it.
  ['Sec-Fetch-Site: same-site (a sibling subdomain)', { 'sec-fetch-site': 'same-site', origin: `https://evil.${HOST}` }],
  ['Origin: https://evil.example (no Sec-Fetch-Site)', { origin: 'https://evil.example' }],
  ['Origin: null (a sandboxed frame)', { origin: 'null' }],
  ['Origin: the same host on another port', { origin: `http://${HOST}:8080` }],
];

const ALLOWED: Array<[string, Headers]> = [
  ['Sec-Fetch-Site: same-origin (our own client)', { 'sec-fetch-site': 'same-origin', origin: `http://${HOST}` }],
  ['Origin: our own (an older browser)', { origin: `http://${HOST}` }],
  ['Sec-Fetch-Site: none (typed by the user)', { 'sec-fetch-site': 'none' }],
];

describe('CSRF: state-changing requests from another site are refused', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    provider = await startOidcProvider({ redirectUris: [`http://${HOST}${ssoApi.ssoCallback.path}`] });
    // The origin the ALLOWED requests name (with PUBLIC_URL set, the Origin must be exactly it).
    const { sso } = loadConfig({
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      PUBLIC_URL: `http://${HOST}`,
    });
    mailing = await mailingApp(smtp, { publicUrl: `http://${HOST}`, logLevel: 'silent', sso });
    outbox = mailing.outbox;
    t = mailing;
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
    await provider.close();
  });

  describe.each(WRITES)('$name', (write) => {
    it.each(REFUSED)("403 'Cross-site requests are not allowed.' with %s, and nothing changes", async (_, headers) => {
      const attempt = await write.prepare(t);
      expectError(await attempt.send(headers), 403, 'CROSS_SITE_REQUEST');
      expect(await attempt.changed()).toBe(false);
    });

    it.each(ALLOWED)('succeeds with %s', async (_, headers) => {
      const attempt = await write.prepare(t);
      const response = await attempt.send(headers);
      expect(response.statusCode, response.body).toBe(write.success);
      expect(await attempt.changed()).toBe(true);
    });
  });

  it('never refuses reads: cross-site GETs (links, images) still work, signed in too', async () => {
    const user = await signUp(t.app);
    for (const headers of [{ 'sec-fetch-site': 'cross-site' }, { origin: 'https://evil.example' }]) {
      const me = await t.app.inject({ method: 'GET', url: API.me, headers: { host: HOST, cookie: user.cookie, ...headers } });
      expect(me.statusCode, me.body).toBe(200);
      expect(me.json().user.uid).toBe(user.uid);
      const feed = await t.app.inject({ method: 'GET', url: API.posts, headers: { host: HOST, ...headers } });
      expect(feed.statusCode).toBe(200);
    }
    expect((await get(t.app, API.me, user.cookie)).statusCode).toBe(200);
  });

  it('except Download My Data, a costly read another site must not start: refused like a write, and not counted', async () => {
    const user = await signUp(t.app);
    const download = (headers: Headers) =>
      t.app.inject({ method: 'GET', url: API.exportData, headers: { host: HOST, cookie: user.cookie, ...headers } });
    for (const [, headers] of REFUSED) expectError(await download(headers), 403, 'CROSS_SITE_REQUEST');
    // Five refusals and three downloads: over the five an hour, had the refusals counted.
    for (const [name, headers] of ALLOWED) {
      const response = await download(headers);
      expect(response.statusCode, name).toBe(200);
      expect(response.headers['content-type']).toBe('application/zip');
    }
  });
});

describe('CSRF behind a reverse proxy: the Origin is compared with the forwarded host', () => {
  const proxied = {
    host: '127.0.0.1:3000',
    'x-forwarded-host': HOST,
    'x-forwarded-proto': 'https',
    origin: `https://${HOST}`,
  };

  it('TRUST_PROXY on: the public host from X-Forwarded-Host matches the Origin', async () => {
    const t = await createTestApp({ trustProxy: true });
    try {
      const user = await signUp(t.app);
      const response = await t.app.inject({
        method: 'POST',
        url: API.login,
        headers: proxied,
        payload: { identifier: user.username, password: user.password },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(await sessionCount(t, user.uid)).toBe(2);
    } finally {
      await t.close();
    }
  });

  it('TRUST_PROXY off: a forwarded host is not believed, so the Origin does not match', async () => {
    const t = await createTestApp({ trustProxy: false });
    try {
      const user = await signUp(t.app);
      const response = await t.app.inject({
        method: 'POST',
        url: API.login,
        headers: proxied,
        payload: { identifier: user.username, password: user.password },
      });
      expectError(response, 403, 'CROSS_SITE_REQUEST');
      expect(await sessionCount(t, user.uid)).toBe(1);
    } finally {
      await t.close();
    }
  });
});

describe('CSRF with PUBLIC_URL set: the Origin must be that origin, whatever Host and X-Forwarded-Host say', () => {
  const PUBLIC_URL = `https://${HOST}`;
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ trustProxy: true, publicUrl: PUBLIC_URL });
  });
  afterAll(async () => {
    await t.close();
  });

  const signIn = (user: { username: string; password: string }, headers: Headers) =>
    t.app.inject({ method: 'POST', url: API.login, headers, payload: { identifier: user.username, password: user.password } });

  it.each([
    ['a forged X-Forwarded-Host', { host: '127.0.0.1:3000', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' }],
    ['a forged Host', { host: 'evil.example' }],
  ])('an Origin matching %s but not PUBLIC_URL is refused', async (_, forged) => {
    const user = await signUp(t.app);
    expectError(await signIn(user, { ...forged, origin: 'https://evil.example' }), 403, 'CROSS_SITE_REQUEST');
    expect(await sessionCount(t, user.uid)).toBe(1);
  });

  it('our host over another scheme is not our origin', async () => {
    const user = await signUp(t.app);
    expectError(await signIn(user, { host: HOST, origin: `http://${HOST}` }), 403, 'CROSS_SITE_REQUEST');
    expect(await sessionCount(t, user.uid)).toBe(1);
  });

  it('the Origin of PUBLIC_URL works, behind the proxy or not', async () => {
    const user = await signUp(t.app);
    for (const headers of [
      { host: '127.0.0.1:3000', 'x-forwarded-host': HOST, 'x-forwarded-proto': 'https', origin: PUBLIC_URL } as Headers,
      { host: HOST, origin: PUBLIC_URL },
    ]) {
      const response = await signIn(user, headers);
      expect(response.statusCode, response.body).toBe(200);
    }
    expect(await sessionCount(t, user.uid)).toBe(3);
  });
});
