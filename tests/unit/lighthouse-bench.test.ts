import type { Result } from 'lighthouse';
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';
import { describe, expect, it } from 'vitest';
import {
  computeMedianRunIndex,
  cpuMultiplierFor,
  failingAudits,
  lighthouseBudgets,
  medianByScore,
  type LighthouseEntry,
  type LighthouseRun,
} from '../../bench/lighthouse.js';

describe('cpuMultiplierFor: the Lighthouse CPU slowdown calculator', () => {
  it.each([
    [150, 1],
    [800, 2],
    [1300, 3],
    [1533, 4],
    [1766, 5],
    [2000, 6],
    [475, 1.5],
    [1050, 2.5],
  ])('benchmarkIndex %d → %d×', (index, multiplier) => {
    const result = cpuMultiplierFor(index);
    expect(result.tooSlow).toBe(false);
    expect(result.multiplier).toBeCloseTo(multiplier, 1);
  });

  it('a machine below 150 is too slow to emulate the phone: 1×, flagged', () => {
    expect(cpuMultiplierFor(120)).toEqual({ multiplier: 1, tooSlow: true });
    expect(cpuMultiplierFor(Number.NaN)).toEqual({ multiplier: 1, tooSlow: true });
  });
});

describe('the median run', () => {
  it('is the middle score of three, wherever it sits', () => {
    expect(medianByScore([{ performance: 91 }, { performance: 55 }, { performance: 70 }])).toBe(2);
    expect(medianByScore([{ performance: 70 }, { performance: 91 }, { performance: 55 }])).toBe(0);
  });

  it('breaks a tie by the rank it is given', () => {
    const runs = [{ performance: 80 }, { performance: 80 }, { performance: 80 }];
    expect(medianByScore(runs, (run) => (run === runs[2] ? 0 : 1))).toBe(2);
  });

  it("computeMedianRunIndex picks the run Lighthouse's own computeMedianRun picks", () => {
    const sets = [
      [
        [1000, 5000],
        [1200, 4000],
        [900, 7000],
      ],
      [
        [2000, 2500],
        [1500, 9000],
        [1800, 3000],
      ],
      [
        [800, 3000],
        [800, 3000],
        [900, 2900],
      ],
      // Equally near the medians: the lower TTI.
      [
        [1000, 5000],
        [1000, 3000],
      ],
    ];
    for (const set of sets) {
      const runs = set.map(([fcpMs, ttiMs]) => ({ fcpMs: fcpMs!, ttiMs: ttiMs! }));
      const lhrs = runs.map(
        (run) =>
          ({
            audits: { 'first-contentful-paint': { numericValue: run.fcpMs }, interactive: { numericValue: run.ttiMs } },
          }) as unknown as Result,
      );
      expect(computeMedianRunIndex(runs)).toBe(lhrs.indexOf(computeMedianRun(lhrs)));
    }
  });
});

const run = (over: Partial<LighthouseRun>): LighthouseRun => ({
  performance: 100,
  accessibility: 100,
  bestPractices: 100,
  fcpMs: 800,
  lcpMs: 1000,
  tbtMs: 0,
  cls: 0,
  speedIndexMs: 900,
  ttiMs: 1500,
  benchmarkIndex: 1000,
  multiplier: 2.4,
  underpowered: false,
  finalUrl: 'http://127.0.0.1/',
  loadAverage: 1,
  ...over,
});
const entry = (preset: 'mobile' | 'desktop', runs: LighthouseRun[], median: number): LighthouseEntry => ({
  page: 'home feed',
  path: '/',
  preset,
  runs,
  median,
  sameAsComputeMedianRun: true,
  failing: { accessibility: [], bestPractices: [] },
});

describe('lighthouseBudgets', () => {
  const check = (entries: LighthouseEntry[]) =>
    Object.fromEntries(
      lighthouseBudgets({ dataset: '10k', lighthouseVersion: '12', chromiumVersion: '1', entries }).map((b) => [b.name, b.ok]),
    );

  it('judges the median run: mobile score ≥ 90, TBT ≤ 200 ms, LCP ≤ 2.5 s; a11y 100; best practices ≥ 95', () => {
    const mobile = entry('mobile', [run({ performance: 40 }), run({ performance: 90, tbtMs: 200, lcpMs: 2500, bestPractices: 95 })], 1);
    expect(check([mobile])).toEqual({
      'Lighthouse home feed (mobile) performance': true,
      'Lighthouse home feed (mobile) TBT': true,
      'Lighthouse home feed (mobile) LCP': true,
      'Lighthouse home feed (mobile) accessibility': true,
      'Lighthouse home feed (mobile) best practices': true,
    });
    const missed = entry('mobile', [run({ performance: 89, tbtMs: 201, lcpMs: 2501, accessibility: 99, bestPractices: 94 })], 0);
    expect(Object.values(check([missed]))).toEqual([false, false, false, false, false]);
  });

  it('asks 95 of the desktop score and no TBT or LCP there', () => {
    expect(check([entry('desktop', [run({ performance: 94, tbtMs: 900, lcpMs: 9000 })], 0)])).toEqual({
      'Lighthouse home feed (desktop) performance': false,
      'Lighthouse home feed (desktop) accessibility': true,
      'Lighthouse home feed (desktop) best practices': true,
    });
  });

  it('names the dataset measured', () => {
    const [budget] = lighthouseBudgets({
      dataset: '10k',
      lighthouseVersion: '12',
      chromiumVersion: '1',
      entries: [entry('desktop', [run({})], 0)],
    });
    expect(budget?.dataset).toBe('10k');
  });
});

describe('failingAudits', () => {
  it('lists the failed audits of a category with their elements, and nothing manual, informative or passed', () => {
    const lhr = {
      categories: {
        accessibility: {
          auditRefs: [{ id: 'color-contrast' }, { id: 'image-alt' }, { id: 'manual-check' }, { id: 'list' }],
        },
      },
      audits: {
        'color-contrast': {
          title: 'Contrast',
          score: 0,
          scoreDisplayMode: 'binary',
          details: { items: [{ node: { selector: 'a.tab', snippet: '<a class="tab">', explanation: 'ratio 3.2', nodeLabel: 'Boards' } }] },
        },
        'image-alt': { title: 'Alt', score: 1, scoreDisplayMode: 'binary' },
        'manual-check': { title: 'Manual', score: null, scoreDisplayMode: 'manual' },
        list: { title: 'Lists', score: null, scoreDisplayMode: 'notApplicable' },
      },
    } as unknown as Result;
    expect(failingAudits(lhr, 'accessibility')).toEqual([
      {
        id: 'color-contrast',
        title: 'Contrast',
        score: 0,
        displayValue: undefined,
        items: [{ selector: 'a.tab', snippet: '<a class="tab">', label: 'Boards', explanation: 'ratio 3.2' }],
      },
    ]);
  });
});
