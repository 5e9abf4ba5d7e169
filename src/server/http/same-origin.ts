import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './app-error.js';

/** Methods that only read: links, images and forms from anywhere may still load pages. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Sec-Fetch-Site is set by the browser and cannot be forged by a page: "same-origin" is our
 * own client, "none" a user action (typed URL, bookmark). "same-site" is refused too, since a
 * sibling subdomain (another student's site on a shared domain) is not us.
 */
const TRUSTED_FETCH_SITES = new Set(['same-origin', 'none']);

/** host[:port] as URL spells it: lower-case, default port dropped; undefined if unparseable. */
function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    // Origin "null" (sandboxed frames, some redirects) or garbage: not our origin.
    return undefined;
  }
}

export function isCrossSite(request: FastifyRequest): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite !== undefined) return !TRUSTED_FETCH_SITES.has(String(fetchSite).toLowerCase());
  // Older browsers send no Sec-Fetch-Site but do send Origin on cross-origin writes. Only
  // hosts are compared: TLS may end at a proxy. request.protocol and request.host honour
  // X-Forwarded-Proto/-Host when TRUST_PROXY is set.
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  const ours = hostOf(`${request.protocol}://${request.host}`);
  return ours === undefined || hostOf(origin) !== ours;
}

/**
 * Refuses state-changing requests sent by another site's page (CSRF), on top of the
 * SameSite=Lax session cookie, which still lets a sibling subdomain through. Requests with
 * neither header (curl, scripts, server-to-server, tests) are not from a browser page and pass.
 */
export function registerSameOrigin(app: FastifyInstance) {
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    if (isCrossSite(request)) throw new AppError(403, 'CROSS_SITE_REQUEST');
  });
}
