import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PostResponse } from '../../src/shared/api/posts.js';
import { newAccount, signUp } from '../helpers/accounts.js';
import { boardRoutes, boardSteps } from '../helpers/boards.js';
import { jpeg } from '../helpers/images.js';
import { patchMe, query } from '../helpers/people.js';
import { createPost } from '../helpers/posts.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Issue 31: link previews. A link pasted into a group chat is fetched by the chat app's crawler,
 * which runs no script: the page's HTML itself carries the Open Graph and Twitter card tags of a
 * post, a profile or a public board, and only of what anyone may see signed out.
 */

const APP = 'Dorm "Board" <&>';
const CRAWLER = { 'user-agent': 'WhatsApp/2.23.20.0 A' };

let t: TestApp;
const clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dormboard-preview-'));
beforeAll(async () => {
  fs.writeFileSync(path.join(clientDir, 'index.html'), '<html><head><title>__APP_NAME__</title></head><body></body></html>');
  t = await createTestApp({ clientDir, appName: APP });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(clientDir, { recursive: true, force: true });
});

const unescape = (text: string) =>
  text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&(lt|gt|quot|amp);/g, (_, name: string) => ({ lt: '<', gt: '>', quot: '"', amp: '&' })[name]!);

/** The page as a crawler gets it (no cookie, no script run), and its preview tags by key. */
async function previewOf(url: string, headers: Record<string, string> = {}) {
  const response = await t.app.inject({ method: 'GET', url, headers: { ...CRAWLER, host: 'dorm.test', ...headers } });
  expect(response.statusCode, url).toBe(200);
  const tags: Record<string, string> = {};
  for (const match of response.body.matchAll(/<meta (?:property|name)="((?:og|twitter):[a-z_:]+)" content="([^"]*)">/g)) {
    tags[match[1]!] = unescape(match[2]!);
  }
  return { html: response.body, tags };
}

const GENERIC = {
  'og:site_name': APP,
  'og:type': 'website',
  'og:title': APP,
  'og:description': `${APP}: a place to share your #studentliving.`,
  'og:image': 'http://dorm.test/icons/icon-512.png',
  'og:image:width': '512',
  'og:image:height': '512',
  'og:image:alt': APP,
  'twitter:card': 'summary',
  'twitter:title': APP,
  'twitter:description': `${APP}: a place to share your #studentliving.`,
  'twitter:image': 'http://dorm.test/icons/icon-512.png',
};

async function postOf(who: { cookie: string }, description: string, width = 1200, height = 900): Promise<PostResponse['post']> {
  const made = await createPost(t.app, who.cookie, { description, bytes: await jpeg(width, height) });
  expect(made.statusCode, made.body).toBe(201);
  const { id } = made.json<{ post: { id: string } }>().post;
  const read = await t.app.inject({ method: 'GET', url: `/api/posts/${id}` });
  return read.json<PostResponse>().post;
}

describe('link previews', () => {
  it("a post: its author, description and the 800 px photo with its size, at the page's own address", async () => {
    const author = await signUp(t.app, newAccount('prev'));
    const post = await postOf(author, 'Fairy lights over the bunk bed #dormdecor');
    const { tags } = await previewOf(`/post/${post.id}`);
    const photo = post.image.variants.find((variant) => variant.width === 800)!;
    expect(tags).toEqual({
      'og:site_name': APP,
      'og:type': 'article',
      'og:title': `${author.username} on ${APP}`,
      'og:description': 'Fairy lights over the bunk bed #dormdecor',
      'og:url': `http://dorm.test/post/${post.id}`,
      'og:image': `http://dorm.test${photo.src}`,
      'og:image:width': '800',
      'og:image:height': '600',
      'og:image:alt': 'Fairy lights over the bunk bed #dormdecor',
      'twitter:card': 'summary_large_image',
      'twitter:title': `${author.username} on ${APP}`,
      'twitter:description': 'Fairy lights over the bunk bed #dormdecor',
      'twitter:image': `http://dorm.test${photo.src}`,
    });
    // A browser with a session runs the app and reads no card: the generic one, and no second read of the post.
    expect((await previewOf(`/post/${post.id}`, { cookie: author.cookie })).tags).toEqual(GENERIC);
    // The image is there for the crawler to fetch, signed out.
    const image = await t.app.inject({ method: 'GET', url: photo.src });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toMatch(/^image\//);
  });

  it('PUBLIC_URL, when set, is the origin of every address (never the Host a request names)', async () => {
    const author = await signUp(t.app, newAccount('prev'));
    const post = await postOf(author, 'Study corner');
    const other = await createTestApp({ clientDir, appName: APP, publicUrl: 'https://dorm.example.edu' }, { storage: undefined });
    try {
      const response = await other.app.inject({ method: 'GET', url: '/login', headers: { ...CRAWLER, host: 'evil.test' } });
      expect(response.body).toContain('content="https://dorm.example.edu/icons/icon-512.png"');
      expect(response.body).not.toContain('evil.test');
    } finally {
      await other.close();
    }
    expect((await previewOf(`/post/${post.id}`)).tags['og:url']).toBe(`http://dorm.test/post/${post.id}`);
  });

  it('a profile: its bio and icon; a public board: its description and cover', async () => {
    const owner = await signUp(t.app, newAccount('prev'));
    const icon = await patchMe(t.app, owner.cookie, [
      ['bio', 'Third floor, east wing. Plant person.'],
      ['icon', { bytes: await jpeg(300, 300), field: 'icon', filename: 'me.jpg' }],
    ]);
    expect(icon.statusCode, icon.body).toBe(200);
    const profile = await previewOf(`/@${owner.username}`);
    expect(profile.tags).toMatchObject({
      'og:type': 'profile',
      'og:title': `${owner.username} on ${APP}`,
      'og:description': 'Third floor, east wing. Plant person.',
      'og:url': `http://dorm.test/@${owner.username}`,
      'og:image': expect.stringMatching(/^http:\/\/dorm\.test\/media\//),
      'twitter:card': 'summary',
    });

    const post = await postOf(owner, 'Shelf of succulents', 1000, 1000);
    const board = await boardSteps(t.app).create(owner, { name: 'Green corner', description: 'Plants that survive dorm life' });
    await boardSteps(t.app).save(owner, board.id, post.id);
    const { tags } = await previewOf(`/@${owner.username}/boards/${board.slug}`);
    expect(tags).toMatchObject({
      'og:title': `Green corner by ${owner.username}`,
      'og:description': 'Plants that survive dorm life',
      'og:url': `http://dorm.test/@${owner.username}/boards/${board.slug}`,
      'og:image': `http://dorm.test${post.image.variants.at(-1)!.src}`,
      'og:image:width': '800',
      'og:image:height': '800',
      'twitter:card': 'summary_large_image',
    });
  });

  it('a secret board, a suspended author, a deleted post, a page that is not there: the generic card', async () => {
    const owner = await signUp(t.app, newAccount('prev'));
    const secret = await boardSteps(t.app).create(owner, { name: 'Secret plans', secret: true });
    const suspended = await signUp(t.app, newAccount('prev'));
    const hidden = await postOf(suspended, 'Should not travel');
    await query(t.database, "UPDATE users SET suspended_until = now() + interval '1 day' WHERE id = $1", [suspended.uid]);
    await t.app.changes.changed({ kind: 'suspension', userId: suspended.uid, username: suspended.username });
    const gone = await postOf(owner, 'Deleted soon');
    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/posts/${gone.id}`, headers: { cookie: owner.cookie } });
    expect(deleted.statusCode).toBe(204);

    for (const url of [
      `/@${owner.username}/boards/${secret.slug}`,
      `/post/${hidden.id}`,
      `/@${suspended.username}`,
      `/post/${gone.id}`,
      '/post/no-such-post',
      '/@nobody-here',
      '/login',
      '/search/dorm',
    ]) {
      const { html, tags } = await previewOf(url);
      expect(tags, url).toEqual(GENERIC);
      expect(html, url).not.toContain('Secret plans');
      expect(html, url).not.toContain('Should not travel');
    }
    // Made public again, the board's card is its own.
    const opened = await boardRoutes(t.app).update(owner.cookie, secret.id, { secret: false });
    expect(opened.statusCode, opened.body).toBe(200);
    expect((await previewOf(`/@${owner.username}/boards/${secret.slug}`)).tags['og:title']).toBe(`Secret plans by ${owner.username}`);
  });

  it('user text is text: a description or bio that tries to close the tag stays inside the attribute', async () => {
    const author = await signUp(t.app, newAccount('prev'));
    const sneaky = '"><script>alert(1)</script> #dorm';
    const post = await postOf(author, sneaky);
    const { html, tags } = await previewOf(`/post/${post.id}`);
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(tags['og:description']).toBe(sneaky);
    const bio = `'"><img src=x onerror=alert(1)> & more`;
    const patched = await patchMe(t.app, author.cookie, [['bio', bio]]);
    expect(patched.statusCode, patched.body).toBe(200);
    const profile = await previewOf(`/@${author.username}`);
    expect(profile.html).not.toContain('<img src=x');
    expect(profile.tags['og:description']).toBe(bio);
  });
});
