/**
 * Issue 28 point 4, verdicts that hold on a busy machine: how much CPU the rest of the machine
 * takes while the bench measures, and waiting until it takes little.
 *
 * Why not a reference alone: run G (idle) and run H (beside a second checkout's `npm test`, load
 * average 8–16 on 2 cores) of one build differed on 20 of 96 verdicts. Under that neighbour a
 * ratio to the ceiling is not the same figure: every request waits behind the neighbour's time
 * slices, which the cheap ceiling feels as much as a caches-off search (search p95 6.2× the
 * ceiling idle, 1.7× loaded), and PostgreSQL's backends spend more CPU per statement when they
 * are preempted (post detail 0.019 → 0.032 cal). So the bench measures only while the rest of
 * the machine is nearly idle, waits for that when it is not, retakes a measurement the rest of
 * the machine got busy during, and reports how long it waited.
 *
 * "The rest of the machine": the CPU ticks /proc/stat counts as busy in processes, less those of
 * the bench (this process, whose threads run the load generator, every process it started:
 * servers, calibrations, Chromium, found by parentage and by an inherited marker), of PostgreSQL's
 * processes (its backends serve the bench; its background writers work for the bench's writes)
 * and of the kernel's threads (splitTicks).
 */
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuMsBetween, splitProcStat } from './ratios.js';

/**
 * Busy ticks of the machine's processes: /proc/stat's first line, user + nice + system (proc(5)).
 * Not irq and softirq: the kernel's network work for the bench's own requests lands there, on no
 * process (0.15–0.2 CPUs at a few thousand requests a second). Not steal: another virtual
 * machine's, which no wait here ends.
 */
export function parseMachineBusy(statText: string): number {
  const line = statText.split('\n', 1)[0]!.trim();
  if (!line.startsWith('cpu ')) throw new Error(`not /proc/stat: ${line.slice(0, 40)}`);
  // user nice system idle iowait irq softirq steal (guest and guest_nice are inside user and nice).
  const [user, nice, system] = line.split(/\s+/).slice(1).map(Number);
  return (user ?? 0) + (nice ?? 0) + (system ?? 0);
}

/** One process as the own/foreign split needs it. */
export interface ProcessTicks {
  pid: number;
  ppid: number;
  comm: string;
  ticks: number;
  /** Its start time (field 22): with the pid, which process it is (pids are reused). */
  start?: number;
  /** Known to be the bench's however far removed (isOwnAlready): counted with its descendants. */
  marked?: boolean;
}

/**
 * /proc/<pid>/stat's parent pid (field 4) and CPU ticks: its own (utime, stime: fields 14, 15)
 * and its exited children's once it has waited for them (cutime, cstime: 16, 17), so a
 * calibration or a Chromium renderer that ends keeps counting as the bench's.
 */
export function parseProcessTicks(text: string): ProcessTicks {
  const { pid, comm, field } = splitProcStat(text);
  const ticks = field(14) + field(15) + (field(16) || 0) + (field(17) || 0);
  if (!Number.isFinite(pid) || !Number.isFinite(ticks)) throw new Error(`unparsable /proc/<pid>/stat: ${text.slice(0, 80)}`);
  const start = field(22);
  return { pid, ppid: field(4), comm, ticks, ...(Number.isFinite(start) && { start }) };
}

/** The kernel's threads: kthreadd (pid 2) and its children. */
const KERNEL = 2;

/**
 * The ticks of `root` and all its descendants, of the processes marked as the bench's (Chromium's
 * launcher leaves the browser to init: it is no descendant) and theirs, of every process named
 * `postgres`, and of the kernel's threads (they do the network and disk work of every process,
 * the bench's included), by pid; and every other process's by "name (pid)".
 */
export function splitTicks(processes: ProcessTicks[], root: number): { own: Map<number, number>; others: Map<string, number> } {
  const children = new Map<number, number[]>();
  for (const p of processes) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  const own = new Set<number>();
  const queue = [root, KERNEL, ...processes.filter((p) => p.marked).map((p) => p.pid)];
  while (queue.length > 0) {
    const pid = queue.pop()!;
    if (own.has(pid)) continue;
    own.add(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  const ownTicks = new Map<number, number>();
  const others = new Map<string, number>();
  for (const p of processes) {
    if (own.has(p.pid) || p.comm === 'postgres') ownTicks.set(p.pid, p.ticks);
    else others.set(`${p.comm} (${p.pid})`, p.ticks);
  }
  return { own: ownTicks, others };
}

/**
 * The variable every process the bench starts inherits (servers, calibrations, Chromium's
 * browser): what marks them as the bench's. Set once per run.
 */
const MARKER_NAME = 'BENCH_RUN';
process.env[MARKER_NAME] ??= `${process.pid}-${Date.now()}`;
const MARKER = Buffer.from(`${MARKER_NAME}=${process.env[MARKER_NAME]}\0`);

/**
 * Processes (pid and start time) once seen as the bench's: they stay its own until they exit.
 * Chromium's browser, closing, exits before its zygotes, which start with an environment of their
 * own: left to init, they would count as the rest of the machine while they wind down.
 */
const ownAlready = new Set<string>();
const keyOf = (p: ProcessTicks) => `${p.pid}:${p.start}`;

/** Processes whose environment was read and does not hold the marker (an empty one is read again: a process mid-exec has none yet). */
const notMarked = new Set<string>();

function isOwnAlready(pid: string, process: ProcessTicks): boolean {
  const key = keyOf(process);
  if (ownAlready.has(key)) return true;
  if (notMarked.has(key)) return false;
  try {
    const environment = fs.readFileSync(`/proc/${pid}/environ`);
    const marked = environment.includes(MARKER);
    if (!marked && environment.length > 0) notMarked.add(key);
    return marked;
  } catch {
    return false;
  }
}

function readProcesses(): ProcessTicks[] {
  const processes: ProcessTicks[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const process = parseProcessTicks(fs.readFileSync(`/proc/${entry}/stat`, 'utf8'));
      processes.push({ ...process, marked: isOwnAlready(entry, process) });
    } catch {
      // It exited meanwhile.
    }
  }
  return processes;
}

/** The bench's processes now and every other's (splitTicks), remembering which were the bench's. */
function readSplit(root: number): ReturnType<typeof splitTicks> {
  const processes = readProcesses();
  const split = splitTicks(processes, root);
  for (const p of processes) if (split.own.has(p.pid)) ownAlready.add(keyOf(p));
  return split;
}

/** A reading of the machine: its busy ticks, the bench's own, and when. */
export interface LoadReading {
  atMs: number;
  busy: number;
  /** The bench's processes' ticks by pid (splitTicks). */
  own: Map<number, number>;
  /** Ticks of the processes not the bench's, by "name (pid)": to say who was busy. */
  others?: Map<string, number>;
}

/** The busiest processes of the rest of the machine between two readings, as a log line says them. */
export function busiestOthers(before: LoadReading, after: LoadReading, ticksPerSecond: number, count = 3): string {
  const seconds = Math.max(1e-3, (after.atMs - before.atMs) / 1000);
  const deltas = [...(after.others ?? new Map<string, number>())]
    .map(([name, ticks]) => [name, ticks - (before.others?.get(name) ?? 0)] as const)
    .filter(([, ticks]) => ticks > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, count);
  return deltas.map(([name, ticks]) => `${name} ${(ticks / ticksPerSecond / seconds).toFixed(2)}`).join(', ');
}

/**
 * CPUs' worth of the rest of the machine's work between two readings (0.5: half a core busy on
 * average). The bench's ticks are counted process by process (ratios.ts cpuMsBetween): one that
 * exited in between is not subtracted as a loss, and its parent's count of its children's
 * ticks, which then grows, at worst hides other work for that one interval.
 */
export function foreignCores(before: LoadReading, after: LoadReading, ticksPerSecond: number): number {
  const seconds = (after.atMs - before.atMs) / 1000;
  if (seconds <= 0) return 0;
  const ownTicks = (cpuMsBetween(before.own, after.own, ticksPerSecond) * ticksPerSecond) / 1000;
  return Math.max(0, (after.busy - before.busy - ownTicks) / ticksPerSecond / seconds);
}

export interface ForeignLoadOptions {
  /** At most this many CPUs' worth of other work while measuring (0.15: 7.5 % of a 2-core machine). */
  maxCores: number;
  /** The rest of the machine must have stayed under maxCores this long before a measurement starts. */
  quietSeconds: number;
  /** The most the whole run waits; after that it measures as the machine is, and says so. */
  maxWaitSeconds: number;
  ticksPerSecond: number;
  log: (message: string) => void;
  /** How often a wait looks at the machine (500 ms). */
  pollMs?: number;
  /** Where readings come from: /proc by default (tests give their own). */
  read?: () => LoadReading;
}

/** What the gate did over a run: reported beside the results. */
export interface ForeignLoadReport {
  maxCores: number;
  waitedSeconds: number;
  /** Measurements retaken because the rest of the machine got busy while they ran. */
  retaken: number;
  /** Measurements taken busy anyway, after the run had waited its most (none on a run that held). */
  takenBusy: number;
  /** The most other work any kept measurement lived with, in CPUs. */
  worstKeptCores: number;
}

/** How often a measurement's own processes are looked for while it runs (a reading costs ~1 ms). */
const WATCH_MS = 500;

/** /proc is Linux's: elsewhere the gate measures nothing and never waits. */
const HAS_PROC = fs.existsSync('/proc/stat');

export class ForeignLoadGate {
  private waitedMs = 0;
  private retaken = 0;
  private takenBusy = 0;
  private worstKeptCores = 0;
  /** The last reading taken, and since when the rest of the machine has stayed quiet up to it. */
  private last?: LoadReading;
  private quietSince = Number.NaN;

  constructor(private readonly options: ForeignLoadOptions) {}

  reading(): LoadReading {
    if (this.options.read) return this.options.read();
    if (!HAS_PROC) return { atMs: Date.now(), busy: 0, own: new Map() };
    const { own, others } = readSplit(process.pid);
    return { atMs: Date.now(), busy: parseMachineBusy(fs.readFileSync('/proc/stat', 'utf8')), own, others };
  }

  /** Whether the run may still wait for the machine. */
  private get patient(): boolean {
    return this.waitedMs < this.options.maxWaitSeconds * 1000;
  }

  /**
   * Whether the rest of the machine stayed quiet from `before` to `after`: under maxCores, and for
   * a gap shorter than a second (between two measurements) under maxCores' worth of a second, so
   * that a tick or two (10 ms each) in a short gap is not read as a busy machine.
   */
  private quietBetween(before: LoadReading, after: LoadReading): boolean {
    const { maxCores, ticksPerSecond } = this.options;
    const elapsed = (after.atMs - before.atMs) / 1000;
    // CPU-seconds of other work, against maxCores' worth of the gap or of one second, the longer.
    return foreignCores(before, after, ticksPerSecond) * elapsed <= maxCores * Math.max(1, elapsed);
  }

  /** Returns once the rest of the machine has been under maxCores for quietSeconds (or the run has waited its most). */
  async waitForQuiet(what: string): Promise<void> {
    const { quietSeconds, ticksPerSecond, log, pollMs = 500 } = this.options;
    let last = this.reading();
    // Quiet since before the last measurement, and still: measure at once.
    if (this.last && this.quietBetween(this.last, last) && last.atMs - this.quietSince >= quietSeconds * 1000) {
      this.last = last;
      return;
    }
    if (!this.last || !this.quietBetween(this.last, last)) this.quietSince = last.atMs;
    const started = last.atMs;
    let waiting = false;
    let lastBusy = '';
    for (;;) {
      if (last.atMs - this.quietSince >= quietSeconds * 1000 || !this.patient) break;
      await sleep(pollMs);
      const now = this.reading();
      if (!this.quietBetween(last, now)) {
        this.quietSince = now.atMs;
        lastBusy = `${foreignCores(last, now, ticksPerSecond).toFixed(2)} CPUs: ${busiestOthers(last, now, ticksPerSecond)}`;
      }
      // Past the quietSeconds any look takes, the run is waiting.
      if (now.atMs - started > quietSeconds * 1000) {
        this.waitedMs += now.atMs - last.atMs;
        if (!waiting) log(`the rest of the machine is busy (${lastBusy}): waiting to measure ${what}`);
        waiting = true;
      }
      last = now;
    }
    this.last = last;
    if (waiting) log(`measuring ${what} after ${((last.atMs - started) / 1000).toFixed(0)} s`);
  }

  /**
   * Measures with `work` once the machine is quiet, and again when the rest of the machine took
   * more than maxCores while it ran (while the run may still wait).
   */
  async measure<T>(what: string, work: () => Promise<T>): Promise<T> {
    for (;;) {
      await this.waitForQuiet(what);
      const before = this.reading();
      // Looks at the machine meanwhile too, so that a process the bench starts and leaves within
      // the measurement is seen while it is still its own (Chromium's zygotes, under the browser).
      const watching = setInterval(() => this.reading(), WATCH_MS);
      const result = await work().finally(() => clearInterval(watching));
      const after = this.reading();
      this.last = after;
      const cores = foreignCores(before, after, this.options.ticksPerSecond);
      // Busy meanwhile: the next measurement waits for quietSeconds from now.
      if (cores > this.options.maxCores) this.quietSince = after.atMs;
      if (cores <= this.options.maxCores) {
        this.worstKeptCores = Math.max(this.worstKeptCores, cores);
        return result;
      }
      if (!this.patient) {
        this.takenBusy += 1;
        this.worstKeptCores = Math.max(this.worstKeptCores, cores);
        return result;
      }
      this.retaken += 1;
      this.options.log(
        `${what}: the rest of the machine took ${cores.toFixed(2)} CPUs meanwhile (${busiestOthers(before, after, this.options.ticksPerSecond)}); measuring again`,
      );
    }
  }

  report(): ForeignLoadReport {
    return {
      maxCores: this.options.maxCores,
      waitedSeconds: Math.round(this.waitedMs / 1000),
      retaken: this.retaken,
      takenBusy: this.takenBusy,
      worstKeptCores: Math.round(this.worstKeptCores * 1000) / 1000,
    };
  }
}
