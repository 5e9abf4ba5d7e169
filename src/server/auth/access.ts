import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../http/app-error.js';
import { requireLocalAdmin } from '../http/admin-caller.js';
import type { RouteAccess } from '../http/register-route.js';
import { isApiUrl } from '../http/url-space.js';
import { viewerOf } from '../http/viewer.js';
import type { UserRow } from './auth.queries.js';
import type { AuthService } from './auth.service.js';
import { mustVerify, notVerifiedError, type VerificationPolicy } from './email-verification-rule.js';
import { rememberAccount } from './session-account.js';
import { clearTossedSessionCookies, sessionTokenOf, setSessionCookie } from './session-cookie.js';

/** An /api route as registered, with its access declaration. */
export interface ApiRoute {
  method: string;
  path: string;
  access: RouteAccess;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /api route this app serves (HEAD included), with its access: what the contract test compares with shared. */
    apiRoutes: readonly ApiRoute[];
  }
}

/**
 * Default deny (issue 27): the one place that decides who the viewer of an /api request is and
 * whether they may call the route at all, from the route's access declaration
 * (shared/api/route.ts). A route without one does not start. Services check again what the
 * viewer may touch (whose board, whom a moderator may act on).
 */
export function registerAccess(app: FastifyInstance, auth: AuthService, verification: VerificationPolicy) {
  app.decorateRequest('viewer', null);
  app.decorateRequest('sessionId', null);
  app.decorateRequest('viewerLastChange', null);

  const routes: ApiRoute[] = [];
  app.decorate('apiRoutes', routes);
  app.addHook('onRoute', (route) => {
    if (!isApiUrl(route.url)) return;
    const access = route.config?.access;
    if (!access) throw new Error(`${String(route.method)} ${route.url} declares no access (shared/api/route.ts): every /api route must`);
    for (const method of [route.method].flat()) routes.push({ method, path: route.url, access });
  });

  // Before the body is read: to anyone but the tool on this machine these routes do not exist.
  app.addHook('onRequest', async (request) => {
    const access = accessOf(request);
    if (access?.kind === 'local-admin') requireLocalAdmin(request, access.token);
  });

  // Before validation: a malformed body to a route the caller may not call is refused as any
  // body would be (401, or 404 for a role's route), so a 400 cannot show that the route exists.
  app.addHook('preValidation', async (request, reply) => {
    const access = accessOf(request);
    // Every other /api request, an unknown path's 404 too (its tossed cookies are cleared as well).
    if (access?.kind === 'local-admin' || !isApiUrl(request.url)) return;
    const { token, tossed } = sessionTokenOf(request);
    if (tossed) clearTossedSessionCookies(request, reply);
    // A request carrying two session cookies is signed out, and both are cleared (sessionTokenOf).
    const session = tossed ? undefined : await auth.sessionForToken(token);
    if (session) {
      request.viewer = viewerOf(session.user);
      request.sessionId = session.sessionId;
      request.viewerLastChange = { lastChangeId: session.user.lastChangeId, lastChangeAt: session.user.lastChangeAt };
      rememberAccount(request, session.user, session.session.createdAt);
      // The use extended the session: the browser's cookie is extended with it.
      if (token && session.renewedUntil) setSessionCookie(request, reply, token, session.renewedUntil);
    }
    if (access) decide(access, request, session && mustVerify(session.user, verification) ? session.user : undefined);
  });
}

function accessOf(request: FastifyRequest): RouteAccess | undefined {
  return request.routeOptions.config.access;
}

/**
 * A signed-in route refuses nobody-signed-in with its 401 code, and a `verified` one an account
 * that must verify its address first (`unverified`) with 403; a role's route is a 404 to
 * everyone else, signed in or not, as a page they may not know about (issue 17).
 */
function decide(access: Exclude<RouteAccess, { kind: 'local-admin' }>, request: FastifyRequest, unverified: UserRow | undefined) {
  const { viewer } = request;
  if (access.kind === 'signed-in' && !viewer) throw new AppError(401, access.code);
  if (access.kind === 'signed-in' && access.verified && unverified) throw notVerifiedError(unverified);
  if (access.kind === 'roles' && (!viewer || !access.roles.includes(viewer.role))) throw new AppError(404, 'NOT_FOUND');
}
