import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import * as oidc from 'openid-client';
import { ERRORS, errorCodeOf, type ErrorCode } from '../../shared/errors.js';
import { isSuspended } from '../../shared/moderation.js';
import { domainsMessage, emailDomainAllowed } from '../../shared/registration.js';
import { parseEmail, type EmailAddress } from '../../shared/validation/email.js';
import { usernameProblems } from '../../shared/validation/sign-up.js';
import * as accounts from '../auth/auth.queries.js';
import type { UserRow } from '../auth/auth.queries.js';
import { suspendedError } from '../auth/auth.service.js';
import { hashPassword } from '../auth/password.js';
import { holdOn, releaseHold } from '../auth/username-hold.js';
import type { SessionCache } from '../auth/session-cache.js';
import { systemClock, type Clock } from '../clock.js';
import type { Argon2Cost, RateLimitConfig, RegistrationConfig, SsoConfig } from '../config.js';
import type { AppDb } from '../db/database.js';
import { hasSqlState } from '../db/sql-state.js';
import { AppError } from '../http/app-error.js';
import type { RateLimiter } from '../http/rate-limiter.js';
import { newId } from '../ids.js';
import * as queries from './sso.queries.js';

/** A sign-in begun here must come back from the provider within this long. */
const ATTEMPT_TTL_MS = 10 * 60 * 1000;
/** A first sign-in has this long to choose its username. */
const SIGNUP_TTL_MS = 30 * 60 * 1000;
/** The provider's discovery document is read again after this long (keys rotate; endpoints rarely move). */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
/** SQLSTATE of an insert that hit a unique constraint. */
const UNIQUE_VIOLATION = '23505';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** What came back from the provider, checked: what the route does next. */
export type SsoOutcome =
  | { kind: 'signed-in'; user: UserRow; returnTo: string | null }
  | { kind: 'choose-username'; token: string }
  | { kind: 'linked'; userId: string };

/**
 * A sign-in (signed out, or with `userId` signing that account in again, to come back to
 * `returnTo`), or a signed-in account linking the provider.
 */
export interface SsoBegun {
  purpose: 'sign-in' | 'link';
  userId?: string | null;
  returnTo?: string | null;
}

/** Settings → Security: the account's link, and whether the provider may have stopped vouching for it. */
export interface SsoLinkState {
  linked: boolean;
  lastSignInAt: Date | null;
  /** The provider answered a sign-in meant for this account with an error, and none has worked since. */
  refusedAt: Date | null;
  /** No sign-in through the provider for SSO_STALE_DAYS. */
  stale: boolean;
}

type RefusalPage = 'sign-in' | 'settings';

/** A refusal the route shows on a page (the sign-in screen, or Settings), never a 500. */
export class SsoRefused extends Error {
  constructor(
    readonly code: ErrorCode,
    /** The sign-in screen, or Settings when a signed-in account was linking or signing in again. */
    readonly shownOn: RefusalPage,
    readonly messages: string[] = [ERRORS[code]],
  ) {
    super(messages[0]);
  }
}

export interface SsoDeps {
  db: AppDb;
  config: SsoConfig;
  registration: RegistrationConfig;
  limiter: RateLimiter;
  limits: RateLimitConfig;
  sessions: SessionCache;
  /** Mail is on: an address the provider did not vouch for is verified by mail, as any new one. */
  mailVerifies: boolean;
  passwordCost: Argon2Cost;
  /** The server's secret, the key of held names' addresses (username-hold.ts). */
  secret: Buffer;
  log: FastifyBaseLogger;
  now?: Clock;
}

/**
 * Single sign-on with the university's OpenID provider (issue 29), openid-client as the relying
 * party: the authorization code flow with PKCE (S256), `state` (bound to the browser by a cookie
 * and to a row here, used once) and `nonce`; openid-client checks the ID token's signature,
 * issuer, audience, expiry and nonce. Accounts are linked by the provider's `sub`, never by
 * e-mail alone: a first sign-in whose address an account here has is refused, and that account
 * connects the provider from Settings while signed in.
 */
export class SsoService {
  private readonly now: Clock;
  private discovered: { at: number; config: Promise<oidc.Configuration> } | undefined;

  constructor(private readonly deps: SsoDeps) {
    this.now = deps.now ?? systemClock;
  }

  /** PUBLIC_URL/api/auth/sso/callback, as registered at the provider. */
  get redirectUri(): string {
    return this.deps.config.redirectUri;
  }

  /**
   * Where to send the browser to sign in (or, with a user, to link their account, or to sign them
   * in again before a change that asks for it), and the state its cookie must hold when it comes back.
   */
  async start(begun: SsoBegun): Promise<{ url: string; state: string }> {
    const { purpose, userId = null, returnTo = null } = begun;
    const config = await this.discover(userId ? 'settings' : 'sign-in');
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const now = this.now();
    // Signing in again: the provider is told whose sign-in it is, and to ask for it afresh.
    const again = purpose === 'sign-in' && userId !== null;
    const identity = again ? await queries.identityOf(this.deps.db, userId, this.deps.config.issuer) : undefined;
    await queries.insertAttempt(
      this.deps.db,
      { stateHash: sha256(state), codeVerifier, nonce, purpose, userId, returnTo, expiresAt: new Date(now + ATTEMPT_TTL_MS) },
      new Date(now),
    );
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.deps.config.redirectUri,
      scope: this.deps.config.scopes,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      ...(again ? { prompt: 'login', ...(identity ? { login_hint: identity.email ?? identity.subject } : {}) } : {}),
    });
    return { url: url.href, state };
  }

  /**
   * The provider sent the browser back (`currentUrl`, with its code and state). The state must be
   * the one this browser's cookie holds and a live attempt's; then the code is exchanged (with
   * the PKCE verifier) and the ID token checked. A link needs the same account still signed in.
   */
  async callback(currentUrl: URL, cookieState: string | undefined, viewerId: string | null): Promise<SsoOutcome> {
    const state = currentUrl.searchParams.get('state') ?? '';
    const shownOnBefore = viewerId ? 'settings' : 'sign-in';
    // Not this browser's sign-in, or one used up or run out (a replay): logged, as a forged token is.
    if (!cookieState || !sameText(state, cookieState)) throw this.refusal(new Error('state not this browser’s'), shownOnBefore);
    const attempt = await queries.consumeAttempt(this.deps.db, sha256(state), new Date(this.now()));
    if (!attempt) throw this.refusal(new Error('no live sign-in with this state'), shownOnBefore);
    const { purpose } = attempt;
    const shownOn = attempt.userId ? 'settings' : 'sign-in';
    const config = await this.discover(shownOn);
    // The provider answered a sign-in meant for this account with an error: its account there may
    // have ended. Noted for the account's Security pages; nothing is deleted for it.
    if (purpose === 'sign-in' && attempt.userId && currentUrl.searchParams.has('error')) {
      await queries.markRefused(this.deps.db, attempt.userId, this.deps.config.issuer, new Date(this.now()));
    }
    let claims: oidc.IDToken;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: attempt.codeVerifier,
        expectedState: state,
        expectedNonce: attempt.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims()!;
    } catch (error) {
      throw this.refusal(error, shownOn);
    }
    // OpenID Connect caps `sub` at 255 ASCII characters; a longer one is no provider's (and no row's).
    if (claims.sub.length > 255) throw new SsoRefused('SSO_FAILED', shownOn);
    const { issuer } = this.deps.config;
    const email = typeof claims.email === 'string' ? parseEmail(claims.email) : undefined;
    const emailVerified = claims.email_verified === true;
    const { allowedDomains } = this.deps.config;
    if (allowedDomains.length > 0 && !(email && emailVerified && emailDomainAllowed(email, allowedDomains))) {
      throw new SsoRefused('SSO_DOMAIN_NOT_ALLOWED', shownOn);
    }
    const identity = await queries.findIdentity(this.deps.db, issuer, claims.sub);

    if (purpose === 'link') {
      if (!viewerId || viewerId !== attempt.userId) throw new SsoRefused('SSO_FAILED', 'settings');
      if (identity && identity.userId !== viewerId) throw new SsoRefused('SSO_ALREADY_LINKED', 'settings');
      if (!identity) await this.link(viewerId, claims.sub, email?.address ?? null);
      return { kind: 'linked', userId: viewerId };
    }

    if (identity) {
      const user = await accounts.findUserById(this.deps.db, identity.userId);
      if (!user) throw new SsoRefused('SSO_FAILED', 'sign-in');
      if (isSuspended(user.suspendedUntil)) {
        const suspended = suspendedError(user.suspendedUntil!);
        throw new SsoRefused(suspended.code, 'sign-in', suspended.messages);
      }
      await queries.touchIdentity(this.deps.db, issuer, claims.sub, email?.address ?? null, new Date(this.now()));
      return { kind: 'signed-in', user, returnTo: attempt.userId === user.id ? attempt.returnTo : null };
    }
    return { kind: 'choose-username', token: await this.beginSignup(claims, email, emailVerified) };
  }

  /** A first sign-in's address and suggested username, for the page that asks for a username. */
  async signup(token: string | undefined): Promise<{ email: string; suggestedUsername: string }> {
    const signup = await this.pendingSignup(token);
    return { email: signup.email, suggestedUsername: signup.suggestedUsername };
  }

  /**
   * The username chosen (the spec's sign-up rules and messages): the account is made with the
   * provider's address (verified when the provider says so), linked, and signed in. It has no
   * password anyone knows until it adds one.
   */
  async completeSignup(token: string | undefined, username: string, address: string): Promise<UserRow> {
    await this.deps.limiter.hit(`register:ip:${address}`, this.deps.limits.registerPerIp, this.deps.limits.windowMs);
    const pending = await this.pendingSignup(token);
    const name = username.toLowerCase();
    if (name === '') throw new AppError(400, 'FILL_IN_ALL_FIELDS');
    const { usernameTaken } = await accounts.findTaken(this.deps.db, name, '');
    // A deleted account's held name goes back early to the owner of its address, which the
    // provider has just vouched for (username-hold.ts).
    const ownHold =
      usernameTaken && pending.emailVerified && (await holdOn(this.deps.db, this.deps.secret, name, pending.email)) === 'owner';
    const messages = usernameProblems(name, usernameTaken && !ownHold);
    if (messages.length > 0)
      throw new AppError(messages.every((m) => m === ERRORS.USERNAME_TAKEN) ? 409 : 400, errorCodeOf(messages[0]!), messages);
    const passwordHash = await hashPassword(randomBytes(32).toString('base64url'), this.deps.passwordCost);
    try {
      return await this.deps.db.transaction(async (tx) => {
        const signup = await queries.consumeSignup(tx, sha256(token!), new Date(this.now()));
        if (!signup) throw new AppError(400, 'SSO_SIGNUP_EXPIRED');
        if (ownHold) await releaseHold(tx, name);
        const user = await accounts.insertUser(tx, {
          id: newId(),
          username: name,
          email: signup.email,
          passwordHash,
          hasPassword: false,
          emailVerifiedAt: signup.emailVerified ? new Date(this.now()) : null,
          verifyEmail: this.deps.mailVerifies && !signup.emailVerified,
        });
        await queries.insertIdentity(tx, { issuer: signup.issuer, subject: signup.subject, userId: user.id, email: signup.email });
        return user;
      });
    } catch (error) {
      if (!hasSqlState(error, UNIQUE_VIOLATION)) throw error;
      // Someone took the name (or the address, or linked the provider's account) a moment ago.
      const now = await accounts.findTaken(this.deps.db, name, pending.email);
      if (now.usernameTaken) throw new AppError(409, 'USERNAME_TAKEN', [ERRORS.USERNAME_TAKEN]);
      if (now.emailTaken) throw new AppError(409, 'SSO_EMAIL_TAKEN');
      throw new AppError(409, 'SSO_ALREADY_LINKED');
    }
  }

  private async pendingSignup(token: string | undefined): Promise<queries.SsoSignup> {
    const signup = token ? await queries.findSignup(this.deps.db, sha256(token), new Date(this.now())) : undefined;
    if (!signup) throw new AppError(400, 'SSO_SIGNUP_EXPIRED');
    return signup;
  }

  /** Whether the account is linked to the provider, and whether the provider may have stopped vouching for it. */
  async linkState(userId: string): Promise<SsoLinkState> {
    const identity = await queries.identityOf(this.deps.db, userId, this.deps.config.issuer);
    if (!identity) return { linked: false, lastSignInAt: null, refusedAt: null, stale: false };
    const staleAfter = this.deps.config.staleDays * 24 * 60 * 60 * 1000;
    return {
      linked: true,
      lastSignInAt: identity.lastSignInAt,
      refusedAt: identity.refusedAt,
      stale: this.now() - identity.lastSignInAt.getTime() > staleAfter,
    };
  }

  /** Disconnects the provider; only an account with a password of its own may (else it could not sign in). */
  async unlink(user: UserRow): Promise<void> {
    if (!user.hasPassword) throw new AppError(409, 'SSO_NEEDS_PASSWORD');
    if (!(await queries.deleteIdentity(this.deps.db, user.id, this.deps.config.issuer))) throw new AppError(404, 'NOT_FOUND');
  }

  private async link(userId: string, subject: string, email: string | null) {
    try {
      await queries.insertIdentity(this.deps.db, { issuer: this.deps.config.issuer, subject, userId, email });
    } catch (error) {
      // Linked meanwhile: to another account, or (user_id, issuer) this one to another sub.
      if (hasSqlState(error, UNIQUE_VIOLATION)) throw new SsoRefused('SSO_ALREADY_LINKED', 'settings');
      throw error;
    }
  }

  /**
   * A first sign-in: new accounts where sign-up is open or `sso` (`domains`: at an allowed domain,
   * as the provider vouches); the provider's address, which no account here may already have.
   */
  private async beginSignup(claims: oidc.IDToken, email: EmailAddress | undefined, emailVerified: boolean): Promise<string> {
    const { mode, emailDomains } = this.deps.registration;
    if (mode === 'closed' || mode === 'invite') throw new SsoRefused('SIGN_UPS_CLOSED', 'sign-in');
    if (!email) throw new SsoRefused('SSO_NO_EMAIL', 'sign-in');
    if (mode === 'domains' && !(emailVerified && emailDomainAllowed(email, emailDomains))) {
      throw new SsoRefused('EMAIL_DOMAIN_NOT_ALLOWED', 'sign-in', [domainsMessage(emailDomains)]);
    }
    if ((await accounts.findTaken(this.deps.db, '', email.address)).emailTaken) throw new SsoRefused('SSO_EMAIL_TAKEN', 'sign-in');
    const token = randomBytes(32).toString('base64url');
    await queries.insertSignup(this.deps.db, {
      tokenHash: sha256(token),
      issuer: this.deps.config.issuer,
      subject: claims.sub,
      email: email.address,
      emailVerified,
      suggestedUsername: suggestedUsername(claims.preferred_username),
      expiresAt: new Date(this.now() + SIGNUP_TTL_MS),
    });
    return token;
  }

  /**
   * The provider's discovery document, cached; a failure is not (the next sign-in asks again).
   * Plain http only for a provider on this machine (tests, a local Keycloak).
   */
  private async discover(shownOn: RefusalPage): Promise<oidc.Configuration> {
    const now = this.now();
    if (!this.discovered || now - this.discovered.at > DISCOVERY_TTL_MS) {
      const { issuer, clientId, clientSecret } = this.deps.config;
      const url = new URL(issuer);
      const local = url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
      // enableNonRepudiationChecks: openid-client checks the signature of an ID token from the
      // token endpoint only with it (else it leans on TLS alone: a token signed by any key, or
      // with its claims changed under the provider's signature, would be taken).
      const config = oidc.discovery(url, clientId, undefined, oidc.ClientSecretBasic(clientSecret), {
        execute: [...(local ? [oidc.allowInsecureRequests] : []), oidc.enableNonRepudiationChecks],
        timeout: 10,
      });
      this.discovered = { at: now, config };
      config.catch(() => {
        if (this.discovered?.config === config) this.discovered = undefined;
      });
    }
    try {
      return await this.discovered.config;
    } catch (error) {
      throw this.refusal(error, shownOn);
    }
  }

  /** A network failure is the provider being down; anything else (a forged token, a replayed code) a failed sign-in. */
  private refusal(error: unknown, shownOn: RefusalPage): SsoRefused {
    const down = isNetworkFailure(error);
    this.deps.log.warn({ err: error, sso: down ? 'unavailable' : 'refused' }, 'single sign-on failed');
    return new SsoRefused(down ? 'SSO_UNAVAILABLE' : 'SSO_FAILED', shownOn);
  }
}

/** fetch's own failures (refused, reset, DNS, timeout), however openid-client wraps them. */
function isNetworkFailure(error: unknown): boolean {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    if (cause.name === 'TimeoutError' || cause.name === 'AbortError') return true;
    if (cause instanceof TypeError && /fetch failed/i.test(cause.message)) return true;
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|UND_ERR_)/.test(code)) return true;
  }
  return false;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The provider's preferred_username when it fits the spec's username rules (lower-cased), else nothing. */
function suggestedUsername(preferred: unknown): string {
  if (typeof preferred !== 'string') return '';
  const name = preferred.toLowerCase();
  return usernameProblems(name).length === 0 ? name : '';
}
