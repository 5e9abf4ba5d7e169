/**
 * npx tsx bench/verdicts.ts results-a.json [results-b.json ...]
 *
 * Judges the figures kept in each results file (`numbers`, written by bench/run.ts) with the
 * budgets as bench/budgets.ts has them now, and prints one row per budget with each file's ratio
 * and verdict side by side, then whether every budget got the same verdict in every file
 * (issue 28 point 4: two runs idle, one beside `npm test`). Exits 1 when the verdicts differ.
 */
import fs from 'node:fs';
import { checkBudgets, type BenchNumbers, type BudgetResult } from './budgets.js';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: npx tsx bench/verdicts.ts results.json [more.json ...]');
  process.exit(2);
}
const judged: Array<Map<string, BudgetResult>> = files.map((file) => {
  const results = JSON.parse(fs.readFileSync(file, 'utf8')) as { numbers?: BenchNumbers };
  if (!results.numbers) throw new Error(`${file} keeps no numbers: written before issue 28 point 4`);
  return new Map(checkBudgets(results.numbers).map((budget) => [budget.name, budget]));
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
console.log(`\n${names.length} budgets, ${differ} with different verdicts across ${files.length} runs`);
process.exit(differ > 0 ? 1 : 0);
