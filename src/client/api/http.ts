import { z } from 'zod';
import { ERRORS, isErrorCode, type ErrorCode } from '../../shared/errors';
import {
  pathOf,
  successStatus,
  type BodyIn,
  type ParamsIn,
  type QueryIn,
  type RouteDefinition,
  type SuccessStatus,
  type AnswerOf,
} from '../../shared/api/route';

/** A failed API call, carrying the server's code and the spec's message(s). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly messages: string[] = [message],
    options?: { cause: unknown },
  ) {
    super(message, options);
    this.name = 'ApiError';
  }
}

/**
 * A failure's body, read leniently (the shared ErrorBody, every field optional and any code): a
 * code this build does not know still brings the server's message; a proxy's page is GENERIC.
 */
const FailureBody = z.object({ code: z.unknown(), message: z.string(), messages: z.array(z.string()) }).partial();

async function toApiError(response: Response): Promise<ApiError> {
  const parsed = FailureBody.safeParse(await response.json().catch(() => null));
  const body = parsed.success ? parsed.data : null;
  const code = isErrorCode(body?.code) ? body.code : 'GENERIC';
  const message = body?.message ?? ERRORS[code];
  return new ApiError(response.status, code, message, body?.messages ?? [message]);
}

/** What a call sends besides the route: its path parameters, query and body, each where the route declares one. */
export type CallArgs<D extends RouteDefinition> = (D['params'] extends z.ZodType ? { params: ParamsIn<D> } : { params?: undefined }) &
  (D['query'] extends z.ZodType ? { query?: QueryIn<D> } : { query?: undefined }) &
  // A multipart route takes the form itself (its body schema only documents the fields).
  (D['consumes'] extends readonly string[] ? { body: FormData } : D['body'] extends z.ZodType ? { body: BodyIn<D> } : { body?: undefined });

/** The route's success status, as the key of its answer's schema. */
function isSuccess<D extends RouteDefinition>(definition: D, status: PropertyKey): status is SuccessStatus<D> {
  return status === successStatus(definition);
}

/** The schema of the route's success answer. */
function answerSchema<D extends RouteDefinition>(definition: D, status: SuccessStatus<D>): D['responses'][SuccessStatus<D>] {
  return definition.responses[status];
}

/** `value` read with `schema`: the schema's output type, or a ZodError. */
const parseWith = <S extends z.ZodType>(schema: S, value: unknown): z.output<S> => schema.parse(value);

/**
 * The one way the client talks to the API: a route's definition (shared/api) and what it takes
 * in, its answer parsed with the same schema the server answers with. Errors are ApiError: the
 * server's code and message; a network failure is ApiError(0, 'GENERIC') so screens have one thing
 * to handle; an answer that is not what the route promises is ApiError(status, 'GENERIC') with
 * the schema's complaint as its cause, never a value of the wrong shape.
 */
export async function call<D extends RouteDefinition>(
  definition: D,
  ...[args]: object extends CallArgs<D> ? [args?: CallArgs<D>] : [args: CallArgs<D>]
): Promise<AnswerOf<D>> {
  const route: RouteDefinition = definition;
  const url = pathOf(route, args?.params ?? {}, args?.query ?? undefined);
  const body: unknown = args?.body;
  let response: Response;
  try {
    response = await fetch(url, {
      method: definition.method,
      credentials: 'same-origin',
      headers: body === undefined || body instanceof FormData ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'GENERIC', ERRORS.GENERIC);
  }
  if (!response.ok) throw await toApiError(response);
  const { status } = response;
  try {
    const key: PropertyKey = status;
    if (!isSuccess(definition, key)) throw new Error(`answered ${status}, not ${successStatus(definition)}`);
    return parseWith(answerSchema(definition, key), status === 204 ? null : await response.json());
  } catch (cause) {
    console.error(`${definition.method} ${definition.path}: a malformed answer`, cause);
    throw new ApiError(status, 'GENERIC', ERRORS.GENERIC, undefined, { cause });
  }
}
