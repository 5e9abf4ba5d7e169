import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import {
  successStatus,
  type Access,
  type AnswerIn,
  type BodyOf,
  type ParamsOf,
  type QueryOf,
  type RouteDefinition,
} from '../../shared/api/route.js';
import type { SerializedJson } from '../../shared/api/serialized-json.js';
import { multipartValidator } from './strict-input.js';
import type { Viewer } from './viewer.js';

/**
 * Who may call a route (shared/api/route.ts), plus the loopback-only tools' routes
 * (http/unshared-routes.ts), which answer a token holder on this machine and nobody else (404).
 */
export type RouteAccess = Access | { readonly kind: 'local-admin'; readonly token: string };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Required on every /api route: auth/access.ts refuses to start a route without one. */
    access?: RouteAccess;
  }
}

/** The viewer a handler gets: possibly nobody on a public route; someone on any other. */
type ViewerFor<A extends Access> = A extends { kind: 'public' } ? Viewer | null : Viewer;

/** What a handler gets: the request's parts as its definition's schemas parsed them, and the viewer. */
export interface RouteCall<D extends RouteDefinition> {
  request: FastifyRequest;
  reply: FastifyReply;
  params: ParamsOf<D>;
  query: QueryOf<D>;
  body: BodyOf<D>;
  viewer: ViewerFor<D['access']>;
}

/**
 * A handler answers with the definition's success body (sent with its 2xx status), the same as
 * JSON serialized already, or the reply itself when it sent something else (a stream, a redirect).
 */
export type RouteHandler<D extends RouteDefinition> = (
  call: RouteCall<D>,
) => Promise<AnswerIn<D> | SerializedJson<AnswerIn<D>> | FastifyReply>;

/** Route options a definition does not carry: how this server sends the answer. */
export type RouteExtras = Pick<RouteShorthandOptions, 'compress' | 'exposeHeadRoute' | 'errorHandler'>;

/**
 * Registers a route of the shared contract: its method, path, schemas (hence the OpenAPI
 * document) and access all come from the definition.
 */
export function registerRoute<D extends RouteDefinition>(
  app: FastifyInstance,
  definition: D,
  handler: RouteHandler<D>,
  extras: RouteExtras = {},
): void {
  const status = successStatus(definition);
  const { access } = definition;
  app.route({
    method: definition.method,
    url: definition.path,
    schema: {
      tags: [...definition.tags],
      summary: definition.summary,
      ...(definition.params && { params: definition.params }),
      ...(definition.query && { querystring: definition.query }),
      ...(definition.body && { body: definition.body }),
      ...(definition.consumes && { consumes: [...definition.consumes] }),
      ...(definition.produces && { produces: [...definition.produces] }),
      response: definition.responses,
    },
    config: { access },
    // A multipart route reads its form itself (http/multipart-form.ts); params and query are validated as usual.
    ...(definition.consumes?.includes('multipart/form-data') && { validatorCompiler: multipartValidator }),
    ...extras,
    handler: async (request, reply) => {
      const answer = await handler(callOf(definition, request, reply));
      // A reply is a thenable: a handler that returned it (a stream, a redirect) hands back what
      // awaiting it gave, once it was sent. Sending again would log Fastify's "already sent".
      if (answer === reply || reply.sent) return reply;
      // JSON the cache serialized once: sent as it is (Fastify sends strings unserialized).
      if (typeof answer === 'string') return reply.code(status).type('application/json; charset=utf-8').send(answer);
      return reply.code(status).send(answer);
    },
  });
}

/**
 * The handler's view of a request. The one place the definition's types meet the request's: the
 * validators compiled from the same schemas parsed params, query and body, and the access hook
 * (auth/access.ts) refused the request unless its access admits it, so a guarded route has a viewer.
 */
function callOf<D extends RouteDefinition>(definition: D, request: FastifyRequest, reply: FastifyReply): RouteCall<D> {
  const { viewer } = request;
  if (definition.access.kind !== 'public' && !viewer) throw new Error(`${definition.path}: the access hook did not run`);
  return { request, reply, params: request.params, query: request.query, body: request.body, viewer } as RouteCall<D>;
}
