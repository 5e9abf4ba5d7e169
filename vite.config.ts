import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
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

const api = `http://localhost:${process.env.API_PORT || 3001}`;

export default defineConfig({
  root: 'src/client',
  plugins: [react(), appName()],
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
      output: {
        // Everything the first view needs in one script (and one stylesheet), not ten files a
        // phone fetches six at a time over HTTP/1.1 (issue 28); each lazy screen stays its own
        // chunk, and the app's code that several screens share is one more ('shared', ~13 KB
        // gzip) rather than a dozen little ones in a row before a profile or a post shows. zod
        // and what every group of schemas shares come with the first answer ('zod'); each group
        // of schemas stays its own (client/api/answer-schemas.ts).
        codeSplitting: {
          groups: [
            { name: 'index', tags: ['$initial'], priority: 3 },
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
