/**
 * The pure parts of issue 28 point 4's "verdicts from ratios" (bench/run.ts, bench/budgets.ts):
 * medians and spreads of repeated measurements, /proc/<pid>/stat's CPU times, and whether the
 * bench can pin the load generator and the server to cores of their own.
 */

/** Repeated measurements of one figure: the median judged, the min and max reported. */
export interface Spread {
  median: number;
  min: number;
  max: number;
  /** Every repetition, in the order measured. */
  values: number[];
  /**
   * The reference measured beside each repetition (issue 28 point 4: the ceiling at the
   * same concurrency taken in turns with it, or the calibration right before it), in order: the
   * budget is then the median of the per-repetition ratios.
   */
  refs?: number[];
}

/** The median (the mean of the middle two for an even count); NaN for none. */
export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function spreadOf(values: number[]): Spread {
  if (values.length === 0) throw new Error('spreadOf: no values');
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), values: [...values] };
}

/** Repetitions each with the reference measured beside it. */
export function pairedSpreadOf(values: number[], refs: number[]): Spread {
  if (refs.length !== values.length) throw new Error(`pairedSpreadOf: ${values.length} values, ${refs.length} references`);
  return { ...spreadOf(values), refs: [...refs] };
}

/** Each repetition ÷ its own reference, when every repetition has one; undefined otherwise. */
export function pairedRatios(value: Spread): number[] | undefined {
  const refs = value.refs;
  if (!refs || refs.length !== value.values.length || refs.some((ref) => !(ref > 0))) return undefined;
  return value.values.map((v, i) => v / refs[i]!);
}

/**
 * Of two figures measured repetition by repetition (the profile and its first page of posts),
 * the worse one each time: by its ratio to its own reference when both are paired, else by the
 * raw figure.
 */
export function worseEach(a: Spread, b: Spread): Spread {
  const [ra, rb] = [pairedRatios(a), pairedRatios(b)];
  const n = Math.min(a.values.length, b.values.length);
  const values: number[] = [];
  const refs: number[] = [];
  for (let i = 0; i < n; i++) {
    const takeB = ra && rb ? rb[i]! > ra[i]! : b.values[i]! > a.values[i]!;
    const from = takeB ? b : a;
    values.push(from.values[i]!);
    if (ra && rb) refs.push(from.refs![i]!);
  }
  return ra && rb ? pairedSpreadOf(values, refs) : spreadOf(values);
}

/** One process's line of /proc/<pid>/stat: its name and CPU time in clock ticks (user, system). */
export interface ProcStat {
  pid: number;
  comm: string;
  utime: number;
  stime: number;
}

/**
 * Splits a /proc/<pid>/stat line. The name (field 2) is in parentheses and may hold spaces and
 * parentheses itself, so the fields after it are counted from the last ')': `field(n)` is field n
 * of proc(5), from 1.
 */
export function splitProcStat(text: string): { pid: number; comm: string; field: (n: number) => number } {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) throw new Error(`not a /proc/<pid>/stat line: ${text.slice(0, 80)}`);
  const rest = text
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  // rest[0] is field 3 (state), so field n is rest[n - 3].
  return { pid: Number(text.slice(0, open).trim()), comm: text.slice(open + 1, close), field: (n) => Number(rest[n - 3]) };
}

/** Parses /proc/<pid>/stat: utime and stime are fields 14 and 15 (proc(5)). */
export function parseProcStat(text: string): ProcStat {
  const { pid, comm, field } = splitProcStat(text);
  const utime = field(14);
  const stime = field(15);
  if (!Number.isFinite(pid) || !Number.isFinite(utime) || !Number.isFinite(stime))
    throw new Error(`unparsable /proc/<pid>/stat: ${text.slice(0, 80)}`);
  return { pid, comm, utime, stime };
}

/**
 * The CPU milliseconds spent between two samples of a set of processes (pid → ticks): a process
 * that appeared in between counts from zero (it started then), one that exited is lost (the
 * bench keeps its database connections open while measuring, so none does).
 */
export function cpuMsBetween(before: Map<number, number>, after: Map<number, number>, ticksPerSecond: number): number {
  let ticks = 0;
  for (const [pid, now] of after) ticks += Math.max(0, now - (before.get(pid) ?? 0));
  return (ticks * 1000) / ticksPerSecond;
}

/** Where the bench runs what: recorded in results.json. */
export interface Pinning {
  pinned: boolean;
  /** The load generator (the bench process, autocannon, the slow-query prober). */
  loadCpu?: number;
  /** The server (with the embedded database's thread) and the calibration workload; PostgreSQL's backends only with --pin-database. */
  serverCpu?: number;
  reason: string;
}

/**
 * Pins when taskset exists and there are at least two CPUs: the load generator to the first,
 * the server to the second, so the two do not take turns on one core while measuring; the
 * remaining CPUs (if any) are left to the rest of the machine.
 */
export function pinningFor(cpus: number, taskset: string | undefined, disabled = false): Pinning {
  if (disabled) return { pinned: false, reason: 'pinning turned off (--unpinned)' };
  if (!taskset) return { pinned: false, reason: 'no taskset on this machine: unpinned' };
  if (cpus < 2) return { pinned: false, reason: `${cpus} CPU: nothing to pin apart` };
  return {
    pinned: true,
    loadCpu: 0,
    serverCpu: 1,
    reason: `taskset: load generator on CPU 0, the server's event loop on CPU 1 (of ${cpus}); its other threads (the embedded database's, libuv's, V8's) and PostgreSQL where the OS puts them`,
  };
}

/** A ratio as the tables print it. */
export const times = (ratio: number) => `${ratio < 1 ? ratio.toFixed(3) : ratio < 10 ? ratio.toFixed(2) : ratio.toFixed(1)}×`;
