import type { FastifyInstance } from 'fastify';
import type { FastifyRouteSchemaDef, FastifyValidationResult } from 'fastify/types/schema.js';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isApiUrl } from './url-space.js';

/** What a route takes when it declares no querystring or no body: nothing (not even unknown keys). */
const NoQuery = z.strictObject({});
const NoBody = z.strictObject({}).optional();

/** Methods whose requests may carry a body (Fastify parses none for GET and HEAD). */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Unknown keys are refused (SECURITY.md, V2.2.1), on every API route: one that declares no
 * querystring refuses any query key, and one that declares no body refuses a body with keys,
 * rather than letting them through unread. Each declared schema is strict itself (z.strictObject).
 * Registered before the routes, whose schemas it completes.
 */
export function registerStrictInput(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    if (!isApiUrl(route.url)) return;
    const methods = [route.method].flat();
    route.schema = {
      ...route.schema,
      querystring: route.schema?.querystring ?? NoQuery,
      ...(methods.some((method) => BODY_METHODS.has(method)) && { body: route.schema?.body ?? NoBody }),
    };
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
