import type { FastifyBaseLogger } from 'fastify';
import type { RegisterBody } from '../../shared/api/auth.js';
import { ERRORS } from '../../shared/errors.js';
import { domainsMessage, emailDomainAllowed } from '../../shared/registration.js';
import { parseEmail, storedEmail } from '../../shared/validation/email.js';
import { normalizeSignUp } from '../../shared/validation/sign-up.js';
import { systemClock, type Clock } from '../clock.js';
import type { Argon2Cost, RateLimitConfig, RegistrationConfig } from '../config.js';
import type { AppDb } from '../db/database.js';
import { hasSqlState } from '../db/sql-state.js';
import { AppError } from '../http/app-error.js';
import type { RateLimiter } from '../http/rate-limiter.js';
import { newId } from '../ids.js';
import * as accounts from './auth.queries.js';
import type { UserRow } from './auth.queries.js';
import type { VerificationMail } from './email-verification.service.js';
import { hashPassword } from './password.js';
import { hashSessionToken, newSessionToken } from './session-token.js';
import * as queries from './username-claim.queries.js';
import { usernameClaimMail } from './username-claim-mail.js';
import { holdOn, releaseHold } from './username-hold.js';

/** A claim link works for a day, as a verification link does. */
const CLAIM_TTL_MS = 24 * 60 * 60 * 1000;
const TOKEN_PATTERN = /^[\w-]{43}$/;
/** SQLSTATE of an insert that hit a unique constraint. */
const UNIQUE_VIOLATION = '23505';

/** The claim link's page (client/paths.ts). */
export const claimPath = (token: string) => `/claim/${token}`;

export interface UsernameClaimDeps {
  db: AppDb;
  /** The server's secret, the key of held names' addresses (username-hold.ts). */
  secret: Buffer;
  limiter: RateLimiter;
  limits: RateLimitConfig;
  registration: RegistrationConfig;
  passwordCost: Argon2Cost;
  /** Without mail no address can be proved, and no name is given back early. */
  mail?: VerificationMail;
  now?: Clock;
}

/**
 * A deleted account's held name back early (issue 29 point 1), to whoever proves its address.
 * A sign-up asking for a held name gets the same 409 whatever address it gives (so a guess at
 * whose address it was is never answered); only then, after the answer has gone, is the hold's
 * key compared with the address typed, and on a match the address is mailed a link that makes
 * the account asked for: the name, the address (proved by the link), the password chosen.
 */
export class UsernameClaims {
  private readonly now: Clock;

  constructor(private readonly deps: UsernameClaimDeps) {
    this.now = deps.now ?? systemClock;
  }

  /**
   * A sign-up refused (`error`, already on its way to the asker): when it was refused for its
   * name alone, and sign-up is open to it, the claim is looked into after the answer (Outbox).
   */
  afterRefusedSignUp(error: unknown, body: RegisterBody, log: FastifyBaseLogger): void {
    const { mail, registration } = this.deps;
    if (!mail || (registration.mode !== 'open' && registration.mode !== 'domains')) return;
    const onlyName = error instanceof AppError && error.messages?.length === 1 && error.messages[0] === ERRORS.USERNAME_TAKEN;
    if (!onlyName) return;
    const input = normalizeSignUp(body);
    mail.outbox.post('username claim', log, async () => {
      const to = storedEmail(input.email);
      if (!to || (await holdOn(this.deps.db, this.deps.secret, input.username, input.email)) !== 'owner') return undefined;
      const { verifyMailsPerAddress, windowMs } = this.deps.limits;
      try {
        await this.deps.limiter.take([{ key: `claim:mail:address:${input.email}`, limit: verifyMailsPerAddress }], windowMs);
      } catch (refused) {
        if (!(refused instanceof AppError)) throw refused;
        log.warn('username claim not mailed: too many to this address');
        return undefined;
      }
      const token = newSessionToken();
      const now = this.now();
      await queries.insertClaim(
        this.deps.db,
        {
          tokenHash: hashSessionToken(token),
          username: input.username,
          email: input.email,
          passwordHash: await hashPassword(input.password, this.deps.passwordCost),
          expiresAt: new Date(now + CLAIM_TTL_MS),
        },
        new Date(now),
      );
      return usernameClaimMail({ to, username: input.username, link: mail.publicUrl + claimPath(token), appName: mail.appName });
    });
  }

  /** The link's page: the name and address it makes the account with, while it is good. */
  async check(token: string, address: string): Promise<{ username: string; email: string }> {
    await this.hitAddressLimit(address);
    const claim = TOKEN_PATTERN.test(token)
      ? await queries.findClaim(this.deps.db, hashSessionToken(token), new Date(this.now()))
      : undefined;
    if (!claim) throw new AppError(400, 'CLAIM_LINK_INVALID');
    return { username: claim.username, email: claim.email };
  }

  /**
   * The link used: the account is made with the held name and the proved address, and the hold
   * goes. Sign-up must still be open to it (REGISTRATION may have changed since the mail).
   */
  async claim(token: string, address: string): Promise<UserRow> {
    await this.hitAddressLimit(address);
    if (!TOKEN_PATTERN.test(token)) throw new AppError(400, 'CLAIM_LINK_INVALID');
    // Used up in the transaction that makes the account: any refusal below leaves it as it was.
    let claim: queries.UsernameClaim | undefined;
    try {
      return await this.deps.db.transaction(async (tx) => {
        claim = await queries.consumeClaim(tx, hashSessionToken(token), new Date(this.now()));
        if (!claim) throw new AppError(400, 'CLAIM_LINK_INVALID');
        this.checkRegistration(claim.email);
        // Held for this address still, or no longer held at all (the hold ran out meanwhile); held
        // for another (it ran out, and someone else's account took the name and was deleted): taken.
        const hold = await holdOn(tx, this.deps.secret, claim.username, claim.email);
        if (hold === 'other') throw new AppError(409, 'USERNAME_TAKEN', [ERRORS.USERNAME_TAKEN]);
        if (hold === 'owner') await releaseHold(tx, claim.username);
        return accounts.insertUser(tx, {
          id: newId(),
          username: claim.username,
          email: claim.email,
          passwordHash: claim.passwordHash,
          emailVerifiedAt: new Date(this.now()),
          verifyEmail: true,
        });
      });
    } catch (error) {
      if (!claim || !hasSqlState(error, UNIQUE_VIOLATION)) throw error;
      // The name or the address has an account now (the hold ran out and someone took it).
      const taken = await accounts.findTaken(this.deps.db, claim.username, claim.email);
      if (taken.usernameTaken) throw new AppError(409, 'USERNAME_TAKEN', [ERRORS.USERNAME_TAKEN]);
      throw new AppError(409, 'EMAIL_TAKEN', [ERRORS.EMAIL_TAKEN]);
    }
  }

  private checkRegistration(email: string) {
    const { mode, emailDomains } = this.deps.registration;
    if (mode === 'closed') throw new AppError(403, 'SIGN_UPS_CLOSED');
    if (mode === 'sso') throw new AppError(403, 'SIGN_UP_WITH_SSO');
    if (mode === 'invite') throw new AppError(403, 'INVITE_CODE_INVALID');
    const parsed = parseEmail(email);
    if (mode === 'domains' && !(parsed && emailDomainAllowed(parsed, emailDomains))) {
      throw new AppError(403, 'EMAIL_DOMAIN_NOT_ALLOWED', [domainsMessage(emailDomains)]);
    }
  }

  private async hitAddressLimit(address: string) {
    await this.deps.limiter.hit(`verify:ip:${address}`, this.deps.limits.verifyPerIp, this.deps.limits.windowMs);
  }
}
