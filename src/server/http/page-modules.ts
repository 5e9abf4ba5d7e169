import fs from 'node:fs';
import path from 'node:path';
import { postIdOfPage } from '../../shared/post-page.js';

/**
 * Issue 28: the screens a tab most often opens on are each their own chunk (client/App.tsx loads
 * them lazily), asked for only once the boot script has run and matched the route: on a phone's
 * network a round trip and a download in a row before the screen can show. The page names them
 * instead (modulepreload, and a preload of their styles), so they load beside the boot script.
 * Only these few: every screen named on every page would spend a phone's bandwidth on screens it
 * may never open.
 */
const LANDING_SCREENS: Array<{ module: string; opens: (pathname: string, signedIn: boolean) => boolean }> = [
  // Signed out, the home page sends its visitor to sign in.
  { module: 'features/auth/LoginPage.tsx', opens: (pathname, signedIn) => pathname === '/login' || (!signedIn && pathname === '/') },
  { module: 'features/posts/PostPage.tsx', opens: (pathname, signedIn) => signedIn && postIdOfPage(pathname) !== undefined },
  { module: 'features/people/ProfilePage.tsx', opens: (pathname, signedIn) => signedIn && /^\/@[^/]+\/?$/.test(pathname) },
];

/** One chunk of Vite's build manifest (dist/client/.vite/manifest.json; vite.config.ts `build.manifest`). */
interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
  isEntry?: boolean;
}

/**
 * The <link> tags that preload a page's screen, by page: read once from the build's manifest.
 * A build without one (an older build, the tests' stand-in client) preloads nothing.
 */
export function loadPageModules(clientDir: string): (pathname: string, signedIn: boolean) => string {
  const file = path.join(clientDir, '.vite', 'manifest.json');
  if (!fs.existsSync(file)) return () => '';
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, ManifestChunk>;
  const tags = LANDING_SCREENS.map(({ module, opens }) => {
    if (!manifest[module])
      throw new Error(`${module} is not a chunk of the client build (${file}): LANDING_SCREENS names a screen App.tsx no longer loads`);
    return { opens, tags: preloadTags(manifest, module) };
  });
  return (pathname, signedIn) =>
    tags
      .filter((screen) => screen.opens(pathname, signedIn))
      .map((screen) => screen.tags)
      .join('');
}

/** A chunk's scripts and styles and those of the chunks it imports, the boot script's own left out (the page loads it). */
function preloadTags(manifest: Record<string, ManifestChunk>, key: string): string {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const visit = (name: string) => {
    const chunk = manifest[name];
    if (!chunk || chunk.isEntry || scripts.has(chunk.file)) return;
    scripts.add(chunk.file);
    for (const css of chunk.css ?? []) styles.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(key);
  return [
    ...[...scripts].map((script) => `<link rel="modulepreload" href="/${script}">`),
    ...[...styles].map((style) => `<link rel="preload" as="style" href="/${style}">`),
  ].join('');
}
