import { randomInt } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ChangeEmailBody } from '../../shared/api/email-verification.js';
import { parseEmail, storedEmail } from '../../shared/validation/email.js';
import { systemClock, type Clock } from '../clock.js';
import type { RateLimitConfig } from '../config.js';
import type { AppDb } from '../db/database.js';
import { hasSqlState } from '../db/sql-state.js';
import { AppError } from '../http/app-error.js';
import type { RateLimiter } from '../http/rate-limiter.js';
import type { Outbox } from '../mail/outbox.js';
import { keyedHash } from '../server-secret.js';
import * as accounts from './auth.queries.js';
import type { UserRow } from './auth.queries.js';
import { verificationMail } from './email-verification-mail.js';
import { addressToVerify } from './email-verification-rule.js';
import * as queries from './email-verification.queries.js';
import { proveOwner } from './owner-proof.js';
import type { SessionCache } from './session-cache.js';
import { hashSessionToken, newSessionToken } from './session-token.js';

/** A verification mail's link and code work for a day (and once). */
export const VERIFY_TTL_MS = 24 * 60 * 60 * 1000;

/** Wrong codes a verification takes before its code stops working (its link still does). */
export const VERIFY_CODE_ATTEMPTS = 5;

/** The path of a verification link's page; the client's paths.verify is the same. */
export const verifyPath = (token: string) => `/verify/${token}`;

/** What a token looks like (32 random bytes, base64url): anything else is refused without a lookup. */
const TOKEN_PATTERN = /^[\w-]{43}$/;

/** SQLSTATE of an update that hit a unique constraint: the new address was taken meanwhile. */
const UNIQUE_VIOLATION = '23505';

export interface VerificationMail {
  outbox: Outbox;
  publicUrl: string;
  appName: string;
}

export interface EmailVerificationDeps {
  db: AppDb;
  limiter: RateLimiter;
  limits: RateLimitConfig;
  sessions: SessionCache;
  /** The server's secret: the key of the codes' hashes, and of held names' addresses. */
  secret: Buffer;
  /** Mail, when SMTP_URL is set; without it nothing is verified and a new address applies at once. */
  mail?: VerificationMail;
  now?: Clock;
}

/**
 * Verified addresses (issue 29). A verification is one row per account: a link of 256 random
 * bits and a 6-digit code, both stored only as hashes (the code's keyed with the server's
 * secret, since a million codes are quickly tried against a plain hash), for 24 hours, used
 * once; a new mail voids the one before. The code takes VERIFY_CODE_ATTEMPTS wrong guesses, and
 * every check counts against the address's limit. Mails count against the account's limit and
 * the address's, so nobody floods an inbox by naming it.
 */
export class EmailVerificationService {
  private readonly db: AppDb;
  private readonly now: Clock;

  constructor(private readonly deps: EmailVerificationDeps) {
    this.db = deps.db;
    this.now = deps.now ?? systemClock;
  }

  /** A new account's mail, after the sign-up has answered: never a reason for the sign-up to fail. */
  afterSignUp(user: UserRow, log: FastifyBaseLogger): void {
    const mail = this.deps.mail;
    if (!mail) return;
    mail.outbox.post('address verification', log, async () => {
      try {
        await this.takeMailSlots(user, user.email);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        log.warn({ userId: user.id }, 'verification mail not sent: too many to this address');
        return undefined;
      }
      return this.newVerification(user, user.email);
    });
  }

  /** **Resend**: a new link and code for the address being verified, the old ones void. */
  async resend(user: UserRow, log: FastifyBaseLogger): Promise<void> {
    if (!this.deps.mail) throw new AppError(404, 'NOT_FOUND');
    const email = addressToVerify(user);
    if (email === undefined) throw new AppError(409, 'ALREADY_VERIFIED');
    await this.takeMailSlots(user, email);
    this.send(user, email, log);
  }

  /**
   * A new address, proved by the current password. With mail on it waits, pending, for its
   * link or code, and the account keeps the old one; without mail it applies at once. The
   * current address again cancels a pending change. The domains of REGISTRATION=domains are not
   * asked again: the account proved where it belongs when it signed up, and a graduate needs
   * an address of their own.
   */
  async changeEmail(user: UserRow, body: ChangeEmailBody, log: FastifyBaseLogger, signedInRecently = false): Promise<UserRow> {
    await this.deps.limiter.hit(`email:user:${user.id}`, this.deps.limits.passwordChangesPerUser, this.deps.limits.windowMs);
    // An account made through single sign-on has no password to type (issue 29 point 3: a graduate's own address).
    if (body.email.trim() === '' || (user.hasPassword && body.currentPassword === '')) throw new AppError(400, 'FILL_IN_ALL_FIELDS');
    const address = parseEmail(body.email);
    if (!address) throw new AppError(400, 'EMAIL_INVALID');
    const email = address.address;
    if (email === user.email) {
      if (user.pendingEmail === null) throw new AppError(400, 'SAME_EMAIL');
    } else if (email !== user.pendingEmail && (await accounts.findTaken(this.db, '', email)).emailTaken) {
      throw new AppError(409, 'EMAIL_TAKEN');
    }
    await proveOwner(user, signedInRecently, body.currentPassword);
    if (email === user.email) return this.forgetting(user.id, await queries.setPendingEmail(this.db, user.id, null));
    if (!this.deps.mail) return this.forgetting(user.id, await this.applyNow(user.id, email));
    await this.takeMailSlots(user, email);
    const updated = await queries.setPendingEmail(this.db, user.id, email);
    this.send(updated, email, log);
    return this.forgetting(user.id, updated);
  }

  /** A mailed link, opened anywhere (signed in or not): the address it was for is proved. */
  async verifyLink(token: string, address: string): Promise<{ userId: string; email: string }> {
    await this.hitAddressLimit(address);
    if (!TOKEN_PATTERN.test(token)) throw new AppError(400, 'VERIFY_LINK_INVALID');
    const user = await this.verify(
      (tx) => queries.consumeByToken(tx, hashSessionToken(token), new Date(this.now())),
      'VERIFY_LINK_INVALID',
    );
    return { userId: user.id, email: user.email };
  }

  /** The mail's code, typed on the signed-in device. */
  async verifyCode(user: UserRow, code: string, address: string): Promise<UserRow> {
    await this.hitAddressLimit(address);
    const digits = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(digits)) throw new AppError(400, 'VERIFY_CODE_INVALID');
    if (addressToVerify(user) === undefined) throw new AppError(409, 'ALREADY_VERIFIED');
    const codeHash = this.codeHash(user.id, digits);
    try {
      return await this.verify(
        (tx) => queries.consumeByCode(tx, user.id, codeHash, VERIFY_CODE_ATTEMPTS, new Date(this.now())),
        'VERIFY_CODE_INVALID',
      );
    } catch (error) {
      if (error instanceof AppError && error.code === 'VERIFY_CODE_INVALID') await queries.countWrongCode(this.db, user.id);
      throw error;
    }
  }

  /**
   * Uses a verification up and proves its address, in one transaction: the account's own address
   * gets its date, or a pending one replaces it (409 when another account took it meanwhile, and
   * the verification stays). Then every cached session re-reads the account.
   */
  private async verify(
    consume: (tx: AppDb) => Promise<queries.VerificationRow | undefined>,
    invalid: 'VERIFY_LINK_INVALID' | 'VERIFY_CODE_INVALID',
  ) {
    let user: UserRow | undefined;
    try {
      user = await this.db.transaction(async (tx) => {
        const used = await consume(tx);
        if (!used) return undefined;
        return queries.markVerified(tx, used.userId, used.email);
      });
    } catch (error) {
      if (hasSqlState(error, UNIQUE_VIOLATION)) throw new AppError(409, 'EMAIL_TAKEN');
      throw error;
    }
    if (!user) throw new AppError(400, invalid);
    return this.forgetting(user.id, user);
  }

  /** Without mail: the new address replaces the old at once (409 when taken meanwhile). */
  private async applyNow(userId: string, email: string): Promise<UserRow> {
    try {
      return await queries.setEmail(this.db, userId, email);
    } catch (error) {
      if (hasSqlState(error, UNIQUE_VIOLATION)) throw new AppError(409, 'EMAIL_TAKEN');
      throw error;
    }
  }

  /** The account's mail slot and the address's, or 429: a refused resend tells the asker, who is the owner. */
  private async takeMailSlots(user: UserRow, email: string) {
    const { verifyMailsPerAccount, verifyMailsPerAddress, windowMs } = this.deps.limits;
    await this.deps.limiter.take(
      [
        { key: `verify:mail:user:${user.id}`, limit: verifyMailsPerAccount },
        { key: `verify:mail:address:${email}`, limit: verifyMailsPerAddress },
      ],
      windowMs,
      'VERIFY_MAILS_TOO_MANY',
    );
  }

  private send(user: UserRow, email: string, log: FastifyBaseLogger) {
    this.deps.mail?.outbox.post('address verification', log, () => this.newVerification(user, email));
  }

  /**
   * A new link and code for `email`, voiding the account's earlier ones, and the mail that carries
   * them: composed after the answer, so only if `email` is still the address being verified (a
   * change cancelled meanwhile must not void the link of the address the account kept).
   */
  private async newVerification(user: UserRow, email: string) {
    const mail = this.deps.mail!;
    const current = await accounts.findUserById(this.db, user.id);
    if (!current || addressToVerify(current) !== email) return undefined;
    // One parsed address or nowhere (an address stored before the parser may be a list).
    const to = storedEmail(email);
    if (!to) return undefined;
    const token = newSessionToken();
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const now = this.now();
    await queries.replaceVerification(
      this.db,
      {
        userId: user.id,
        email,
        tokenHash: hashSessionToken(token),
        codeHash: this.codeHash(user.id, code),
        expiresAt: new Date(now + VERIFY_TTL_MS),
      },
      new Date(now),
    );
    return verificationMail({ to, username: user.username, link: mail.publicUrl + verifyPath(token), code, appName: mail.appName });
  }

  private codeHash(userId: string, code: string): string {
    return keyedHash(this.deps.secret, 'verify-code', `${userId}:${code}`);
  }

  private async hitAddressLimit(address: string) {
    await this.deps.limiter.hit(`verify:ip:${address}`, this.deps.limits.verifyPerIp, this.deps.limits.windowMs);
  }

  /** A cached session holds the account's row (embedded database): it must re-read the address. */
  private forgetting(userId: string, user: UserRow): UserRow {
    this.deps.sessions.forgetUser(userId);
    return user;
  }
}
