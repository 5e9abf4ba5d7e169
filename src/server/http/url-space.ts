import type { FastifyInstance } from 'fastify';

/**
 * The request URL with its path percent-decoded the way the router decodes it, so that hooks,
 * which look at request.url ("is this under /api?"), and routes see one path space: without it
 * `/%61pi/me` reaches the /api/me route but skips every /api hook (session loading, no-store).
 *
 * This is find-my-way's own decoding: decodeURI, which leaves the escapes of reserved
 * characters (%2F, %3F, %23, ...) alone, and %25 kept as %25 so that nothing is decoded twice.
 * The router decodes the result again to the same path. A malformed escape is left for the
 * router to refuse (400).
 */
export function canonicalUrl(url: string): string {
  // Nearly every request: nothing to decode, and no search of the URL needed to know it.
  if (!url.includes('%')) return url;
  const end = url.search(/[?#]/);
  const path = end === -1 ? url : url.slice(0, end);
  if (!path.includes('%')) return url;
  try {
    return decodeURI(path.replace(/%25/g, '%2525')) + (end === -1 ? '' : url.slice(end));
  } catch {
    return url;
  }
}

/**
 * True when a request URL is `prefix` itself or anything below it: '/api', '/api/x' and
 * '/api?x' are under '/api'; '/apiary' is not.
 */
export function isUnder(url: string, prefix: string): boolean {
  if (!url.startsWith(prefix)) return false;
  const next = url.charAt(prefix.length);
  return next === '' || next === '/' || next === '?';
}

export const isApiUrl = (url: string) => isUnder(url, '/api');
export const isMediaUrl = (url: string) => isUnder(url, '/media');

/**
 * API answers hold private data (the signed-in user's e-mail, who they follow) and change with
 * every write: no browser or shared cache may keep them (ASVS V14.3.2). A route that wants
 * caching sets its own Cache-Control.
 */
export function registerApiNoStore(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply, payload) => {
    if (isApiUrl(request.url) && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
