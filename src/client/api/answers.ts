import { z } from 'zod';
import { successStatus, type AnswerOf, type RouteDefinition, type SuccessStatus } from '../../shared/api/route';
import type { ROUTES } from '../../shared/api/routes';

/**
 * How the client reads answers: with the routes' own schemas (shared/api), so an answer is parsed
 * by the schema the server answers with. Loaded beside the first request (http.ts), with the
 * schemas of that route's group (answer-schemas.ts), not in the boot bundle: zod and every schema
 * are ~28 KB gzip, a quarter of the initial-JS budget.
 */

export type Routes = typeof ROUTES;

/**
 * A failure's body, read leniently (the shared ErrorBody, every field optional and any code): a
 * code this build does not know still brings the server's message; a proxy's page is no body.
 */
const FailureBody = z.object({ code: z.unknown(), message: z.string(), messages: z.array(z.string()) }).partial();
export type FailureBody = z.infer<typeof FailureBody>;

export function readFailure(body: unknown): FailureBody | null {
  const parsed = FailureBody.safeParse(body);
  return parsed.success ? parsed.data : null;
}

/** The route's success status, as the key of its answer's schema. */
function isSuccess<D extends RouteDefinition>(definition: D, status: PropertyKey): status is SuccessStatus<D> {
  return status === successStatus(definition);
}

/** `value` read with `schema`: the schema's output type, or a ZodError. */
const parseWith = <S extends z.ZodType>(schema: S, value: unknown): z.output<S> => schema.parse(value);

/**
 * The success answer of a route, parsed with its schema; throws (a ZodError, or an Error for a
 * status the route does not answer with) when the answer is not what the route promises.
 */
export function readAnswer<D extends RouteDefinition>(definition: D, status: number, body: unknown): AnswerOf<D> {
  const key: PropertyKey = status;
  if (!isSuccess(definition, key)) throw new Error(`answered ${status}, not ${successStatus(definition)}`);
  const schema: D['responses'][SuccessStatus<D>] = definition.responses[key];
  return parseWith(schema, body);
}
