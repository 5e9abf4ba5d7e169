import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../src/shared/api/paths.js';
import type { ImageSet } from '../../src/shared/api/posts.js';
import { widestPhoneFor } from '../../src/shared/grid-images.js';
import { POST_IMAGE_SIZES, postImageSrcSet } from '../../src/shared/post-page.js';
import { signUp } from '../helpers/accounts.js';
import { jpeg } from '../helpers/images.js';
import { get, query } from '../helpers/people.js';
import { createPost } from '../helpers/posts.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Issue 28: a page arrives with its first view, the answer of GET /api/me (or null: nobody signed
 * in), on the home page GET /api/posts's first page and on a post's page GET /api/posts/:id's
 * answer, for that viewer (server/http/client-app.ts), read the way the API reads them: the same
 * answer, the same visibility rule, nothing but "nobody" for anyone not signed in.
 */

const TEMPLATE = '<html><head><title>__APP_NAME__</title></head><body><div id="root"></div></body></html>';
const clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dormboard-first-view-'));
let t: TestApp;
let photo: Buffer;
beforeAll(async () => {
  fs.writeFileSync(path.join(clientDir, 'index.html'), TEMPLATE);
  t = await createTestApp({ clientDir, appName: 'dormboard' });
  photo = await jpeg(64, 48);
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(clientDir, { recursive: true, force: true });
});

type Account = Awaited<ReturnType<typeof signUp>>;

const BLOCK = /<script type="application\/json" id="first-view">([\s\S]*?)<\/script>/;
/** The link preview's tags (issue 31, link-preview.test.ts), on every page. */
const PREVIEW = /<meta (?:property|name)="(?:og|twitter):[^>]*>/g;

const page = (cookie?: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: '/', headers: { ...headers, ...(cookie && { cookie }) } });

/** The data block of a home page, parsed; undefined when the page has none. */
function firstViewOf(
  response: LightMyRequestResponse,
): { me: unknown; feed: { posts: Array<{ id: string; description: string; image: ImageSet }> } } | undefined {
  expect(response.statusCode).toBe(200);
  const match = BLOCK.exec(response.body);
  return match ? JSON.parse(match[1]!) : undefined;
}

async function post(who: Account, description: string): Promise<string> {
  const response = await createPost(t.app, who.cookie, { description, bytes: photo, type: 'image/jpeg' });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ post: { id: string } }>().post.id;
}

async function api(url: string, cookie: string) {
  const response = await get(t.app, url, cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe('the first view sent with a page', () => {
  it('is, for a signed-in viewer, exactly what GET /api/me and GET /api/posts answer them; never stored', async () => {
    const [author, viewer] = await Promise.all([signUp(t.app), signUp(t.app)]);
    await post(author, 'first #view');
    await post(viewer, 'my own, not in my feed');
    const response = await page(viewer.cookie);
    const firstView = firstViewOf(response);
    expect(firstView).toEqual({ me: await api(API.me, viewer.cookie), feed: await api(API.posts, viewer.cookie) });
    expect(firstView!.feed.posts.length).toBeGreaterThan(0);
    expect(response.headers['cache-control']).toBe('no-store');
    // Its top row's photos, preloaded for a phone's screen, where a card takes its smallest variant.
    const preloads = response.body.match(/<link rel="preload"[^>]*>/g);
    expect(preloads).toEqual(
      firstView!.feed.posts
        .slice(0, 2)
        .map(
          ({ image: { variants } }) =>
            `<link rel="preload" as="image" href="${variants[0]!.src}" media="(max-width: ${widestPhoneFor(variants[0]!.width)}px)">`,
        ),
    );
    // The rest of the page is the page.
    expect(
      response.body
        .replace(BLOCK, '')
        .replace(PREVIEW, '')
        .replace(/<link rel="preload"[^>]*>/g, ''),
    ).toBe(TEMPLATE.replace('__APP_NAME__', 'dormboard'));
  });

  it('says nobody is signed in to a visitor with no session, or one that is not a session; never stored', async () => {
    for (const cookie of [undefined, 'session=not-a-session']) {
      const response = await page(cookie);
      expect(firstViewOf(response), String(cookie)).toEqual({ me: null });
      expect(response.body.replace(BLOCK, '').replace(PREVIEW, '')).toBe(TEMPLATE.replace('__APP_NAME__', 'dormboard'));
      expect(response.headers['cache-control']).toBe('no-store');
    }
    const signedOut = await t.app.inject({ method: 'GET', url: '/post/abc' });
    expect(firstViewOf(signedOut)).toEqual({ me: null });
  });

  it('is, on any other page, who the viewer is alone', async () => {
    const viewer = await signUp(t.app);
    for (const url of ['/post/abc', `/@${viewer.username}`, '/search/dorm%20life']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { cookie: viewer.cookie } });
      expect(firstViewOf(response), url).toEqual({ me: await api(API.me, viewer.cookie) });
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.body).not.toContain('rel="preload"');
    }
  });

  it("is, on a post's page, the post as GET /api/posts/:id answers, and its photo preloaded as the page asks for it", async () => {
    const [author, viewer] = await Promise.all([signUp(t.app), signUp(t.app)]);
    const id = await post(author, 'a post page');
    const response = await t.app.inject({ method: 'GET', url: `/post/${id}?from=share`, headers: { cookie: viewer.cookie } });
    const answer = await api(API.post(id), viewer.cookie);
    expect(firstViewOf(response)).toEqual({ me: await api(API.me, viewer.cookie), post: answer });
    const { image } = answer.post;
    const preloads = [...response.body.matchAll(/<link rel="preload"[^>]*>/g)].map(([tag]) => tag);
    expect(preloads).toEqual([
      `<link rel="preload" as="image" href="${image.full}" imagesrcset="${postImageSrcSet(image)}" imagesizes="${POST_IMAGE_SIZES}" fetchpriority="high">`,
    ]);
    // Every size the page's <img> may choose, the full one last.
    expect(postImageSrcSet(image).split(', ')).toHaveLength(image.variants.length + 1);

    // A post the viewer may not see is not in it, nor its photo.
    expect((await t.app.inject({ method: 'PUT', url: API.block(viewer.username), headers: { cookie: author.cookie } })).statusCode).toBe(
      200,
    );
    const blocked = await t.app.inject({ method: 'GET', url: `/post/${id}`, headers: { cookie: viewer.cookie } });
    expect(firstViewOf(blocked)).toEqual({ me: await api(API.me, viewer.cookie) });
    expect(blocked.body).not.toContain(image.full);
  });

  it('never holds a post the viewer may not see: blocked either way, or its author suspended', async () => {
    const [viewer, blocked, blocker, suspended, neutral] = await Promise.all([
      signUp(t.app),
      signUp(t.app),
      signUp(t.app),
      signUp(t.app),
      signUp(t.app),
    ]);
    const hidden = [
      await post(blocked, 'by someone I blocked'),
      await post(blocker, 'by someone who blocked me'),
      await post(suspended, 'by a suspended author'),
    ];
    const shown = await post(neutral, 'by anyone else');
    // Read once first: a cached first page must not outlive the changes.
    const before = firstViewOf(await page(viewer.cookie))!.feed.posts.map((card) => card.id);
    expect(before).toEqual(expect.arrayContaining([...hidden, shown]));

    const put = (url: string, cookie: string) => t.app.inject({ method: 'PUT', url, headers: { cookie } });
    expect((await put(API.block(blocked.username), viewer.cookie)).statusCode).toBe(200);
    expect((await put(API.block(viewer.username), blocker.cookie)).statusCode).toBe(200);
    await query(t.database, 'UPDATE users SET suspended_until = $1 WHERE id = $2', [
      new Date(Date.now() + 86_400_000).toISOString(),
      suspended.uid,
    ]);
    await t.app.changes.changed({ kind: 'suspension', userId: suspended.uid, username: suspended.username });

    const firstView = firstViewOf(await page(viewer.cookie))!;
    const ids = firstView.feed.posts.map((card) => card.id);
    expect(ids).toContain(shown);
    for (const id of hidden) expect(ids).not.toContain(id);
    expect(firstView.feed).toEqual(await api(API.posts, viewer.cookie));
  });

  it('keeps user text as text: nothing in it ends the block or runs, and it reads back as written', async () => {
    const [author, viewer] = await Promise.all([signUp(t.app), signUp(t.app)]);
    const hostile = `</script><script>alert(1)</script><!-- $& $' $\` \u2028 &amp;`;
    await post(author, hostile);
    const response = await page(viewer.cookie);
    const [, block] = BLOCK.exec(response.body)!;
    expect(block).not.toContain('<');
    expect(response.body.match(/<script/g)).toHaveLength(1);
    expect(firstViewOf(response)!.feed.posts.map((card) => card.description)).toContain(hostile);
  });

  it('is gzipped for a browser that accepts it', async () => {
    const viewer = await signUp(t.app);
    const response = await page(viewer.cookie, { 'accept-encoding': 'gzip, br' });
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers.vary).toContain('accept-encoding');
    const html = zlib.gunzipSync(response.rawPayload).toString('utf8');
    expect(BLOCK.test(html)).toBe(true);
  });
});
