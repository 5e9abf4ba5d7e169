import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
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
    // '$$' and '$`' would be replacement patterns if the name were filled in as a pattern.
    t = await createTestApp({ clientDir, appName: 'Campus <Board> & "Co" $$ $`' });
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
      // Every page says who is signed in, or that nobody is (issue 28, first-view.test.ts): never stored.
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.body).toBe(
        '<title>Campus &#60;Board&#62; &#38; &#34;Co&#34; $$ $`</title><meta name="application-name" content="Campus &#60;Board&#62; &#38; &#34;Co&#34; $$ $`">',
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

/**
 * What a build holds but no one may fetch: index.html as built is a template (placeholders, not
 * the page), and source maps would publish the client's source. The directory is made like the
 * build (scripts/precompress.mjs run on it), plus what an older build left: maps and compressed
 * copies of the template.
 */
describe('client app: files of the build that are not served', () => {
  const clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dormboard-client-'));
  const template = '<meta name="registration" content="__REGISTRATION__"><title>__APP_NAME__</title>';
  const page = '<meta name="registration" content="open"><title>Campus</title>';
  let t: TestApp;

  beforeAll(async () => {
    fs.mkdirSync(path.join(clientDir, 'assets'));
    fs.writeFileSync(path.join(clientDir, 'index.html'), template);
    fs.writeFileSync(path.join(clientDir, 'assets', 'index-abc123.js'), 'console.log(1)\n//# sourceMappingURL=index-abc123.js.map');
    fs.writeFileSync(path.join(clientDir, 'assets', 'index-abc123.js.map'), '{"sources":["../src/main.tsx"]}');
    execFileSync(process.execPath, ['scripts/precompress.mjs', clientDir]);
    t = await createTestApp({ clientDir, appName: 'Campus' });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(clientDir, { recursive: true, force: true });
  });

  it('the build compresses its assets but not the page template', () => {
    expect(fs.existsSync(path.join(clientDir, 'assets', 'index-abc123.js.br'))).toBe(true);
    expect(fs.existsSync(path.join(clientDir, 'index.html.br'))).toBe(false);
    expect(fs.existsSync(path.join(clientDir, 'index.html.gz'))).toBe(false);
  });

  it('source maps answer 404, and the compressed copies of the template only the filled-in page', async () => {
    // As an older build left them: the server must not serve them even if they are there.
    fs.writeFileSync(path.join(clientDir, 'index.html.gz'), zlib.gzipSync(template));
    fs.writeFileSync(path.join(clientDir, 'index.html.br'), zlib.brotliCompressSync(template));
    await t.close();
    t = await createTestApp({ clientDir, appName: 'Campus' });

    for (const url of ['/assets/index-abc123.js.map', '/assets/index-abc123.js.map.br']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br, gzip' } });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ code: 'NOT_FOUND', message: 'Not found :(' });
    }
    for (const url of ['/index.html', '/index.html.gz', '/index.html.br']) {
      for (const encoding of ['identity', 'br', 'gzip']) {
        const response = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': encoding } });
        const body = response.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(response.rawPayload).toString() : response.body;
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['content-type'], url).toContain('text/html');
        expect(body, `${url} ${encoding}`).toBe(page);
      }
    }
    // The assets themselves are still there, compressed.
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'br' } });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-encoding']).toBe('br');
  });
});
