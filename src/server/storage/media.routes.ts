import type { FastifyPluginAsync } from 'fastify';
import { ERRORS } from '../../shared/errors.js';
import type { Storage } from './storage.js';

/**
 * Uploaded images under /media/<key>. Keys never change content, so responses are immutable;
 * the Content-Type is the one the server encoded, and nosniff stops browsers guessing another.
 */
export const mediaRoutes =
  (storage: Storage): FastifyPluginAsync =>
  async (app) => {
    app.get<{ Params: { '*': string } }>('/media/*', { schema: { hide: true } }, async (request, reply) => {
      const file = await storage.get(request.params['*']);
      if (!file) return reply.code(404).send({ code: 'NOT_FOUND', message: ERRORS.NOT_FOUND });
      return reply
        .header('content-type', file.contentType)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(file.body);
    });
  };
