import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPageModules } from '../../src/server/http/page-modules.js';

/** Issue 28: a landing page names its screen's chunk, read from the build's manifest (server/http/page-modules.ts). */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function clientWith(manifest?: object): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dormboard-page-modules-'));
  dirs.push(dir);
  if (manifest) {
    fs.mkdirSync(path.join(dir, '.vite'));
    fs.writeFileSync(path.join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest));
  }
  return dir;
}

const BUILD = {
  'main.tsx': { file: 'assets/index-a.js', isEntry: true, css: ['assets/index-a.css'] },
  '_shared.js': { file: 'assets/shared-b.js', imports: ['main.tsx'], css: ['assets/shared-b.css'] },
  'features/auth/LoginPage.tsx': { file: 'assets/LoginPage-c.js', imports: ['main.tsx'], isDynamicEntry: true },
  'features/posts/PostPage.tsx': {
    file: 'assets/PostPage-d.js',
    imports: ['main.tsx', '_shared.js'],
    css: ['assets/PostPage-d.css'],
    isDynamicEntry: true,
  },
  'features/people/ProfilePage.tsx': { file: 'assets/ProfilePage-e.js', imports: ['_shared.js', 'main.tsx'], isDynamicEntry: true },
};

describe("a landing page's screen, preloaded", () => {
  it("names the screen's chunk and the chunks it imports, with their styles, never the boot script", () => {
    const tags = loadPageModules(clientWith(BUILD));
    expect(tags('/post/abc', true)).toBe(
      '<link rel="modulepreload" href="/assets/PostPage-d.js"><link rel="modulepreload" href="/assets/shared-b.js">' +
        '<link rel="preload" as="style" href="/assets/PostPage-d.css"><link rel="preload" as="style" href="/assets/shared-b.css">',
    );
    expect(tags('/@maya', true)).toBe(
      '<link rel="modulepreload" href="/assets/ProfilePage-e.js"><link rel="modulepreload" href="/assets/shared-b.js">' +
        '<link rel="preload" as="style" href="/assets/shared-b.css">',
    );
  });

  it('preloads sign-in where a signed-out visitor lands, and no signed-in screen for them', () => {
    const tags = loadPageModules(clientWith(BUILD));
    const login = '<link rel="modulepreload" href="/assets/LoginPage-c.js">';
    expect(tags('/login', false)).toBe(login);
    expect(tags('/', false)).toBe(login);
    expect(tags('/post/abc', false)).toBe('');
    expect(tags('/@maya', false)).toBe('');
  });

  it('preloads nothing for the other pages, or with a build that has no manifest', () => {
    const tags = loadPageModules(clientWith(BUILD));
    for (const pathname of ['/', '/search/dorm', '/@maya/boards', '/settings', '/post/a/b'])
      expect(tags(pathname, true), pathname).toBe('');
    expect(loadPageModules(clientWith())('/post/abc', true)).toBe('');
  });

  it('refuses to start with a build whose screens moved: a preload of nothing would go unnoticed', () => {
    const { 'features/posts/PostPage.tsx': _moved, ...rest } = BUILD;
    expect(() => loadPageModules(clientWith(rest))).toThrow(/features\/posts\/PostPage\.tsx is not a chunk of the client build/);
  });
});
