import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_COMMAND_PATH } from '../../src/server/admin/admin.routes.js';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { activityApi, NotificationTopic } from '../../src/shared/api/activity.js';
import type { BoardDetail } from '../../src/shared/api/boards.js';
import { API } from '../../src/shared/api/paths.js';
import type { PostDetail } from '../../src/shared/api/posts.js';
import { ssoApi } from '../../src/shared/api/sso.js';
import { usernameClaimApi } from '../../src/shared/api/username-claim.js';
import { ERRORS, type ErrorCode } from '../../src/shared/errors.js';
import { deleteOwnAccount, newAccount, signUp } from '../helpers/accounts.js';
import { boardRoutes, boardRows, boardSteps, insertPostsBy } from '../helpers/boards.js';
import { jpeg } from '../helpers/images.js';
import { startOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider.js';
import { edgesOf, expectError, follow, get, patchMe, query } from '../helpers/people.js';
import { createPost } from '../helpers/posts.js';
import { resetLinkFor } from '../helpers/reset-links.js';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.js';
import { browserSubscription } from '../helpers/push-service.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import {
  changeEmail,
  mailedVerification,
  mailingApp,
  mailsTo,
  resendVerification,
  verifyByMail,
  verifyCode,
  verifyLink,
  type MailedVerification,
  type MailingApp,
} from '../helpers/verification.js';
import { readZip } from '../helpers/zip.js';
import { bellCounter } from '../helpers/notification-steps.js';

/**
 * Who may change what (OWASP ASVS V8): every state-changing route, tried by someone signed
 * out, by another signed-in user and by the owner, with the status each must get and the
 * database rows that must (not) change. Routes that need mail (verified addresses, issue 29)
 * are tried on an app with mail on, where the owner has not verified its address yet and may
 * not post, follow, save, report or invite. Single sign-on's routes (issue 29) are tried on an
 * app with it set up, against a real OpenID provider. Plus: no response ever carries another
 * user's e-mail, a password hash or a session token.
 */

type Account = Awaited<ReturnType<typeof signUp>>;
type Actor = 'signed out' | 'another user' | 'owner';
const ACTORS: Actor[] = ['signed out', 'another user', 'owner'];

/** A fresh owner and another user for each cell, so no cell sees another cell's changes. */
interface Scene {
  t: TestApp;
  owner: Account;
  other: Account;
  /** Filled in by a row's setup when the route needs one. */
  post?: PostDetail;
  /** The public id of one of the owner's sessions. */
  sessionId?: string;
  /** The owner's password hash before the request. */
  passwordHashBefore?: string;
  bystander?: Account;
  /** A reset link of the owner's (npm run admin -- reset-link). */
  resetToken?: string;
  /** An invite code the owner (an admin) made. */
  inviteId?: string;
  /** A board (the owner's, or the bystander's when the owner is a member of it). */
  board?: BoardDetail;
  /** A post (the bystander's) to save to the board. */
  boardPostId?: string;
  /** With mail on (issue 29): the app, with its SMTP server. */
  mailing?: MailingApp;
  /** The owner's sign-up mail: its link and code. */
  verification?: MailedVerification;
  /** The other user's own board (each saves to and invites to their own). */
  otherBoard?: BoardDetail;
  /** A new address asked for. */
  newEmail?: string;
  /** With single sign-on (issue 29): the OpenID provider the app's is. */
  provider?: TestOidcProvider;
  /** A first single sign-on waiting for its username in the owner's browser: its cookie's token, and the provider's sub. */
  ssoSignup?: { token: string; sub: string };
  /** A deleted account whose held name was asked for with its address, and the claim link mailed to it. */
  gone?: Account;
  claimToken?: string;
  /** The provider accounts (subs) the owner and the other user connected. */
  ssoSubs?: { owner: string; other: string };
  /** One of the owner's notification groups (issue 30), as Mark as read names it. */
  activityGroup?: string;
  /** One of the owner's push devices (issue 30). */
  deviceId?: string;
}

interface Cell {
  status: number;
  /** The error code, for refusals. */
  code?: ErrorCode;
  /** What the database (or the media) must look like afterwards. */
  then(scene: Scene, response: LightMyRequestResponse): Promise<void>;
}

interface Row {
  /** "METHOD /path" exactly as the route is declared. */
  route: string;
  /** What is being tried, and who "owner" is for this route. */
  what: string;
  setup?(scene: Scene): Promise<void>;
  send(scene: Scene, cookie: string | undefined): Promise<LightMyRequestResponse>;
  cells: Record<Actor, Cell>;
}

function cookieOf(scene: Scene, actor: Actor): string | undefined {
  if (actor === 'signed out') return undefined;
  return actor === 'owner' ? scene.owner.cookie : scene.other.cookie;
}

function need<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('the row setup did not prepare this');
  return value;
}

const withCookie = (cookie: string | undefined) => (cookie ? { cookie } : {});

// Database state, read with plain SQL (the same on PGlite and PostgreSQL).

async function sessionCount(t: TestApp, uid: string): Promise<number> {
  return (await query(t.database, 'SELECT 1 FROM sessions WHERE user_id = $1', [uid])).length;
}

async function userRow(t: TestApp, uid: string) {
  const rows = await query<{ email: string; bio: string; icon_key: string | null }>(
    t.database,
    'SELECT email, bio, icon_key FROM users WHERE id = $1',
    [uid],
  );
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

async function usersNamed(t: TestApp, username: string): Promise<string[]> {
  const rows = await query<{ id: string }>(t.database, 'SELECT id FROM users WHERE username = $1', [username.toLowerCase()]);
  return rows.map((row) => row.id);
}

async function postAuthors(t: TestApp, ...uids: string[]): Promise<string[]> {
  const rows = await query<{ user_id: string }>(t.database, 'SELECT user_id FROM posts WHERE user_id = ANY($1::text[])', [uids]);
  return rows.map((row) => row.user_id);
}

async function postExists(t: TestApp, id: string): Promise<boolean> {
  return (await query(t.database, 'SELECT 1 FROM posts WHERE id = $1', [id])).length === 1;
}

const login = (t: TestApp, name: string, password: string, cookie?: string) =>
  t.app.inject({ method: 'POST', url: API.login, payload: { identifier: name, password }, headers: withCookie(cookie) });

/** The same outcome whoever asks. */
const forEveryone = (cell: Cell): Record<Actor, Cell> => ({ 'signed out': cell, 'another user': cell, owner: cell });

async function passwordHash(t: TestApp, uid: string): Promise<string> {
  return (await query<{ password_hash: string }>(t.database, 'SELECT password_hash FROM users WHERE id = $1', [uid]))[0]!.password_hash;
}

const sessionsAre = (owner: number, other: number) => async (s: Scene) => {
  expect(await sessionCount(s.t, s.owner.uid)).toBe(owner);
  expect(await sessionCount(s.t, s.other.uid)).toBe(other);
};

async function makeAdmin(t: TestApp, account: Account) {
  await query(t.database, `UPDATE users SET role = 'admin' WHERE id = $1`, [account.uid]);
}

/** Every block touching the owner, as "blocker>blocked", sorted. */
async function blocksOf(t: TestApp, uid: string): Promise<string[]> {
  const rows = await query<{ blocker_id: string; blocked_id: string }>(
    t.database,
    'SELECT blocker_id, blocked_id FROM blocks WHERE blocker_id = $1 OR blocked_id = $1',
    [uid],
  );
  return rows.map((row) => `${row.blocker_id}>${row.blocked_id}`).sort();
}

const blockBy = (s: Scene, blocker: Account) =>
  s.t.app.inject({ method: 'PUT', url: API.block(s.owner.username), headers: { cookie: blocker.cookie } });

const invitesMadeBy = (count: number) => async (s: Scene) => {
  expect(await query(s.t.database, 'SELECT 1 FROM invites WHERE created_by = $1', [s.owner.uid])).toHaveLength(count);
};

// Reports and moderation (issue 17).
async function staff(s: Scene, role: 'moderator' | 'admin') {
  await query(s.t.database, 'UPDATE users SET role = $1 WHERE id = $2', [role, s.owner.uid]);
}

async function ownersPost(s: Scene): Promise<PostDetail> {
  return (await createPost(s.t.app, s.owner.cookie, { bytes: await jpeg(40, 30), description: 'mine' })).json().post;
}

const reportsBy = (who: 'nobody' | 'other') => async (s: Scene) => {
  const rows = await query<{ reporter_id: string }>(s.t.database, 'SELECT reporter_id FROM reports WHERE target_user_id = $1', [
    s.owner.uid,
  ]);
  expect(rows.map((row) => row.reporter_id)).toEqual(who === 'other' ? [s.other.uid] : []);
};

async function reportBystander(s: Scene) {
  s.bystander = await signUp(s.t.app, newAccount('by'));
  const reporter = await signUp(s.t.app, newAccount('rep'));
  const sent = await s.t.app.inject({
    method: 'POST',
    url: API.reports,
    payload: { username: s.bystander.username, reason: 'spam' },
    headers: { cookie: reporter.cookie },
  });
  expect(sent.statusCode, sent.body).toBe(204);
}

const bystanderReportsOpen = (count: number) => async (s: Scene) => {
  const rows = await query(s.t.database, `SELECT 1 FROM reports WHERE target_user_id = $1 AND status = 'open'`, [need(s.bystander).uid]);
  expect(rows).toHaveLength(count);
};

const bystanderSuspended = (suspended: boolean) => async (s: Scene) => {
  const rows = await query(s.t.database, 'SELECT 1 FROM users WHERE id = $1 AND suspended_until > now()', [need(s.bystander).uid]);
  expect(rows).toHaveLength(suspended ? 1 : 0);
  // A suspension ends the bystander's sessions (a lifted one leaves them ended).
  if (suspended) expect(await sessionCount(s.t, need(s.bystander).uid)).toBe(0);
};

const bystanderRole = (role: string) => async (s: Scene) => {
  const rows = await query<{ role: string }>(s.t.database, 'SELECT role FROM users WHERE id = $1', [need(s.bystander).uid]);
  expect(rows[0]?.role).toBe(role);
};

const moderate = (s: Scene, cookie: string | undefined, method: 'POST' | 'PUT', url: string, payload: object) =>
  s.t.app.inject({ method, url, payload, headers: withCookie(cookie) });

// Boards (issue 18): who may change a board is the role table of docs/boards.md (every role is
// tests/api/boards.test.ts); here the owner, a stranger who sees the board, and nobody.
const boardsOf = async (s: Scene, uid: string) =>
  (await query<{ name: string }>(s.t.database, 'SELECT name FROM boards WHERE owner_id = $1', [uid])).map((row) => row.name);

async function ownersBoard(s: Scene) {
  s.bystander = await signUp(s.t.app, newAccount('by'));
  s.board = await boardSteps(s.t.app).create(s.owner, { name: 'Owned', description: 'before' });
  [s.boardPostId] = await insertPostsBy(s.t.database, s.bystander.uid, 1);
}

/** The bystander's board, of which the owner is a member ('invited' or 'joined'). */
async function bystandersBoard(s: Scene, membership: 'invited' | 'joined') {
  s.bystander = await signUp(s.t.app, newAccount('by'));
  const steps = boardSteps(s.t.app);
  s.board = await steps.create(s.bystander, { name: 'Shared' });
  if (membership === 'joined') await steps.addMember(s.bystander, s.board.id, s.owner);
  else await steps.invite(s.bystander, s.board.id, s.owner.username);
}

const boardSaves = async (s: Scene) => (await boardRows(s.t.database, need(s.board).id)).saves.map((row) => row.post_id);
const boardMembers = async (s: Scene) =>
  (await boardRows(s.t.database, need(s.board).id)).members.map((row) => `${row.user_id}:${row.joined}`);
const membersAre =
  (...members: Array<(s: Scene) => string>) =>
  async (s: Scene) =>
    expect(await boardMembers(s)).toEqual(members.map((member) => member(s)).sort());
const bystanderMember = (joined: boolean) => (s: Scene) => `${need(s.bystander).uid}:${joined}`;
const ownerMember = (joined: boolean) => (s: Scene) => `${s.owner.uid}:${joined}`;

// Verified addresses (issue 29).
async function addressState(t: TestApp, uid: string) {
  const [row] = await query<{ email: string; pending_email: string | null; verified: boolean }>(
    t.database,
    'SELECT email, pending_email, email_verified_at IS NOT NULL AS verified FROM users WHERE id = $1',
    [uid],
  );
  return row!;
}

const ownerVerified = (verified: boolean) => async (s: Scene) => expect((await addressState(s.t, s.owner.uid)).verified).toBe(verified);

/** The owner's live verification: its token's hash and its wrong codes so far (none once used). */
const ownerVerification = async (s: Scene) =>
  query<{ token_hash: string; code_attempts: number }>(
    s.t.database,
    'SELECT token_hash, code_attempts FROM email_verifications WHERE user_id = $1',
    [s.owner.uid],
  );

/** The owner's sign-up mail still stands, untouched: its link is the live one, no wrong code counted. */
const ownerMailStands = async (s: Scene) =>
  expect(await ownerVerification(s)).toEqual([
    { token_hash: createHash('sha256').update(need(s.verification).token).digest('hex'), code_attempts: 0 },
  ]);

const pendingAre = (owner: string | null, other: string | null) => async (s: Scene) => {
  const resolve = (value: string | null) => (value === 'new' ? need(s.newEmail) : value);
  expect(await addressState(s.t, s.owner.uid)).toMatchObject({ email: s.owner.email, pending_email: resolve(owner) });
  expect(await addressState(s.t, s.other.uid)).toMatchObject({ email: s.other.email, pending_email: resolve(other) });
};

// Notifications (issue 30): each caller's own notifications, switches and push devices, never anyone else's.
const unreadCounter = (s: Scene, uid: string) => bellCounter(s.t.database, uid);
const unreadAre = (owner: number, other: number) => async (s: Scene) => {
  expect(await unreadCounter(s, s.owner.uid)).toBe(owner);
  expect(await unreadCounter(s, s.other.uid)).toBe(other);
};

/** A bystander follows the owner and the other user: one unread notification each. */
async function bothFollowed(s: Scene) {
  s.bystander = await signUp(s.t.app, newAccount('by'));
  for (const whom of [s.owner, s.other]) expect((await follow(s.t.app, whom.username, s.bystander.cookie)).statusCode).toBe(200);
}

const topicsOff = async (s: Scene, uid: string) =>
  (await query<{ off: string[] }>(s.t.database, 'SELECT notifications_off AS off FROM users WHERE id = $1', [uid]))[0]!.off;
const ALL_TOPICS = [...NotificationTopic.options].sort();
const everythingOff = Object.fromEntries(NotificationTopic.options.map((topic) => [topic, { app: false, push: false }]));

const devicesOf = async (s: Scene, uid: string) =>
  (await query<{ id: string }>(s.t.database, 'SELECT id FROM push_subscriptions WHERE user_id = $1', [uid])).map((row) => row.id);
const devicesAre = (owner: number, other: number) => async (s: Scene) => {
  expect(await devicesOf(s, s.owner.uid)).toHaveLength(owner);
  expect(await devicesOf(s, s.other.uid)).toHaveLength(other);
};

const moderationLogOf = async (s: Scene, uid: string) =>
  (await query<{ action: string }>(s.t.database, 'SELECT action FROM moderation_log WHERE target_user_id = $1', [uid])).map(
    (r) => r.action,
  );

const ROWS: Row[] = [
  {
    route: `POST ${API.register}`,
    what: "create a new account (anyone may; a signed-in browser's old session ends)",
    send: (s, cookie) => s.t.app.inject({ method: 'POST', url: API.register, payload: newAccount('fresh'), headers: withCookie(cookie) }),
    cells: (() => {
      // The new account's cookie replaces the browser's old one, whose session ends.
      const created = (owner: number, other: number): Cell => ({
        status: 201,
        async then(s, response) {
          const user = response.json<{ user: { uid: string; username: string } }>().user;
          expect(await usersNamed(s.t, user.username)).toEqual([user.uid]);
          expect([s.owner.uid, s.other.uid]).not.toContain(user.uid);
          await sessionsAre(owner, other)(s);
        },
      });
      return { 'signed out': created(1, 1), 'another user': created(1, 0), owner: created(0, 1) };
    })(),
  },
  {
    route: `POST ${API.register}`,
    what: "register over the owner's username: the account is not taken over",
    send: (s, cookie) =>
      s.t.app.inject({
        method: 'POST',
        url: API.register,
        payload: { username: s.owner.username, email: newAccount('thief').email, password: 'hijacked pass 9' },
        headers: withCookie(cookie),
      }),
    cells: forEveryone({
      status: 409,
      code: 'USERNAME_TAKEN',
      async then(s) {
        expect(await usersNamed(s.t, s.owner.username)).toEqual([s.owner.uid]);
        expect((await userRow(s.t, s.owner.uid)).email).toBe(s.owner.email);
        expect((await login(s.t, s.owner.username, 'hijacked pass 9')).statusCode).toBe(401);
      },
    }),
  },
  {
    route: `POST ${API.login}`,
    what: "sign in with the owner's password: a new session for the owner, and the browser's old session ends",
    send: (s, cookie) => login(s.t, s.owner.username, s.owner.password, cookie),
    cells: (() => {
      const signedInAsOwner = (owner: number, other: number): Cell => ({
        status: 200,
        async then(s, response) {
          expect(response.json().user.uid).toBe(s.owner.uid);
          await sessionsAre(owner, other)(s);
        },
      });
      return { 'signed out': signedInAsOwner(2, 1), 'another user': signedInAsOwner(2, 0), owner: signedInAsOwner(1, 1) };
    })(),
  },
  {
    route: `POST ${API.login}`,
    what: 'sign in with a wrong password for the owner: no session, whoever asked',
    send: (s, cookie) => login(s.t, s.owner.username, 'not the password 1', cookie),
    cells: forEveryone({ status: 401, code: 'INCORRECT_LOGIN', then: sessionsAre(1, 1) }),
  },
  {
    route: `POST ${API.logout}`,
    what: 'sign out: ends only the session of the cookie sent',
    send: (s, cookie) => s.t.app.inject({ method: 'POST', url: API.logout, headers: withCookie(cookie) }),
    cells: {
      'signed out': { status: 204, then: sessionsAre(1, 1) },
      'another user': { status: 204, then: sessionsAre(1, 0) },
      owner: {
        status: 204,
        async then(s) {
          await sessionsAre(0, 1)(s);
          expectError(await get(s.t.app, API.me, s.owner.cookie), 401, 'NOT_SIGNED_IN');
        },
      },
    },
  },
  {
    // Sign out everywhere: the owner has two sessions (two browsers).
    route: 'POST /api/auth/logout-all',
    what: "sign out everywhere: ends every session of the caller, never someone else's",
    setup: async (s) => {
      expect((await login(s.t, s.owner.username, s.owner.password)).statusCode).toBe(200);
    },
    send: (s, cookie) => s.t.app.inject({ method: 'POST', url: '/api/auth/logout-all', headers: withCookie(cookie) }),
    cells: {
      'signed out': { status: 401, code: 'NOT_SIGNED_IN', then: sessionsAre(2, 1) },
      'another user': { status: 204, then: sessionsAre(2, 0) },
      owner: { status: 204, then: sessionsAre(0, 1) },
    },
  },
  {
    // Change Password: everyone in this test has the same password, so the other user's attempt
    // with the owner's current password is a valid change of the other user's own password.
    route: `POST ${API.password}`,
    what: "change the password: only ever the caller's, and the caller's other sessions end",
    setup: async (s) => {
      expect((await login(s.t, s.owner.username, s.owner.password)).statusCode).toBe(200);
      s.passwordHashBefore = await passwordHash(s.t, s.owner.uid);
    },
    send: (s, cookie) =>
      s.t.app.inject({
        method: 'POST',
        url: API.password,
        payload: { currentPassword: s.owner.password, newPassword: 'a whole new secret', confirmPassword: 'a whole new secret' },
        headers: withCookie(cookie),
      }),
    cells: (() => {
      const ownerHash = (changed: boolean) => async (s: Scene) => {
        expect((await passwordHash(s.t, s.owner.uid)) !== need(s.passwordHashBefore)).toBe(changed);
      };
      return {
        'signed out': { status: 401, code: 'NOT_SIGNED_IN', then: async (s) => (await ownerHash(false)(s), await sessionsAre(2, 1)(s)) },
        'another user': { status: 204, then: async (s) => (await ownerHash(false)(s), await sessionsAre(2, 1)(s)) },
        owner: { status: 204, then: async (s) => (await ownerHash(true)(s), await sessionsAre(1, 1)(s)) },
      };
    })(),
  },
  {
    route: 'DELETE /api/me/sessions/:id',
    what: "sign out one of the owner's other sessions from the Sessions list",
    setup: async (s) => {
      expect((await login(s.t, s.owner.username, s.owner.password)).statusCode).toBe(200);
      const [newest] = await query<{ id: string }>(
        s.t.database,
        'SELECT id FROM sessions WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1',
        [s.owner.uid],
      );
      s.sessionId = newest!.id;
    },
    send: (s, cookie) => s.t.app.inject({ method: 'DELETE', url: API.session(need(s.sessionId)), headers: withCookie(cookie) }),
    cells: {
      'signed out': { status: 401, code: 'NOT_SIGNED_IN', then: sessionsAre(2, 1) },
      'another user': { status: 404, code: 'SESSION_NOT_FOUND', then: sessionsAre(2, 1) },
      owner: { status: 204, then: sessionsAre(1, 1) },
    },
  },
  {
    // Delete Account: everyone in this test has the same password, so the other user's request
    // with it is a valid deletion of the other user's own account, never the owner's.
    route: `DELETE ${API.me}`,
    what: "delete the account: only ever the caller's, with its posts and sessions",
    setup: async (s) => {
      expect((await createPost(s.t.app, s.owner.cookie, { bytes: await jpeg(64, 48), description: 'mine' })).statusCode).toBe(201);
    },
    send: (s, cookie) =>
      s.t.app.inject({ method: 'DELETE', url: API.me, payload: { password: s.owner.password }, headers: withCookie(cookie) }),
    cells: (() => {
      const accounts = (owner: number, other: number) => async (s: Scene) => {
        expect((await usersNamed(s.t, s.owner.username)).length).toBe(owner);
        expect((await usersNamed(s.t, s.other.username)).length).toBe(other);
        expect(await postAuthors(s.t, s.owner.uid)).toHaveLength(owner);
      };
      return {
        'signed out': { status: 401, code: 'NOT_SIGNED_IN', then: async (s) => (await accounts(1, 1)(s), await sessionsAre(1, 1)(s)) },
        'another user': { status: 204, then: async (s) => (await accounts(1, 0)(s), await sessionsAre(1, 0)(s)) },
        owner: { status: 204, then: async (s) => (await accounts(0, 1)(s), await sessionsAre(0, 1)(s)) },
      };
    })(),
  },
  {
    // Whoever holds a reset link is who the link is for: the token is the authority, not the cookie.
    route: `POST ${API.resetCheck}`,
    what: "check the owner's reset link: names the owner, uses nothing up",
    setup: async (s) => {
      s.resetToken = (await resetLinkFor(s.t, s.owner.username)).token;
    },
    send: (s, cookie) =>
      s.t.app.inject({ method: 'POST', url: API.resetCheck, payload: { token: need(s.resetToken) }, headers: withCookie(cookie) }),
    cells: forEveryone({
      status: 200,
      async then(s, response) {
        expect(response.json()).toEqual({ username: s.owner.username });
        expect(await query(s.t.database, 'SELECT 1 FROM password_resets WHERE user_id = $1', [s.owner.uid])).toHaveLength(1);
        await sessionsAre(1, 1)(s);
      },
    }),
  },
  {
    route: `POST ${API.reset}`,
    what: "use the owner's reset link: the owner's password changes, every owner session ends, the browser is signed in as the owner",
    setup: async (s) => {
      s.resetToken = (await resetLinkFor(s.t, s.owner.username)).token;
      s.passwordHashBefore = await passwordHash(s.t, s.owner.uid);
    },
    send: (s, cookie) =>
      s.t.app.inject({
        method: 'POST',
        url: API.reset,
        payload: { token: need(s.resetToken), newPassword: 'reset by the link', confirmPassword: 'reset by the link' },
        headers: withCookie(cookie),
      }),
    cells: (() => {
      // The browser's old session (the other user's, for 'another user') ends with the new cookie.
      const resetAsOwner = (owner: number, other: number): Cell => ({
        status: 200,
        async then(s, response) {
          expect(response.json().user.uid).toBe(s.owner.uid);
          expect(await passwordHash(s.t, s.owner.uid)).not.toBe(need(s.passwordHashBefore));
          expectError(await get(s.t.app, API.me, s.owner.cookie), 401, 'NOT_SIGNED_IN');
          await sessionsAre(owner, other)(s);
        },
      });
      return { 'signed out': resetAsOwner(1, 1), 'another user': resetAsOwner(1, 0), owner: resetAsOwner(1, 1) };
    })(),
  },
  {
    // With SMTP_URL set, anyone may ask for the owner's link: it goes to the owner's inbox only
    // (tests/api/password-reset.test.ts). This app sends no mail: the route does not exist.
    route: `POST ${API.forgotPassword}`,
    what: 'ask for a reset link by mail for the owner, without SMTP_URL: 404, and no link is made',
    send: (s, cookie) =>
      s.t.app.inject({ method: 'POST', url: API.forgotPassword, payload: { identifier: s.owner.username }, headers: withCookie(cookie) }),
    cells: forEveryone({
      status: 404,
      code: 'NOT_FOUND',
      async then(s) {
        expect(await query(s.t.database, 'SELECT 1 FROM password_resets WHERE user_id = $1', [s.owner.uid])).toEqual([]);
        await sessionsAre(1, 1)(s);
      },
    }),
  },
  // Verified addresses (issue 29) on this app, which sends no mail; with mail on: MAIL_ROWS below.
  {
    route: `PUT ${API.email}`,
    what: "change the address without mail (applied at once): only ever the caller's, proved by the caller's password",
    setup: async (s) => {
      s.newEmail = newAccount('moved').email;
    },
    send: (s, cookie) => changeEmail(s.t.app, cookie, { email: need(s.newEmail), currentPassword: s.owner.password }),
    cells: (() => {
      const emails = (owner: 'old' | 'new', other: 'old' | 'new') => async (s: Scene) => {
        expect((await addressState(s.t, s.owner.uid)).email).toBe(owner === 'new' ? s.newEmail : s.owner.email);
        expect((await addressState(s.t, s.other.uid)).email).toBe(other === 'new' ? s.newEmail : s.other.email);
      };
      return {
        'signed out': { status: 401, code: 'NOT_SIGNED_IN', then: emails('old', 'old') },
        'another user': { status: 200, then: emails('old', 'new') },
        owner: { status: 200, then: emails('new', 'old') },
      };
    })(),
  },
  {
    route: `POST ${API.resendVerification}`,
    what: 'ask for a new verification mail without mail: there is none to send',
    send: (s, cookie) => resendVerification(s.t.app, cookie),
    cells: (() => {
      const nothingMade = async (s: Scene) => {
        expect(
          await query(s.t.database, 'SELECT 1 FROM email_verifications WHERE user_id IN ($1, $2)', [s.owner.uid, s.other.uid]),
        ).toEqual([]);
      };
      return {
        'signed out': { status: 401, code: 'NOT_SIGNED_IN', then: nothingMade },
        'another user': { status: 404, code: 'NOT_FOUND', then: nothingMade },
        owner: { status: 404, code: 'NOT_FOUND', then: nothingMade },
      };
    })(),
  },
  {
    route: `PATCH ${API.me}`,
    what: "change the owner's bio and icon: the route only ever edits the caller",
    send: async (s, cookie) =>
      patchMe(s.t.app, cookie, [
        ['bio', 'written by the caller'],
        ['icon', { bytes: await jpeg(64, 64), field: 'icon' }],
      ]),
    cells: {
      'signed out': {
        status: 401,
        code: 'USER_DATA_NOT_FOUND',
        async then(s) {
          for (const uid of [s.owner.uid, s.other.uid]) {
            expect(await userRow(s.t, uid)).toMatchObject({ bio: '', icon_key: null });
          }
        },
      },
      'another user': {
        status: 200,
        async then(s, response) {
          expect(response.json().user.uid).toBe(s.other.uid);
          expect(await userRow(s.t, s.owner.uid)).toMatchObject({ bio: '', icon_key: null });
        },
      },
      owner: {
        status: 200,
        async then(s) {
          const row = await userRow(s.t, s.owner.uid);
          expect(row.bio).toBe('written by the caller');
          expect(row.icon_key).not.toBeNull();
        },
      },
    },
  },
  {
    route: `POST ${API.posts}`,
    what: 'create a post: always authored by the caller',
    send: async (s, cookie) => createPost(s.t.app, cookie, { bytes: await jpeg(64, 48), description: 'mine #authz' }),
    cells: {
      'signed out': {
        status: 401,
        code: 'USER_DATA_NOT_FOUND',
        async then(s) {
          expect(await postAuthors(s.t, s.owner.uid, s.other.uid)).toEqual([]);
        },
      },
      'another user': {
        status: 201,
        async then(s) {
          expect(await postAuthors(s.t, s.owner.uid, s.other.uid)).toEqual([s.other.uid]);
        },
      },
      owner: {
        status: 201,
        async then(s) {
          expect(await postAuthors(s.t, s.owner.uid, s.other.uid)).toEqual([s.owner.uid]);
        },
      },
    },
  },
  {
    route: 'DELETE /api/posts/:id',
    what: "delete the owner's post: only its author may; to others it looks missing",
    setup: async (s) => {
      const response = await createPost(s.t.app, s.owner.cookie, { bytes: await jpeg(64, 48), description: 'keep me' });
      expect(response.statusCode, response.body).toBe(201);
      s.post = response.json().post;
    },
    send: (s, cookie) => s.t.app.inject({ method: 'DELETE', url: API.post(need(s.post).id), headers: withCookie(cookie) }),
    cells: {
      'signed out': {
        status: 401,
        code: 'NOT_SIGNED_IN',
        async then(s) {
          expect(await postExists(s.t, need(s.post).id)).toBe(true);
          expect((await get(s.t.app, need(s.post).image.full)).statusCode).toBe(200);
        },
      },
      'another user': {
        status: 404,
        code: 'POST_NOT_FOUND',
        async then(s, response) {
          expect(await postExists(s.t, need(s.post).id)).toBe(true);
          expect((await get(s.t.app, need(s.post).image.full)).statusCode).toBe(200);
          // Exactly what a post that never existed gets, so strangers learn nothing.
          const missing = await s.t.app.inject({ method: 'DELETE', url: API.post('nosuchpost'), headers: { cookie: s.other.cookie } });
          expect([response.statusCode, response.body]).toEqual([missing.statusCode, missing.body]);
        },
      },
      owner: {
        status: 204,
        async then(s) {
          expect(await postExists(s.t, need(s.post).id)).toBe(false);
          expect((await get(s.t.app, need(s.post).image.full)).statusCode).toBe(404);
        },
      },
    },
  },
  {
    route: 'PUT /api/users/:username/follow',
    what: "follow the owner: adds only the caller's own edge; following yourself does nothing",
    send: (s, cookie) => follow(s.t.app, s.owner.username, cookie),
    cells: {
      'signed out': {
        status: 401,
        code: 'NOT_SIGNED_IN',
        async then(s) {
          expect(await edgesOf(s.t.database, s.owner.uid, s.other.uid)).toEqual([]);
        },
      },
      'another user': {
        status: 200,
        async then(s, response) {
          expect(response.json()).toEqual({ following: true, followers: 1 });
          expect(await edgesOf(s.t.database, s.owner.uid, s.other.uid)).toEqual([`${s.other.uid}>${s.owner.uid}`]);
        },
      },
      owner: {
        status: 200,
        async then(s, response) {
          expect(response.json()).toEqual({ following: false, followers: 0 });
          expect(await edgesOf(s.t.database, s.owner.uid, s.other.uid)).toEqual([]);
        },
      },
    },
  },
  {
    route: 'DELETE /api/users/:username/follow',
    what: "unfollow the owner, who is followed by the other user and a bystander: removes only the caller's edge",
    setup: async (s) => {
      s.bystander = await signUp(s.t.app, newAccount('by'));
      for (const fan of [s.other, s.bystander]) expect((await follow(s.t.app, s.owner.username, fan.cookie)).statusCode).toBe(200);
    },
    send: (s, cookie) => s.t.app.inject({ method: 'DELETE', url: API.follow(s.owner.username), headers: withCookie(cookie) }),
    cells: {
      'signed out': {
        status: 401,
        code: 'NOT_SIGNED_IN',
        async then(s) {
          expect(await edgesOf(s.t.database, s.owner.uid)).toEqual(
            [`${need(s.bystander).uid}>${s.owner.uid}`, `${s.other.uid}>${s.owner.uid}`].sort(),
          );
        },
      },
      'another user': {
        status: 200,
        async then(s, response) {
          expect(response.json()).toEqual({ following: false, followers: 1 });
          expect(await edgesOf(s.t.database, s.owner.uid)).toEqual([`${need(s.bystander).uid}>${s.owner.uid}`]);
        },
      },
      owner: {
        status: 200,
        async then(s) {
          expect(await edgesOf(s.t.database, s.owner.uid)).toEqual(
            [`${need(s.bystander).uid}>${s.owner.uid}`, `${s.other.uid}>${s.owner.uid}`].sort(),
          );
        },
      },
    },
  },
  // Blocks (issue 17 point 4): "owner" is the user being blocked; blocking yourself is refused.
  {
    route: 'PUT /api/users/:username/block',
    what: "block the owner, who follows the caller: adds only the caller's own block and ends the follows both ways",
    setup: async (s) => {
      expect((await follow(s.t.app, s.other.username, s.owner.cookie)).statusCode).toBe(200);
    },
    send: (s, cookie) => s.t.app.inject({ method: 'PUT', url: API.block(s.owner.username), headers: withCookie(cookie) }),
    cells: {
      'signed out': {
        status: 401,
        code: 'NOT_SIGNED_IN',
        async then(s) {
          expect(await blocksOf(s.t, s.owner.uid)).toEqual([]);
          expect(await edgesOf(s.t.database, s.owner.uid)).toEqual([`${s.owner.uid}>${s.other.uid}`]);
        },
      },
      'another user': {
        status: 200,
        async then(s, response) {
          expect(response.json()).toEqual({ blocked: true });
          expect(await blocksOf(s.t, s.owner.uid)).toEqual([`${s.other.uid}>${s.owner.uid}`]);
          expect(await edgesOf(s.t.database, s.owner.uid)).toEqual([]);
        },
      },
      owner: {
        status: 400,
        code: 'CANNOT_BLOCK_YOURSELF',
        async then(s) {
          expect(await blocksOf(s.t, s.owner.uid)).toEqual([]);
          expect(await edgesOf(s.t.database, s.owner.uid)).toEqual([`${s.owner.uid}>${s.other.uid}`]);
        },
      },
    },
  },
  {
    route: 'DELETE /api/users/:username/block',
    what: "unblock the owner, blocked by the other user and a bystander: removes only the caller's own block",
    setup: async (s) => {
      s.bystander = await signUp(s.t.app, newAccount('by'));
      for (const blocker of [s.other, s.bystander]) expect((await blockBy(s, blocker)).statusCode).toBe(200);
    },
    send: (s, cookie) => s.t.app.inject({ method: 'DELETE', url: API.block(s.owner.username), headers: withCookie(cookie) }),
    cells: {
      'signed out': {
        status: 401,
        code: 'NOT_SIGNED_IN',
        async then(s) {
          expect(await blocksOf(s.t, s.owner.uid)).toEqual(
            [`${need(s.bystander).uid}>${s.owner.uid}`, `${s.other.uid}>${s.owner.uid}`].sort(),
          );
        },
      },
      'another user': {
        status: 200,
        async then(s, response) {
          expect(response.json()).toEqual({ blocked: false });
          expect(await blocksOf(s.t, s.owner.uid)).toEqual([`${need(s.bystander).uid}>${s.owner.uid}`]);
        },
      },
      owner: {
        status: 400,
        code: 'CANNOT_BLOCK_YOURSELF',
        async then(s) {
          expect(await blocksOf(s.t, s.owner.uid)).toEqual(
            [`${need(s.bystander).uid}>${s.owner.uid}`, `${s.other.uid}>${s.owner.uid}`].sort(),
          );
        },
      },
    },
  },
  // Invite codes (issue 17 point 6): admins only. "owner" is an admin here; to a member (another
  // user) and to the signed-out the routes do not exist. Moderators: tests/api/registration.test.ts.
  {
    route: `POST ${API.invites}`,
    what: 'make an invite code (the owner is an admin): nothing made for anyone else',
    setup: async (s) => makeAdmin(s.t, s.owner),
    send: (s, cookie) => s.t.app.inject({ method: 'POST', url: API.invites, payload: { uses: 2, days: 1 }, headers: withCookie(cookie) }),
    cells: {
      'signed out': { status: 404, code: 'NOT_FOUND', then: invitesMadeBy(0) },
      'another user': { status: 404, code: 'NOT_FOUND', then: invitesMadeBy(0) },
      owner: { status: 201, then: invitesMadeBy(1) },
    },
  },
  {
    route: `DELETE ${API.invites}/:id`,
    what: "revoke an admin's invite code (the owner is an admin): only an admin may",
    setup: async (s) => {
      await makeAdmin(s.t, s.owner);
      const made = await s.t.app.inject({
        method: 'POST',
        url: API.invites,
        payload: { uses: 1, days: 1 },
        headers: { cookie: s.owner.cookie },
      });
      expect(made.statusCode, made.body).toBe(201);
      s.inviteId = made.json<{ id: string }>().id;
    },
    send: (s, cookie) => s.t.app.inject({ method: 'DELETE', url: API.invite(need(s.inviteId)), headers: withCookie(cookie) }),
    cells: {
      'signed out': { status: 404, code: 'NOT_FOUND', then: invitesMadeBy(1) },
      'another user': { status: 404, code: 'NOT_FOUND', then: invitesMadeBy(1) },
      owner: { status: 204, then: invitesMadeBy(0) },
    },
  },
  // Reports and moderation (issue 17 points 1-3). For /api/moderation "owner" is staff (the role
  // each route needs) acting on a bystander; to a member (another user) and to the signed-out the
  // routes do not exist. Every role (member, moderator, admin, suspended) per route, and who may
  // act on whom: tests/api/moderation.test.ts.
  {
    route: `POST ${API.reports}`,
    what: "report the owner's post: anyone else signed in may, the owner may not report themselves",
    setup: async (s) => {
      s.post = await ownersPost(s);
    },
    send: (s, cookie) =>
      s.t.app.inject({
        method: 'POST',
        url: API.reports,
        payload: { postId: need(s.post).id, reason: 'spam' },
        headers: withCookie(cookie),
      }),
    cells: {
      'signed out': { status: 401, code: 'NOT_SIGNED_IN', then: reportsBy('nobody') },
      'another user': { status: 204, then: reportsBy('other') },
      owner: { status: 400, code: 'CANNOT_REPORT_YOURSELF', then: reportsBy('nobody') },
    },
  },
  {
    route: `POST ${API.moderationDismiss}`,
    what: "dismiss the reports of a bystander's profile (the owner is a moderator)",
    setup: async (s) => {
      await staff(s, 'moderator');
      await reportBystander(s);
    },
    send: (s, cookie) => moderate(s, cookie, 'POST', API.moderationDismiss, { username: need(s.bystander).username }),
    cells: {
      'signed out': { status: 404, code: 'NOT_FOUND', then: bystanderReportsOpen(1) },
      'another user': { status: 404, code: 'NOT_FOUND', then: bystanderReportsOpen(1) },
      owner: { status: 204, then: bystanderReportsOpen(0) },
    },
  },
  {
    route: `POST ${API.moderationRemovePost}`,
    what: "remove a bystander's post (the owner is a moderator)",
    setup: async (s) => {
      await staff(s, 'moderator');
      s.bystander = await signUp(s.t.app, newAccount('by'));
      s.post = (await createPost(s.t.app, s.bystander.cookie, { bytes: await jpeg(40, 30), description: 'reported' })).json().post;
    },
    send: (s, cookie) => moderate(s, cookie, 'POST', API.moderationRemovePost, { postId: need(s.post).id }),
    cells: {
      'signed out': { status: 404, code: 'NOT_FOUND', then: async (s) => expect(await postExists(s.t, need(s.post).id)).toBe(true) },
      'another user': { status: 404, code: 'NOT_FOUND', then: async (s) => expect(await postExists(s.t, need(s.post).id)).toBe(true) },
      owner: { status: 204, then: async (s) => expect(await postExists(s.t, need(s.post).id)).toBe(false) },
    },
  },
  {
    route: `POST ${API.moderationSuspend}`,
    what: 'suspend a bystander for a day (the owner is a moderator): their sessions end',
    setup: async (s) => {
      await staff(s, 'moderator');
      s.bystander = await signUp(s.t.app, newAccount('by'));
    },
    send: (s, cookie) => moderate(s, cookie, 'POST', API.moderationSuspend, { username: need(s.bystander).username, days: 1 }),
    cells: {
      'signed out': { status: 404, code: 'NOT_FOUND', then: bystanderSuspended(false) },
      'another user': { status: 404, code: 'NOT_FOUND', then: bystanderSuspended(false) },
      owner: { status: 200, then: bystanderSuspended(true) },
    },
  },
  {
    route: `POST ${API.moderationUnsuspend}`,
    what: "lift a bystander's suspension early (the owner is an admin)",
    setup: async (s) => {
      await staff(s, 'admin');
      s.bystander = await signUp(s.t.app, newAccount('by'));
      await query(s.t.database, `UPDATE users SET suspended_until = now() + interval '1 day' WHERE id = $1`, [s.bystander.uid]);
      // As a suspension would have.
      await query(s.t.database, 'DELETE FROM sessions WHERE user_id = $1', [s.bystander.uid]);
    },
    send: (s, cookie) => moderate(s, cookie, 'POST', API.moderationUnsuspend, { username: need(s.bystander).username }),
    cells: {
      'signed out': { status: 404, code: 'NOT_FOUND', then: bystanderSuspended(true) },
      'another user': { status: 404, code: 'NOT_FOUND', then: bystanderSuspended(true) },
      owner: { status: 204, then: bystanderSuspended(false) },
    },
  },
  {
    route: 'PUT /api/moderation/people/:username/role',
    what: 'make a bystander a moderator (the owner is an admin)',
    setup: async (s) => {
      await staff(s, 'admin');
      s.bystander = await signUp(s.t.app, newAccount('by'));
    },
    send: (s, cookie) => moderate(s, cookie, 'PUT', API.moderationRole(need(s.bystander).username), { role: 'moderator' }),
    cells: {
      'signed out': { status: 404, code: 'NOT_FOUND', then: bystanderRole('member') },
      'another user': { status: 404, code: 'NOT_FOUND', then: bystanderRole('member') },
      owner: { status: 200, then: bystanderRole('moderator') },
    },
  },
  {
    route: 'POST /api/moderation/people/:username/verify-email',
    what: "mark a bystander's address verified (the owner is an admin), logged",
    setup: async (s) => {
      await staff(s, 'admin');
      s.bystander = await signUp(s.t.app, newAccount('by'));
    },
    send: (s, cookie) =>
      s.t.app.inject({ method: 'POST', url: API.moderationVerifyEmail(need(s.bystander).username), headers: withCookie(cookie) }),
    cells: (() => {
      const bystanderVerified = (verified: boolean) => async (s: Scene) => {
        expect((await addressState(s.t, need(s.bystander).uid)).verified).toBe(verified);
        expect(await moderationLogOf(s, need(s.bystander).uid)).toEqual(verified ? ['verify-email'] : []);
      };
      return {
        'signed out': { status: 404, code: 'NOT_FOUND', then: bystanderVerified(false) },
        'another user': { status: 404, code: 'NOT_FOUND', then: bystanderVerified(false) },
        owner: { status: 204, then: bystanderVerified(true) },
      };
    })(),
  },
  {
    route: `POST ${API.boards}`,
    what: "make a board: always the caller's own",
    send: (s, cookie) => boardRoutes(s.t.app).create(cookie, { name: 'Made by the caller' }),
    cells: (() => {
      const madeBy = (owner: number, other: number) => async (s: Scene) => {
        expect(await boardsOf(s, s.owner.uid)).toHaveLength(owner);
        expect(await boardsOf(s, s.other.uid)).toHaveLength(other);
      };
      return {
        'signed out': { status: 401, code: 'NOT_SIGNED_IN', then: madeBy(0, 0) },
        'another user': { status: 201, then: madeBy(0, 1) },
        owner: { status: 201, then: madeBy(1, 0) },
      };
    })(),
  },
  {
    route: 'PATCH /api/boards/:id',
    what: "rename the owner's board, describe it, make it secret: only its owner",
    setup: ownersBoard,
    send: (s, cookie) => boardRoutes(s.t.app).update(cookie, need(s.board).id, { name: 'Renamed', description: 'after', secret: true }),
    cells: (() => {
      const board = (changed: boolean) => async (s: Scene) =>
        expect((await boardRows(s.t.database, need(s.board).id)).board).toMatchObject(
          changed
            ? { name: 'Renamed', slug: expect.stringMatching(/^renamed-[a-z2-7]{6}$/), description: 'after', secret: true }
            : { name: 'Owned', description: 'before', secret: false },
        );
      return {
        'signed out': { status: 401, code: 'NOT_SIGNED_IN', then: board(false) },
        'another user': { status: 403, code: 'FORBIDDEN', then: board(false) },
        owner: { status: 200, then: board(true) },
      };
    })(),
  },
  {
    route: 'DELETE /api/boards/:id',
    what: "delete the owner's board: only its owner",
    setup: ownersBoard,
    send: (s, cookie) => boardRoutes(s.t.app).delete(cookie, need(s.board).id),
    cells: (() => {
      const exists = (still: boolean) => async (s: Scene) => expect(await boardsOf(s, s.owner.uid)).toEqual(still ? ['Owned'] : []);
      return {
        'signed out': { status: 401, code: 'NOT_SIGNED_IN', then: exists(true) },
        'another user': { status: 403, code: 'FORBIDDEN', then: exists(true) },
        owner: { status: 204, then: exists(false) },
      };
    })(),
  },
  {
    route: 'PUT /api/boards/:id/posts/:postId',
    what: "save a post to the owner's board: its owner (and collaborators) only",
    setup: ownersBoard,
    send: (s, cookie) => boardRoutes(s.t.app).save(cookie, need(s.board).id, need(s.boardPostId)),
    cells: (() => {
      const saved = (yes: boolean) => async (s: Scene) => expect(await boardSaves(s)).toEqual(yes ? [s.boardPostId] : []);
      return {
        'signed out': { status: 401, code: 'NOT_SIGNED_IN', then: saved(false) },
        'another user': { status: 403, code: 'FORBIDDEN', then: saved(false) },
        owner: { status: 200, then: saved(true) },
      };
    })(),
  },
  {
    route: 'DELETE /api/boards/:id/posts/:postId',
    what: "remove a post from the owner's board: its owner (or the collaborator who saved it) only",
    setup: async (s) => {
      await ownersBoard(s);
      await boardSteps(s.t.app).save(s.owner, need(s.board).id, need(s.boardPostId));
    },
    send: (s, cookie) => boardRoutes(s.t.app).unsave(cookie, need(s.board).id, need(s.boardPostId)),
    cells: (() => {
      const saved = (yes: boolean) => async (s: Scene) => expect(await boardSaves(s)).toEqual(yes ? [s.boardPostId] : []);
      return {
        'signed out': { status: 401, code: 'NOT_SIGNED_IN', then: saved(true) },
        'another user': { status: 403, code: 'FORBIDDEN', then: saved(true) },
        owner: { status: 200, then: saved(false) },
      };
    })(),
  },
  {
    route: 'PUT /api/boards/:id/members/:username',
    what: "invite a bystander to the owner's board: its owner only",
    setup: ownersBoard,
    send: (s, cookie) => boardRoutes(s.t.app).invite(cookie, need(s.board).id, need(s.bystander).username),
    cells: {
      'signed out': { status: 401, code: 'NOT_SIGNED_IN', then: membersAre() },
      'another user': { status: 403, code: 'FORBIDDEN', then: membersAre() },
      owner: { status: 200, then: membersAre(bystanderMember(false)) },
    },
  },
  {
    route: 'DELETE /api/boards/:id/members/:username',
    what: "remove a collaborator from the owner's board: its owner only",
    setup: async (s) => {
      await ownersBoard(s);
      await boardSteps(s.t.app).addMember(s.owner, need(s.board).id, need(s.bystander));
    },
    send: (s, cookie) => boardRoutes(s.t.app).removeMember(cookie, need(s.board).id, need(s.bystander).username),
    cells: {
      'signed out': { status: 401, code: 'NOT_SIGNED_IN', then: membersAre(bystanderMember(true)) },
      'another user': { status: 403, code: 'FORBIDDEN', then: membersAre(bystanderMember(true)) },
      owner: { status: 200, then: membersAre() },
    },
  },
  {
    route: 'DELETE /api/boards/:id/members/:username',
    what: "leave a board the owner joined (the bystander's): only the member themself (or the board's owner)",
    setup: (s) => bystandersBoard(s, 'joined'),
    send: (s, cookie) => boardRoutes(s.t.app).removeMember(cookie, need(s.board).id, s.owner.username),
    cells: {
      'signed out': { status: 401, code: 'NOT_SIGNED_IN', then: membersAre(ownerMember(true)) },
      'another user': { status: 403, code: 'FORBIDDEN', then: membersAre(ownerMember(true)) },
      owner: { status: 200, then: membersAre() },
    },
  },
  {
    route: 'POST /api/boards/:id/join',
    what: "join a board the owner was invited to (the bystander's): only the invitee",
    setup: (s) => bystandersBoard(s, 'invited'),
    send: (s, cookie) => boardRoutes(s.t.app).join(cookie, need(s.board).id),
    cells: {
      'signed out': { status: 401, code: 'NOT_SIGNED_IN', then: membersAre(ownerMember(false)) },
      'another user': { status: 403, code: 'NOT_INVITED', then: membersAre(ownerMember(false)) },
      owner: { status: 200, then: membersAre(ownerMember(true)) },
    },
  },
  {
    route: `POST ${activityApi.markRead.path}`,
    what: "mark everything read: only ever the caller's own notifications",
    setup: bothFollowed,
    send: (s, cookie) => s.t.app.inject({ method: 'POST', url: activityApi.markRead.path, payload: {}, headers: withCookie(cookie) }),
    cells: {
      'signed out': { status: 401, code: 'NOT_SIGNED_IN', then: unreadAre(1, 1) },
      'another user': { status: 200, then: unreadAre(1, 0) },
      owner: { status: 200, then: unreadAre(0, 1) },
    },
  },
  {
    route: `POST ${activityApi.markRead.path}`,
    what: "mark one of the owner's groups read (a save of the owner's post) by its id: another user's id marks nothing of theirs",
    async setup(s) {
      s.bystander = await signUp(s.t.app, newAccount('by'));
      const [postId] = await insertPostsBy(s.t.database, s.owner.uid, 1);
      const steps = boardSteps(s.t.app);
      await steps.save(s.bystander, (await steps.create(s.bystander, { name: 'Saved' })).id, postId!);
      expect((await follow(s.t.app, s.other.username, s.bystander.cookie)).statusCode).toBe(200);
      const page = await get(s.t.app, activityApi.activity.path, s.owner.cookie);
      s.activityGroup = page.json<{ groups: Array<{ id: string; kind: string }> }>().groups.find((group) => group.kind === 'save')?.id;
    },
    send: (s, cookie) =>
      s.t.app.inject({
        method: 'POST',
        url: activityApi.markRead.path,
        payload: { group: need(s.activityGroup) },
        headers: withCookie(cookie),
      }),
    cells: {
      'signed out': { status: 401, code: 'NOT_SIGNED_IN', then: unreadAre(1, 1) },
      'another user': { status: 200, then: unreadAre(1, 1) },
      owner: { status: 200, then: unreadAre(0, 1) },
    },
  },
  {
    route: `PUT ${activityApi.updateNotificationSettings.path}`,
    what: "turn every notification off: only ever the caller's own switches",
    send: (s, cookie) =>
      s.t.app.inject({
        method: 'PUT',
        url: activityApi.updateNotificationSettings.path,
        payload: everythingOff,
        headers: withCookie(cookie),
      }),
    cells: (() => {
      const off = (owner: boolean, other: boolean) => async (s: Scene) => {
        expect([...(await topicsOff(s, s.owner.uid))].sort()).toEqual(owner ? ALL_TOPICS : []);
        expect([...(await topicsOff(s, s.other.uid))].sort()).toEqual(other ? ALL_TOPICS : []);
      };
      return {
        'signed out': { status: 401, code: 'NOT_SIGNED_IN', then: off(false, false) },
        'another user': { status: 200, then: off(false, true) },
        owner: { status: 200, then: off(true, false) },
      };
    })(),
  },
  {
    route: `POST ${activityApi.addPushDevice.path}`,
    what: "add this browser's push subscription: always to the caller's own devices",
    send: (s, cookie) =>
      s.t.app.inject({ method: 'POST', url: activityApi.addPushDevice.path, payload: browserSubscription(), headers: withCookie(cookie) }),
    cells: {
      'signed out': { status: 401, code: 'NOT_SIGNED_IN', then: devicesAre(0, 0) },
      'another user': { status: 201, then: devicesAre(0, 1) },
      owner: { status: 201, then: devicesAre(1, 0) },
    },
  },
  {
    route: `DELETE ${activityApi.removePushDevice.path}`,
    what: "remove the owner's push device: only its owner (anyone else's removal changes nothing)",
    async setup(s) {
      const added = await s.t.app.inject({
        method: 'POST',
        url: activityApi.addPushDevice.path,
        payload: browserSubscription(),
        headers: { cookie: s.owner.cookie },
      });
      expect(added.statusCode, added.body).toBe(201);
      s.deviceId = added.json<{ devices: Array<{ id: string }> }>().devices[0]?.id;
    },
    send: (s, cookie) =>
      s.t.app.inject({
        method: 'DELETE',
        url: activityApi.removePushDevice.path.replace(':id', need(s.deviceId)),
        headers: withCookie(cookie),
      }),
    cells: {
      'signed out': { status: 401, code: 'NOT_SIGNED_IN', then: devicesAre(1, 0) },
      'another user': { status: 200, then: devicesAre(1, 0) },
      owner: { status: 200, then: devicesAre(0, 0) },
    },
  },
];

// With mail on (issue 29): the owner has signed up and not used its mail yet; the other user has
// proved its address. The five routes an unverified account may not use are tried again here:
// the verified other user may, the owner may not (403 'Check your inbox to verify {email}.').

const notVerified = (s: Scene) => {
  const message = ERRORS.EMAIL_NOT_VERIFIED.replace('{email}', s.owner.email);
  return { message, messages: [message] };
};

/** The owner's 403: the catalogue's message, filled in with the owner's address. */
const heldBack = (then: Cell['then']): Cell => ({
  status: 403,
  code: 'EMAIL_NOT_VERIFIED',
  async then(s, response) {
    expect(response.json()).toMatchObject(notVerified(s));
    await then(s, response);
  },
});

/** A third account, deleted; a sign-up asked for its held name with its address, which was mailed a claim link. */
const claimMailed = async (s: Scene) => {
  const mailing = need(s.mailing);
  const gone = await signUp(mailing.app, newAccount('gone'));
  await deleteOwnAccount(mailing.app, gone);
  const again = await mailing.app.inject({
    method: 'POST',
    url: API.register,
    payload: { username: gone.username, email: gone.email, password: 'coming back 4' },
  });
  expectError(again, 409, 'USERNAME_TAKEN');
  const mails = await mailsTo(mailing, gone.email);
  s.claimToken = /\/claim\/([\w-]{43})/.exec(mails.at(-1)?.text ?? '')?.[1];
  s.gone = gone;
};
const sendClaim = (s: Scene, cookie: string | undefined, url: string) =>
  s.t.app.inject({ method: 'POST', url, payload: { token: need(s.claimToken) }, headers: withCookie(cookie) });

const ownersMailed = async (s: Scene) => {
  s.verification = await mailedVerification(need(s.mailing), s.owner.email);
};

/** The caller's own board (the owner's for a signed-out caller), and a bystander with a post to save and a name to invite. */
async function boardsOfBoth(s: Scene) {
  s.bystander = await signUp(s.t.app, newAccount('by'));
  const steps = boardSteps(s.t.app);
  s.board = await steps.create(s.owner, { name: "Owner's" });
  s.otherBoard = await steps.create(s.other, { name: "Other's" });
  [s.boardPostId] = await insertPostsBy(s.t.database, s.bystander.uid, 1);
}
const callersBoard = (s: Scene, cookie: string | undefined) => need(cookie === s.other.cookie ? s.otherBoard : s.board).id;

const MAIL_ROWS: Row[] = [
  {
    // Whoever holds the link is who it is for: the token is the authority, not the cookie.
    route: `POST ${API.verifyLink}`,
    what: "use the owner's mailed link: proves the owner's address, whoever opens it, and only the owner's",
    setup: ownersMailed,
    send: (s, cookie) => verifyLink(s.t.app, need(s.verification).token, { cookie }),
    cells: forEveryone({
      status: 200,
      async then(s, response) {
        expect(response.json()).toEqual({ email: s.owner.email });
        await ownerVerified(true)(s);
        expect(await ownerVerification(s)).toEqual([]);
        await sessionsAre(1, 1)(s);
      },
    }),
  },
  {
    route: `POST ${API.verifyCode}`,
    what: "type the owner's mailed code: it proves only the caller's own address (the other's is proved already)",
    setup: ownersMailed,
    send: (s, cookie) => verifyCode(s.t.app, cookie, need(s.verification).code),
    cells: {
      'signed out': { status: 401, code: 'NOT_SIGNED_IN', then: async (s) => (await ownerVerified(false)(s), await ownerMailStands(s)) },
      'another user': {
        status: 409,
        code: 'ALREADY_VERIFIED',
        then: async (s) => (await ownerVerified(false)(s), await ownerMailStands(s)),
      },
      owner: {
        status: 200,
        async then(s, response) {
          expect(response.json().user).toMatchObject({ uid: s.owner.uid, emailVerified: true, mustVerify: false });
          await ownerVerified(true)(s);
        },
      },
    },
  },
  {
    route: `POST ${API.resendVerification}`,
    what: "Resend: a new mail only ever for the caller's own address, voiding only the caller's old link",
    setup: ownersMailed,
    send: (s, cookie) => resendVerification(s.t.app, cookie),
    cells: (() => {
      const mailsAre = (owner: number, other: number) => async (s: Scene) => {
        expect(await mailsTo(need(s.mailing), s.owner.email)).toHaveLength(owner);
        expect(await mailsTo(need(s.mailing), s.other.email)).toHaveLength(other);
      };
      return {
        'signed out': { status: 401, code: 'NOT_SIGNED_IN', then: async (s) => (await mailsAre(1, 1)(s), await ownerMailStands(s)) },
        'another user': { status: 409, code: 'ALREADY_VERIFIED', then: async (s) => (await mailsAre(1, 1)(s), await ownerMailStands(s)) },
        owner: {
          status: 204,
          async then(s) {
            await mailsAre(2, 1)(s);
            expect(await ownerVerification(s)).toHaveLength(1);
            expect(await ownerVerification(s)).not.toEqual([
              { token_hash: createHash('sha256').update(need(s.verification).token).digest('hex'), code_attempts: 0 },
            ]);
          },
        },
      };
    })(),
  },
  {
    route: `PUT ${API.email}`,
    what: 'ask for a new address with mail on: pending for the caller only, mailed to the new address',
    setup: async (s) => {
      s.newEmail = newAccount('moved').email;
    },
    send: (s, cookie) => changeEmail(s.t.app, cookie, { email: need(s.newEmail), currentPassword: s.owner.password }),
    cells: (() => {
      const mailedNew = (count: number) => async (s: Scene) => expect(await mailsTo(need(s.mailing), need(s.newEmail))).toHaveLength(count);
      return {
        'signed out': { status: 401, code: 'NOT_SIGNED_IN', then: async (s) => (await pendingAre(null, null)(s), await mailedNew(0)(s)) },
        'another user': { status: 200, then: async (s) => (await pendingAre(null, 'new')(s), await mailedNew(1)(s)) },
        owner: { status: 200, then: async (s) => (await pendingAre('new', null)(s), await mailedNew(1)(s)) },
      };
    })(),
  },
  {
    route: `POST ${API.posts}`,
    what: 'create a post: not before the address is verified',
    send: async (s, cookie) => createPost(s.t.app, cookie, { bytes: await jpeg(64, 48), description: 'mine #authz' }),
    cells: (() => {
      const posts =
        (...who: Array<'other'>) =>
        async (s: Scene) =>
          expect(await postAuthors(s.t, s.owner.uid, s.other.uid)).toEqual(who.map(() => s.other.uid));
      return {
        'signed out': { status: 401, code: 'USER_DATA_NOT_FOUND', then: posts() },
        'another user': { status: 201, then: posts('other') },
        owner: heldBack(posts()),
      };
    })(),
  },
  {
    route: 'PUT /api/users/:username/follow',
    what: 'follow the one of them the caller is not: not before the address is verified',
    send: (s, cookie) => follow(s.t.app, cookie === s.owner.cookie ? s.other.username : s.owner.username, cookie),
    cells: {
      'signed out': { status: 401, code: 'NOT_SIGNED_IN', then: async (s) => expect(await edgesOf(s.t.database, s.owner.uid)).toEqual([]) },
      'another user': {
        status: 200,
        then: async (s) => expect(await edgesOf(s.t.database, s.owner.uid)).toEqual([`${s.other.uid}>${s.owner.uid}`]),
      },
      owner: heldBack(async (s) => expect(await edgesOf(s.t.database, s.owner.uid)).toEqual([])),
    },
  },
  {
    route: 'PUT /api/boards/:id/posts/:postId',
    what: "save a bystander's post to the caller's own board: not before the address is verified",
    setup: boardsOfBoth,
    send: (s, cookie) => boardRoutes(s.t.app).save(cookie, callersBoard(s, cookie), need(s.boardPostId)),
    cells: (() => {
      const saved = (owners: boolean, others: boolean) => async (s: Scene) => {
        expect((await boardRows(s.t.database, need(s.board).id)).saves).toHaveLength(owners ? 1 : 0);
        expect((await boardRows(s.t.database, need(s.otherBoard).id)).saves).toHaveLength(others ? 1 : 0);
      };
      return {
        'signed out': { status: 401, code: 'NOT_SIGNED_IN', then: saved(false, false) },
        'another user': { status: 200, then: saved(false, true) },
        owner: heldBack(saved(false, false)),
      };
    })(),
  },
  {
    route: `POST ${API.reports}`,
    what: "report a bystander's profile: not before the address is verified",
    setup: async (s) => {
      s.bystander = await signUp(s.t.app, newAccount('by'));
    },
    send: (s, cookie) =>
      s.t.app.inject({
        method: 'POST',
        url: API.reports,
        payload: { username: need(s.bystander).username, reason: 'spam' },
        headers: withCookie(cookie),
      }),
    cells: (() => {
      const reporters =
        (...who: Array<'other'>) =>
        async (s: Scene) => {
          const rows = await query<{ reporter_id: string }>(s.t.database, 'SELECT reporter_id FROM reports WHERE target_user_id = $1', [
            need(s.bystander).uid,
          ]);
          expect(rows.map((row) => row.reporter_id)).toEqual(who.map(() => s.other.uid));
        };
      return {
        'signed out': { status: 401, code: 'NOT_SIGNED_IN', then: reporters() },
        'another user': { status: 204, then: reporters('other') },
        owner: heldBack(reporters()),
      };
    })(),
  },
  {
    route: 'PUT /api/boards/:id/members/:username',
    what: "invite a bystander to the caller's own board: not before the address is verified",
    setup: boardsOfBoth,
    send: (s, cookie) => boardRoutes(s.t.app).invite(cookie, callersBoard(s, cookie), need(s.bystander).username),
    cells: (() => {
      const invited = (owners: boolean, others: boolean) => async (s: Scene) => {
        expect((await boardRows(s.t.database, need(s.board).id)).members).toHaveLength(owners ? 1 : 0);
        expect((await boardRows(s.t.database, need(s.otherBoard).id)).members).toHaveLength(others ? 1 : 0);
      };
      return {
        'signed out': { status: 401, code: 'NOT_SIGNED_IN', then: invited(false, false) },
        'another user': { status: 200, then: invited(false, true) },
        owner: heldBack(invited(false, false)),
      };
    })(),
  },
  {
    // Whoever holds a claim link is who it is for (issue 29): the token is the authority, not the cookie.
    route: `POST ${usernameClaimApi.claimCheck.path}`,
    what: "check the claim link mailed to a deleted account's address: names the held name and the address, uses nothing up",
    setup: claimMailed,
    send: (s, cookie) => sendClaim(s, cookie, usernameClaimApi.claimCheck.path),
    cells: forEveryone({
      status: 200,
      async then(s, response) {
        const gone = need(s.gone);
        expect(response.json()).toEqual({ username: gone.username, email: gone.email });
        expect(await usersNamed(s.t, gone.username)).toEqual([]);
        await sessionsAre(1, 1)(s);
      },
    }),
  },
  {
    route: `POST ${usernameClaimApi.claimUsername.path}`,
    what: 'use the claim link: the held name becomes a new account with the proved address, and the browser is signed in as it',
    setup: claimMailed,
    send: (s, cookie) => sendClaim(s, cookie, usernameClaimApi.claimUsername.path),
    cells: (() => {
      // The browser's old session (the other user's or the owner's) ends with the new cookie.
      const claimed = (owner: number, other: number): Cell => ({
        status: 201,
        async then(s, response) {
          const gone = need(s.gone);
          expect(response.json().user).toMatchObject({ username: gone.username, email: gone.email, emailVerified: true });
          expect(await usersNamed(s.t, gone.username)).toHaveLength(1);
          await sessionsAre(owner, other)(s);
        },
      });
      return { 'signed out': claimed(1, 1), 'another user': claimed(1, 0), owner: claimed(0, 1) };
    })(),
  },
];

// Single sign-on (issue 29), on an app with it set up: the provider is a real one
// (tests/helpers/oidc-provider.ts), and the browser's sign-in runs through it over HTTP.

const SSO_PUBLIC_URL = 'https://dorm.example.edu';
let ssoAccounts = 0;

/** A new account at the provider, with a vouched address of its own. */
function providerAccount(s: Scene): string {
  ssoAccounts += 1;
  const sub = `authz-${process.pid % 1000}-${ssoAccounts}`;
  need(s.provider).accounts.set(sub, { sub, email: `${sub}@uni.example.edu`, email_verified: true });
  return sub;
}

/**
 * A browser with `cookie` (a session, or none) signs in at the provider as `sub`, from the sign-in
 * button (or, with `link`, Settings' Connect): the app's answer to the provider's redirect back.
 */
async function ssoRound(s: Scene, cookie: string | undefined, sub: string, link: boolean) {
  const start = await s.t.app.inject({ method: 'GET', url: link ? API.ssoLink : API.ssoStart, headers: withCookie(cookie) });
  expect(start.statusCode, start.body).toBe(302);
  const state = start.cookies.find((c) => c.name === 'sso_state')?.value;
  const back = await need(s.provider).signIn(String(start.headers.location), sub);
  const cookies = [cookie, `sso_state=${state}`].filter(Boolean).join('; ');
  return s.t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}`, headers: { cookie: cookies } });
}

/** The accounts the provider account `sub` is connected to. */
const ssoLinksOf = async (s: Scene, sub: string) =>
  (await query<{ user_id: string }>(s.t.database, 'SELECT user_id FROM sso_identities WHERE subject = $1', [sub])).map((r) => r.user_id);

const SSO_ROWS: Row[] = [
  {
    // The authority is the sign-up's cookie, which only the browser that signed in holds: a session is not it.
    route: `POST ${ssoApi.ssoCompleteSignup.path}`,
    what: "choose the username of the first single sign-on waiting in the owner's browser: made, linked and signed in there only",
    async setup(s) {
      const sub = providerAccount(s);
      const back = await ssoRound(s, s.owner.cookie, sub, false);
      expect(back.headers.location).toBe('/sso/welcome');
      s.ssoSignup = { sub, token: back.cookies.find((c) => c.name === 'sso_signup')!.value };
    },
    send: (s, cookie) =>
      s.t.app.inject({
        method: 'POST',
        url: ssoApi.ssoCompleteSignup.path,
        payload: { username: `sso${need(s.ssoSignup).sub.replace(/\W/g, '')}`.slice(0, 20) },
        // The sign-up's cookie is in the owner's browser only.
        headers: { cookie: [cookie, cookie === s.owner.cookie && `sso_signup=${need(s.ssoSignup).token}`].filter(Boolean).join('; ') },
      }),
    cells: (() => {
      const made = (yes: boolean) => async (s: Scene) => {
        const links = await ssoLinksOf(s, need(s.ssoSignup).sub);
        expect(links).toHaveLength(yes ? 1 : 0);
        expect(links).not.toContain(s.owner.uid);
        expect(links).not.toContain(s.other.uid);
      };
      return {
        'signed out': { status: 400, code: 'SSO_SIGNUP_EXPIRED', then: async (s) => (await made(false)(s), await sessionsAre(1, 1)(s)) },
        'another user': { status: 400, code: 'SSO_SIGNUP_EXPIRED', then: async (s) => (await made(false)(s), await sessionsAre(1, 1)(s)) },
        owner: {
          status: 201,
          async then(s, response) {
            await made(true)(s);
            expect(response.json().user.uid).toBe((await ssoLinksOf(s, need(s.ssoSignup).sub))[0]);
            // This browser is the new account's now: the owner's session in it ended.
            await sessionsAre(0, 1)(s);
          },
        },
      };
    })(),
  },
  {
    route: `DELETE ${ssoApi.ssoUnlink.path}`,
    what: "disconnect single sign-on: only ever the caller's own connection (both have one)",
    async setup(s) {
      s.ssoSubs = { owner: providerAccount(s), other: providerAccount(s) };
      for (const [account, sub] of [
        [s.owner, s.ssoSubs.owner],
        [s.other, s.ssoSubs.other],
      ] as const) {
        expect((await ssoRound(s, account.cookie, sub, true)).headers.location).toBe('/settings/sso?linked=1');
      }
    },
    send: (s, cookie) => s.t.app.inject({ method: 'DELETE', url: ssoApi.ssoUnlink.path, headers: withCookie(cookie) }),
    cells: (() => {
      const linked = (owner: boolean, other: boolean) => async (s: Scene) => {
        expect(await ssoLinksOf(s, need(s.ssoSubs).owner)).toEqual(owner ? [s.owner.uid] : []);
        expect(await ssoLinksOf(s, need(s.ssoSubs).other)).toEqual(other ? [s.other.uid] : []);
      };
      return {
        'signed out': { status: 401, code: 'NOT_SIGNED_IN', then: linked(true, true) },
        'another user': { status: 204, then: linked(true, false) },
        owner: { status: 204, then: linked(false, true) },
      };
    })(),
  },
];

/** Every "METHOD /path" that is not a read, from Fastify's own route tree. */
function stateChangingRouteCount(app: FastifyInstance): number {
  const methods = [...app.printRoutes({ commonPrefix: false }).matchAll(/\(([A-Z, -]+)\)$/gm)].flatMap((m) => m[1]!.split(', '));
  return methods.filter((method) => !['GET', 'HEAD', 'OPTIONS', '-'].includes(method)).length;
}

describe('authorization matrix: every state-changing route × signed out / another user / owner', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('covers every state-changing route the app declares (the backup route has its own test below)', () => {
    const routes = new Set([...ROWS, ...MAIL_ROWS, ...SSO_ROWS].map((row) => row.route));
    for (const route of routes) {
      const [method, url] = route.split(' ') as ['POST', string];
      expect(t.app.hasRoute({ method, url }), route).toBe(true);
    }
    expect(stateChangingRouteCount(t.app)).toBe(routes.size);
  });

  describe.each(ROWS)('$route: $what', (row) => {
    it.each(ACTORS)('as %s', async (actor) => {
      const scene: Scene = { t, owner: await signUp(t.app, newAccount('own')), other: await signUp(t.app, newAccount('oth')) };
      await row.setup?.(scene);
      const cell = row.cells[actor];
      const response = await row.send(scene, cookieOf(scene, actor));
      if (cell.code) expectError(response, cell.status, cell.code);
      else expect(response.statusCode, response.body).toBe(cell.status);
      await cell.then(scene, response);
    });
  });
});

describe('authorization matrix with mail on (issue 29): the verification routes, and the five an unverified owner may not use', () => {
  let smtp: TestSmtpServer;
  let mailing: MailingApp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    mailing = await mailingApp(smtp);
  });
  afterAll(async () => {
    await mailing.close();
    await smtp.close();
  });

  it('every route that needs mail is among them', () => {
    const mailRoutes = new Set(MAIL_ROWS.map((row) => row.route));
    for (const route of [`POST ${API.verifyLink}`, `POST ${API.verifyCode}`, `POST ${API.resendVerification}`, `PUT ${API.email}`]) {
      expect(mailRoutes, route).toContain(route);
    }
  });

  describe.each(MAIL_ROWS)('$route: $what', (row) => {
    it.each(ACTORS)('as %s', async (actor) => {
      const other = await signUp(mailing.app, newAccount('oth'));
      await verifyByMail(mailing, other);
      const scene: Scene = { t: mailing, mailing, owner: await signUp(mailing.app, newAccount('own')), other };
      await row.setup?.(scene);
      const cell = row.cells[actor];
      const response = await row.send(scene, cookieOf(scene, actor));
      if (cell.code) expectError(response, cell.status, cell.code);
      else expect(response.statusCode, response.body).toBe(cell.status);
      await cell.then(scene, response);
    });
  });
});

describe("authorization matrix with single sign-on (issue 29): a first sign-in's username, and disconnecting", () => {
  let provider: TestOidcProvider;
  let t: TestApp;
  beforeAll(async () => {
    provider = await startOidcProvider({ redirectUris: [`${SSO_PUBLIC_URL}${ssoApi.ssoCallback.path}`] });
    const { sso } = loadConfig({
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      PUBLIC_URL: SSO_PUBLIC_URL,
    });
    t = await createTestApp({ sso, publicUrl: SSO_PUBLIC_URL });
  });
  afterAll(async () => {
    await t.close();
    await provider.close();
  });

  it('every state-changing single sign-on route is among them', () => {
    const state = Object.values(ssoApi).filter((route) => route.method !== 'GET');
    expect(SSO_ROWS.map((row) => row.route).sort()).toEqual(state.map((route) => `${route.method} ${route.path}`).sort());
  });

  describe.each(SSO_ROWS)('$route: $what', (row) => {
    it.each(ACTORS)('as %s', async (actor) => {
      const scene: Scene = { t, provider, owner: await signUp(t.app, newAccount('own')), other: await signUp(t.app, newAccount('oth')) };
      await row.setup?.(scene);
      const cell = row.cells[actor];
      const response = await row.send(scene, cookieOf(scene, actor));
      if (cell.code) expectError(response, cell.status, cell.code);
      else expect(response.statusCode, response.body).toBe(cell.status);
      await cell.then(scene, response);
    });
  });
});

describe.skipIf(process.env.TEST_DATABASE_URL)('POST /api/admin/backup (embedded setup only): only the admin token on loopback', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let other: Account;
  const backups = () => path.join(t.config.dataDir, 'backups');
  const backup = (headers: Record<string, string>) =>
    app.inject({ method: 'POST', url: '/api/admin/backup', payload: {}, headers, remoteAddress: '127.0.0.1' });

  beforeAll(async () => {
    t = await createTestApp();
    app = await buildApp({ config: t.config, database: t.database, adminToken: 'admin-token-for-tests' });
    other = await signUp(app);
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it("the route is declared, and it and npm run admin's are the only extra state-changing routes", () => {
    expect(app.hasRoute({ method: 'POST', url: '/api/admin/backup' })).toBe(true);
    expect(app.hasRoute({ method: 'POST', url: ADMIN_COMMAND_PATH })).toBe(true);
    expect(stateChangingRouteCount(app)).toBe(stateChangingRouteCount(t.app) + 2);
  });

  it('signed out: 404 as if it did not exist, and no backup is written', async () => {
    expectError(await backup({}), 404, 'NOT_FOUND');
    expect(fs.existsSync(backups())).toBe(false);
  });

  it('a signed-in user (session cookie, no token): 404, and no backup is written', async () => {
    expectError(await backup({ cookie: other.cookie }), 404, 'NOT_FOUND');
    expect(fs.existsSync(backups())).toBe(false);
  });

  it('the admin token holder: 200, and the backup is on disk', async () => {
    const response = await backup({ authorization: 'Bearer admin-token-for-tests' });
    expect(response.statusCode, response.body).toBe(200);
    expect(fs.existsSync(path.join(response.json().outDir, 'pglite.tar.gz'))).toBe(true);
  });
});

describe(`POST ${ADMIN_COMMAND_PATH} (npm run admin while the app owns the embedded database): only the admin token on loopback`, () => {
  let t: TestApp;
  let app: FastifyInstance;
  let owner: Account;
  const TOKEN = 'admin-token-for-tests';
  const command = (headers: Record<string, string>, payload: unknown, remoteAddress = '127.0.0.1') =>
    app.inject({ method: 'POST', url: ADMIN_COMMAND_PATH, payload: payload as object, headers, remoteAddress });
  const links = async () => query(t.database, 'SELECT 1 FROM password_resets WHERE user_id = $1', [owner.uid]);

  beforeAll(async () => {
    t = await createTestApp();
    // reset-link makes links only with PUBLIC_URL.
    app = await buildApp({ config: { ...t.config, publicUrl: 'https://dorm.example.edu' }, database: t.database, adminToken: TOKEN });
    owner = await signUp(app);
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it('without the token, from elsewhere, or with a session cookie: 404 as if it did not exist (even for a bad body), nothing made', async () => {
    const argv = { argv: ['reset-link', owner.username] };
    expectError(await command({}, argv), 404, 'NOT_FOUND');
    expectError(await command({ cookie: owner.cookie }, argv), 404, 'NOT_FOUND');
    expectError(await command({ authorization: 'Bearer wrong-token-for-tests' }, argv), 404, 'NOT_FOUND');
    expectError(await command({ authorization: `Bearer ${TOKEN}` }, argv, '203.0.113.5'), 404, 'NOT_FOUND');
    expectError(await command({}, { nonsense: true }), 404, 'NOT_FOUND');
    expect(await links()).toEqual([]);
  });

  it('the token holder on loopback: the command runs here (exit code, output), a bad body is 400', async () => {
    const response = await command({ authorization: `Bearer ${TOKEN}` }, { argv: ['reset-link', owner.username] });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ code: 0, stderr: '' });
    expect(response.json().stdout).toMatch(/\/reset\/[\w-]{43}/);
    expect(await links()).toHaveLength(1);
    expect((await command({ authorization: `Bearer ${TOKEN}` }, { argv: ['nonsense'] })).json()).toMatchObject({ code: 2 });
    expect((await command({ authorization: `Bearer ${TOKEN}` }, { argv: 'reset-link' })).statusCode).toBe(400);
  });
});

/** Reads only a signed-in user has (issue 30: notifications). */
const SIGNED_IN_READS = [activityApi.activity.path, activityApi.unreadCount.path, activityApi.notificationSettings.path];

/** Every file of a ZIP, one after another. */
const unzipped = async (zip: Buffer) => Buffer.concat([...(await readZip(zip)).values()].map((entry) => entry.data));

describe('no response carries secrets', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("never another user's e-mail, a password hash or a session token, in a whole realistic session", async () => {
    /** Every response of the walk, with the e-mail of whoever it answered (their own may show). */
    const seen: Array<{ label: string; response: LightMyRequestResponse; requester?: string }> = [];
    const call = async (requester: string | undefined, method: string, url: string, cookie?: string, payload?: object) => {
      const response = await t.app.inject({ method: method as 'GET', url, headers: withCookie(cookie), payload });
      seen.push({ label: `${method} ${url}`, response, requester });
      return response;
    };
    const register = async () => {
      const body = newAccount('leak');
      const response = await call(body.email, 'POST', API.register, undefined, body);
      expect(response.statusCode, response.body).toBe(201);
      const cookie = response.cookies.find((c) => c.name === 'session');
      return { ...body, cookie: `session=${cookie?.value}` };
    };

    const alice = await register();
    const bob = await register();
    // A second session each, by username and by e-mail.
    expect(
      (await call(alice.email, 'POST', API.login, undefined, { identifier: alice.username, password: alice.password })).statusCode,
    ).toBe(200);
    expect((await call(bob.email, 'POST', API.login, undefined, { identifier: bob.email, password: bob.password })).statusCode).toBe(200);
    // Failed attempts, as a stranger would make them.
    await call(undefined, 'POST', API.login, undefined, { identifier: alice.email, password: 'wrong password 1' });
    await call(bob.email, 'POST', API.register, bob.cookie, { username: 'someoneelse', email: alice.email, password: 'another pass 77' });

    const alicePost = await createPost(t.app, alice.cookie, {
      bytes: await jpeg(80, 60),
      description: 'Dorm life #leaktest',
      link: 'https://example.org',
    });
    seen.push({ label: 'POST /api/posts (alice)', response: alicePost, requester: alice.email });
    const bobPost = await createPost(t.app, bob.cookie, { bytes: await jpeg(60, 80), description: 'Dorm kitchen #leaktest' });
    seen.push({ label: 'POST /api/posts (bob)', response: bobPost, requester: bob.email });
    const iconUpdate = await patchMe(t.app, alice.cookie, [
      ['bio', 'hi'],
      ['icon', { bytes: await jpeg(64, 64), field: 'icon' }],
    ]);
    seen.push({ label: 'PATCH /api/me (alice)', response: iconUpdate, requester: alice.email });
    await call(bob.email, 'PUT', API.follow(alice.username), bob.cookie);
    await call(alice.email, 'PUT', API.follow(bob.username), alice.cookie);

    const [alicePostId, bobPostId]: string[] = [alicePost.json().post.id, bobPost.json().post.id];
    // Boards (issue 18): Alice's board, which Bob joined and saved her post to; their answers name members.
    const made = await call(alice.email, 'POST', API.boards, alice.cookie, { name: 'Leak test', description: 'walk' });
    expect(made.statusCode, made.body).toBe(201);
    const { id: boardId, slug: boardSlug } = made.json().board as { id: string; slug: string };
    expect((await call(alice.email, 'PUT', API.boardMember(boardId, bob.username), alice.cookie)).statusCode).toBe(200);
    expect((await call(bob.email, 'POST', API.boardJoin(boardId), bob.cookie)).statusCode).toBe(200);
    expect((await call(bob.email, 'PUT', API.boardPost(boardId, alicePostId!), bob.cookie)).statusCode).toBe(200);
    const postIds = [alicePostId!, bobPostId!];
    const media = [alicePost.json().post.image.full as string, iconUpdate.json().user.icon as string];
    for (const [requester, cookie] of [
      [undefined, undefined],
      [alice.email, alice.cookie],
      [bob.email, bob.cookie],
    ]) {
      const urls = [
        API.me,
        // Download My Data: a ZIP, checked below file by file (its JSON is deflated).
        API.exportData,
        API.posts,
        API.openapi,
        ...postIds.flatMap((id) => [API.post(id), API.related(id)]),
        ...[alice.username, bob.username].flatMap((name) => [
          API.user(name),
          API.userPosts(name),
          API.followers(name),
          API.following(name),
          API.userBoards(name),
        ]),
        API.userBoard(alice.username, boardSlug),
        API.userBoardPosts(alice.username, boardSlug),
        API.saveTargets(alicePostId),
        API.searchUsers(alice.username),
        API.searchUsers('example.com'),
        API.searchUsers(alice.email),
        API.searchPosts('dorm'),
        API.post('nosuchpost'),
        // Notifications (issue 30): who followed, joined and saved, by name.
        ...SIGNED_IN_READS,
        ...media,
      ];
      for (const url of urls) {
        const response = await call(requester, 'GET', url, cookie);
        // Real answers, not a wall of refusals that would trivially carry nothing.
        const expected =
          url === API.post('nosuchpost')
            ? 404
            : [API.me, API.exportData, API.saveTargets(alicePostId), ...SIGNED_IN_READS].includes(url) && !cookie
              ? 401
              : 200;
        expect(response.statusCode, url).toBe(expected);
      }
    }
    expect((await call(bob.email, 'DELETE', API.post(alicePostId!), bob.cookie)).statusCode).toBe(404);
    expect((await call(bob.email, 'POST', API.logout, bob.cookie)).statusCode).toBe(204);

    // The secrets, as stored: every e-mail, password hash and session-token hash; and every raw
    // token the walk handed out, with whom it belongs to.
    const users = await query<{ email: string; password_hash: string }>(t.database, 'SELECT email, password_hash FROM users');
    const storedTokenHashes = (await query<{ token_hash: string }>(t.database, 'SELECT token_hash FROM sessions')).map((r) => r.token_hash);
    const tokens = seen.flatMap(({ response, requester }) =>
      response.cookies.filter((c) => c.name === 'session' && c.value !== '').map((c) => ({ token: c.value, owner: requester })),
    );
    expect(users.length).toBe(2);
    expect(tokens.length).toBeGreaterThanOrEqual(4);
    const tokenHashes = new Set([...storedTokenHashes, ...tokens.map(({ token }) => createHash('sha256').update(token).digest('hex'))]);
    const always = ['$argon2', ...users.map((u) => u.password_hash), ...tokenHashes];

    for (const { label, response, requester } of seen) {
      const headers = { ...response.headers };
      const setCookie = JSON.stringify(headers['set-cookie'] ?? '');
      delete headers['set-cookie'];
      const payload = headers['content-type'] === 'application/zip' ? await unzipped(response.rawPayload) : response.rawPayload;
      const text = `${payload.toString('latin1')}\n${JSON.stringify(headers)}`.toLowerCase();
      const otherEmails = users.map((u) => u.email).filter((email) => email !== requester);
      for (const secret of [...always, ...otherEmails, ...tokens.map(({ token }) => token)]) {
        expect(text.includes(secret.toLowerCase()), `${label} carries ${secret}`).toBe(false);
      }
      // A Set-Cookie may only hand the caller their own session.
      for (const secret of [...always, ...tokens.filter(({ owner }) => owner !== requester).map(({ token }) => token)]) {
        expect(setCookie.includes(secret), `${label} sets ${secret}`).toBe(false);
      }
    }
    // The walk really did show each user their own address (so the check above could fail).
    expect(seen.some(({ label, response }) => label === `GET ${API.me}` && response.body.includes(alice.email))).toBe(true);
    // Alice's activity named Bob: he followed her, joined her board and saved her post to it.
    const aliceActivity = seen.find(({ label, requester }) => label === `GET ${activityApi.activity.path}` && requester === alice.email)!;
    expect(
      aliceActivity.response
        .json<{ groups: Array<{ kind: string }> }>()
        .groups.map((group) => group.kind)
        .sort(),
    ).toEqual(['board_joined', 'follow', 'save']);
    const aliceExport = seen.find(({ label, requester }) => label === `GET ${API.exportData}` && requester === alice.email)!;
    expect((await unzipped(aliceExport.response.rawPayload)).includes(alice.email)).toBe(true);
  });
});
