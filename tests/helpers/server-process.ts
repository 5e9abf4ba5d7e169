import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { freePort } from './services.js';

/** The real entry point (src/server/main.ts) as a child process. */
export interface ServerProcess {
  base: string;
  child: ChildProcess;
  /** SIGTERM (or the given signal) and the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Bundles src/server/main.ts as `npm run build:server` does, into a folder of its own (under
 * node_modules, so the bundle's external packages resolve). A built server starts about two
 * seconds sooner than one run through tsx: worth it for tests that restart it many times.
 */
export async function buildServer(): Promise<string> {
  // A fresh clone has no node_modules/.cache until some tool makes one.
  const cache = path.resolve('node_modules/.cache');
  fs.mkdirSync(cache, { recursive: true });
  const folder = fs.mkdtempSync(path.join(cache, 'dormboard-server-'));
  const script = path.join(folder, 'main.js');
  await build({
    entryPoints: ['src/server/main.ts'],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    outfile: script,
    logLevel: 'warning',
  });
  // Files the server reads beside its code (new URL('./…', import.meta.url)).
  for (const asset of ['src/server/auth/common-passwords.txt']) {
    if (fs.existsSync(asset)) fs.copyFileSync(asset, path.join(folder, path.basename(asset)));
  }
  return script;
}

/** Starts src/server/main.ts through tsx, or the given bundle from buildServer(). */
export async function startServer(env: Record<string, string>, script?: string): Promise<ServerProcess> {
  // A port free a moment ago, not a fixed sequence: test files in other processes start servers too.
  const port = await freePort();
  const args = script ? [script] : ['--import', 'tsx', 'src/server/main.ts'];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', CLIENT_DIR: '/nonexistent', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // Passed through, and the end kept to explain a server that does not start.
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      await fetch(`${base}/api/me`);
      break;
    } catch {
      if (i > 400 || child.exitCode !== null) {
        child.kill('SIGKILL');
        throw new Error(`server on ${port} did not start (exit code ${child.exitCode}):\n${stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    base,
    child,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Runs one of the npm tools (src/server/tools/*.ts) to completion. */
export function runTool(tool: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `src/server/tools/${tool}.ts`, ...args], {
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** JSON requests with a cookie jar of one session. */
export function client(base: string) {
  let cookie = '';
  const call = async (method: string, url: string, body?: unknown) => {
    const isForm = body instanceof FormData;
    const response = await fetch(`${base}${url}`, {
      method,
      headers: { ...(cookie ? { cookie } : {}), ...(body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
    const set = response.headers.get('set-cookie');
    if (set?.startsWith('session=')) cookie = set.split(';')[0]!;
    return response;
  };
  return { call, get cookie() { return cookie; } };
}
