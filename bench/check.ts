/**
 * `npm run bench:check`: runs the bench (or, with `--from-results`, reads bench/results.json)
 * and exits with status 1 when a budget of bench/budgets.json fails or a measurement threw.
 *
 *   npm run bench:check
 *   npm run bench:check -- --from-results
 *   npm run bench:check -- --only=import,size
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { BenchResults } from './lib/results.js';
import { parseArgs, RESULTS_PATH, readBudgets, report, runBench } from './run.js';

const args = parseArgs(process.argv.slice(2));
let results: BenchResults;
if (args.fromResults) {
  if (!existsSync(RESULTS_PATH)) {
    console.error(`${RESULTS_PATH} does not exist: run npm run bench first, or drop --from-results`);
    process.exit(2);
  }
  results = JSON.parse(readFileSync(RESULTS_PATH, 'utf8')) as BenchResults;
} else {
  results = await runBench(args);
  writeFileSync(RESULTS_PATH, `${JSON.stringify(results, null, 2)}\n`);
}
const budgets = readBudgets();
const chosen = args.only
  ? Object.fromEntries(Object.entries(budgets).filter(([id]) => results.rows.some((row) => row.id === id)))
  : budgets;
const verdicts = report(results, chosen);
const failed = verdicts.filter((v) => !v.pass);
for (const verdict of failed) console.error(`FAIL ${verdict.id}: ${verdict.text} (${verdict.reason})`);
const errors = Object.keys(results.errors);
if (errors.length > 0) console.error(`measurements that threw: ${errors.join(', ')}`);
process.exit(failed.length > 0 || errors.length > 0 ? 1 : 0);
