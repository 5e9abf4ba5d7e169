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
import { DEFAULT_RATE_LIMITS } from '../../src/server/config.js';
import { registerErrorHandler } from '../../src/server/http/error-handler.js';
import { MemoryCounterStore, RateLimiter } from '../../src/server/http/rate-limiter.js';
import { registerRoute } from '../../src/server/http/register-route.js';
import { UNSHARED_ROUTES } from '../../src/server/http/unshared-routes.js';
import { signUp } from '../helpers/accounts.js';
import { expectError } from '../helpers/people.js';
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
