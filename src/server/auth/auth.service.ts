import type { LoginBody, RegisterBody } from '../../shared/api/auth.js';
import type { ChangePasswordBody, SessionInfo } from '../../shared/api/sessions.js';
import { ERRORS, errorCodeOf } from '../../shared/errors.js';
import { formatSuspensionEnd, isPermanent, isSuspended } from '../../shared/moderation.js';
import { parseEmail } from '../../shared/validation/email.js';
import { parseIdentifier, validateSignIn } from '../../shared/validation/sign-in.js';
import { validateNewPassword } from '../../shared/validation/password.js';
import { normalizeSignUp, validateSignUp } from '../../shared/validation/sign-up.js';
import { OWASP_ARGON2ID, type Argon2Cost, type RateLimitConfig, type RegistrationConfig } from '../config.js';
import type { AppDb } from '../db/database.js';
import { hasSqlState } from '../db/sql-state.js';
import { AppError } from '../http/app-error.js';
import { tooManyRequests, type RateLimiter } from '../http/rate-limiter.js';
import { newId } from '../ids.js';
import * as queries from './auth.queries.js';
import type { UserRow } from './auth.queries.js';
import type { Viewer } from '../http/viewer.js';
import { isCommonPassword } from './common-passwords.js';
import { inviteCodeHash } from './invites.js';
import { isInviteLive, redeemInvite } from './invites.queries.js';
import { proveOwner } from './owner-proof.js';
import { hashPassword, verifyDecoy, verifyPassword } from './password.js';
import type { SessionCache, SessionOwner } from './session-cache.js';
import { sessionIsLive } from './session-rule.js';
import { describeUserAgent } from './user-agent.js';
import { hashSessionToken, newSessionToken, sessionTouch, SESSION_TTL_MS, storedUserAgent } from './session-token.js';

export interface SignedIn {
  user: UserRow;
  token: string;
  expiresAt: Date;
}

/** The user a session cookie belongs to, the session's public id, and its new expiry if this use extended it. */
export interface CurrentSession extends SessionOwner {
  renewedUntil?: Date;
}

/** SQLSTATE of an insert that hit a unique constraint. */
const UNIQUE_VIOLATION = '23505';

/** Issue 29: whether new accounts verify their address (mail is on), and whether everyone may sign in with a password (SSO_ONLY). */
export interface AccountPolicy {
  verify: boolean;
  passwordSignIn?: 'everyone' | 'admins';
}

export class AuthService {
  constructor(
    private readonly db: AppDb,
    private readonly limiter: RateLimiter,
    private readonly limits: RateLimitConfig,
    private readonly sessions: SessionCache,
    private readonly passwordCost: Argon2Cost = OWASP_ARGON2ID,
    private readonly registration: RegistrationConfig = { mode: 'open', emailDomains: [] },
    private readonly accountPolicy: AccountPolicy = { verify: false },
  ) {}

  /**
   * REGISTRATION (issue 17): `closed` answers only 'Sign-ups are closed.' (`sso`, issue 29: 'New
   * accounts are made by signing in with your university account.'); `domains` adds its
   * message after the e-mail's own; `invite` adds 'Invalid invite code.' last (the field is the
   * form's last), and takes a use of the code in the transaction that creates the account.
   * Wrong codes count against the sign-up limit like any other attempt.
   */
  async register(body: RegisterBody, address: string, userAgent?: string): Promise<SignedIn> {
    await this.limiter.hit(`register:ip:${address}`, this.limits.registerPerIp, this.limits.windowMs);
    const { mode, emailDomains } = this.registration;
    if (mode === 'closed') throw new AppError(403, 'SIGN_UPS_CLOSED');
    // Issue 29: new accounts come through single sign-on only (sso/sso.service.ts).
    if (mode === 'sso') throw new AppError(403, 'SIGN_UP_WITH_SSO');
    const policy = mode === 'domains' ? { emailDomains } : {};
    const input = normalizeSignUp(body);
    const invite = mode === 'invite' ? inviteCodeHash(body.inviteCode ?? '') : undefined;
    // Taken names and a common password join the format messages, in the spec's order, so the
    // user sees every problem at once. The unique constraints below are the real guarantee.
    // An address the parser refuses is told only that, even when its look-alike key is taken.
    const lookUpEmail = parseEmail(input.email) ? input.email : '';
    const canLookUp = input.username !== '' || lookUpEmail !== '';
    const taken = canLookUp ? await queries.findTaken(this.db, input.username, lookUpEmail) : {};
    const commonPassword = isCommonPassword(input.password);
    const messages = validateSignUp(input, { ...taken, commonPassword }, policy);
    if (mode === 'invite' && !(invite && (await isInviteLive(this.db, invite)))) messages.push(ERRORS.INVITE_CODE_INVALID);
    if (messages.length > 0) throw signUpError(messages);

    const passwordHash = await hashPassword(input.password, this.passwordCost);
    let user: UserRow;
    try {
      user = await this.db.transaction(async (tx) => {
        // Another sign-up may have taken the last use since the check above: exactly one wins.
        if (invite && !(await redeemInvite(tx, invite))) throw signUpError([ERRORS.INVITE_CODE_INVALID]);
        return queries.insertUser(tx, {
          id: newId(),
          username: input.username,
          email: input.email,
          passwordHash,
          verifyEmail: this.accountPolicy.verify,
        });
      });
    } catch (error) {
      if (!hasSqlState(error, UNIQUE_VIOLATION)) throw error;
      // Someone else registered the same name or address a moment ago: report what is taken now.
      const nowTaken = await queries.findTaken(this.db, input.username, input.email);
      const lost = validateSignUp(input, { ...nowTaken, commonPassword }, policy);
      throw lost.length > 0 ? signUpError(lost) : new AppError(409, 'SIGN_UP_FAILED');
    }
    return this.startSession(user, userAgent);
  }

  /**
   * Sign-in limits (per 15 minutes, from one address: an IPv6 /64 counts as one, see
   * http/client-address.ts). Each guess takes its slots before the password is checked, so the
   * limits hold exactly under any concurrency; a right password gives them back, so only
   * failures count.
   *
   * - Failures for what was typed, the username or the e-mail (`loginFailuresPerAccount`): 429
   *   once used up, even for the right password, since every check answers a guess at the
   *   account. It depends only on the text typed, never on whose account it names, so it links
   *   no e-mail to a username. An account thus has that many guesses by its username and as many
   *   by its e-mail. No count joins the two: whenever one refused a check that the typed text
   *   still had room for, its answer would either call a right password wrong (the owner locked
   *   out by a lie) or differ from an unrelated e-mail's (telling the guesser whose e-mail it is).
   * - Failures from the address, whatever the account (`loginPerIp`): answered as usual. Past
   *   them the address is not locked out (a campus NAT shares it with whoever guesses there):
   *   passwords are still checked, within a second, larger budget of failures
   *   (`loginChecksPerIp`); a right one signs in, a wrong one or an unknown name gets 429. A
   *   429 there tells a guesser no more than a 401 would, so the two budgets together bound the
   *   address's argon2 work and its wrong guesses; only once both are used up is everyone there
   *   refused unchecked, the right password too.
   *
   * The limits are per address too, so a stranger elsewhere cannot lock the owner out.
   */
  async login(body: LoginBody, address: string, userAgent?: string): Promise<SignedIn> {
    const messages = validateSignIn(body);
    if (messages.length > 0) throw new AppError(400, 'FILL_IN_ALL_FIELDS', messages);

    const identity = parseIdentifier(body.identifier);
    const typed = identity.by === 'email' ? identity.email : identity.username;
    const user =
      identity.by === 'email'
        ? await queries.findUserByEmail(this.db, identity.email)
        : await queries.findUserByUsername(this.db, identity.username);
    const { loginPerIp, loginChecksPerIp, loginFailuresPerAccount, windowMs } = this.limits;
    const naming = <T>(error: T) => (error instanceof AppError ? error.withAudit({ accountId: user?.id }) : error);
    const typedKey = `login:fail:typed:${identity.by}:${typed}:${address}`;
    const [typedSlot] = await this.limiter.take([{ key: typedKey, limit: loginFailuresPerAccount }], windowMs).catch((error: unknown) => {
      throw naming(error);
    });
    const fromAddress = await this.limiter
      .takeFirst(
        [
          { key: `login:fail:ip:${address}`, limit: loginPerIp },
          { key: `login:over:ip:${address}`, limit: loginChecksPerIp },
        ],
        windowMs,
      )
      .catch(async (error: unknown) => {
        await typedSlot!.release();
        throw naming(error);
      });

    // A missing account costs the same argon2 time as a real one, so neither can be told apart by timing.
    const right = user ? await verifyPassword(user.passwordHash, body.password) : await verifyDecoy(body.password, this.passwordCost);
    if (!user || !right) {
      // Past the address's failures only a right password is let in.
      if (fromAddress.index > 0) throw naming(tooManyRequests(fromAddress.slot.resetAt));
      if (!user && identity.by === 'username') throw new AppError(404, 'USERNAME_NOT_REGISTERED');
      throw naming(new AppError(401, 'INCORRECT_LOGIN'));
    }
    await Promise.all([fromAddress.slot.release(), this.limiter.clear(typedKey)]);
    // Only after the password: someone without it learns nothing about the account (issue 17).
    if (isSuspended(user.suspendedUntil)) throw suspendedError(user.suspendedUntil!).withAudit({ accountId: user.id });
    this.assertPasswordSignIn(user);
    return this.startSession(user, userAgent);
  }

  /** SSO_ONLY (issue 29): a password (or a reset link) signs in admins alone; everyone else uses the university sign-in. */
  passwordSignsIn(user: UserRow): boolean {
    return this.accountPolicy.passwordSignIn !== 'admins' || user.role === 'admin';
  }

  assertPasswordSignIn(user: UserRow): void {
    if (!this.passwordSignsIn(user)) throw new AppError(403, 'SIGN_IN_WITH_SSO').withAudit({ accountId: user.id });
  }

  /** Forget after the delete: a read in between would otherwise re-cache the session. */
  async logout(token: string | undefined): Promise<void> {
    if (!token) return;
    const tokenHash = hashSessionToken(token);
    await queries.deleteSession(this.db, tokenHash);
    this.sessions.forgetSession(tokenHash);
  }

  /** Ends every session of the user, in every browser (this one included). */
  async logoutEverywhere(user: Viewer): Promise<void> {
    await this.db.transaction((tx) => queries.endSessions(tx, user.id));
    this.sessions.forgetUser(user.id);
  }

  /**
   * Change Password: the sign-up rules for the new one (and the two typed alike), then the
   * current password. Every other session ends, so a thief holding one is out; this one stays.
   * Each attempt counts against the account's limit before any argon2 work.
   */
  async changePassword(user: UserRow, token: string, body: ChangePasswordBody, signedInRecently = false): Promise<void> {
    await this.limiter.hit(`password:user:${user.id}`, this.limits.passwordChangesPerUser, this.limits.windowMs);
    // An account made through single sign-on adds its first password: a fresh sign-in is its proof (issue 29).
    const current = user.hasPassword ? body : { ...body, currentPassword: undefined };
    const messages = validateNewPassword(current, { commonPassword: isCommonPassword(body.newPassword) });
    if (messages.length > 0) throw new AppError(400, errorCodeOf(messages[0]!), messages);
    await proveOwner(user, signedInRecently, body.currentPassword);
    const passwordHash = await hashPassword(body.newPassword, this.passwordCost);
    await this.db.transaction(async (tx) => {
      await queries.endSessions(tx, user.id, hashSessionToken(token));
      await queries.setPasswordHash(tx, user.id, passwordHash);
    });
    // This session's cached row holds the old hash; the others have ended.
    this.sessions.forgetUser(user.id);
  }

  /** The user's live sessions, named by browser and system: this one first, then the most recently used. */
  async sessionsOf(user: UserRow, currentSessionId: string | null): Promise<SessionInfo[]> {
    const now = Date.now();
    const rows = await queries.listSessions(this.db, user.id);
    return rows
      .filter((row) => sessionIsLive(row, user, now))
      .map((row) => ({
        id: row.id,
        ...describeUserAgent(row.userAgent),
        signedInAt: row.createdAt.toISOString(),
        lastActiveAt: row.lastSeenAt.toISOString(),
        current: row.id === currentSessionId,
      }))
      .sort((a, b) => Number(b.current) - Number(a.current));
  }

  /**
   * Ends one of the user's sessions. Its next request fails on every process: the row is gone,
   * and only the embedded database (one process) caches sessions, which this forgets.
   */
  async endSession(user: Viewer, id: string): Promise<void> {
    const tokenHash = await queries.deleteSessionById(this.db, user.id, id);
    if (!tokenHash) throw new AppError(404, 'SESSION_NOT_FOUND');
    this.sessions.forgetSession(tokenHash);
  }

  /**
   * A sliding session: each use pushes the expiry back to 30 days from now (at most once an
   * hour, and never past a year after sign-in: see renewedExpiry); one unused for 30 days, or a
   * year old, is refused and deleted.
   */
  async sessionForToken(token: string | undefined): Promise<CurrentSession | undefined> {
    if (!token) return undefined;
    const tokenHash = hashSessionToken(token);
    const now = Date.now();
    let renewedUntil: Date | undefined;
    const owner = await this.sessions.get(tokenHash, async () => {
      const found = await queries.findSession(this.db, tokenHash);
      if (!found) return undefined;
      if (!sessionIsLive(found, found.user, now)) {
        await queries.deleteSession(this.db, tokenHash);
        return undefined;
      }
      const read = {
        user: found.user,
        sessionId: found.id,
        session: { epoch: found.epoch, createdAt: found.createdAt, expiresAt: found.expiresAt },
      };
      const touch = sessionTouch(found, now);
      if (!touch) return read;
      if (!(await queries.touchSession(this.db, tokenHash, touch))) return undefined;
      if (touch.expiresAt) read.session.expiresAt = renewedUntil = touch.expiresAt;
      return read;
    });
    if (!owner) return undefined;
    // Remembered from before it ended (ran out, or a year old): read it again, which deletes it.
    if (!sessionIsLive(owner.session, owner.user, now)) {
      this.sessions.forgetSession(tokenHash);
      return this.sessionForToken(token);
    }
    return { ...owner, ...(renewedUntil && { renewedUntil }) };
  }

  /**
   * Every sign-in gets a fresh token, so a token planted before sign-in is worthless. Sessions
   * that ran out are swept here, for every user: sign-ins are rare and slow (argon2) already.
   * The User-Agent is kept to name the session in the Sessions list.
   */
  async startSession(user: UserRow, userAgent: string | undefined): Promise<SignedIn> {
    await queries.deleteExpiredSessions(this.db);
    const token = newSessionToken();
    const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
    const started = await queries.insertSessionIfCurrent(this.db, {
      tokenHash: hashSessionToken(token),
      id: newId(),
      userId: user.id,
      expiresAt,
      userAgent: storedUserAgent(userAgent),
      epoch: user.sessionEpoch,
    });
    if (!started) throw await this.sessionRefused(user.id);
    return { user, token, expiresAt };
  }

  /**
   * Why a sign-in's session was not made: the account changed while its password was checked.
   * Suspended now: the suspension's message. Otherwise its password changed (or every session was
   * ended) meanwhile, so the password typed was the old one, or the account is gone.
   */
  private async sessionRefused(userId: string): Promise<AppError> {
    const account = await queries.findUserById(this.db, userId);
    if (account && isSuspended(account.suspendedUntil)) return suspendedError(account.suspendedUntil!).withAudit({ accountId: userId });
    return new AppError(401, 'INCORRECT_LOGIN').withAudit(account ? { accountId: userId } : {});
  }
}

/** 'This account is suspended until {date}.' filled in, or the permanent one. */
export function suspendedError(until: Date): AppError {
  if (isPermanent(until)) return new AppError(403, 'ACCOUNT_SUSPENDED');
  return new AppError(403, 'ACCOUNT_SUSPENDED_UNTIL', [ERRORS.ACCOUNT_SUSPENDED_UNTIL.replace('{date}', formatSuspensionEnd(until))]);
}

/** 409 when the only problems are taken names, else 400; the code is the first message's. */
function signUpError(messages: string[]): AppError {
  const onlyTaken = messages.every((m) => m === ERRORS.USERNAME_TAKEN || m === ERRORS.EMAIL_TAKEN);
  return new AppError(onlyTaken ? 409 : 400, errorCodeOf(messages[0]!), messages);
}
