/**
 * npx tsx bench/verdicts.ts results-a.json [results-b.json ...]
 *
 * Judges the figures kept in each results file (`numbers` and `lighthouse`, written by
 * bench/run.ts) with the budgets as bench/budgets.ts and bench/lighthouse.ts have them now, and
 * prints one row per budget with each file's ratio and verdict side by side, then whether every
 * budget got the same verdict in every file (issue 28 point 4: two runs idle, one beside
 * `npm test`). Exits 1 when the verdicts differ.
 */
import fs from 'node:fs';
import { checkBudgets, type BenchNumbers, type BudgetResult } from './budgets.js';
import { lighthouseBudgets, type LighthouseNumbers } from './lighthouse.js';
import { spreadOf } from './ratios.js';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: npx tsx bench/verdicts.ts results.json [more.json ...]');
  process.exit(2);
}
const judged: Array<Map<string, BudgetResult>> = files.map((file) => {
  const results = JSON.parse(fs.readFileSync(file, 'utf8')) as { numbers?: BenchNumbers; lighthouse?: LighthouseNumbers };
  if (!results.numbers) throw new Error(`${file} keeps no numbers: written before issue 28 point 4`);
  const budgets = [...checkBudgets(results.numbers), ...(results.lighthouse ? lighthouseBudgets(results.lighthouse) : [])];
  return new Map(budgets.map((budget) => [budget.name, budget]));
});
const names = [...new Set(judged.flatMap((map) => [...map.keys()]))];
const lines = [
  `| budget | limit | ${files.map((file) => `${file} |`).join(' ')} same |`,
  `|---|---|${files.map(() => '---|').join('')}---|`,
];
let differ = 0;
for (const name of names) {
  const each = judged.map((map) => map.get(name));
  const verdicts = new Set(each.map((budget) => (budget ? budget.ok : undefined)));
  const same = verdicts.size === 1;
  if (!same) differ++;
  const limit = each.find(Boolean)!.limit;
  const cells = each.map((budget) => (budget ? `${budget.actual} ${budget.ok ? 'ok' : 'MISSED'}` : '—'));
  lines.push(`| ${name} | ${limit} | ${cells.join(' | ')} | ${same ? 'yes' : 'NO'} |`);
}
console.log(lines.join('\n'));
// The load the machine was under, from every measurement's 1-minute load average.
for (const file of files) {
  const loads: number[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object')
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'loadAverage' && typeof inner === 'number') loads.push(inner);
        else walk(inner);
      }
  };
  walk(JSON.parse(fs.readFileSync(file, 'utf8')));
  if (loads.length > 0) {
    const s = spreadOf(loads);
    console.log(`${file}: load average ${s.median.toFixed(1)} (${s.min.toFixed(1)}–${s.max.toFixed(1)}) over ${loads.length} measurements`);
  }
}
console.log(`\n${names.length} budgets, ${differ} with different verdicts across ${files.length} runs`);
process.exit(differ > 0 ? 1 : 0);
