import { describe, expect, it } from 'vitest';
import { checkBudgets, LIMITS, QUIET, ratioBudget, uncachedBudgeted, type BenchNumbers, type RunNumbers } from '../../bench/budgets.js';
import {
  cpuMsBetween,
  median,
  pairedRatios,
  pairedSpreadOf,
  parseProcStat,
  pinningFor,
  spreadOf,
  worseEach,
  type Spread,
} from '../../bench/ratios.js';
import { summarizeSamples } from '../../bench/load.js';

const spread = (...values: number[]): Spread => spreadOf(values);

describe('median and spread of repeated measurements', () => {
  it('judges the middle value, reports the extremes, keeps the order measured', () => {
    expect(spreadOf([30, 10, 20])).toEqual({ median: 20, min: 10, max: 30, values: [30, 10, 20] });
  });

  it('takes the mean of the middle two for an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('is not moved by one outlier of three', () => {
    expect(median([5, 5.2, 400])).toBe(5.2);
  });

  it('refuses no measurements', () => {
    expect(() => spreadOf([])).toThrow();
    expect(median([])).toBeNaN();
  });
});

describe('/proc/<pid>/stat', () => {
  // A real line's shape (proc(5)); utime (14) = 1234, stime (15) = 56.
  const line = (comm: string) =>
    `4242 (${comm}) S 1 4242 4242 0 -1 4194560 5000 0 0 0 1234 56 0 0 20 0 11 0 100 1000000 2000 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0`;

  it('reads the CPU times in clock ticks', () => {
    expect(parseProcStat(line('node'))).toEqual({ pid: 4242, comm: 'node', utime: 1234, stime: 56 });
  });

  it('counts fields from the last parenthesis: names may hold spaces and parentheses', () => {
    expect(parseProcStat(line('postgres: a (b) c'))).toMatchObject({ comm: 'postgres: a (b) c', utime: 1234, stime: 56 });
  });

  it('refuses what is not a stat line', () => {
    expect(() => parseProcStat('hello')).toThrow();
  });

  it('adds what every process spent between two samples; a new process counts from zero', () => {
    const before = new Map([
      [1, 100],
      [2, 50],
    ]);
    const after = new Map([
      [1, 150],
      [2, 60],
      [3, 5],
    ]);
    expect(cpuMsBetween(before, after, 100)).toBe(650);
  });
});

describe('pinning', () => {
  it('pins the load generator to CPU 0 and the server to CPU 1 with taskset and two CPUs', () => {
    expect(pinningFor(2, '/usr/bin/taskset')).toMatchObject({ pinned: true, loadCpu: 0, serverCpu: 1 });
  });

  it('runs unpinned without taskset, on one CPU, or when told to, and says why', () => {
    for (const pinning of [pinningFor(2, undefined), pinningFor(1, '/usr/bin/taskset'), pinningFor(8, '/usr/bin/taskset', true)]) {
      expect(pinning.pinned).toBe(false);
      expect(pinning.loadCpu).toBeUndefined();
      expect(pinning.reason).not.toBe('');
    }
  });
});

/** A run whose references are the ones the limits were derived from, scaled by `speed` (2: a machine twice as slow). */
function run(speed: number, figures: Partial<RunNumbers> = {}): RunNumbers {
  return {
    db: 'postgres',
    dataset: '1m',
    size: 'large',
    reference: {
      ceilingP99At16: spread(4 * speed, 5 * speed, 6 * speed),
      ceilingP95At16: spread(3 * speed),
      ceilingRpsAt16: spread(2000 / speed),
      calCpuMs: spread(33 * speed),
    },
    ...figures,
  };
}
const bench = (...runs: RunNumbers[]): BenchNumbers => ({
  runs,
  initialJsGzip: 100 * 1024,
  pipeline12mp: { ms: spread(200, 190, 230), calWallMs: 36 },
});
const verdict = (numbers: BenchNumbers, name: string) => {
  const found = checkBudgets(numbers).find((b) => b.name === name);
  if (!found) throw new Error(`no budget ${name}`);
  return found;
};

describe('ratio budgets', () => {
  it('judges the median against the median of the reference, and reports the spread and the raw figures', () => {
    const result = ratioBudget('x', spread(10, 30, 20), { spread: spread(4, 5, 6), name: 'ceiling p99 @16' }, 5);
    expect(result).toMatchObject({ ok: true, ratio: 4, limitRatio: 5, ratioSpread: [2, 6] });
    expect(result.raw).toBe('20.0 ms (10.0 ms–30.0 ms)');
    expect(result.reference).toBe('ceiling p99 @16 5.0 ms (4.0 ms–6.0 ms)');
    expect(ratioBudget('x', spread(26), { spread: spread(5), name: 'r' }, 5).ok).toBe(false);
  });

  it('gives the same verdict on a machine twice as slow (every figure and reference doubled)', () => {
    const figures = (speed: number) =>
      run(speed, {
        feedP99At16: spread(20 * speed, 22 * speed, 19 * speed),
        uncachedAt16: { searchPostsP95: spread(60 * speed) },
        uncachedCpuAt16: { searchPostsP95: spread(4.7 * speed) },
      });
    const fast = checkBudgets(bench(figures(1)));
    const slow = checkBudgets(bench(figures(2)));
    expect(slow.map((b) => [b.name, b.ok])).toEqual(fast.map((b) => [b.name, b.ok]));
    // The search at 1M on PostgreSQL: 4.7 ms of CPU per query misses either way.
    expect(fast.find((b) => b.name === 'search posts CPU per request @16, caches off (postgres, 1m)')?.ok).toBe(false);
  });

  it('at least for throughput: the feed against the static ceiling', () => {
    const ok = verdict(bench(run(1, { feedRpsAt16: spread(1000) })), 'feed throughput / static ceiling (postgres, 1m)');
    expect(ok).toMatchObject({ ok: true, ratio: 0.5 });
    const slow = verdict(bench(run(1, { feedRpsAt16: spread(400) })), 'feed throughput / static ceiling (postgres, 1m)');
    expect(slow.ok).toBe(false);
  });

  it('budgets the caches-off rows in latency and in CPU per request, named by database and dataset', () => {
    const names = checkBudgets(
      bench(
        run(1, {
          uncachedAt16: { feedP99: spread(10), postDetailP99: spread(10) },
          uncachedCpuAt16: { feedP99: spread(1), postDetailP99: spread(1) },
        }),
      ),
    ).map((b) => b.name);
    expect(names).toContain('home feed p99 @16, caches off (postgres, 1m)');
    expect(names).toContain('home feed CPU per request @16, caches off (postgres, 1m)');
    expect(names).toContain('post detail CPU per request @16, caches off (postgres, 1m)');
    expect(uncachedBudgeted('postgres', 'large')).toEqual([
      'home feed',
      'profile',
      'profile posts',
      'post detail',
      'search posts',
      'related posts',
    ]);
    expect(uncachedBudgeted('postgres', 'default')).toEqual([]);
  });

  it('judges the slow-query GET against the statement, the pipeline against the calibration', () => {
    const pglite: RunNumbers = { ...run(1), db: 'pglite', dataset: '100k', size: 'default' };
    const numbers = bench({ ...pglite, feedDuringSlowQuery: { maxMs: spread(12, 40, 11), statementAloneMs: 1200 } });
    expect(verdict(numbers, 'GET /api/posts max during a slow query (pglite, 100k)')).toMatchObject({ ok: true, ratio: 0.01 });
    const missed = bench({ ...pglite, feedDuringSlowQuery: { maxMs: spread(900, 950, 1000), statementAloneMs: 1200 } });
    expect(verdict(missed, 'GET /api/posts max during a slow query (pglite, 100k)').ok).toBe(false);
    expect(verdict(numbers, '12-MP JPEG through the server pipeline').ratio).toBeCloseTo(200 / 36, 3);
    expect(LIMITS.pipeline * QUIET.calWallMs).toBeLessThanOrEqual(400);
  });
});

describe('repetitions paired with the reference measured beside each', () => {
  it('keeps each repetition with its own reference, and refuses a count that does not match', () => {
    expect(pairedSpreadOf([30, 10, 20], [15, 5, 4])).toEqual({ median: 20, min: 10, max: 30, values: [30, 10, 20], refs: [15, 5, 4] });
    expect(pairedRatios(pairedSpreadOf([30, 10, 20], [15, 5, 4]))).toEqual([2, 2, 5]);
    expect(() => pairedSpreadOf([1, 2], [1])).toThrow();
    expect(pairedRatios(spread(1, 2))).toBeUndefined();
    expect(pairedRatios({ ...spread(1, 2), refs: [1, 0] })).toBeUndefined();
  });

  it('judges the median of the per-repetition ratios, not the ratio of the medians', () => {
    // The machine got 10× busier for the second repetition: the figure and the ceiling both moved.
    const value = pairedSpreadOf([20, 200, 24], [10, 100, 8]);
    const result = ratioBudget('x', value, { spread: spread(10, 100, 8), name: 'ceiling p99 @16' }, 2.5);
    expect(result).toMatchObject({ ok: true, ratio: 2, ratioSpread: [2, 3] });
    expect(result.reference).toBe('ceiling p99 @16, beside each 10.0 ms (8.0 ms–100.0 ms)');
    // Unpaired, the same figures against the reference's median would miss: 24 / 10.
    expect(ratioBudget('x', spreadOf(value.values), { spread: spread(10, 100, 8), name: 'r' }, 2.3).ok).toBe(false);
    expect(ratioBudget('x', value, { spread: spread(10, 100, 8), name: 'r' }, 2.3).ok).toBe(true);
  });

  it('gives the same verdict for every budget when the load changes between repetitions', () => {
    const loads = [
      [1, 1, 1],
      [1, 4, 2.5],
      [6, 1.5, 3],
    ];
    const figures = ([a, b, c]: number[]) => {
      const at = (x: number, y: number, z: number, ref: number) => pairedSpreadOf([x * a!, y * b!, z * c!], [ref * a!, ref * b!, ref * c!]);
      return run(1, {
        feedP99At16: at(20, 22, 19, 14),
        profileP99At16: at(30, 26, 27, 14),
        feedRpsAt16: at(600, 500, 700, 2000),
        uncachedAt16: { searchPostsP95: at(60, 55, 58, 11) },
        uncachedCpuAt16: { searchPostsP95: at(4.7, 4.6, 4.8, 60), feedP99: at(0.5, 0.6, 0.5, 60) },
      });
    };
    // The same ratios, hence the same verdicts, however each repetition's load moved both sides.
    const each = loads.map((load) => checkBudgets(bench(figures(load))).map((b) => [b.name, b.ok, b.ratio]));
    expect(each[1]).toEqual(each[0]);
    expect(each[2]).toEqual(each[0]);
    expect(new Set(each[0]!.map(([, ok]) => ok))).toEqual(new Set([true, false]));
  });

  it('takes the worse of two paired figures repetition by repetition, by ratio', () => {
    const profile = pairedSpreadOf([10, 50, 12], [5, 40, 4]);
    const posts = pairedSpreadOf([14, 45, 6], [5, 10, 4]);
    expect(worseEach(profile, posts)).toMatchObject({ values: [14, 45, 12], refs: [5, 10, 4] });
    expect(worseEach(spread(10, 50), spread(14, 45))).toEqual(spreadOf([14, 50]));
  });
});

describe('slices of a measurement taken in turns with its reference', () => {
  const slice = (latencies: number[], seconds: number, statuses: Record<string, number> = { 200: latencies.length }) => ({
    connections: 16,
    seconds,
    latencies,
    statuses,
    errors: 0,
  });

  it('judges the pooled samples: one slow slice moves the p99 as it would in one long load', () => {
    const quick = Array.from({ length: 99 }, () => 1);
    const result = summarizeSamples([slice(quick.slice(0, 50), 0.5), slice([...quick.slice(50), 400], 0.5)]);
    expect(result.requests).toBe(100);
    expect(result.p50).toBe(1);
    expect(result.p99).toBe(1);
    const stalled = summarizeSamples([slice(quick.slice(0, 49), 0.5), slice([...quick.slice(49), 400, 400], 0.5)]);
    expect(stalled.p99).toBe(400);
  });

  it('adds requests, seconds and statuses across slices', () => {
    const result = summarizeSamples([slice([1, 2], 0.5, { 200: 1, 503: 1 }), slice([3, 4, 5, 6], 1, { 200: 4 })]);
    expect(result.rps).toBe(4);
    expect(result.statuses).toEqual({ 200: 5, 503: 1 });
    expect(result.p50).toBe(3);
  });
});
