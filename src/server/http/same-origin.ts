import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './app-error.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Sent by another site's page (see registerSameOrigin); decided once, on arrival. */
    crossSite: boolean;
  }
}

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

/** scheme://host[:port] as URL spells it; undefined if unparseable. */
function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

function isCrossSite(request: FastifyRequest, publicUrl: string | undefined): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite !== undefined) return !TRUSTED_FETCH_SITES.has(String(fetchSite).toLowerCase());
  // Older browsers send no Sec-Fetch-Site but do send Origin on cross-origin writes.
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  // PUBLIC_URL is the one origin of our pages: Host and X-Forwarded-Host are whatever the
  // sender (or a proxy that passes them on) says.
  if (publicUrl) return originOf(origin) !== publicUrl;
  // Without it, only hosts are compared (TLS may end at a proxy): request.protocol and
  // request.host honour X-Forwarded-Proto/-Host when TRUST_PROXY is set.
  const ours = hostOf(`${request.protocol}://${request.host}`);
  return ours === undefined || hostOf(origin) !== ours;
}

/**
 * Refuses state-changing requests sent by another site's page (CSRF), on top of the
 * SameSite=Lax session cookie, which still lets a sibling subdomain through. Requests with
 * neither header (curl, scripts, server-to-server, tests) are not from a browser page and pass.
 * `publicUrl` is config.publicUrl (an origin, PUBLIC_URL).
 */
export function registerSameOrigin(app: FastifyInstance, publicUrl: string | undefined) {
  app.decorateRequest('crossSite', false);
  app.addHook('onRequest', async (request) => {
    request.crossSite = isCrossSite(request, publicUrl);
    if (request.crossSite && !SAFE_METHODS.has(request.method)) throw new AppError(403, 'CROSS_SITE_REQUEST');
  });
}
