import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build as esbuild } from 'esbuild';
import { defineConfig, type Plugin } from 'vite';
import { DEFAULT_APP_NAME } from './src/shared/app-name.ts';
import { routeLines } from './src/shared/api/route.ts';
import { ROUTE_GROUPS } from './src/shared/api/routes.ts';

/**
 * Constants the client is built with. `__ROUTE_LINES__`: each route's method, path and group, taken
 * from its one definition (shared/api) here, so the boot bundle sends requests without loading zod
 * and the schemas; its group's schemas arrive beside the first request (client/api/http.ts).
 * Restart `npm run dev` after adding a route.
 */
export const clientConstants = { __ROUTE_LINES__: JSON.stringify(routeLines(ROUTE_GROUPS)) };

/** In development Vite serves index.html itself, so it fills in the product name the server would. */
function appName(): Plugin {
  return {
    name: 'app-name',
    apply: 'serve',
    transformIndexHtml: (html) => html.replaceAll('__APP_NAME__', process.env.APP_NAME || DEFAULT_APP_NAME),
  };
}

/** The service worker's source (src/client/sw.ts), an entry of its own. */
const SERVICE_WORKER = fileURLToPath(new URL('./src/client/sw.ts', import.meta.url));

/**
 * In development Vite serves the service worker too, under the name the build gives it (/sw.js),
 * as one classic script: Settings → Notifications registers it there.
 */
function serviceWorkerInDev(): Plugin {
  return {
    name: 'service-worker-dev',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use('/sw.js', (_request, response, next) => {
        esbuild({ entryPoints: [SERVICE_WORKER], bundle: true, write: false, format: 'iife', target: 'es2022' }).then((result) => {
          response.setHeader('content-type', 'text/javascript; charset=utf-8');
          response.setHeader('cache-control', 'no-cache');
          response.end(result.outputFiles[0]!.text);
        }, next);
      });
    },
  };
}

const api = `http://localhost:${process.env.API_PORT || 3001}`;

export default defineConfig({
  root: 'src/client',
  plugins: [react(), appName(), serviceWorkerInDev()],
  define: clientConstants,
  resolve: {
    // wouter reaches React's useSyncExternalStore through the shim for React < 18 (~1 KB gzip in
    // the boot bundle, issue 28); React 19 has its own.
    alias: [
      { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: 'react' },
      // zod as the client uses it: set up before any schema is made, in whichever chunk.
      { find: /^zod$/, replacement: fileURLToPath(new URL('./src/client/api/zod-jitless.ts', import.meta.url)) },
    ],
  },
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    // None: served, they would publish the client's source and comments; nobody collects the
    // client's stack traces, and the dev server (npm run dev) makes its own maps.
    sourcemap: false,
    // Which files each screen's chunk is (.vite/manifest.json, never served): the server names a
    // landing page's screen in the page so it loads beside the boot script (server/http/page-modules.ts).
    manifest: true,
    rolldownOptions: {
      // The page, and the service worker (issue 30): /sw.js at the root, under a name that never
      // changes (a browser finds a new version by fetching the same URL), and imports nothing, so it
      // is emitted whole, with no chunk to share.
      input: {
        index: fileURLToPath(new URL('./src/client/index.html', import.meta.url)),
        sw: SERVICE_WORKER,
      },
      output: {
        entryFileNames: (chunk) => (chunk.facadeModuleId === SERVICE_WORKER ? 'sw.js' : 'assets/[name]-[hash].js'),
        // Everything the first view needs in one script (and one stylesheet), not ten files a
        // phone fetches six at a time over HTTP/1.1 (issue 28); each lazy screen stays its own
        // chunk, and the app's code that several screens share is one more ('shared', ~13 KB
        // gzip) rather than a dozen little ones in a row before a profile or a post shows. zod
        // and what every group of schemas shares come with the first answer ('zod'); each group
        // of schemas stays its own (client/api/answer-schemas.ts).
        codeSplitting: {
          groups: [
            { name: 'index', tags: ['$initial'], test: (id) => id !== SERVICE_WORKER, priority: 3 },
            {
              name: 'zod',
              test: /node_modules[\\/]zod[\\/]|[\\/]src[\\/]client[\\/]api[\\/]zod-jitless\.ts$|[\\/]src[\\/]shared[\\/]api[\\/]common\.ts$/,
              priority: 2,
            },
            {
              name: 'shared',
              test: (id) => /[\\/]src[\\/](client|shared)[\\/]/.test(id) && !/[\\/]src[\\/]shared[\\/]api[\\/]/.test(id),
              minShareCount: 2,
              priority: 1,
            },
          ],
        },
      },
    },
  },
  server: {
    port: Number(process.env.PORT) || 3000,
    proxy: { '/api': api, '/media': api },
  },
});
