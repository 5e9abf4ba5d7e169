import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onTestFinished, TestRunner } from 'vitest';

/**
 * Every process a test starts, and every temporary folder it makes, is cleaned up whatever
 * happens to the test. A process is spawned in a process group of its own (`detached`), so it and
 * everything it starts are killed together (SIGKILL to the group). Who cleans up:
 *
 * - started inside a test: that test's end, passed or failed, and at once when its signal
 *   aborts (a timeout: the test's code may still be running, and would otherwise keep its server);
 * - started in a hook (beforeAll): the end of the file (tests/helpers/setup.ts);
 * - anything still there when the worker exits, or is told to stop (SIGTERM, SIGINT).
 *
 * Processes go first, then folders (a server may still be writing into its DATA_DIR).
 */

interface Resource {
  kind: 'process' | 'folder';
  dispose(): Promise<void>;
  disposeNow(): void;
}

interface Registry {
  all: Set<Resource>;
  installed: boolean;
}

// On globalThis: a worker may evaluate this module once per test file, and the exit handlers
// installed by the first must see what later files start.
const registry: Registry = ((globalThis as { __dormboardTestResources?: Registry }).__dormboardTestResources ??= {
  all: new Set(),
  installed: false,
});

/** What each test (by its signal) started, so its end or its timeout disposes of all of it in order. */
const bySignal = new WeakMap<AbortSignal, Set<Resource>>();

async function disposeEach(resources: Iterable<Resource>) {
  const list = [...resources];
  for (const kind of ['process', 'folder'] as const) {
    await Promise.all(list.filter((resource) => resource.kind === kind).map((resource) => resource.dispose()));
  }
}

/** Kills every process and removes every folder still registered (the end of a test file). */
export async function disposeAll(): Promise<void> {
  await disposeEach(registry.all);
}

function disposeAllNow() {
  for (const kind of ['process', 'folder'] as const) {
    for (const resource of registry.all) if (resource.kind === kind) resource.disposeNow();
  }
}

function installExitHandlers() {
  if (registry.installed) return;
  registry.installed = true;
  process.on('exit', disposeAllNow);
  // Vitest stops a worker with SIGTERM (then SIGKILL), Ctrl-C sends SIGINT: by default Node dies
  // of either without running 'exit' handlers, and detached groups get neither signal.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    const handler = () => {
      disposeAllNow();
      process.off(signal, handler);
      process.kill(process.pid, signal);
    };
    process.on(signal, handler);
  }
}

/**
 * Registers a resource with its owner: the test whose signal is given, else the running test,
 * else the file. Returns a function that forgets it (once disposed).
 */
function register(resource: Resource, owner: AbortSignal | undefined) {
  installExitHandlers();
  registry.all.add(resource);
  const test = TestRunner.getCurrentTest();
  const signal = owner ?? test?.context.signal;
  if (signal) {
    let owned = bySignal.get(signal);
    if (!owned) {
      const resources = new Set<Resource>();
      bySignal.set(signal, (owned = resources));
      signal.addEventListener('abort', () => void disposeEach(resources), { once: true });
      if (test?.context.signal === signal) {
        onTestFinished(() => {
          // A retry of the test registers its own.
          bySignal.delete(signal);
          return disposeEach(resources);
        });
      }
    }
    owned.add(resource);
  }
  return () => registry.all.delete(resource);
}

/** Runs `work` once, however often it is asked for. */
function once(work: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    work();
  };
}

/** A temporary folder, removed with the test (or file) that made it. */
export function tempDir(name: string): string {
  return removeLater(fs.mkdtempSync(path.join(os.tmpdir(), `dormboard-${name}-`)));
}

/** Removes `dir` with the test (or file) running now, after its processes are gone. */
export function removeLater(dir: string): string {
  let forget = () => true;
  const remove = once(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    forget();
  });
  forget = register({ kind: 'folder', disposeNow: remove, dispose: async () => remove() }, undefined);
  return dir;
}

export interface Spawned {
  child: ChildProcess;
  pid: number;
  /** The exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  /** The end of what it wrote to piped stdout and stderr, to explain a failure. */
  output(): string;
  /** Sends `signal` to the process alone (a graceful stop); once it has exited, kills whatever is left of its group. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** SIGKILL to the whole group; resolves once the process has exited. */
  kill(): Promise<void>;
}

export interface SpawnGroupOptions extends Omit<SpawnOptions, 'detached'> {
  /** Kill the group when this aborts; by default the running test's signal (aborted by a timeout). */
  signal?: AbortSignal;
  /** Copy piped output to this process's stderr as it comes (a server's warnings). */
  echo?: boolean;
}

/** Whether the process `pid` is running (a zombie, dead but not yet reaped, is not). */
export function isRunning(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (name) S ...": the state follows the last ')', names may hold anything.
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    if (fs.existsSync('/proc/self/stat')) return false;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves once no process of the group is left but zombies (which nothing may ever reap here). */
async function groupGone(pgid: number): Promise<void> {
  const member = (pid: string) => {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      // After "pid (name) ": the state, the parent, then the process group.
      const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(group) === pgid && state !== 'Z';
    } catch {
      return false;
    }
  };
  if (!fs.existsSync('/proc/self/stat')) return;
  while (fs.readdirSync('/proc').some((entry) => /^\d+$/.test(entry) && member(entry))) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function killGroup(pid: number) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: nothing left in the group.
  }
}

/** Starts `command` in a process group of its own, cleaned up as described above. */
export function spawnGroup(command: string, args: string[], { signal, echo = false, ...options }: SpawnGroupOptions = {}): Spawned {
  const owner = signal ?? TestRunner.getCurrentTest()?.context.signal;
  if (owner?.aborted) throw new Error(`not starting ${command} ${args.join(' ')}: its test has already ended`);
  const child = spawn(command, args, { ...options, detached: true });
  if (child.pid === undefined) {
    child.once('error', () => undefined);
    throw new Error(`could not start ${command}`);
  }
  const pid = child.pid;
  let output = '';
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on('data', (chunk: Buffer) => {
      if (echo) process.stderr.write(chunk);
      output = (output + chunk.toString()).slice(-8_000);
    });
  }
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    // A command that cannot start (ENOENT) never exits: its 'error' stands for the exit.
    child.once('error', (error) => {
      output += `\n${String(error)}`;
      resolve(null);
    });
  });

  let forget = () => true;
  const killNow = once(() => {
    killGroup(pid);
    forget();
  });
  const kill = async () => {
    killNow();
    // SIGKILL cannot be caught: the exits follow at once, unless the processes are already gone;
    // on a busy machine the rest of the group can take a moment longer than the leader.
    await Promise.race([exited.then(() => groupGone(pid)), new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
  };
  forget = register({ kind: 'process', dispose: kill, disposeNow: killNow }, owner);
  return {
    child,
    pid,
    exited,
    output: () => output,
    stop: async (stopSignal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(stopSignal);
      const code = await exited;
      await kill();
      return code;
    },
    kill,
  };
}
