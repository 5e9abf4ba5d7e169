import type { FastifyInstance, RouteShorthandOptions } from 'fastify';
import type { Draining } from './draining.js';
import type { ReadinessChecks } from './readiness.js';

/**
 * For balancers and supervisors, outside /api (and so outside the shared contract, which is the
 * app's API): no session, no rate limit, no log line per probe, never cached. The bodies name
 * the checks and nothing else: no versions, no error text.
 */
export const HEALTH_PATHS = {
  /** Liveness: the process answers. No I/O. */
  liveness: '/healthz',
  /** Readiness: this process may be sent requests. */
  readiness: '/readyz',
} as const;

const OPTIONS: RouteShorthandOptions = { logLevel: 'silent', schema: { hide: true } };

export function registerHealthRoutes(app: FastifyInstance, readiness: ReadinessChecks, draining: Draining) {
  app.get(HEALTH_PATHS.liveness, OPTIONS, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });
  app.get(HEALTH_PATHS.readiness, OPTIONS, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    // Shutting down: no check is run (the database is about to close), the balancer is told at once.
    if (draining.active) return reply.code(503).send({ status: 'draining' });
    const { ready, checks } = await readiness.check();
    // Asked again meanwhile: the answer is the newer one.
    if (draining.active) return reply.code(503).send({ status: 'draining' });
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ok' : 'fail', checks });
  });
}
