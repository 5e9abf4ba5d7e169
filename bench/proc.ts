/**
 * What bench/run.ts reads from /proc and does with taskset: CPU times of the server and of the
 * PostgreSQL backends serving it, pinning processes to a CPU, and the calibration workload.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { parseProcStat, spreadOf, type Pinning, type Spread } from './ratios.js';

/** Clock ticks per second of /proc's CPU times (getconf CLK_TCK; 100 on Linux almost always). */
export const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

export function findTaskset(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    const file = `${dir}/taskset`;
    if (dir && fs.existsSync(file)) return file;
  }
  return undefined;
}

/** utime + stime of one process (ticks), or undefined when it is gone. */
export function ticksOf(pid: number): number | undefined {
  try {
    const stat = parseProcStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
    return stat.utime + stat.stime;
  } catch {
    return undefined;
  }
}

/**
 * The PostgreSQL backends connected to `database`: processes titled "postgres: <user> <database>
 * <client> <state>", after the cluster's name when it has one (PostgreSQL sets the title so). Other databases' backends and the server's
 * background processes are not counted: they serve others on a shared machine.
 */
export function postgresBackends(database: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      const words = title.trim().split(/\s+/);
      // "postgres: [<cluster name>:] <user> <database> <client> <state>" (Debian names the cluster, "15/main:").
      if (words[0] === 'postgres:' && words.slice(1, 4).includes(database)) pids.push(Number(entry));
    } catch {
      // It exited meanwhile.
    }
  }
  return pids;
}

/** pid → ticks of the server process and the backends of its database (if on PostgreSQL). */
export function cpuSample(serverPid: number | undefined, database: string | undefined): Map<number, number> {
  const sample = new Map<number, number>();
  const add = (pid: number) => {
    const ticks = ticksOf(pid);
    if (ticks !== undefined) sample.set(pid, ticks);
  };
  if (serverPid) add(serverPid);
  if (database) for (const pid of postgresBackends(database)) add(pid);
  return sample;
}

/** Pins a running process (every thread) to `cpu`; false when taskset failed (the process exited, say). */
export function pinProcess(taskset: string, pid: number, cpu: number | string): boolean {
  try {
    execFileSync(taskset, ['-a', '-pc', String(cpu), String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Leaves only the process's main thread, its event loop, on `cpu`: its other threads (the
 * embedded database's, libuv's pool, V8's helpers) go where the OS puts them, as PostgreSQL's
 * backends do. False when taskset failed.
 *
 * Why: the embedded database runs in a thread of the server's process. Pinned with it, every
 * statement and every request took turns on one core, where PostgreSQL's backends, a process of
 * their own, use either: the same reads measured 3–4× slower on the embedded database for it.
 */
export function pinEventLoop(taskset: string, pid: number, cpu: number): boolean {
  try {
    execFileSync(taskset, ['-a', '-pc', ALL_CPUS, String(pid)], { stdio: 'ignore' });
    // Without -a: the thread whose id is the process's, its main thread.
    execFileSync(taskset, ['-pc', String(cpu), String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Every CPU of the machine, as taskset writes a list. */
export const ALL_CPUS = `0-${os.cpus().length - 1}`;

/** The command and arguments that start `command args` on the server's CPU (or unpinned). */
export function onServerCpu(pinning: Pinning, taskset: string | undefined, command: string, args: string[]): [string, string[]] {
  return pinning.pinned && taskset ? [taskset, ['-c', String(pinning.serverCpu), command, ...args]] : [command, args];
}

/** One calibration: the workload's CPU time and wall time in ms, median of its repetitions. */
export interface Calibration {
  cpuMs: number;
  wallMs: number;
  /** The two parts of cpuMs: the cache-resident loop and the memory-bound look-ups and parse. */
  tightCpuMs?: number;
  memoryCpuMs?: number;
}

/** Runs bench/calibrate.mjs on the server's CPU and returns what it measured. */
export function calibrate(pinning: Pinning, taskset: string | undefined): Promise<Calibration> {
  const [command, args] = onServerCpu(pinning, taskset, process.execPath, ['bench/calibrate.mjs']);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`bench/calibrate.mjs exited ${code}`));
      resolve(JSON.parse(out) as Calibration);
    });
  });
}

/** The calibrations of a run, as budgets judge them (the median of CPU ms) and report them. */
export function calibrationSpread(calibrations: Calibration[]): { cpuMs: Spread; wallMs: Spread } {
  return { cpuMs: spreadOf(calibrations.map((c) => c.cpuMs)), wallMs: spreadOf(calibrations.map((c) => c.wallMs)) };
}
