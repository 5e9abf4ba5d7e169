import type { FastifyPluginAsync } from 'fastify';
import { ERRORS } from '../../shared/errors.js';
import { contentTypeOf, type Storage } from './storage.js';

/**
 * Uploaded images under /media/<key>. Keys never change content, so responses are immutable.
 * Nothing here may ever run as a page: the Content-Type comes from the key the server chose
 * (never from what a bucket says), nosniff stops browsers guessing another, and the CSP
 * sandbox disables scripts and forms even if a file were opened directly (nor may another site frame it).
 */
export const mediaRoutes =
  (storage: Storage): FastifyPluginAsync =>
  async (app) => {
    app.get<{ Params: { '*': string } }>('/media/*', { schema: { hide: true } }, async (request, reply) => {
      const key = request.params['*'];
      const contentType = contentTypeOf(key);
      const file = contentType ? await storage.get(key) : undefined;
      if (!contentType || !file) return reply.code(404).send({ code: 'NOT_FOUND', message: ERRORS.NOT_FOUND });
      return reply
        .header('content-type', contentType)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox; frame-ancestors 'none'")
        .send(file.body);
    });
  };
