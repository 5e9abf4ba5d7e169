import type { z } from 'zod';
import type { ErrorCode } from '../errors.js';
import type { Role } from '../moderation.js';

/**
 * The API contract (issue 27): each route is defined once, here in shared, with its method, path,
 * schemas and who may call it. The server registers its routes from these definitions (and the
 * OpenAPI document comes from the same schemas); the client builds URLs with `pathOf` and parses
 * answers with the same response schemas.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route, decided for every /api request before its handler runs (server
 * auth/access.ts). Default deny: a route without a declaration does not start.
 * - public: anyone; the handler sees the viewer when there is one.
 * - signed-in: a live session, else 401 with `code` (the spec names a code for some actions);
 *   `verified` also refuses an account that must verify its address first (403).
 * - roles: a signed-in user with one of `roles`; to anyone else the route does not exist (404).
 */
export type Access =
  | { readonly kind: 'public' }
  | { readonly kind: 'signed-in'; readonly code: ErrorCode; readonly verified?: true }
  | { readonly kind: 'roles'; readonly roles: readonly Role[] };

export const PUBLIC = { kind: 'public' } as const satisfies Access;
export const signedIn = (code: ErrorCode = 'NOT_SIGNED_IN') => ({ kind: 'signed-in', code }) as const satisfies Access;
/**
 * Signed in, and not waiting to verify the address (issue 29): posting, following, saving,
 * reporting and inviting. An account that must verify first gets 403 EMAIL_NOT_VERIFIED.
 */
export const verified = (code: ErrorCode = 'NOT_SIGNED_IN') => ({ kind: 'signed-in', code, verified: true }) as const satisfies Access;
export const onlyFor = (...roles: Role[]) => ({ kind: 'roles', roles }) as const satisfies Access;

export interface RouteDefinition {
  readonly method: Method;
  /** With `:name` for each path parameter, named as in `params`. */
  readonly path: `/api/${string}`;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  /** For multipart routes (`consumes`), the form's fields as documentation: the server reads the form itself. */
  readonly body?: z.ZodType;
  /** Every status the route answers, with its body's schema. The 2xx one is the success answer. */
  readonly responses: { readonly [status: number]: z.ZodType };
  readonly access: Access;
  readonly summary: string;
  readonly tags: readonly string[];
  readonly consumes?: readonly string[];
  readonly produces?: readonly string[];
}

/** Keeps the literal types of a definition (its path, schemas and access) for the typed helpers. */
export const defineRoute = <const D extends RouteDefinition>(definition: D): D => definition;

type SchemaOut<S> = S extends z.ZodType ? z.output<S> : undefined;
type SchemaIn<S> = S extends z.ZodType ? z.input<S> : undefined;

/** The success status: the one 2xx (or, for a route that sends the browser on, 302) a route declares. */
export type SuccessStatus<D extends RouteDefinition> = Extract<keyof D['responses'], 200 | 201 | 202 | 204 | 302>;

/** What the server's handler gets (parsed by the schemas). */
export type ParamsOf<D extends RouteDefinition> = SchemaOut<D['params']>;
export type QueryOf<D extends RouteDefinition> = SchemaOut<D['query']>;
export type BodyOf<D extends RouteDefinition> = SchemaOut<D['body']>;
/** What the client sends (before the schemas' defaults). */
export type ParamsIn<D extends RouteDefinition> = SchemaIn<D['params']>;
export type QueryIn<D extends RouteDefinition> = SchemaIn<D['query']>;
export type BodyIn<D extends RouteDefinition> = SchemaIn<D['body']>;
/** The success answer: what the server's handler returns, and what the client gets once parsed. */
export type AnswerIn<D extends RouteDefinition> = z.input<D['responses'][SuccessStatus<D>]>;
export type AnswerOf<D extends RouteDefinition> = z.output<D['responses'][SuccessStatus<D>]>;

/** The success status of a definition at run time (the one 2xx it declares, else its 302). */
export function successStatus(definition: RouteDefinition): number {
  const codes = Object.keys(definition.responses).map(Number);
  const status = codes.find((code) => code >= 200 && code < 300) ?? codes.find((code) => code === 302);
  if (status === undefined) throw new Error(`${definition.method} ${definition.path} declares no 2xx answer`);
  return status;
}

/** A definition's params (required when it has any) and query. */
type PathArgs<D extends RouteDefinition> = D['params'] extends z.ZodType
  ? [params: ParamsIn<D>, query?: QueryIn<D>]
  : [params?: Record<string, string>, query?: Record<string, string | undefined>];

/**
 * The URL of a route: each `:name` replaced by its parameter, percent-encoded; query values that
 * are set appended in order (encodeURIComponent, as the server decodes them).
 */
export function pathOf<D extends RouteDefinition>(definition: D, ...[params, query]: PathArgs<D>): string {
  return fillPath(definition.path, params, query);
}

/** `pathOf` for a path template alone (the client's route table carries no schemas). */
export function fillPath(template: string, params?: unknown, query?: unknown): string {
  const values = new Map<string, unknown>(entriesOf(params));
  const path = template.replace(/:(\w+)/g, (_, name: string) => {
    const value = values.get(name);
    if (value === undefined || value === null) throw new Error(`${template} needs the parameter ${name}`);
    return encodeURIComponent(textOf(value, name));
  });
  const search = entriesOf(query)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(textOf(value, key))}`);
  return search.length > 0 ? `${path}?${search.join('&')}` : path;
}

/** A parameter's or query value's text: a string, number or boolean (an object has none worth sending). */
function textOf(value: unknown, name: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new Error(`${name} must be a string, number or boolean`);
}

const entriesOf = (value: unknown): [string, unknown][] => (typeof value === 'object' && value !== null ? Object.entries(value) : []);

/** What the client needs of a route before its answer arrives: no schemas, so no zod at boot. */
export interface RouteLine<Group extends string = string> {
  readonly method: Method;
  readonly path: string;
  /** The group whose schemas read its answer. */
  readonly group: Group;
}

/** The method, path and group of every route, by name: built from the definitions at build time (vite.config.ts). */
export function routeLines<Group extends string>(
  groups: Readonly<Record<Group, Readonly<Record<string, RouteDefinition>>>>,
): Record<string, RouteLine<Group>> {
  return Object.fromEntries(
    Object.entries<Readonly<Record<string, RouteDefinition>>>(groups).flatMap(([group, routes]) =>
      Object.entries(routes).map(([name, { method, path }]) => [name, { method, path, group: group as Group }]),
    ),
  );
}
