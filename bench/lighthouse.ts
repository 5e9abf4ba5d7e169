/**
 * Issue 28, point 5: the phone's first view, measured by Lighthouse (12.2.3: 13 needs Node 22).
 *
 * Sign-in (signed out), the home feed, a post page and a profile (signed in), each with
 * Lighthouse's mobile preset (its default config) and its desktop preset, 3 runs per page and
 * preset in Debian's Chromium (a fresh browser per run). The simulated phone is the same phone on
 * any machine: every mobile run's CPU slowdown is set from the benchmarkIndex Lighthouse measured
 * in that run (cpuMultiplierFor; runOnce gathers, then audits with it). The run whose
 * performance score is the median stands for its page and preset; its figures are budgeted
 * (lighthouseBudgets).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import lighthouse, { desktopConfig, type Config, type Result } from 'lighthouse';
import * as constants from 'lighthouse/core/config/constants.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.js';
import { freePort } from '../tests/helpers/services.js';
import type { BudgetResult } from './budgets.js';
import type { Gate } from './load.js';

export type Preset = 'mobile' | 'desktop';
export const PRESETS: Preset[] = ['mobile', 'desktop'];

export interface LighthouseTarget {
  /** As the table and budget names say it. */
  name: string;
  path: string;
  signedIn: boolean;
  /** Where the audited page must have ended: a signed-in page that fell back to /login measured the wrong screen. */
  expectPath: string;
}

/** The four screens issue 28 names: sign-in signed out, the rest as the signed-in student sees them. */
export function lighthouseTargets(postId: string, username: string): LighthouseTarget[] {
  return [
    { name: 'sign-in', path: '/login', signedIn: false, expectPath: '/login' },
    { name: 'home feed', path: '/', signedIn: true, expectPath: '/' },
    { name: 'post page', path: `/post/${postId}`, signedIn: true, expectPath: `/post/${postId}` },
    { name: 'profile', path: `/${username}`, signedIn: true, expectPath: `/${username}` },
  ];
}

/**
 * The CPU slowdown that makes this machine Lighthouse's reference phone, from its benchmarkIndex.
 *
 * Lighthouse's docs/throttling.md ("Calibrating the CPU slowdown") send you to the Lighthouse CPU
 * slowdown calculator (https://lighthouse-cpu-throttling-calculator.vercel.app/, source
 * github.com/patrickhulce/lighthouse-cpu-throttling-calculator, pages/index.js,
 * computeMultiplierMessages), which is piecewise linear: 150 → 1×, 800 → 2×, 1300 → 3×, then
 * +1× per 233 (1533 → 4×, the default, "a typical high-end desktop"; 2000 → 6×). Below 150 the
 * calculator says the machine is too slow to emulate the phone: we run at 1× and say so.
 */
export function cpuMultiplierFor(benchmarkIndex: number): { multiplier: number; tooSlow: boolean } {
  if (!Number.isFinite(benchmarkIndex) || benchmarkIndex < 150) return { multiplier: 1, tooSlow: true };
  let multiplier: number;
  if (benchmarkIndex >= 1300) multiplier = 3 + (benchmarkIndex - 1300) / 233;
  else if (benchmarkIndex >= 800) multiplier = 2 + (benchmarkIndex - 800) / 500;
  else multiplier = 1 + (benchmarkIndex - 150) / 650;
  return { multiplier: Math.round(multiplier * 100) / 100, tooSlow: false };
}

/**
 * The desktop preset keeps its own 1× (constants.throttling.desktopDense4G): it stands for
 * "this desktop", and no slowdown can make a machine faster than it is. Its benchmarkIndex is
 * recorded all the same; below 1000 (the low end of "low-end desktop" in docs/throttling.md's
 * table) the desktop figures are pessimistic and the table says so.
 */
export const DESKTOP_CLASS_INDEX = 1000;

/** What one Lighthouse run measured. Scores as the report shows them (0–100). */
export interface LighthouseRun {
  performance: number;
  accessibility: number;
  bestPractices: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  speedIndexMs: number;
  ttiMs: number;
  /** Lighthouse's own benchmarkIndex of the run (lhr.environment.benchmarkIndex); it set the mobile multiplier. */
  benchmarkIndex: number;
  multiplier: number;
  /** The calibration found the machine too slow for the phone (mobile), or below desktop class (desktop). */
  underpowered: boolean;
  finalUrl: string;
  /** The 1-minute load average when the run started. */
  loadAverage: number;
  report?: string;
}

export interface FailingAudit {
  id: string;
  title: string;
  score: number | null;
  displayValue?: string;
  /** The elements or resources at fault, as the report lists them (selector, snippet, explanation, url…). */
  items: Array<Record<string, unknown>>;
}

export interface LighthouseEntry {
  page: string;
  path: string;
  preset: Preset;
  runs: LighthouseRun[];
  /** Index into runs of the median run by performance score. */
  median: number;
  /** Whether Lighthouse's computeMedianRun (FCP and TTI) picks the same run. */
  sameAsComputeMedianRun: boolean;
  /** Failing accessibility and best-practices audits of the median run. */
  failing: { accessibility: FailingAudit[]; bestPractices: FailingAudit[] };
}

export interface LighthouseNumbers {
  /** The dataset the pages were measured on. */
  dataset: string;
  lighthouseVersion: string;
  chromiumVersion: string;
  entries: LighthouseEntry[];
}

/**
 * The median run by performance score: the middle score of the runs (with an even count, the
 * lower middle); of the runs with that score, the one `tieRank` ranks lowest (bench: the run
 * Lighthouse's computeMedianRun picks), then the first.
 */
export function medianByScore<T extends { performance: number }>(runs: T[], tieRank: (run: T) => number = () => 0): number {
  if (runs.length === 0) throw new Error('no runs');
  const scores = runs.map((run) => run.performance).sort((a, b) => a - b);
  const median = scores[Math.floor((scores.length - 1) / 2)]!;
  return runs
    .map((run, index) => ({ run, index }))
    .filter(({ run }) => run.performance === median)
    .sort((a, b) => tieRank(a.run) - tieRank(b.run) || a.index - b.index)[0]!.index;
}

/**
 * Lighthouse's computeMedianRun (lighthouse/core/lib/median-run.js): the run nearest the median
 * FCP and the median TTI (Euclidean distance), ties to the lower TTI.
 */
export function computeMedianRunIndex(runs: Array<{ fcpMs: number; ttiMs: number }>): number {
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = sorted.length / 2;
    return sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  };
  const fcp = median(runs.map((run) => run.fcpMs));
  const tti = median(runs.map((run) => run.ttiMs));
  const distance = (run: { fcpMs: number; ttiMs: number }) => (fcp - run.fcpMs) ** 2 + (tti - run.ttiMs) ** 2;
  return runs.map((run, index) => ({ run, index })).sort((a, b) => distance(a.run) - distance(b.run) || a.run.ttiMs - b.run.ttiMs)[0]!
    .index;
}

/** Issue 28, point 5's budgets, per page on the median run. */
export function lighthouseBudgets(numbers: LighthouseNumbers): BudgetResult[] {
  const results: BudgetResult[] = [];
  const dataset = numbers.dataset;
  for (const entry of numbers.entries) {
    const run = entry.runs[entry.median]!;
    const add = (what: string, limit: string, actual: string, ok: boolean) =>
      results.push({ name: `Lighthouse ${entry.page} (${entry.preset}) ${what}`, limit, actual, ok, dataset });
    const minScore = entry.preset === 'mobile' ? 90 : 95;
    add('performance', `≥ ${minScore}`, String(run.performance), run.performance >= minScore);
    if (entry.preset === 'mobile') {
      add('TBT', '≤ 200 ms', `${Math.round(run.tbtMs)} ms`, run.tbtMs <= 200);
      add('LCP', '≤ 2500 ms', `${Math.round(run.lcpMs)} ms`, run.lcpMs <= 2500);
    }
    add('accessibility', '= 100', String(run.accessibility), run.accessibility >= 100);
    add('best practices', '≥ 95', String(run.bestPractices), run.bestPractices >= 95);
  }
  return results;
}

/** The markdown table the bench prints. */
export function lighthouseTable(numbers: LighthouseNumbers): string[] {
  const lines = [
    `Lighthouse ${numbers.lighthouseVersion}, ${numbers.chromiumVersion}, dataset ${numbers.dataset}; median of ${numbers.entries[0]?.runs.length ?? 0} runs by performance score`,
    '',
    '| page | preset | score (median, min–max) | LCP ms | TBT ms | CLS | a11y | best practices | benchmarkIndex | CPU multiplier | load |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const entry of numbers.entries) {
    const run = entry.runs[entry.median]!;
    const scores = entry.runs.map((r) => r.performance);
    const flag = run.underpowered ? (entry.preset === 'mobile' ? ' (too slow to emulate)' : ' (below desktop class)') : '';
    lines.push(
      `| ${entry.page} | ${entry.preset} | ${run.performance} (${Math.min(...scores)}–${Math.max(...scores)}) | ${Math.round(run.lcpMs)} | ` +
        `${Math.round(run.tbtMs)} | ${run.cls.toFixed(3)} | ${run.accessibility} | ${run.bestPractices} | ` +
        `${Math.round(run.benchmarkIndex)} | ${run.multiplier}×${flag} | ${run.loadAverage.toFixed(2)} |`,
    );
  }
  return lines;
}

// ---------------------------------------------------------------- measuring

const score = (lhr: Result, category: string) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
const numeric = (lhr: Result, audit: string) => lhr.audits[audit]?.numericValue ?? Number.NaN;

/** The audits of a category that failed (manual, informative and not-applicable ones never count). */
export function failingAudits(lhr: Result, category: string): FailingAudit[] {
  const refs = lhr.categories[category]?.auditRefs ?? [];
  const failing: FailingAudit[] = [];
  for (const ref of refs) {
    const audit = lhr.audits[ref.id];
    if (!audit || audit.score === null || audit.score >= 1) continue;
    if (['manual', 'informative', 'notApplicable'].includes(audit.scoreDisplayMode)) continue;
    const details = audit.details as { items?: Array<Record<string, unknown>> } | undefined;
    const items = (details?.items ?? []).map((item) => {
      const node = item.node as { selector?: string; snippet?: string; explanation?: string; nodeLabel?: string } | undefined;
      return node ? { selector: node.selector, snippet: node.snippet, label: node.nodeLabel, explanation: node.explanation } : item;
    });
    failing.push({ id: ref.id, title: audit.title, score: audit.score, displayValue: audit.displayValue, items });
  }
  return failing;
}

/** The config of one run: the preset, with the mobile preset's CPU slowdown as given. */
function configFor(preset: Preset, multiplier: number): Config {
  const categories = { onlyCategories: ['performance', 'accessibility', 'best-practices'] };
  if (preset === 'desktop') return { ...desktopConfig, settings: { ...desktopConfig.settings, ...categories } };
  return {
    extends: 'lighthouse:default',
    settings: { ...categories, throttling: { ...constants.throttling.mobileSlow4G, cpuSlowdownMultiplier: multiplier } },
  };
}

/**
 * The mobile preset's gathering runs with Lighthouse's default 4×: under simulated throttling
 * the multiplier only scales the requestIdleCallback deadlines the page sees while it loads
 * (prepare.js, wrapRequestIdleCallback); the simulation that turns the trace into the phone's
 * metrics (Lantern) happens when auditing, with the calibrated multiplier.
 */
const GATHER_MULTIPLIER = constants.throttling.mobileSlow4G.cpuSlowdownMultiplier;

/**
 * One Lighthouse run in a fresh Chromium. Mobile: gather (Lighthouse measures the machine's
 * benchmarkIndex there, before loading the page), set the CPU slowdown from that very index,
 * then audit the gathered artifacts (-G then -A, as the CLI calls them). Desktop: one pass at 1×.
 */
async function runOnce(
  baseUrl: string,
  target: LighthouseTarget,
  preset: Preset,
  cookie: string,
): Promise<{ run: LighthouseRun; lhr: Result; json: string; chromium: string }> {
  const port = await freePort();
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`],
  });
  try {
    const url = `${baseUrl}${target.path}`;
    const flags = {
      port,
      output: 'json' as const,
      logLevel: 'error' as const,
      ...(target.signedIn && { extraHeaders: { Cookie: cookie } }),
    };
    const load = os.loadavg()[0]!;
    let result: Awaited<ReturnType<typeof lighthouse>>;
    if (preset === 'desktop') {
      result = await lighthouse(url, flags, configFor('desktop', 1));
    } else {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dormboard-lighthouse-'));
      try {
        await lighthouse(url, { ...flags, gatherMode: dir }, configFor('mobile', GATHER_MULTIPLIER));
        const file = path.join(dir, 'artifacts.json');
        const artifacts = JSON.parse(fs.readFileSync(file, 'utf8')) as {
          BenchmarkIndex: number;
          settings: { throttling: { cpuSlowdownMultiplier: number } };
        };
        const { multiplier } = cpuMultiplierFor(artifacts.BenchmarkIndex);
        // Auditing insists on the settings it gathered with; the multiplier is the one that
        // changes what the gathered artifacts mean, so it is changed in both.
        artifacts.settings.throttling.cpuSlowdownMultiplier = multiplier;
        fs.writeFileSync(file, JSON.stringify(artifacts));
        result = await lighthouse(url, { ...flags, auditMode: dir }, configFor('mobile', multiplier));
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
    if (!result) throw new Error(`Lighthouse returned nothing for ${target.path}`);
    const lhr = result.lhr;
    if (lhr.runtimeError)
      throw new LighthouseRuntimeError(`Lighthouse ${target.path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const finalUrl = lhr.finalDisplayedUrl;
    if (new URL(finalUrl).pathname !== target.expectPath) {
      throw new Error(`Lighthouse ${target.name} ended on ${finalUrl}, not ${target.expectPath}: it measured the wrong screen`);
    }
    const run: LighthouseRun = {
      performance: score(lhr, 'performance'),
      accessibility: score(lhr, 'accessibility'),
      bestPractices: score(lhr, 'best-practices'),
      fcpMs: numeric(lhr, 'first-contentful-paint'),
      lcpMs: numeric(lhr, 'largest-contentful-paint'),
      tbtMs: numeric(lhr, 'total-blocking-time'),
      cls: numeric(lhr, 'cumulative-layout-shift'),
      speedIndexMs: numeric(lhr, 'speed-index'),
      ttiMs: numeric(lhr, 'interactive'),
      benchmarkIndex: lhr.environment.benchmarkIndex,
      multiplier: lhr.configSettings.throttling.cpuSlowdownMultiplier ?? 1,
      underpowered:
        preset === 'mobile'
          ? cpuMultiplierFor(lhr.environment.benchmarkIndex).tooSlow
          : lhr.environment.benchmarkIndex < DESKTOP_CLASS_INDEX,
      finalUrl,
      loadAverage: load,
    };
    return { run, lhr, json: result.report as string, chromium: browser.version() };
  } finally {
    await browser.close();
  }
}

/**
 * Lighthouse now and then fails to record a trace on this loaded machine (NO_NAVSTART,
 * NO_FCP): such a run is run again, twice at most. A page that ended on the wrong screen is no
 * flake and fails at once.
 */
async function runWithRetries(...args: [...Parameters<typeof runOnce>, (message: string) => void]) {
  const [baseUrl, target, preset, cookie, log] = args;
  for (let attempt = 1; ; attempt++) {
    try {
      return await runOnce(baseUrl, target, preset, cookie);
    } catch (error) {
      if (!(error instanceof LighthouseRuntimeError) || attempt >= 3) throw error;
      log(`lighthouse ${target.name} ${preset}: ${error.message}; running it again`);
    }
  }
}

class LighthouseRuntimeError extends Error {}

/**
 * Runs every target with both presets, `runs` times each, and writes each run's full JSON
 * report to `reportsDir` (page-preset-runN.json; the median run's also as page-preset.json),
 * and what it measured as summary.json.
 */
export async function measureLighthouse(options: {
  baseUrl: string;
  /** The signed-in student's session cookie ("name=value"). */
  cookie: string;
  targets: LighthouseTarget[];
  dataset: string;
  reportsDir: string;
  runs?: number;
  log?: (message: string) => void;
  /** Each run once the rest of the machine is quiet, again if it got busy meanwhile (foreign-load.ts). */
  whenQuiet?: Gate;
}): Promise<LighthouseNumbers> {
  const runs = options.runs ?? 3;
  const log = options.log ?? (() => {});
  const whenQuiet: Gate = options.whenQuiet ?? ((_what, work) => work());
  fs.mkdirSync(options.reportsDir, { recursive: true });
  const entries: LighthouseEntry[] = [];
  let lighthouseVersion = '';
  let chromiumVersion = '';
  for (const target of options.targets) {
    for (const preset of PRESETS) {
      const measured: Array<{ run: LighthouseRun; lhr: Result; json: string }> = [];
      const slug = `${target.name.replace(/\W+/g, '-')}-${preset}`;
      for (let i = 1; i <= runs; i++) {
        const one = await whenQuiet(`Lighthouse ${target.name} ${preset} run ${i}`, () =>
          runWithRetries(options.baseUrl, target, preset, options.cookie, log),
        );
        lighthouseVersion = one.lhr.lighthouseVersion;
        chromiumVersion = `Chromium ${one.chromium}`;
        one.run.report = path.join(options.reportsDir, `${slug}-run${i}.json`);
        fs.writeFileSync(one.run.report, one.json);
        measured.push(one);
        const r = one.run;
        log(
          `lighthouse ${target.name} ${preset} run ${i}: score ${r.performance}, LCP ${Math.round(r.lcpMs)} ms, TBT ${Math.round(r.tbtMs)} ms, ` +
            `a11y ${r.accessibility}, best practices ${r.bestPractices}, benchmarkIndex ${Math.round(r.benchmarkIndex)}, ` +
            `${r.multiplier}×, load ${r.loadAverage.toFixed(2)}`,
        );
      }
      const runList = measured.map((m) => m.run);
      const byLighthouse = computeMedianRunIndex(runList);
      // Ties in score go to the run Lighthouse's computeMedianRun picks.
      const median = medianByScore(runList, (run) => (run === runList[byLighthouse] ? 0 : 1));
      const lhr = measured[median]!.lhr;
      fs.writeFileSync(path.join(options.reportsDir, `${slug}.json`), measured[median]!.json);
      entries.push({
        page: target.name,
        path: target.path,
        preset,
        runs: runList,
        median,
        sameAsComputeMedianRun: median === byLighthouse,
        failing: { accessibility: failingAudits(lhr, 'accessibility'), bestPractices: failingAudits(lhr, 'best-practices') },
      });
    }
  }
  const numbers = { dataset: options.dataset, lighthouseVersion, chromiumVersion, entries };
  // What results.json's `lighthouse` key holds, also beside the reports (`--only lighthouse` writes no results file).
  fs.writeFileSync(path.join(options.reportsDir, 'summary.json'), `${JSON.stringify(numbers, null, 2)}\n`);
  return numbers;
}
