import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../src/shared/api/paths.js';
import { canonicalUrl } from '../../src/server/http/url-space.js';
import { signUp } from '../helpers/accounts.js';
import { jpeg } from '../helpers/images.js';
import { createPost } from '../helpers/posts.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * One path space: a percent-encoded path reaches exactly the hooks and routes its decoded form
 * reaches. Before, `/%61pi/me` reached the /api/me route but skipped the /api hooks: no session
 * was loaded and the answer was not marked no-store.
 */

/** Percent-encodes the characters of the path (not the query) that `pick` chooses, in either hex case. */
function encode(url: string, pick: (char: string, index: number) => boolean, lower = false): string {
  const [path, ...query] = url.split('?');
  const encoded = Array.from(path!)
    .map((char, index) => {
      if (char === '/' || !pick(char, index)) return char;
      const hex = char.charCodeAt(0).toString(16).padStart(2, '0');
      return `%${lower ? hex : hex.toUpperCase()}`;
    })
    .join('');
  return [encoded, ...query].join('?');
}

const variants = (url: string) => [
  encode(url, (_, index) => index === 1),
  encode(url, () => true, true),
  encode(url, (_, index) => index % 3 === 0),
];

let t: TestApp;
let cookie: string;
let username: string;
let postId: string;
beforeAll(async () => {
  t = await createTestApp();
  const author = await signUp(t.app);
  const viewer = await signUp(t.app);
  cookie = viewer.cookie;
  username = author.username;
  const created = await createPost(t.app, author.cookie, { bytes: await jpeg(64, 48), description: 'encoded #paths' });
  postId = created.json().post.id;
});
afterAll(async () => {
  await t?.close();
});

function summary(response: LightMyRequestResponse) {
  return {
    status: response.statusCode,
    type: response.headers['content-type'],
    cacheControl: response.headers['cache-control'],
    setCookie: response.headers['set-cookie'],
    body: response.body,
  };
}

describe('canonicalUrl', () => {
  it('decodes the path as the router does and leaves the query alone', () => {
    expect(canonicalUrl('/%61pi/me')).toBe('/api/me');
    expect(canonicalUrl('/api/search/posts?q=%61b')).toBe('/api/search/posts?q=%61b');
    expect(canonicalUrl('/%61pi/search/posts?q=%61b')).toBe('/api/search/posts?q=%61b');
    expect(canonicalUrl('/api/users/caf%C3%A9')).toBe('/api/users/café');
  });

  it('keeps reserved escapes and %25 encoded, so nothing is decoded twice', () => {
    expect(canonicalUrl('/media/a%2Fb')).toBe('/media/a%2Fb');
    expect(canonicalUrl('/api/%2561pi')).toBe('/api/%2561pi');
    expect(canonicalUrl(canonicalUrl('/a%25%61'))).toBe('/a%25a');
  });

  it('leaves a malformed escape for the router to refuse', () => {
    expect(canonicalUrl('/%61pi/%E0%A4%A')).toBe('/%61pi/%E0%A4%A');
  });
});

describe('percent-encoded paths reach the hooks and routes of their decoded form', () => {
  const reads = () => [
    API.me,
    '/api/posts',
    `/api/users/${username}`,
    `/api/posts/${postId}`,
    '/api/search/posts?q=paths',
    '/api/nothing/here',
    '/api',
    '/media/images/x/none-full.jpg',
    '/media',
  ];

  it('GET, signed in: same status, type, cache policy, cookies and body', async () => {
    for (const url of reads()) {
      const plain = summary(await t.app.inject({ method: 'GET', url, headers: { cookie } }));
      for (const variant of variants(url)) {
        const encoded = summary(await t.app.inject({ method: 'GET', url: variant, headers: { cookie } }));
        expect(encoded, `${variant} vs ${url}`).toEqual(plain);
      }
    }
  });

  it('the session hook runs for an encoded /api path: /%61pi/me is the signed-in user', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/%61pi/me', headers: { cookie } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const signedOut = await t.app.inject({ method: 'GET', url: '/%61pi/me' });
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.headers['cache-control']).toBe('no-store');
  });

  it('writes: a cross-site write is refused either way, and an encoded write acts as the signed-in user', async () => {
    for (const url of [API.follow(username), encode(API.follow(username), (_, index) => index === 2)]) {
      const crossSite = await t.app.inject({ method: 'PUT', url, headers: { cookie, 'sec-fetch-site': 'cross-site' } });
      expect(crossSite.statusCode).toBe(403);
    }
    const followed = await t.app.inject({ method: 'PUT', url: encode(API.follow(username), () => true), headers: { cookie } });
    expect(followed.statusCode, followed.body).toBeLessThan(300);
    const profile = await t.app.inject({ method: 'GET', url: `/api/users/${username}`, headers: { cookie } });
    expect(profile.json().user.followedByMe).toBe(true);
  });

  it('a malformed escape is a clean 400, never a 500', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/%61pi/%E0%A4%A', headers: { cookie } });
    expect(response.statusCode).toBe(400);
  });
});
