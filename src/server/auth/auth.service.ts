import type { LoginBody, RegisterBody } from '../../shared/api/auth.js';
import { ERRORS, errorCodeOf } from '../../shared/errors.js';
import { parseIdentifier, validateSignIn } from '../../shared/validation/sign-in.js';
import { normalizeSignUp, validateSignUp } from '../../shared/validation/sign-up.js';
import type { RateLimitConfig } from '../config.js';
import type { AppDb } from '../db/database.js';
import { AppError } from '../http/app-error.js';
import type { RateLimiter } from '../http/rate-limiter.js';
import { newId } from '../ids.js';
import * as queries from './auth.queries.js';
import type { UserRow } from './auth.queries.js';
import { hashPassword, verifyDecoy, verifyPassword } from './password.js';
import { hashSessionToken, newSessionToken, SESSION_TTL_MS } from './session-token.js';

export interface SignedIn {
  user: UserRow;
  token: string;
  expiresAt: Date;
}

/** The unique constraint a failed insert hit, on either driver (drizzle wraps the error). */
function violatedConstraint(error: unknown): string | undefined {
  for (let e = error as { code?: string; constraint?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '23505') return e.constraint ?? 'unique';
  }
  return undefined;
}

export class AuthService {
  constructor(
    private readonly db: AppDb,
    private readonly limiter: RateLimiter,
    private readonly limits: RateLimitConfig,
  ) {}

  async register(body: RegisterBody, ip: string): Promise<SignedIn> {
    const input = normalizeSignUp(body);
    const messages = validateSignUp(input);
    if (messages.length > 0) throw new AppError(400, errorCodeOf(messages[0]!), messages);

    await this.limiter.hit(`register:ip:${ip}`, this.limits.registerPerIp, this.limits.windowMs);

    // A friendly early answer with both messages; the unique constraints below are the guarantee.
    const taken = await queries.findTaken(this.db, input.username, input.email);
    if (taken.username || taken.email) throw takenError(taken);

    const passwordHash = await hashPassword(input.password);
    let user: UserRow;
    try {
      user = await queries.insertUser(this.db, {
        id: newId(),
        username: input.username,
        email: input.email,
        passwordHash,
      });
    } catch (error) {
      const constraint = violatedConstraint(error);
      if (!constraint) throw error;
      throw takenError({ username: constraint.includes('username'), email: constraint.includes('email') });
    }
    return this.startSession(user);
  }

  async login(body: LoginBody, ip: string): Promise<SignedIn> {
    const messages = validateSignIn(body);
    if (messages.length > 0) throw new AppError(400, 'FILL_IN_ALL_FIELDS', messages);

    await this.limiter.hit(`login:ip:${ip}`, this.limits.loginPerIp, this.limits.windowMs);

    const identity = parseIdentifier(body.identifier);
    const account = identity.by === 'email' ? identity.email : identity.username;
    // Keyed by account *and* address: a burst of guesses is stopped, but a stranger guessing
    // from elsewhere can't lock the owner out of their own account.
    const failuresKey = `login:fail:${account}:${ip}`;
    await this.limiter.check(failuresKey, this.limits.loginFailuresPerAccount);

    const user =
      identity.by === 'email'
        ? await queries.findUserByEmail(this.db, identity.email)
        : await queries.findUserByUsername(this.db, identity.username);

    if (!user) {
      await verifyDecoy(body.password);
      await this.limiter.record(failuresKey, this.limits.windowMs);
      if (identity.by === 'username') throw new AppError(404, 'USERNAME_NOT_REGISTERED');
      throw new AppError(401, 'INCORRECT_LOGIN');
    }
    if (!(await verifyPassword(user.passwordHash, body.password))) {
      await this.limiter.record(failuresKey, this.limits.windowMs);
      throw new AppError(401, 'INCORRECT_LOGIN');
    }
    await this.limiter.clear(failuresKey);
    await queries.deleteExpiredSessions(this.db, user.id);
    return this.startSession(user);
  }

  async logout(token: string | undefined): Promise<void> {
    if (token) await queries.deleteSession(this.db, hashSessionToken(token));
  }

  async userForToken(token: string | undefined): Promise<UserRow | undefined> {
    if (!token) return undefined;
    return queries.findSessionUser(this.db, hashSessionToken(token));
  }

  /** Every sign-in gets a fresh token, so a token planted before sign-in is worthless. */
  private async startSession(user: UserRow): Promise<SignedIn> {
    const token = newSessionToken();
    const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
    await queries.insertSession(this.db, hashSessionToken(token), user.id, expiresAt);
    return { user, token, expiresAt };
  }
}

function takenError(taken: { username: boolean; email: boolean }): AppError {
  const messages = [
    ...(taken.username ? [ERRORS.USERNAME_TAKEN] : []),
    ...(taken.email ? [ERRORS.EMAIL_TAKEN] : []),
  ];
  return new AppError(409, taken.username ? 'USERNAME_TAKEN' : 'EMAIL_TAKEN', messages);
}
