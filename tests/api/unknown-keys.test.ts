import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../src/shared/api/paths.js';
import { users } from '../../src/server/db/schema.js';
import { newAccount, signUp } from '../helpers/accounts.js';
import { jpeg } from '../helpers/images.js';
import { createPost, multipart } from '../helpers/posts.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Unknown keys are refused (SECURITY.md, V2.2.1), on every route the OpenAPI document lists, so a
 * route added later is walked too: an unknown query key, and on a method that may carry a body an
 * unknown body key, are each a 400 from the schema (never a 500, never ignored), and nothing is
 * written. The requests are an admin's, aimed at real rows (a user, a post, a board), so a route
 * that let them through would act.
 */

const UNKNOWN = 'zz_unknown';
const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);

interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  enum?: unknown[];
  minLength?: number;
  minimum?: number;
}

interface Operation {
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

/** The smallest value the schema accepts: the body is valid but for the one unknown key. */
function sample(schema: JsonSchema): unknown {
  if (schema.anyOf) return sample(schema.anyOf[0]!);
  if (schema.enum) return schema.enum[0];
  switch (schema.type) {
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((key) => [key, sample(schema.properties![key]!)]));
    case 'string':
      return 'x'.repeat(Math.max(schema.minLength ?? 1, 1));
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    default:
      throw new Error(`no sample for ${JSON.stringify(schema)}`);
  }
}

/** Every table's rows, as text: any insert, update or delete changes it. */
async function everyRow(t: TestApp): Promise<Record<string, string>> {
  const { rows: tables } = (await t.database.orm.execute(
    sql`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1`,
  )) as { rows: Array<{ table_name: string }> };
  const snapshot: Record<string, string> = {};
  for (const { table_name: table } of tables) {
    const { rows } = (await t.database.orm.execute(
      sql`SELECT coalesce(string_agg(r::text, E'\n' ORDER BY r::text), '') AS rows FROM ${sql.identifier(table)} r`,
    )) as { rows: Array<{ rows: string }> };
    snapshot[table] = rows[0]!.rows;
  }
  return snapshot;
}

describe('unknown query and body keys, on every documented route', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signUp>>;
  let paths: Record<string, Record<string, Operation>>;
  /** Path parameters: real rows wherever the route names one. */
  let params: (path: string, name: string) => string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signUp(t.app, newAccount('keys'));
    await t.database.orm.update(users).set({ role: 'admin' }).where(eq(users.id, admin.uid));
    const target = await signUp(t.app, newAccount('target'));
    const post = await createPost(t.app, target.cookie, { bytes: await jpeg(64, 64), description: 'a post' });
    expect(post.statusCode).toBe(201);
    const postId: string = post.json().post.id;
    const board = await t.app.inject({ method: 'POST', url: API.boards, headers: { cookie: admin.cookie }, payload: { name: 'Keys' } });
    expect(board.statusCode).toBe(201);
    const { id: boardId, slug } = board.json().board as { id: string; slug: string };
    params = (path, name) => {
      if (name === 'username') return target.username;
      if (name === 'slug') return slug;
      if (name === 'postId' || path.startsWith('/api/posts/')) return postId;
      if (path.startsWith('/api/boards/')) return boardId;
      return 'x';
    };
    paths = (await t.app.inject({ method: 'GET', url: API.openapi })).json().paths;
  });
  afterAll(async () => {
    await t?.close();
  });

  function url(path: string, query = '') {
    return path.replace(/{(\w+)}/g, (_, name: string) => encodeURIComponent(params(path, name))) + query;
  }

  /** A body the route's schema accepts, or none if it takes none. */
  function validBody(operation: Operation): { payload?: object } {
    const json = operation.requestBody?.content['application/json'];
    return json ? { payload: sample(json.schema) as object } : {};
  }

  function isMultipart(operation: Operation) {
    return operation.requestBody?.content['multipart/form-data'] !== undefined;
  }

  /** A 400 from the schema, naming the unknown key (not a refusal for some other reason). */
  function refusedForTheKey(where: string, response: LightMyRequestResponse): string[] {
    if (response.statusCode === 400 && response.json().code === 'BAD_REQUEST' && String(response.json().detail).includes(UNKNOWN))
      return [];
    return [`${where}: ${response.statusCode} ${response.body.slice(0, 200)}`];
  }

  it('the document lists the routes walked', () => {
    const operations = Object.values(paths).flatMap((operations) => Object.keys(operations));
    expect(operations.length).toBeGreaterThan(50);
  });

  /**
   * Routes whose query another party writes: the OpenID provider's redirect back (issue 29), to
   * which a provider may add parameters of its own (Google adds scope, authuser, hd and prompt;
   * Keycloak and Entra ID session_state), and which openid-client reads as a whole.
   */
  const QUERY_OF_ANOTHER_PARTY = new Set(['get /api/auth/sso/callback']);

  it('an unknown query key is a 400 on every route, and nothing is written', async () => {
    const before = await everyRow(t);
    const failures: string[] = [];
    for (const [path, operations] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (QUERY_OF_ANOTHER_PARTY.has(`${method} ${path}`)) continue;
        const response = await t.app.inject({
          method: method.toUpperCase() as 'GET',
          url: url(path, `?${UNKNOWN}=1`),
          headers: { cookie: admin.cookie },
          ...validBody(operation),
        });
        failures.push(...refusedForTheKey(`${method.toUpperCase()} ${path}?${UNKNOWN}=1`, response));
      }
    }
    expect(failures).toEqual([]);
    expect(await everyRow(t)).toEqual(before);
  });

  it('an unknown body key is a 400 on every route that may take a body, and nothing is written', async () => {
    const before = await everyRow(t);
    const failures: string[] = [];
    for (const [path, operations] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!BODY_METHODS.has(method)) continue;
        const where = `${method.toUpperCase()} ${path} {${UNKNOWN}}`;
        if (isMultipart(operation)) {
          // A form is read by the route itself, known fields only: refused before anything is saved.
          const form = await multipart([[UNKNOWN, '1']]);
          const response = await t.app.inject({
            method: method.toUpperCase() as 'POST',
            url: url(path),
            headers: { cookie: admin.cookie, 'content-type': form.contentType },
            payload: form.payload,
          });
          if (response.statusCode !== 400) failures.push(`${where}: ${response.statusCode} ${response.body.slice(0, 200)}`);
          continue;
        }
        const { payload } = validBody(operation);
        const response = await t.app.inject({
          method: method.toUpperCase() as 'POST',
          url: url(path),
          headers: { cookie: admin.cookie },
          payload: { ...payload, [UNKNOWN]: 1 },
        });
        if (payload) failures.push(...refusedForTheKey(where, response));
        // A route that takes no body refuses one with any key at all.
        else if (response.statusCode !== 400 || response.json().code !== 'BAD_REQUEST') {
          failures.push(`${where}: ${response.statusCode} ${response.body.slice(0, 200)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await everyRow(t)).toEqual(before);
  });

  // Last, as these may act: the refusals above were for the key, since without it the same
  // requests (no query, the same body or none) pass the input checks, and reach the route.
  it('the same requests without the unknown key are not refused as bad input', async () => {
    // Those that end the admin's session go last.
    const endsSession = ([method, path]: [string, string]) => path.includes('logout') || (method === 'delete' && path === API.me);
    const requests = Object.entries(paths)
      .flatMap(([path, operations]) => Object.entries(operations).map(([method, operation]) => [method, path, operation] as const))
      .filter(([, , operation]) => !isMultipart(operation))
      .sort((a, b) => Number(endsSession([a[0], a[1]])) - Number(endsSession([b[0], b[1]])));
    const failures: string[] = [];
    for (const [method, path, operation] of requests) {
      const response = await t.app.inject({
        method: method.toUpperCase() as 'GET',
        url: url(path),
        headers: { cookie: admin.cookie },
        ...validBody(operation),
      });
      const json = String(response.headers['content-type']).startsWith('application/json') ? response.json() : {};
      // Refused by the schema (which says why), or by the no-body rule (a route with a body may
      // still answer BAD_REQUEST for reasons of its own: a report that names nothing).
      const badInput = json.detail !== undefined || (!operation.requestBody && json.code === 'BAD_REQUEST');
      const signedOut = response.statusCode === 401 && !endsSession([method, path]);
      if (badInput || signedOut || response.statusCode >= 500) {
        failures.push(`${method.toUpperCase()} ${path}: ${response.statusCode} ${response.body.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
