/**
 * `npm run bench`: builds the package into a scratch folder, runs every measurement against
 * the built files, prints the table and writes `bench/results.json`.
 *
 *   npm run bench                          every measurement
 *   npm run bench -- --only=embeddings,import   some of them
 *   npm run bench -- --quick               fewer repetitions (noisier)
 *   npm run bench -- --docs                also rewrite the table in docs/performance.md
 *   npm run bench -- --from-results --docs rewrite it from bench/results.json, without a run
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as bundleSize from './bundle-size.js';
import * as coldImport from './cold-import.js';
import * as downloadRss from './download-rss.js';
import * as embeddingsRps from './embeddings-rps.js';
import * as errorBody from './error-body.js';
import * as fleet from './fleet.js';
import * as jobs from './jobs.js';
import { buildPackage } from './lib/build.js';
import type { BenchContext, Measurement } from './lib/context.js';
import { type BenchResults, type Budget, describeMachine, evaluate, type Verdict } from './lib/results.js';
import { markdownTable, missingLines, textTable } from './lib/table.js';
import * as uploadRss from './upload-rss.js';
import * as validation from './validation.js';
import * as validationCold from './validation-cold.js';
import * as waitRequests from './wait-requests.js';
import * as webhookVerify from './webhook-verify.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Where `npm run bench` writes its results. */
export const RESULTS_PATH = join(ROOT, 'bench', 'results.json');
const BUDGETS_PATH = join(ROOT, 'bench', 'budgets.json');
const DOCS_PATH = join(ROOT, 'docs', 'performance.md');

/** Every measurement, in the order they run. */
export const MEASUREMENTS: readonly Measurement[] = [
  { name: 'embeddings', measure: embeddingsRps.measure },
  { name: 'upload', measure: uploadRss.measure },
  { name: 'download', measure: downloadRss.measure },
  { name: 'webhooks', measure: webhookVerify.measure },
  { name: 'import', measure: coldImport.measure },
  { name: 'size', measure: bundleSize.measure },
  { name: 'validation', measure: validation.measure },
  { name: 'cold', measure: validationCold.measure },
  { name: 'wait', measure: waitRequests.measure },
  { name: 'errors', measure: errorBody.measure },
  { name: 'fleet', measure: fleet.measure },
  { name: 'jobs', measure: jobs.measure },
];

/** Options of {@link runBench}. */
export interface RunOptions {
  /** Names of the measurements to run. @default all */
  only?: readonly string[] | undefined;
  /** Fewer repetitions. */
  quick?: boolean | undefined;
}

/** Reads `bench/budgets.json`. */
export function readBudgets(): Record<string, Budget> {
  const raw = JSON.parse(readFileSync(BUDGETS_PATH, 'utf8')) as Record<string, Budget | string>;
  return Object.fromEntries(
    Object.entries(raw).filter((entry): entry is [string, Budget] => typeof entry[1] === 'object'),
  );
}

/** Builds the package, runs the measurements and returns every figure. */
export async function runBench(options: RunOptions = {}): Promise<BenchResults> {
  const started = performance.now();
  const unknown = options.only?.filter((name) => !MEASUREMENTS.some((m) => m.name === name)) ?? [];
  if (unknown.length > 0) {
    throw new Error(
      `unknown measurement(s) ${unknown.join(', ')}; known: ${MEASUREMENTS.map((m) => m.name)}`,
    );
  }
  const chosen = MEASUREMENTS.filter((m) => !options.only || options.only.includes(m.name));
  const log = (line: string) => console.error(`[bench] ${line}`);
  const build = await buildPackage(ROOT);
  log(`built the package in ${(build.ms / 1000).toFixed(1)} s (${build.dist})`);
  process.env.BENCH_DIST = build.dist;
  const tmp = mkdtempSync(join(tmpdir(), 'mediagw-bench-data-'));
  const results: BenchResults = { machine: describeMachine(), seconds: 0, rows: [], notes: [], errors: {} };
  const ctx: BenchContext = {
    root: ROOT,
    dist: build.dist,
    tmp,
    quick: options.quick ?? false,
    log,
    note: (line) => results.notes.push(line),
  };
  try {
    for (const measurement of chosen) {
      const t = performance.now();
      log(`${measurement.name}: start`);
      try {
        results.rows.push(...(await measurement.measure(ctx)));
      } catch (error) {
        results.errors[measurement.name] =
          error instanceof Error ? (error.stack ?? error.message) : String(error);
        log(`${measurement.name}: FAILED ${results.errors[measurement.name]}`);
      }
      log(`${measurement.name}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    build.remove();
  }
  results.seconds = (performance.now() - started) / 1000;
  return results;
}

/** Prints the table, the notes and the verdicts; returns the verdicts. */
export function report(results: BenchResults, budgets: Record<string, Budget>): Verdict[] {
  const verdicts = evaluate(results.rows, budgets);
  const { machine } = results;
  console.log(
    `\nmediagw bench: ${machine.cpus}, ${machine.memoryGiB} GiB, ${machine.os}, Node ${machine.node}, ${machine.date}\n`,
  );
  console.log(textTable(results, verdicts));
  for (const line of missingLines(verdicts, results)) console.log(line);
  if (results.notes.length > 0) console.log(`\n${results.notes.map((n) => `- ${n}`).join('\n')}`);
  for (const [name, error] of Object.entries(results.errors)) console.log(`\n${name} FAILED:\n${error}`);
  const failed = verdicts.filter((v) => !v.pass);
  console.log(
    `\n${verdicts.length - failed.length} of ${verdicts.length} budgets pass; ${results.seconds.toFixed(0)} s in all.`,
  );
  return verdicts;
}

/** Rewrites the table between the markers of docs/performance.md. */
export function writeDocs(results: BenchResults, verdicts: readonly Verdict[]): void {
  const { machine } = results;
  const block = [
    '<!-- bench:start -->',
    `Measured ${machine.date.slice(0, 10)} on ${machine.cpus} (${machine.memoryGiB} GiB), ${machine.os}, Node ${machine.node}; the run took ${results.seconds.toFixed(0)} s.`,
    '',
    markdownTable(results, verdicts),
    '',
    ...results.notes.map((n) => `- ${n}`),
    '<!-- bench:end -->',
  ].join('\n');
  const doc = readFileSync(DOCS_PATH, 'utf8');
  const updated = doc.replace(/<!-- bench:start -->[\s\S]*<!-- bench:end -->/, block);
  if (updated === doc && !doc.includes(block)) throw new Error(`${DOCS_PATH} has no bench markers`);
  writeFileSync(DOCS_PATH, updated);
}

/** Reads `--only=a,b`, `--quick` and `--docs` from the command line. */
export function parseArgs(argv: readonly string[]): RunOptions & { docs: boolean; fromResults: boolean } {
  const only = argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  return {
    only: only ? only.split(',').filter(Boolean) : undefined,
    quick: argv.includes('--quick'),
    docs: argv.includes('--docs'),
    fromResults: argv.includes('--from-results'),
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  let results: BenchResults;
  if (args.fromResults) {
    results = JSON.parse(readFileSync(RESULTS_PATH, 'utf8')) as BenchResults;
  } else {
    results = await runBench(args);
    writeFileSync(RESULTS_PATH, `${JSON.stringify(results, null, 2)}\n`);
  }
  const verdicts = report(results, readBudgets());
  if (args.docs) writeDocs(results, verdicts);
  console.log(`results: ${RESULTS_PATH}`);
  if (Object.keys(results.errors).length > 0) process.exitCode = 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
