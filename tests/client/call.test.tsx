// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { ANSWER_SCHEMAS } from '../../src/client/api/answer-schemas';
import { ApiError, call, urlOf } from '../../src/client/api/http';
import { ROUTES, type RouteName } from '../../src/shared/api/routes';
import { ERRORS } from '../../src/shared/errors';
import { HttpResponse, http, json, requests, server } from './harness';

/** What call() sent for the last request, as MSW saw it. */
let lastRequest: { contentType: string | null; body: string } | undefined;
server.events.on('request:start', ({ request }) => {
  const copy = request.clone();
  void copy.text().then((body) => (lastRequest = { contentType: request.headers.get('content-type'), body }));
});

const failed = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('the call should have failed'),
    (error: unknown) => {
      expect(error).toBeInstanceOf(ApiError);
      return error as ApiError;
    },
  );

describe('call()', () => {
  it("takes each route's method, path and group from its one definition (the build's route lines)", async () => {
    const names = Object.keys(ROUTES) as RouteName[];
    expect(Object.keys(__ROUTE_LINES__).sort()).toEqual([...names].sort());
    for (const name of names) {
      const { group } = __ROUTE_LINES__[name];
      expect(__ROUTE_LINES__[name]).toEqual({ method: ROUTES[name].method, path: ROUTES[name].path, group });
      // The group's schemas, as the client loads them, are the route's own.
      expect((await ANSWER_SCHEMAS[group]())[name], name).toBe(ROUTES[name]);
    }
    expect(urlOf('userBoard', { username: '@ann', slug: 'x?y' })).toBe('/api/users/%40ann/boards/x%3Fy');
    expect(urlOf('exportData')).toBe('/api/me/export');
  });

  it("sends the route's method, URL and JSON body, and returns the answer as the schema reads it", async () => {
    server.use(http.put('/api/users/maya%20b/follow', () => json({ following: true, followers: 3, extra: 'dropped' })));
    const answer = await call('follow', { params: { username: 'maya b' } });
    // Parsed, not cast: a field the schema does not name is not passed on.
    expect(answer).toEqual({ following: true, followers: 3 });
    expect(requests).toEqual(['PUT /api/users/maya%20b/follow']);

    server.use(
      http.post('/api/auth/login', () =>
        json({
          user: {
            uid: 'u',
            username: 'sam',
            email: 's@x.org',
            bio: '',
            icon: null,
            role: 'member',
            emailVerified: false,
            pendingEmail: null,
            mustVerify: false,
            hasPassword: true,
          },
        }),
      ),
    );
    await call('login', { body: { identifier: 'sam', password: 'secret-pass' } });
    await expect.poll(() => lastRequest?.body).toBe(JSON.stringify({ identifier: 'sam', password: 'secret-pass' }));
    expect(lastRequest?.contentType).toBe('application/json');
  });

  it('reads a 204 as no answer', async () => {
    server.use(http.delete('/api/boards/b1', () => new HttpResponse(null, { status: 204 })));
    await expect(call('deleteBoard', { params: { id: 'b1' } })).resolves.toBeNull();
  });

  it("calls an answer that is not what the route promises a GENERIC error, with the schema's complaint as its cause", async () => {
    server.use(http.put('/api/users/maya/follow', () => json({ following: 'yes' })));
    const error = await failed(call('follow', { params: { username: 'maya' } }));
    expect([error.status, error.code, error.message]).toEqual([200, 'GENERIC', ERRORS.GENERIC]);
    expect(error.cause).toBeInstanceOf(ZodError);

    // The right body under a status the route does not answer with is not trusted either.
    server.use(http.put('/api/users/maya/follow', () => json({ following: true, followers: 1 }, 202)));
    const wrongStatus = await failed(call('follow', { params: { username: 'maya' } }));
    expect([wrongStatus.status, wrongStatus.code]).toEqual([202, 'GENERIC']);
  });

  it("brings the server's code and messages; an unknown code keeps the message; a proxy's page is GENERIC", async () => {
    server.use(
      http.put('/api/users/maya/follow', () => json({ code: 'USER_NOT_FOUND', message: ERRORS.USER_NOT_FOUND, messages: ['a', 'b'] }, 404)),
    );
    const known = await failed(call('follow', { params: { username: 'maya' } }));
    expect([known.status, known.code, known.message, known.messages]).toEqual([404, 'USER_NOT_FOUND', ERRORS.USER_NOT_FOUND, ['a', 'b']]);

    server.use(http.put('/api/users/maya/follow', () => json({ code: 'FROM_A_NEWER_SERVER', message: 'Newer words.' }, 409)));
    const unknown = await failed(call('follow', { params: { username: 'maya' } }));
    expect([unknown.status, unknown.code, unknown.message]).toEqual([409, 'GENERIC', 'Newer words.']);

    server.use(http.put('/api/users/maya/follow', () => new HttpResponse('<html>Bad gateway</html>', { status: 502 })));
    const proxy = await failed(call('follow', { params: { username: 'maya' } }));
    expect([proxy.status, proxy.code, proxy.message]).toEqual([502, 'GENERIC', ERRORS.GENERIC]);
  });

  it('turns a network failure into ApiError(0, GENERIC)', async () => {
    server.use(http.get('/api/me', () => HttpResponse.error()));
    const error = await failed(call('me'));
    expect([error.status, error.code]).toEqual([0, 'GENERIC']);
  });

  it('refuses a parameter that has no text rather than sending "[object Object]"', () => {
    expect(() => urlOf('post', { id: { nested: true } as unknown as string })).toThrow(/id must be a string/);
  });
});
