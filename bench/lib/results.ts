import { cpus, platform, release, totalmem } from 'node:os';

/** One figure of the bench: mediagw beside the limit and the peer, measured in the same run. */
export interface Row {
  /** Stable key; `budgets.json` refers to it. */
  id: string;
  /** What is measured, for the table. */
  figure: string;
  /** Unit of `mediagw`, `limit` and `peer`. */
  unit: string;
  /** Whether a higher value is better (throughput) or a lower one (time, memory, size). */
  better: 'higher' | 'lower';
  /** mediagw's figure (a median). */
  mediagw: number;
  /** The physical limit: raw undici, raw HMAC, an empty process, ... (a median). */
  limit?: number | undefined;
  /** What `limit` is. */
  limitLabel?: string | undefined;
  /** The peer users would otherwise use (a median). */
  peer?: number | undefined;
  /** What `peer` is. */
  peerLabel?: string | undefined;
  /** `mediagw / limit`, from the same run. */
  ratio?: number | undefined;
  /** `mediagw / peer`, from the same run. */
  peerRatio?: number | undefined;
  /**
   * How far mediagw sits above the limit, in `unit`: the median of round-by-round differences
   * where the measurement pairs its samples, else `mediagw - limit`. For budgets stated against
   * a floor no client can go under on the machine (raw undici's memory, an empty ES module).
   */
  overLimit?: number | undefined;
  /** Every sample behind the medians. */
  samples?: Record<string, number[]> | undefined;
  /** Anything a reader needs to read the figure right. */
  note?: string | undefined;
}

/** One condition of a budget: a field of the row compared with a bound. */
export interface BudgetCheck {
  /** The row's field the bound applies to. */
  of: 'mediagw' | 'ratio' | 'peerRatio' | 'overLimit';
  /** Smallest allowed value. */
  min?: number | undefined;
  /** Largest allowed value. */
  max?: number | undefined;
}

/** A row's budget: every check must hold. */
export interface Budget {
  /** The budget in words, for the table. */
  text: string;
  /** The conditions. */
  checks: BudgetCheck[];
}

/** The verdict of one budget. */
export interface Verdict {
  /** The row's ID. */
  id: string;
  /** The budget in words. */
  text: string;
  /** Whether every check held. `false` too when the row was not measured. */
  pass: boolean;
  /** Why it failed. */
  reason?: string | undefined;
}

/** The machine a run happened on. */
export interface Machine {
  /** `os.cpus()` model and count, e.g. `2 x AMD EPYC`. */
  cpus: string;
  /** Node version. */
  node: string;
  /** OS and kernel. */
  os: string;
  /** Total memory in GiB. */
  memoryGiB: number;
  /** ISO date and time of the run. */
  date: string;
}

/** What `bench/results.json` holds. */
export interface BenchResults {
  /** Where it ran. */
  machine: Machine;
  /** Wall-clock seconds of the whole run. */
  seconds: number;
  /** Every figure. */
  rows: Row[];
  /** Reference figures and remarks printed under the table. */
  notes: string[];
  /** Measurements that threw, by name. */
  errors: Record<string, string>;
}

/** The machine this process runs on. */
export function describeMachine(): Machine {
  const list = cpus();
  const models = [...new Set(list.map((cpu) => cpu.model.trim()))].join(', ');
  return {
    cpus: `${list.length} x ${models}`,
    node: process.version,
    os: `${platform()} ${release()}`,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    date: new Date().toISOString(),
  };
}

/** Checks every budget against the rows; a budget whose row is missing fails. */
export function evaluate(rows: readonly Row[], budgets: Record<string, Budget>): Verdict[] {
  return Object.entries(budgets).map(([id, budget]) => {
    const row = rows.find((r) => r.id === id);
    if (!row) return { id, text: budget.text, pass: false, reason: 'not measured' };
    for (const check of budget.checks) {
      const value = check.of === 'overLimit' ? overLimit(row) : row[check.of];
      if (value === undefined || !Number.isFinite(value)) {
        return { id, text: budget.text, pass: false, reason: `${check.of} is missing` };
      }
      if (check.min !== undefined && value < check.min) {
        return { id, text: budget.text, pass: false, reason: `${check.of} ${round(value)} < ${check.min}` };
      }
      if (check.max !== undefined && value > check.max) {
        return { id, text: budget.text, pass: false, reason: `${check.of} ${round(value)} > ${check.max}` };
      }
    }
    return { id, text: budget.text, pass: true };
  });
}

/** {@link Row.overLimit}, or `mediagw - limit` when the measurement did not pair its samples. */
export function overLimit(row: Row): number | undefined {
  if (row.overLimit !== undefined) return row.overLimit;
  return row.limit === undefined ? undefined : row.mediagw - row.limit;
}

function round(value: number): string {
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toPrecision(3);
}
