import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pathOf, PUBLIC, signedIn, type RouteDefinition } from '../../src/shared/api/route.js';
import { ALL_ROUTES } from '../../src/shared/api/routes.js';
import { NO_VERIFICATION } from '../../src/server/auth/email-verification-rule.js';
import { registerAccess } from '../../src/server/auth/access.js';
import { AuthService } from '../../src/server/auth/auth.service.js';
import { SessionCache } from '../../src/server/auth/session-cache.js';
import { buildApp } from '../../src/server/app.js';
import { DEFAULT_RATE_LIMITS, loadConfig } from '../../src/server/config.js';
import { registerErrorHandler } from '../../src/server/http/error-handler.js';
import { MemoryCounterStore, RateLimiter } from '../../src/server/http/rate-limiter.js';
import { registerRoute } from '../../src/server/http/register-route.js';
import { UNSHARED_ROUTES } from '../../src/server/http/unshared-routes.js';
import { Mailer } from '../../src/server/mail/mailer.js';
import { Outbox } from '../../src/server/mail/outbox.js';
import { API } from '../../src/shared/api/paths.js';
import { ERRORS } from '../../src/shared/errors.js';
import { sessionCookie, signUp } from '../helpers/accounts.js';
import { expectError } from '../helpers/people.js';
import { freePort } from '../helpers/services.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The contract (issue 27): every route is defined once in shared and registered from that
 * definition, with its access; every /api route the server serves is in the contract, or one of
 * the listed exceptions; a route without an access declaration does not start.
 */

const key = (route: { method: string; path: string }) => `${route.method} ${route.path}`;

/** A value for each path parameter: any string the schemas take. */
const sampleParams = (definition: RouteDefinition) =>
  Object.fromEntries([...definition.path.matchAll(/:(\w+)/g)].map(([, name]) => [name!, 'sample']));

describe('the shared contract and the registered routes', () => {
  let t: TestApp;
  /** The app with the loopback-only tools' routes too (adminToken, embedded database). */
  let app: FastifyInstance;
  beforeAll(async () => {
    t = await createTestApp();
    app = await buildApp({ config: t.config, database: t.database, adminToken: 'admin-token-for-tests' });
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it('every shared definition is registered, once, with its own access declaration', () => {
    const registered = app.apiRoutes.filter((route) => route.method !== 'HEAD');
    for (const definition of ALL_ROUTES) {
      const matches = registered.filter((route) => key(route) === key(definition));
      expect(matches, key(definition)).toHaveLength(1);
      expect(matches[0]!.access, key(definition)).toBe(definition.access);
    }
    expect(new Set(ALL_ROUTES.map(key)).size).toBe(ALL_ROUTES.length);
  });

  it('every registered /api route is in the shared contract or listed in UNSHARED_ROUTES', () => {
    const shared = new Set([...ALL_ROUTES.map(key), ...Object.values(UNSHARED_ROUTES).map(key)]);
    // HEAD is Fastify's own copy of a GET route.
    const extra = app.apiRoutes.filter((route) => route.method !== 'HEAD' && !shared.has(key(route))).map(key);
    expect(extra).toEqual([]);
    // The exceptions are really served (the backup route on the embedded database only).
    for (const route of Object.values(UNSHARED_ROUTES)) {
      if (route === UNSHARED_ROUTES.backup && t.database.kind !== 'pglite') continue;
      expect(app.apiRoutes.map(key), key(route)).toContain(key(route));
    }
  });

  it("a guarded route refuses a signed-out caller with its declaration's answer, before its handler", async () => {
    const guarded = ALL_ROUTES.filter((definition) => definition.access.kind !== 'public');
    expect(guarded.length).toBeGreaterThan(30);
    for (const definition of guarded) {
      // With a body only where the route reads JSON (a form's parts are read by its handler).
      const json = definition.body && !definition.consumes?.includes('multipart/form-data');
      // Malformed on purpose: access is decided before validation, so a 400 cannot tell a
      // signed-out caller that a moderators' route exists.
      const response = await app.inject({
        method: definition.method,
        url: pathOf(definition, sampleParams(definition)),
        ...(json && { payload: { notAField: true } }),
      });
      if (definition.access.kind === 'signed-in') expectError(response, 401, definition.access.code);
      else expectError(response, 404, 'NOT_FOUND');
    }
  });

  it('a role-only route is a 404 to a signed-in member too', async () => {
    const member = await signUp(app);
    const staffOnly = ALL_ROUTES.filter((definition) => definition.access.kind === 'roles');
    expect(staffOnly.length).toBeGreaterThan(8);
    for (const definition of staffOnly) {
      const response = await app.inject({
        method: definition.method,
        url: pathOf(definition, sampleParams(definition)),
        headers: { cookie: member.cookie },
        ...(definition.body && { payload: { notAField: true } }),
      });
      expectError(response, 404, 'NOT_FOUND');
    }
  });
});

/**
 * Issue 29: the routes an account that must verify its address may not use (access `verified`),
 * which are exactly these, on an app with mail on (its mail goes to a closed port here).
 */
const VERIFIED_ONLY = [
  'POST /api/posts',
  'PUT /api/users/:username/follow',
  'PUT /api/boards/:id/posts/:postId',
  'POST /api/reports',
  'PUT /api/boards/:id/members/:username',
];

describe('verified routes (issue 29)', () => {
  let t: TestApp;
  beforeAll(async () => {
    const mailing = loadConfig({ SMTP_URL: `smtp://127.0.0.1:${await freePort()}`, PUBLIC_URL: 'https://dorm.example.edu' });
    t = await createTestApp({ mail: mailing.mail, publicUrl: mailing.publicUrl }, { outbox: new Outbox(new Mailer(mailing.mail!)) });
  });
  afterAll(async () => {
    await t.close();
  });

  it('are the five that post, follow, save, report and invite, each signed-in and answering 403 in its declaration', () => {
    const verified = ALL_ROUTES.filter((definition) => definition.access.kind === 'signed-in' && definition.access.verified);
    expect(verified.map(key).sort()).toEqual([...VERIFIED_ONLY].sort());
    for (const definition of verified) expect(Object.keys(definition.responses), key(definition)).toContain('403');
  });

  it('refuse an account that must verify with 403 and its address, before the handler (even for a malformed body); the signed-out still get 401', async () => {
    const account = await signUp(t.app);
    const message = ERRORS.EMAIL_NOT_VERIFIED.replace('{email}', account.email);
    const verified = ALL_ROUTES.filter((definition) => definition.access.kind === 'signed-in' && definition.access.verified);
    for (const definition of verified) {
      const json = definition.body && !definition.consumes?.includes('multipart/form-data');
      const send = (cookie?: string) =>
        t.app.inject({
          method: definition.method,
          url: pathOf(definition, sampleParams(definition)),
          headers: cookie ? { cookie } : {},
          ...(json && { payload: { notAField: true } }),
        });
      const refused = await send(account.cookie);
      expectError(refused, 403, 'EMAIL_NOT_VERIFIED');
      expect(refused.json().message, key(definition)).toBe(message);
      if (definition.access.kind === 'signed-in') expectError(await send(), 401, definition.access.code);
    }
    // Every other signed-in route lets the account through to its own answer (never this 403),
    // each with a session of its own (signing out ends only that one).
    for (const definition of ALL_ROUTES.filter((d) => d.access.kind === 'signed-in' && !d.access.verified)) {
      const login = await t.app.inject({
        method: 'POST',
        url: API.login,
        payload: { identifier: account.username, password: account.password },
      });
      const response = await t.app.inject({
        method: definition.method,
        url: pathOf(definition, sampleParams(definition)),
        headers: { cookie: sessionCookie(login) },
      });
      // Signed in (not refused as signed out), and not refused for the address.
      const json = String(response.headers['content-type']).startsWith('application/json') && response.body !== '';
      const code = json ? response.json<{ code?: string }>().code : undefined;
      expect(code, `${key(definition)}: ${response.body}`).not.toBe(definition.access.kind === 'signed-in' && definition.access.code);
      expect(code, key(definition)).not.toBe('EMAIL_NOT_VERIFIED');
    }
  });

  it('the OpenAPI document describes the routes of verified addresses, their bodies and answers, and Me with its three fields', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: API.openapi })).json();
    const routes: Array<[method: string, path: string, tag: string, body: string[], success: string]> = [
      ['post', API.verifyLink, 'accounts', ['token'], '200'],
      ['post', API.verifyCode, 'accounts', ['code'], '200'],
      ['post', API.resendVerification, 'accounts', [], '204'],
      ['put', API.email, 'accounts', ['currentPassword', 'email'], '200'],
      ['post', '/api/moderation/people/{username}/verify-email', 'moderation', [], '204'],
    ];
    for (const [method, path, tag, body, success] of routes) {
      const where = `${method} ${path}`;
      const operation = doc.paths[path]?.[method];
      expect(operation, where).toBeDefined();
      expect(operation.tags, where).toEqual([tag]);
      expect(operation.summary, where).toBeTruthy();
      expect(Object.keys(operation.responses), where).toContain(success);
      for (const [status, response] of Object.entries(operation.responses as Record<string, unknown>)) {
        if (Number(status) >= 400) expect(JSON.stringify(response), `${where} ${status}`).toContain('#/components/schemas/Error');
      }
      const schema = operation.requestBody?.content['application/json'].schema;
      if (body.length === 0) expect(schema, where).toBeUndefined();
      else {
        expect(Object.keys(schema.properties).sort(), where).toEqual(body);
        expect(schema.required.sort(), where).toEqual(body);
        expect(schema.additionalProperties, where).toBe(false);
      }
    }
    expect(JSON.stringify(doc.paths[API.verifyCode].post.responses['200'])).toContain('#/components/schemas/Me');
    expect(JSON.stringify(doc.paths[API.email].put.responses['200'])).toContain('#/components/schemas/Me');
    expect(doc.paths[API.verifyLink].post.responses['200'].content['application/json'].schema.properties).toEqual({
      email: { type: 'string' },
    });
    const me = doc.components.schemas.Me;
    expect(me.properties).toMatchObject({
      emailVerified: { type: 'boolean' },
      pendingEmail: { type: 'string', nullable: true },
      mustVerify: { type: 'boolean' },
    });
    expect(me.required).toEqual(expect.arrayContaining(['emailVerified', 'pendingEmail', 'mustVerify']));
    // The refusal of an unverified account is documented on each route that makes it.
    for (const route of VERIFIED_ONLY) {
      const [method, path] = route.split(' ') as [string, string];
      const documented = path.replace(/:(\w+)/g, '{$1}');
      expect(Object.keys(doc.paths[documented][method.toLowerCase()].responses), route).toContain('403');
    }
  });
});

const OK = z.object({ ok: z.boolean() });

describe('a route without an access declaration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  /** A bare app with the access hook (and a real AuthService on the test database). */
  async function bareApp() {
    const app = Fastify();
    await app.register(fastifyCookie);
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    registerErrorHandler(app);
    const auth = new AuthService(t.database.orm, new RateLimiter(new MemoryCounterStore()), DEFAULT_RATE_LIMITS, SessionCache.off());
    registerAccess(app, auth, NO_VERIFICATION);
    return app;
  }

  it('does not start: adding an /api route without one throws', async () => {
    const app = await bareApp();
    expect(() => app.get('/api/undeclared', async () => ({ ok: true }))).toThrow(/GET \/api\/undeclared declares no access/);
    await app.close();
  });

  it('outside /api nothing is asked; a declared /api route starts and is served', async () => {
    const app = await bareApp();
    app.get('/elsewhere', async () => ({ ok: true }));
    registerRoute(
      app,
      { method: 'GET', path: '/api/declared', access: PUBLIC, tags: [], summary: 'test', responses: { 200: OK } },
      async () => ({ ok: true }),
    );
    registerRoute(
      app,
      { method: 'GET', path: '/api/guarded', access: signedIn(), tags: [], summary: 'test', responses: { 200: OK } },
      async () => ({ ok: true }),
    );
    expect((await app.inject({ url: '/elsewhere' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/declared' })).json()).toEqual({ ok: true });
    expectError(await app.inject({ url: '/api/guarded' }), 401, 'NOT_SIGNED_IN');
    await app.close();
  });
});
