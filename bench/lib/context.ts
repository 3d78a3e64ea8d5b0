import { fileURLToPath } from 'node:url';
import type { Row } from './results.js';

/** What every measurement gets from `bench/run.ts`. */
export interface BenchContext {
  /** The repository root. */
  root: string;
  /** The built package's `dist/` (also in `process.env.BENCH_DIST` for child processes). */
  dist: string;
  /** A scratch folder, deleted after the run. */
  tmp: string;
  /** Fewer repetitions, for a quick look (`--quick`). Figures are noisier. */
  quick: boolean;
  /** Prints a progress line. */
  log(line: string): void;
  /** Adds a remark printed under the table (reference figures, caveats). */
  note(line: string): void;
}

/** What a measurement module exports for `bench/run.ts`. */
export interface Measurement {
  /** Short name, used by `--only`. */
  name: string;
  /** Runs the measurement and returns its rows. */
  measure(ctx: BenchContext): Promise<Row[]>;
}

/** The absolute path of a module, for `runInChild`. */
export function modulePath(url: string): string {
  return fileURLToPath(url);
}

/** Repetitions: `full` normally, `quick` with `--quick`. */
export function reps(ctx: BenchContext, full: number, quick: number): number {
  return ctx.quick ? quick : full;
}
