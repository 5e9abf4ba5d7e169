import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ssoApi } from '../../shared/api/sso.js';
import type { AuthService } from '../auth/auth.service.js';
import type { VerificationPolicy } from '../auth/email-verification-rule.js';
import type { EmailVerificationService } from '../auth/email-verification.service.js';
import { toMe } from '../auth/me.js';
import { accountOf } from '../auth/session-account.js';
import { replaceSession } from '../auth/sign-in-cookie.js';
import { AppError } from '../http/app-error.js';
import { rateLimitAddress } from '../http/client-address.js';
import { registerRoute } from '../http/register-route.js';
import { serializeRequest } from '../http/secret-urls.js';
import { logSecurityEvent } from '../http/security-log.js';
import { SsoRefused, type SsoService } from './sso.service.js';

/** The browser's half of a sign-in begun here: its state, for the callback to match. */
const STATE_COOKIE = 'sso_state';
/** A first sign-in waiting for its username. */
const SIGNUP_COOKIE = 'sso_signup';
/** Only the single sign-on routes read them. */
const COOKIE_PATH = '/api/auth/sso';

/** The client's pages the flow ends on (client/paths.ts). */
const PAGES = { home: '/', login: '/login', welcome: '/sso/welcome', settings: '/settings/sso' } as const;

function cookieOptions(request: FastifyRequest, maxAgeSeconds: number) {
  // Lax: the provider's redirect back is a top-level GET, which Lax cookies go with.
  return { path: COOKIE_PATH, httpOnly: true, sameSite: 'lax' as const, secure: request.protocol === 'https', maxAge: maxAgeSeconds };
}

/** A URL with its query (if any) replaced by a mark that there was one. */
const withoutQuery = (url: string) => (url.includes('?') ? `${url.slice(0, url.indexOf('?'))}?[redacted]` : url);

/** Where a refusal is shown: the sign-in screen, or Settings for a signed-in account; the page words the code. */
function refusedPage(refused: SsoRefused): string {
  const page = refused.shownOn === 'settings' ? PAGES.settings : PAGES.login;
  return `${page}?sso=${encodeURIComponent(refused.code)}`;
}

/**
 * Not in the spec (issue 29): single sign-on. Every route answers 404 when OIDC_ISSUER is not
 * set. The redirects never carry a token or a code onward: the state and a first sign-in's
 * token live in cookies only the /api/auth/sso routes receive.
 */
export const ssoRoutes =
  (
    sso: SsoService | undefined,
    auth: AuthService,
    verifications: EmailVerificationService,
    policy: VerificationPolicy,
  ): FastifyPluginAsync =>
  async (app) => {
    const configured = (): SsoService => {
      if (!sso) throw new AppError(404, 'NOT_FOUND');
      return sso;
    };

    /** Ends a redirect route: on a refusal, the page that says why (never a 500 for the provider's failures). */
    const redirecting = async (reply: FastifyReply, run: () => Promise<string>) => {
      try {
        return reply.redirect(await run(), 302);
      } catch (error) {
        if (error instanceof SsoRefused) return reply.redirect(refusedPage(error), 302);
        throw error;
      }
    };

    // The provider's redirect back carries the code and the state in its query: a request's log
    // line names the route only (the query redacted), as for a reset link (http/secret-urls.ts).
    app.addHook('onRoute', (route) => {
      if (route.url !== ssoApi.ssoCallback.path) return;
      route.logSerializers = {
        ...route.logSerializers,
        req: (request: FastifyRequest) => ({ ...serializeRequest(request), url: withoutQuery(request.url) }),
      };
    });

    registerRoute(app, ssoApi.ssoStart, async ({ request, reply, query, viewer }) => {
      const service = configured();
      const link = query.link === '1';
      // Linking and signing in again are for the signed-in account; a signed-out browser signs in first.
      if ((link || query.again) && !viewer) return reply.redirect(PAGES.login, 302);
      return redirecting(reply, async () => {
        const { url, state } = await service.start(
          link
            ? { purpose: 'link', userId: viewer!.id }
            : { purpose: 'sign-in', userId: query.again ? viewer!.id : null, returnTo: query.again },
        );
        reply.setCookie(STATE_COOKIE, state, cookieOptions(request, 600));
        return url;
      });
    });

    registerRoute(app, ssoApi.ssoCallback, async ({ request, reply, viewer }) => {
      const service = configured();
      const cookieState = request.cookies[STATE_COOKIE];
      reply.clearCookie(STATE_COOKIE, cookieOptions(request, 0));
      return redirecting(reply, async () => {
        const current = new URL(request.url, 'http://callback.invalid');
        const outcome = await service.callback(new URL(`${service.redirectUri}${current.search}`), cookieState, viewer?.id ?? null);
        if (outcome.kind === 'linked') {
          logSecurityEvent(request, 'linked single sign-on', { userId: outcome.userId });
          return `${PAGES.settings}?linked=1`;
        }
        if (outcome.kind === 'choose-username') {
          reply.setCookie(SIGNUP_COOKIE, outcome.token, cookieOptions(request, 30 * 60));
          return PAGES.welcome;
        }
        const session = await auth.startSession(outcome.user, request.headers['user-agent']);
        logSecurityEvent(request, 'signed in', { userId: outcome.user.id });
        await replaceSession(auth, request, reply, session);
        return outcome.returnTo ?? PAGES.home;
      });
    });

    registerRoute(app, ssoApi.ssoSignup, async ({ request }) => configured().signup(request.cookies[SIGNUP_COOKIE]));

    registerRoute(app, ssoApi.ssoCompleteSignup, async ({ request, reply, body }) => {
      const service = configured();
      const user = await service.completeSignup(request.cookies[SIGNUP_COOKIE], body.username, rateLimitAddress(request.ip));
      reply.clearCookie(SIGNUP_COOKIE, cookieOptions(request, 0));
      const session = await auth.startSession(user, request.headers['user-agent']);
      logSecurityEvent(request, 'signed up', { userId: user.id });
      await replaceSession(auth, request, reply, session);
      // An address the provider did not vouch for is verified by mail, as any new account's.
      if (user.verifyEmail) verifications.afterSignUp(user, request.log);
      return { user: toMe(user, policy) };
    });

    registerRoute(app, ssoApi.ssoState, async ({ request }) => {
      const account = accountOf(request);
      const state = await configured().linkState(account.id);
      return {
        ...state,
        hasPassword: account.hasPassword,
        lastSignInAt: state.lastSignInAt?.toISOString() ?? null,
        refusedAt: state.refusedAt?.toISOString() ?? null,
      };
    });

    registerRoute(app, ssoApi.ssoUnlink, async ({ request }) => {
      const account = accountOf(request);
      await configured().unlink(account);
      logSecurityEvent(request, 'unlinked single sign-on', { userId: account.id });
      return null;
    });
  };
