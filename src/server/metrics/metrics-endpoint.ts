import { timingSafeEqual, createHash } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { ERRORS } from '../../shared/errors.js';
import type { Metrics } from './metrics.js';

export const METRICS_PATH = '/metrics';

/** Times every request of `app` by its route's pattern, and counts those in flight. */
export function registerRequestMetrics(app: FastifyInstance, metrics: Metrics) {
  const started = new WeakSet<FastifyRequest>();
  app.addHook('onRequest', async (request) => {
    started.add(request);
    metrics.requestStarted();
  });
  app.addHook('onResponse', async (request, reply) => {
    // Once per request: a request whose client went away may be heard of twice.
    if (!started.delete(request)) return;
    // routeOptions.url is the pattern (/api/users/:username), never the path asked for.
    metrics.requestEnded(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
  });
  // A client that went away before its answer: no longer in flight, and no answer to time.
  app.addHook('onRequestAbort', async (request) => {
    if (started.delete(request)) metrics.requestAbandoned();
  });
}

/**
 * GET /metrics on the public port. Always registered, so that it answers what any missing file
 * does (404) when metrics are off, without the token, or with a wrong one: nobody learns it is
 * there. With METRICS_TOKEN, `Authorization: Bearer <token>` gets the metrics.
 */
export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics | undefined, token: string | undefined) {
  // Not logged per request, and not in the OpenAPI document (it is no part of the API).
  app.get(METRICS_PATH, { logLevel: 'silent', schema: { hide: true } }, async (request, reply) => {
    if (!metrics || !token || !bearerMatches(request.headers.authorization, token)) {
      return reply.code(404).send({ code: 'NOT_FOUND', message: ERRORS.NOT_FOUND });
    }
    return sendMetrics(metrics, reply);
  });
}

/**
 * METRICS_PORT: a listener of its own on 127.0.0.1 only, serving /metrics without a token (a
 * Prometheus agent on the same machine, or a sidecar). main.ts starts it and closes it.
 */
export async function listenMetrics(metrics: Metrics, port: number): Promise<FastifyInstance> {
  const server = Fastify({ logger: false });
  server.get(METRICS_PATH, async (_request, reply) => sendMetrics(metrics, reply));
  await server.listen({ port, host: '127.0.0.1' });
  return server;
}

async function sendMetrics(metrics: Metrics, reply: FastifyReply) {
  const { contentType, text } = await metrics.scrape();
  return reply.type(contentType).header('cache-control', 'no-store').send(text);
}

/** In constant time: digests of equal length, so neither the token's length nor its prefix leaks. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/i.exec(header ?? '')?.[1];
  if (given === undefined) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(token));
}
