import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyRouteSchemaDef, FastifyValidationResult } from 'fastify/types/schema.js';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from './app-error.js';
import { isApiUrl } from './url-space.js';

/** What a route takes when it declares no querystring: no key at all. */
const NoQuery = z.strictObject({});

/** Methods whose requests may carry a body (Fastify parses none for GET and HEAD). */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** For a route that declares no body: none, or an empty JSON object, and nothing else. */
async function refuseBody(request: FastifyRequest) {
  const { body } = request;
  if (body === undefined || body === null) return;
  if (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0) return;
  throw new AppError(400, 'BAD_REQUEST');
}

/**
 * Unknown keys are refused (SECURITY.md, V2.2.1), on every API route: one that declares no
 * querystring refuses any query key, and one that declares no body refuses a body with keys,
 * rather than letting them through unread. Each declared schema is strict itself (z.strictObject).
 * Registered before the routes, whose options it completes. (The body rule is a hook, not a
 * schema, so that the OpenAPI document does not list a body for these routes.)
 */
export function registerStrictInput(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    if (!isApiUrl(route.url)) return;
    route.schema = { ...route.schema, querystring: route.schema?.querystring ?? NoQuery };
    const takesBody = [route.method].flat().some((method) => BODY_METHODS.has(method));
    if (takesBody && !route.schema.body) route.preValidation = [refuseBody, ...[route.preValidation ?? []].flat()];
  });
}

/**
 * For a multipart route, which reads its form itself (http/multipart-form.ts, known fields
 * only): the body is not validated here, but its params and querystring are, like any route's.
 */
export function multipartValidator<S>(route: FastifyRouteSchemaDef<S>): FastifyValidationResult {
  if (route.httpPart === 'body') return () => ({ value: undefined });
  // Fastify types a route's compiler by its whole schema; each part given to it is a zod schema.
  return validatorCompiler(route as unknown as FastifyRouteSchemaDef<z.ZodType>);
}
