import type { FastifyInstance } from 'fastify';

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
