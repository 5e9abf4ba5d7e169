import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** Serving the built React app: the product name, deep links, caching, and what stays JSON. */
describe('client app', () => {
  const clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dormboard-client-'));
  let t: TestApp;

  beforeAll(async () => {
    fs.mkdirSync(path.join(clientDir, 'assets'));
    fs.writeFileSync(
      path.join(clientDir, 'index.html'),
      '<title>__APP_NAME__</title><meta name="application-name" content="__APP_NAME__">',
    );
    fs.writeFileSync(path.join(clientDir, 'assets', 'index-abc123.js'), 'console.log(1)');
    fs.writeFileSync(path.join(clientDir, 'assets', 'index-abc123.js.br'), 'brotli bytes');
    fs.writeFileSync(path.join(clientDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    t = await createTestApp({ clientDir, appName: 'Campus <Board> & "Co"' });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(clientDir, { recursive: true, force: true });
  });

  it('fills in APP_NAME, HTML-escaped, on every page route (deep links work on reload)', async () => {
    for (const url of ['/', '/login', '/post/abc', '/@alice/followers', '/search/dorm%20life', '/404/Failed', '/index.html']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toBe(
        '<title>Campus &#60;Board&#62; &#38; &#34;Co&#34;</title><meta name="application-name" content="Campus &#60;Board&#62; &#38; &#34;Co&#34;">',
      );
    }
  });

  it('serves hashed assets as immutable and sends a strict CSP with pages', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const page = await t.app.inject({ method: 'GET', url: '/' });
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const favicon = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(favicon.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('sends the precompressed asset to browsers that accept it, the plain one to others', async () => {
    const br = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body).toBe('brotli bytes');
    const plain = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');
  });

  it('unknown API, media and asset paths, and non-GET requests, get a JSON 404 instead of the app', async () => {
    for (const [method, url] of [
      ['GET', '/api/nope'],
      ['GET', '/media/images/none.webp'],
      // A chunk of an older build, asked for by a tab opened before the deploy.
      ['GET', '/assets/SearchPage-old123.js'],
      ['POST', '/login'],
    ] as const) {
      const response = await t.app.inject({ method, url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ code: 'NOT_FOUND', message: 'Not found :(' });
    }
  });
});
