import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildServer as buildServerInto } from '../../scripts/build-server.mjs';
import { removeLater, spawnGroup } from './processes.js';
import { freePort } from './services.js';

/**
 * The real entry point (src/server/main.ts) as a child process, in a process group of its own
 * that processes.ts kills when the test ends, fails or times out.
 */
export interface ServerProcess {
  base: string;
  child: ChildProcess;
  /** The end of what it printed: standard error, and with `logs` its log lines (standard output). */
  output(): string;
  /** SIGTERM (or the given signal) and the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Bundles the server as `npm run build:server` does (scripts/build-server.mjs), into a folder of its own (under
 * node_modules, so the bundle's external packages resolve). A built server starts about two
 * seconds sooner than one run through tsx: worth it for tests that restart it many times.
 */
export async function buildServer(): Promise<string> {
  // A fresh clone has no node_modules/.cache until some tool makes one.
  const cache = path.resolve('node_modules/.cache');
  fs.mkdirSync(cache, { recursive: true });
  const folder = fs.mkdtempSync(path.join(cache, 'dormboard-server-'));
  // Removed with the test or file, even when a test times out before its own clean-up.
  removeLater(folder);
  return buildServerInto(folder);
}

/**
 * This process's environment without what points a server at real services or data: a developer's
 * own DATABASE_URL, REDIS_URL or S3 bucket must never reach a test's server. Tests set them
 * explicitly when they mean to.
 */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(DATABASE_|REDIS_|S3_|AWS_)|^(DATA_DIR|PORT|HOST|CLIENT_DIR)$/.test(name)),
  );
  return { ...inherited, ...env };
}

export interface StartOptions {
  /** Kill the server when this aborts (the test's signal): by default the running test's. */
  signal?: AbortSignal;
  /** Keep its log lines (standard output) for output(). */
  logs?: boolean;
}

/** Starts src/server/main.ts through tsx, or the given bundle from buildServer(). */
export async function startServer(
  env: Record<string, string>,
  script?: string,
  { signal, logs = false }: StartOptions = {},
): Promise<ServerProcess> {
  // A port free a moment ago, not a fixed sequence: test files in other processes start servers too.
  const port = await freePort();
  const args = script ? [script] : ['--import', 'tsx', 'src/server/main.ts'];
  const server = spawnGroup(process.execPath, args, {
    env: childEnv({ PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', CLIENT_DIR: '/nonexistent', ...env }),
    // stderr is passed through, and its end kept to explain a server that does not start.
    stdio: ['ignore', logs ? 'pipe' : 'ignore', 'pipe'],
    // Log lines asked for are for the test to read, not to echo.
    echo: !logs,
    signal,
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      await fetch(`${base}/api/me`);
      break;
    } catch {
      if (i > 400 || server.child.exitCode !== null) {
        await server.kill();
        throw new Error(`server on ${port} did not start (exit code ${server.child.exitCode}):\n${server.output()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return { base, child: server.child, output: () => server.output(), stop: (stopSignal = 'SIGTERM') => server.stop(stopSignal) };
}

/** Runs one of the npm tools (src/server/tools/*.ts) to completion. */
export async function runTool(tool: string, args: string[], env: Record<string, string>) {
  const run = spawnGroup(process.execPath, ['--import', 'tsx', `src/server/tools/${tool}.ts`, ...args], { env: childEnv(env) });
  let stdout = '';
  let stderr = '';
  run.child.stdout!.on('data', (chunk) => (stdout += chunk));
  run.child.stderr!.on('data', (chunk) => (stderr += chunk));
  // 'close', not 'exit': the output may still be arriving when the process has exited.
  const code = await new Promise<number | null>((resolve) => run.child.once('close', (code) => resolve(code)));
  await run.kill();
  return { code, stdout, stderr };
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
  return {
    call,
    get cookie() {
      return cookie;
    },
  };
}
