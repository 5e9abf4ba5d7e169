import type { FastifyRequest, LightMyRequestResponse } from 'fastify';

/**
 * A GET of this app's own API for a page the request asked for (the first view, a link
 * preview): the same routes, access rules and read path as a browser's request, as the same
 * client (its address and user agent), signed in with `cookie` or signed out without one.
 */
export function askSelf(request: FastifyRequest, url: string, cookie?: string): Promise<LightMyRequestResponse> {
  return request.server.inject({
    method: 'GET',
    url,
    headers: { ...(cookie !== undefined && { cookie }), 'user-agent': request.headers['user-agent'] ?? '' },
    remoteAddress: request.ip,
  });
}
