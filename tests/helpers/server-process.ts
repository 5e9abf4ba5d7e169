import { spawn, type ChildProcess } from 'node:child_process';

let nextPort = 3300 + (process.pid % 400);

/** The real entry point (src/server/main.ts) as a child process. */
export interface ServerProcess {
  base: string;
  child: ChildProcess;
  /** SIGTERM (or the given signal) and the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = nextPort++;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', CLIENT_DIR: '/nonexistent', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      await fetch(`${base}/api/me`);
      break;
    } catch {
      if (i > 160 || child.exitCode !== null) throw new Error(`server on ${port} did not start`);
      await new Promise((resolve) => setTimeout(resolve, 250));
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
