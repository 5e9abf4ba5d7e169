import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { DEFAULT_APP_NAME } from './src/shared/app-name.ts';

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
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    // None: served, they would publish the client's source and comments; nobody collects the
    // client's stack traces, and the dev server (npm run dev) makes its own maps.
    sourcemap: false,
  },
  server: {
    port: Number(process.env.PORT) || 3000,
    proxy: { '/api': api, '/media': api },
  },
});
