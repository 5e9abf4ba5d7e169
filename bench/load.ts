import os from 'node:os';
import autocannon from 'autocannon';

export interface LoadRequest {
  method?: string;
  path: string;
  /** Called for every request sent: a different path each time (path is then only the first). */
  nextPath?: () => string;
  body?: Buffer | string;
  headers?: Record<string, string>;
}

export interface LoadResult {
  connections: number;
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  /** Responses by status code, to see what the errors were. */
  statuses: Record<string, number>;
  /**
   * The machine's 1-minute load average as the measurement ended (what `uptime` says): the
   * machine is shared, and a figure measured under others' load is not the code's alone.
   */
  loadAverage: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** One load's raw answers: every response's latency and status, and how long it ran. */
export interface LoadSamples {
  connections: number;
  seconds: number;
  latencies: number[];
  statuses: Record<string, number>;
  errors: number;
}

/**
 * The figures of one or more loads at the same concurrency, their samples pooled: slices of a
 * measurement taken in turns with its reference (bench/run.ts) judge as one measurement.
 */
export function summarizeSamples(slices: LoadSamples[]): LoadResult {
  const latencies = slices.flatMap((slice) => slice.latencies).sort((a, b) => a - b);
  const statuses: Record<string, number> = {};
  for (const slice of slices)
    for (const [status, count] of Object.entries(slice.statuses)) statuses[status] = (statuses[status] ?? 0) + count;
  const seconds = slices.reduce((sum, slice) => sum + slice.seconds, 0);
  const round = (value: number) => Math.round(value * 100) / 100;
  return {
    connections: slices[0]?.connections ?? 0,
    requests: latencies.length,
    rps: round(latencies.length / Math.max(seconds, 1e-9)),
    p50: round(percentile(latencies, 50)),
    p95: round(percentile(latencies, 95)),
    p99: round(percentile(latencies, 99)),
    errors: slices.reduce((sum, slice) => sum + slice.errors, 0),
    statuses,
    loadAverage: round(os.loadavg()[0]!),
  };
}

export interface LoadOptions {
  baseUrl: string;
  connections: number;
  durationSeconds: number;
  requests: LoadRequest[];
  headers?: Record<string, string>;
  /**
   * False: measured at once, whatever the rest of the machine does. For a load that runs beside
   * others of the bench: the scenario around them waits and retakes as one (bench/run.ts).
   */
  gated?: boolean;
}

/** Runs a measurement when the machine is quiet, again if it got busy meanwhile (foreign-load.ts). */
export type Gate = <T>(what: string, work: () => Promise<T>) => Promise<T>;
let gate: Gate = (_what, work) => work();

/** Every gated load from now on is measured through `measure` (bench/run.ts sets its ForeignLoadGate). */
export function measureLoadsWith(measure: Gate) {
  gate = measure;
}

/** Drives one scenario and summarizes it. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  return summarizeSamples([await loadSamples(options)]);
}

/**
 * Drives one scenario with autocannon and measures every response's latency itself
 * (autocannon's summary has no p95). The requests cycle per connection.
 */
/** A load as the log names it: its first path and its connections. */
export const loadName = (options: LoadOptions) => `${options.requests[0]?.path ?? 'a load'} @${options.connections}`;

export function loadSamples(options: LoadOptions): Promise<LoadSamples> {
  if (options.gated === false) return loadNow(options);
  return gate(loadName(options), () => loadNow(options));
}

async function loadNow(options: LoadOptions): Promise<LoadSamples> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.baseUrl,
        connections: options.connections,
        duration: options.durationSeconds,
        timeout: 60,
        headers: options.headers,
        requests: options.requests.map((request) => ({
          method: (request.method ?? 'GET') as 'GET',
          path: request.path,
          body: request.body,
          headers: request.headers,
          ...(request.nextPath && { setupRequest: (req: autocannon.Request) => ({ ...req, path: request.nextPath!() }) }),
        })),
      },
      (error: Error | null, summary) => (error ? reject(error) : resolve(summary)),
    );
    instance.on('response', (_client, status, _bytes, responseTime) => {
      latencies.push(responseTime);
      statuses[status] = (statuses[status] ?? 0) + 1;
    });
  });
  return {
    connections: options.connections,
    // What it ran, not what was asked: autocannon stops at its first once-a-second sample after
    // the duration, so a 0.5 s load sends requests for 1 s.
    seconds: result.duration,
    latencies,
    statuses,
    errors: result.non2xx + result.errors + result.timeouts,
  };
}
