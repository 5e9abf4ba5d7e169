import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../src/shared/api/paths.js';
import type { PostDetail } from '../../src/shared/api/posts.js';
import type { Storage } from '../../src/server/storage/storage.js';
import { signUp } from '../helpers/accounts.js';
import { html, jpeg } from '../helpers/images.js';
import { expectError, get } from '../helpers/people.js';
import { createPost } from '../helpers/posts.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Response headers (OWASP ASVS V3): a strict CSP on the app's pages, nosniff and a referrer
 * policy everywhere (errors included), no framework banner, and uploaded media that can never
 * run as a page.
 */

/** The CSP as directive -> sources. */
function csp(response: LightMyRequestResponse): Map<string, string[]> {
  const header = String(response.headers['content-security-policy'] ?? '');
  return new Map(
    header
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

/** Uploaded files: no source of anything, no scripts or forms, and never framed. */
const MEDIA_POLICY = "default-src 'none'; sandbox; frame-ancestors 'none'";

/** What every response carries, whatever it is. */
function expectBaseline(response: LightMyRequestResponse) {
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
  // Another window we open (a "Visit Site" link) gets no handle on ours.
  expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
  // Once a browser has seen us over HTTPS, it never talks to us in plain text for a year.
  expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  // No banner naming the framework or the runtime.
  expect(response.headers['x-powered-by']).toBeUndefined();
  expect(response.headers.server).toBeUndefined();
  expect(JSON.stringify(response.headers)).not.toMatch(/fastify|node\.js|express/i);
}

/** The page policy: nothing but our own scripts, no plugins, no <base>, never framed. */
function expectPagePolicy(response: LightMyRequestResponse) {
  const policy = csp(response);
  expect(policy.get('default-src')).toEqual(["'self'"]);
  expect(policy.get('script-src')).toEqual(["'self'"]);
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(policy.get('base-uri')).toEqual(["'none'"]);
  expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
  expect(policy.get('form-action')).toEqual(["'self'"]);
  // React sets style attributes (image placeholders); styles may be inline, scripts never.
  expect(policy.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
}

describe('security headers', () => {
  const clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dormboard-headers-'));
  let t: TestApp;
  let post: PostDetail;

  beforeAll(async () => {
    fs.writeFileSync(path.join(clientDir, 'index.html'), '<title>__APP_NAME__</title><script type="module" src="/assets/app.js"></script>');
    t = await createTestApp({ clientDir });
    const author = await signUp(t.app);
    const created = await createPost(t.app, author.cookie, { bytes: await jpeg(120, 90), description: 'headers #test' });
    expect(created.statusCode, created.body).toBe(201);
    post = created.json().post;
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(clientDir, { recursive: true, force: true });
  });

  it('the HTML shell: the strict page policy and the baseline', async () => {
    for (const url of ['/', '/post/abc']) {
      const page = await get(t.app, url);
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expectPagePolicy(page);
      expectBaseline(page);
    }
  });

  it('an API JSON response: the baseline, and the page policy too (JSON opened as a page runs nothing)', async () => {
    const response = await get(t.app, API.posts);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expectBaseline(response);
    expectPagePolicy(response);
  });

  it('error responses (404, 400, 401, 403) carry the same headers', async () => {
    const notFound = await get(t.app, '/api/nope');
    expectError(notFound, 404, 'NOT_FOUND');
    const badJson = await t.app.inject({
      method: 'POST',
      url: API.login,
      headers: { 'content-type': 'application/json' },
      payload: '{"identifier":',
    });
    expectError(badJson, 400, 'BAD_REQUEST');
    const signedOut = await get(t.app, API.me);
    expectError(signedOut, 401, 'NOT_SIGNED_IN');
    const crossSite = await t.app.inject({ method: 'POST', url: API.logout, headers: { 'sec-fetch-site': 'cross-site' } });
    expectError(crossSite, 403, 'CROSS_SITE_REQUEST');
    const missingMedia = await get(t.app, '/media/images/none/abc-full.jpg');
    expectError(missingMedia, 404, 'NOT_FOUND');
    for (const response of [notFound, badJson, signedOut, crossSite, missingMedia]) {
      expectBaseline(response);
      expectPagePolicy(response);
    }
  });

  it('API answers, errors included, are never stored by a browser or a shared cache', async () => {
    const me = await signUp(t.app);
    const responses = [
      await get(t.app, API.me, me.cookie),
      await get(t.app, API.posts, me.cookie),
      await get(t.app, API.post(post.id)),
      await get(t.app, API.me),
      await get(t.app, '/api/nope'),
      await t.app.inject({ method: 'POST', url: API.login, headers: { 'content-type': 'application/json' }, payload: '{' }),
    ];
    for (const response of responses) expect(response.headers['cache-control'], response.body).toBe('no-store');
    // Pages and media keep their own caching: a page says who is signed in (issue 28), so it is never stored either.
    expect((await get(t.app, '/')).headers['cache-control']).toBe('no-store');
    expect((await get(t.app, post.image.full)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it("'/api' and '/media' themselves, and their query forms, are JSON 404s, never the app's page", async () => {
    for (const url of ['/api', '/api?x=1', '/media', '/media?x=1']) {
      const response = await get(t.app, url);
      expectError(response, 404, 'NOT_FOUND');
    }
    // A page whose path merely starts with the same letters is still a page.
    const page = await get(t.app, '/apiary');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
  });

  it("uploaded media: its image type from the key, nosniff, and a sandbox CSP so it can't act as a page", async () => {
    const urls = [post.image.full, ...post.image.variants.map((variant) => variant.src)];
    expect(urls.length).toBeGreaterThan(1);
    for (const url of urls) {
      const response = await get(t.app, url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toBe(url.endsWith('.jpg') ? 'image/jpeg' : 'image/webp');
      expect(response.headers['content-security-policy']).toBe(MEDIA_POLICY);
      expectBaseline(response);
    }
  });
});

describe('media from a store that mislabels files', () => {
  let t: TestApp;
  // A bucket whose objects all claim to be HTML and hold a script, whatever their key.
  const lyingStore: Storage = {
    put: async () => undefined,
    get: async () => ({ body: html(), contentType: 'text/html' }),
    delete: async () => undefined,
  };

  beforeAll(async () => {
    t = await createTestApp({}, { storage: lyingStore });
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves an image key as the image type the key names, never as the type the store claims', async () => {
    const response = await get(t.app, '/media/images/p1/v1-400.webp');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/webp');
    expect(response.headers['content-security-policy']).toBe(MEDIA_POLICY);
    expectBaseline(response);
  });

  it('never serves a key that does not name an image type', async () => {
    for (const url of ['/media/images/p1/v1.html', '/media/images/p1/v1.svg', '/media/images/p1/v1']) {
      const response = await get(t.app, url);
      expectError(response, 404, 'NOT_FOUND');
    }
  });
});

const builtIndex = path.resolve('dist/client/index.html');

describe.skipIf(!fs.existsSync(builtIndex))('the built client (npm run build:client) works under the page policy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ clientDir: path.dirname(builtIndex) });
  });
  afterAll(async () => {
    await t.close();
  });

  it('uses no <base> and no inline script (one JSON data block), and loads its scripts from our own origin', async () => {
    const page = await get(t.app, '/');
    expect(page.statusCode).toBe(200);
    expectPagePolicy(page);
    expect(page.body).not.toMatch(/<base[\s>]/i);
    const all = [...page.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    // The first view (issue 28) is a data block, which no browser runs: JSON, and nothing else.
    const data = all.filter(([, attributes]) => /\stype="application\/json"/.test(attributes!));
    expect(data).toHaveLength(1);
    expect(JSON.parse(data[0]![2]!)).toEqual({ me: null });
    const scripts = all.filter((script) => !data.includes(script));
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, inline] of scripts) {
      expect(inline?.trim()).toBe('');
      expect(attributes).toMatch(/\ssrc="\/assets\//);
    }
    expect(page.body).not.toMatch(/\son[a-z]+=/i);
  });
});
