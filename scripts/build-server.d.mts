/** Bundles the server (main.js, its database worker, its assets) into `outdir`; resolves to main.js's path. */
export function buildServer(outdir: string, options?: { sourcemap?: boolean }): Promise<string>;
