import type { FastifyBaseLogger } from 'fastify';
import type { ResetBody } from '../../shared/api/password-reset.js';
import { errorCodeOf } from '../../shared/errors.js';
import { isSuspended } from '../../shared/moderation.js';
import { validateNewPassword } from '../../shared/validation/password.js';
import { validateForgotPassword } from '../../shared/validation/password-reset.js';
import { storedEmail } from '../../shared/validation/email.js';
import { parseIdentifier } from '../../shared/validation/sign-in.js';
import { systemClock, type Clock } from '../clock.js';
import { OWASP_ARGON2ID, type Argon2Cost, type RateLimitConfig } from '../config.js';
import type { AppDb } from '../db/database.js';
import { AppError } from '../http/app-error.js';
import type { RateLimiter } from '../http/rate-limiter.js';
import type { SecurityEvent } from '../http/security-log.js';
import type { Outbox } from '../mail/outbox.js';
import * as queries from './auth.queries.js';
import type { UserRow } from './auth.queries.js';
import { suspendedError, type AuthService, type SignedIn } from './auth.service.js';
import { isCommonPassword } from './common-passwords.js';
import { hashPassword } from './password.js';
import { passwordResetMail } from './password-reset-mail.js';
import * as resets from './password-reset.queries.js';
import type { SessionCache } from './session-cache.js';
import { hashSessionToken, newSessionToken } from './session-token.js';

/** A reset link works for an hour (and once). */
export const RESET_LINK_TTL_MS = 60 * 60 * 1000;

/** The path of a reset link's page; the client's paths.reset is the same. */
export const resetPath = (token: string) => `/reset/${token}`;

/** What a token looks like (32 random bytes, base64url): anything else is refused without a lookup. */
const TOKEN_PATTERN = /^[\w-]{43}$/;

const invalidLink = () => new AppError(400, 'RESET_LINK_INVALID');

/** Mail, when SMTP_URL is set: where it goes out, and the site its links point at (PUBLIC_URL). */
export interface ResetMail {
  outbox: Outbox;
  publicUrl: string;
  appName: string;
}

export interface PasswordResetDeps {
  db: AppDb;
  auth: AuthService;
  sessions: SessionCache;
  limiter: RateLimiter;
  limits: RateLimitConfig;
  passwordCost?: Argon2Cost;
  mail?: ResetMail;
  now?: Clock;
}

/** Where the asking request's later news goes: its log, and its security events. */
export interface Asker {
  log: FastifyBaseLogger;
  report(event: SecurityEvent, userId: string): void;
}

/**
 * Password recovery (issue 16): one-time links, made by `npm run admin -- reset-link` or mailed
 * by "Forgot password?". A link is 256 random bits; only its SHA-256 is stored (a leaked table
 * holds no usable link), one per account (a new one voids the old), for an hour, used once.
 * Using it sets the password and ends every session of the account, on every process: whoever
 * knew the old password, or held a stolen cookie, is out (cf. Mastodon's CVE-2025-62174).
 */
export class PasswordResetService {
  private readonly db: AppDb;
  private readonly now: Clock;

  constructor(private readonly deps: PasswordResetDeps) {
    this.db = deps.db;
    this.now = deps.now ?? systemClock;
  }

  /** Whether "Forgot password?" is on (SMTP_URL set). */
  get mailsLinks(): boolean {
    return this.deps.mail !== undefined;
  }

  /** A new link for the account, voiding any earlier one. */
  async newLink(userId: string): Promise<{ token: string; expiresAt: Date }> {
    const token = newSessionToken();
    const now = this.now();
    const expiresAt = new Date(now + RESET_LINK_TTL_MS);
    await resets.replaceReset(this.db, { userId, tokenHash: hashSessionToken(token), expiresAt }, new Date(now));
    return { token, expiresAt };
  }

  /** The reset link of the account named `username` (npm run admin -- reset-link), or undefined when there is none. */
  async linkFor(username: string): Promise<{ user: UserRow; token: string; expiresAt: Date } | undefined> {
    const user = await queries.findUserByUsername(this.db, username);
    return user && { user, ...(await this.newLink(user.id)) };
  }

  /** Whose a live link is, for the page to greet them; RESET_LINK_INVALID otherwise. */
  async check(token: string, address: string): Promise<{ username: string }> {
    await this.hitAddressLimit(address);
    const user = await this.liveLinkUser(token);
    return { username: user.username };
  }

  /**
   * Sets the new password with a live link: the link first (a dead one is the news, whatever was
   * typed), then the password rules, then, in one transaction, the link is used up, the password
   * set and every session of the account ended. Then this browser gets a new session.
   */
  async reset(body: ResetBody, address: string, userAgent: string | undefined): Promise<SignedIn> {
    await this.hitAddressLimit(address);
    // SSO_ONLY: a link signs in admins alone, like a password (the link stays, of no use to anyone else).
    this.deps.auth.assertPasswordSignIn(await this.liveLinkUser(body.token));
    const messages = validateNewPassword(body, { commonPassword: isCommonPassword(body.newPassword) });
    if (messages.length > 0) throw new AppError(400, errorCodeOf(messages[0]!), messages);

    const passwordHash = await hashPassword(body.newPassword, this.deps.passwordCost ?? OWASP_ARGON2ID);
    const tokenHash = hashSessionToken(body.token);
    const userId = await this.db.transaction(async (tx) => {
      // Checked again here: the link may have been used (or replaced) while the hash was made.
      const owner = await resets.consumeReset(tx, tokenHash, new Date(this.now()));
      if (!owner) return undefined;
      const account = await queries.endSessions(tx, owner);
      // A suspended account gets no way back in through a reset: nothing changes (the link
      // stays), and the answer is the sign-in's suspension message (issue 26).
      if (account && isSuspended(account.suspendedUntil)) throw suspendedError(account.suspendedUntil!).withAudit({ accountId: owner });
      await queries.setPasswordHash(tx, owner, passwordHash);
      return owner;
    });
    if (!userId) throw invalidLink();
    // After the commit: a read in between would otherwise cache a session that just ended.
    this.deps.sessions.forgetUser(userId);
    const user = await queries.findUserById(this.db, userId);
    if (!user) throw invalidLink();
    return this.deps.auth.startSession(user, userAgent);
  }

  /**
   * "Forgot password?": the same answer whether or not the identifier names an account, in the
   * same time. Only the address limit and an empty field are decided before answering (neither
   * depends on the account); the account is looked up, and its mail written and sent, after.
   * A few mails per account per window, then silence: nobody can flood someone's inbox.
   */
  async forgot(identifier: string, address: string, asker: Asker): Promise<void> {
    const mail = this.deps.mail;
    if (!mail) throw new AppError(404, 'NOT_FOUND');
    const { forgotPerIp, forgotPerAccount, windowMs } = this.deps.limits;
    await this.deps.limiter.hit(`forgot:ip:${address}`, forgotPerIp, windowMs);
    const messages = validateForgotPassword({ identifier });
    if (messages.length > 0) throw new AppError(400, 'FILL_IN_ALL_FIELDS', messages);

    mail.outbox.post('password reset', asker.log, async () => {
      const identity = parseIdentifier(identifier);
      const user =
        identity.by === 'email'
          ? await queries.findUserByEmail(this.db, identity.email)
          : await queries.findUserByUsername(this.db, identity.username);
      // SSO_ONLY: a link it could not use is not sent (the answer was the same either way).
      if (!user || !this.deps.auth.passwordSignsIn(user)) return undefined;
      // Mail goes to one parsed address or nowhere: a stored address from before the parser
      // (npm run admin -- invalid-emails lists them) could be read as a list of recipients.
      const to = storedEmail(user.email);
      if (!to) {
        asker.log.warn({ userId: user.id }, 'reset mail not sent: the stored e-mail address is not one the parser accepts');
        return undefined;
      }
      if (!(await this.deps.limiter.tryTake(`forgot:user:${user.id}`, forgotPerAccount, windowMs))) {
        asker.report('rate limited', user.id);
        return undefined;
      }
      const { token } = await this.newLink(user.id);
      asker.report('mailed a reset link', user.id);
      return passwordResetMail({ to, username: user.username, link: mail.publicUrl + resetPath(token), appName: mail.appName });
    });
  }

  private async hitAddressLimit(address: string) {
    await this.deps.limiter.hit(`reset:ip:${address}`, this.deps.limits.resetPerIp, this.deps.limits.windowMs);
  }

  private async liveLinkUser(token: string): Promise<UserRow> {
    const user = TOKEN_PATTERN.test(token) ? await resets.findResetUser(this.db, hashSessionToken(token), new Date(this.now())) : undefined;
    if (!user) throw invalidLink();
    return user;
  }
}
