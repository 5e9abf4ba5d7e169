// Bundles the server into one folder: main.js, the embedded database's worker thread beside it
// (src/server/db/pglite-thread.ts looks for ./pglite-worker.js), and the files the server reads
// beside its code (new URL('./…', import.meta.url)). `npm run build:server` and the tests that
// start a built server both build with this.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ENTRY_POINTS = ['src/server/main.ts', 'src/server/db/pglite-worker.ts'];
const ASSETS = ['src/server/auth/common-passwords.txt'];

/** Builds into `outdir`; returns the path of main.js. */
export async function buildServer(outdir, { sourcemap = false } = {}) {
  await build({
    entryPoints: ENTRY_POINTS,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    // Packages stay in node_modules: the folder must be where they resolve (dist/, node_modules/.cache/).
    packages: 'external',
    outdir,
    entryNames: '[name]',
    sourcemap,
    logLevel: 'warning',
  });
  for (const asset of ASSETS) fs.copyFileSync(asset, path.join(outdir, path.basename(asset)));
  return path.join(outdir, 'main.js');
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const outdir = process.argv[2] ?? 'dist/server';
  await buildServer(outdir, { sourcemap: true });
  console.log(`server built into ${outdir}`);
}
