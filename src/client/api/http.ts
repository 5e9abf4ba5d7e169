import type { z } from 'zod';
import { ERRORS, isErrorCode, type ErrorCode } from '../../shared/errors';
import { fillPath, type AnswerOf, type BodyIn, type ParamsIn, type QueryIn, type RouteDefinition } from '../../shared/api/route';
import type { RouteName } from '../../shared/api/routes';
import { ANSWER_SCHEMAS } from './answer-schemas';
import type { Routes } from './answers';

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
 * A chunk's module, fetched once, beside the first request that needs it; one that failed to load
 * (offline) is tried again by the next call.
 */
function loadedOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    // Observed here, so a request that fails before it reads its answer leaves no unhandled rejection.
    loading.catch(() => undefined);
    return loading;
  };
}

/** How answers are read (answers.ts, with zod), and each group's schemas (answer-schemas.ts). */
const loadAnswers = loadedOnce(() => import('./answers'));
const loadSchemas = Object.fromEntries(
  Object.entries(ANSWER_SCHEMAS).map(([group, load]) => [group, loadedOnce(load)]),
) as typeof ANSWER_SCHEMAS;

async function toApiError(response: Response, reader: ReturnType<typeof loadAnswers>): Promise<ApiError> {
  const raw: unknown = await response.json().catch(() => null);
  // Without the schemas (the chunk did not load), the failure is GENERIC with its status.
  const body = await reader.then(({ readFailure }) => readFailure(raw)).catch(() => null);
  const code = isErrorCode(body?.code) ? body.code : 'GENERIC';
  const message = body?.message ?? ERRORS[code];
  return new ApiError(response.status, code, message, body?.messages ?? [message]);
}

/** What a call sends besides the route: its path parameters, query and body, each where the route declares one. */
export type CallArgs<D extends RouteDefinition> = (D['params'] extends z.ZodType ? { params: ParamsIn<D> } : { params?: undefined }) &
  (D['query'] extends z.ZodType ? { query?: QueryIn<D> } : { query?: undefined }) &
  // A multipart route takes the form itself (its body schema only documents the fields).
  (D['consumes'] extends readonly string[] ? { body: FormData } : D['body'] extends z.ZodType ? { body: BodyIn<D> } : { body?: undefined });

/** The URL of route `name` (for links, such as the data export's download). */
export const urlOf = <N extends RouteName>(name: N, params?: ParamsIn<Routes[N]>, query?: QueryIn<Routes[N]>): string =>
  fillPath(__ROUTE_LINES__[name].path, params, query);

/**
 * The one way the client talks to the API: a route by name (shared/api) and what it takes in, its
 * answer parsed with the same schema the server answers with. Errors are ApiError: the server's
 * code and message; a network failure is ApiError(0, 'GENERIC') so screens have one thing to
 * handle; an answer that is not what the route promises is ApiError(status, 'GENERIC') with the
 * schema's complaint as its cause, never a value of the wrong shape.
 */
export async function call<N extends RouteName>(
  name: N,
  ...[args]: object extends CallArgs<Routes[N]> ? [args?: CallArgs<Routes[N]>] : [args: CallArgs<Routes[N]>]
): Promise<AnswerOf<Routes[N]>> {
  const { method, path, group } = __ROUTE_LINES__[name];
  const { params, query, body }: { params?: unknown; query?: unknown; body?: unknown } = args ?? {};
  const reader = loadAnswers();
  const schemas = loadSchemas[group]();
  let response: Response;
  try {
    response = await fetch(fillPath(path, params, query), {
      method,
      credentials: 'same-origin',
      headers: body === undefined || body instanceof FormData ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'GENERIC', ERRORS.GENERIC);
  }
  if (!response.ok) throw await toApiError(response, reader);
  const { status } = response;
  try {
    const [{ readAnswer }, definitions] = await Promise.all([reader, schemas]);
    // The group __ROUTE_LINES__ names is the one that defines the route (vite.config.ts).
    return readAnswer(definitions[name] as Routes[N], status, status === 204 ? null : await response.json());
  } catch (cause) {
    console.error(`${method} ${path}: a malformed answer`, cause);
    throw new ApiError(status, 'GENERIC', ERRORS.GENERIC, undefined, { cause });
  }
}
