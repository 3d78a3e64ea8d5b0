import { type BenchResults, overLimit, type Row, type Verdict } from './results.js';

/** A number with a sensible count of digits for its size, thousands grouped. */
export function formatNumber(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '—';
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : abs === 0 ? 0 : 3;
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function withUnit(value: number | undefined, unit: string, label?: string): string {
  if (value === undefined) return '—';
  const text = `${formatNumber(value)} ${unit}`;
  return label ? `${text} (${label})` : text;
}

function ratios(row: Row): string {
  const parts: string[] = [];
  if (row.overLimit !== undefined) {
    const over = overLimit(row) as number;
    parts.push(`${over >= 0 ? '+' : ''}${formatNumber(over)} ${row.unit} over limit`);
  }
  if (row.ratio !== undefined) parts.push(`${row.ratio.toFixed(2)}x limit`);
  if (row.peerRatio !== undefined) parts.push(`${row.peerRatio.toFixed(2)}x peer`);
  return parts.join(', ') || '—';
}

const HEADER = ['figure', 'mediagw', 'limit', 'peer', 'ratio', 'budget', 'pass'] as const;

function cells(row: Row, verdict: Verdict | undefined): string[] {
  return [
    row.figure,
    withUnit(row.mediagw, row.unit),
    withUnit(row.limit, row.unit, row.limitLabel),
    withUnit(row.peer, row.unit, row.peerLabel),
    ratios(row),
    verdict?.text ?? '—',
    verdict ? (verdict.pass ? 'PASS' : `FAIL${verdict.reason ? ` (${verdict.reason})` : ''}`) : '—',
  ];
}

/** The results as a plain-text table for the terminal. */
export function textTable(results: BenchResults, verdicts: readonly Verdict[]): string {
  const body = results.rows.map((row) =>
    cells(
      row,
      verdicts.find((v) => v.id === row.id),
    ),
  );
  const widths = HEADER.map((h, i) => Math.max(h.length, ...body.map((line) => (line[i] ?? '').length)));
  const line = (values: readonly string[]) => values.map((v, i) => v.padEnd(widths[i] ?? 0)).join('  ');
  return [line(HEADER), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

/** The results as a Markdown table. */
export function markdownTable(results: BenchResults, verdicts: readonly Verdict[]): string {
  const escapePipes = (text: string) => text.replaceAll('|', '\\|');
  const rows = results.rows.map(
    (row) =>
      `| ${cells(
        row,
        verdicts.find((v) => v.id === row.id),
      )
        .map(escapePipes)
        .join(' | ')} |`,
  );
  return [`| ${HEADER.join(' | ')} |`, `|${HEADER.map(() => '---').join('|')}|`, ...rows].join('\n');
}

/** Budgets that have no row in the results (not measured), as lines. */
export function missingLines(verdicts: readonly Verdict[], results: BenchResults): string[] {
  return verdicts
    .filter((v) => !results.rows.some((row) => row.id === v.id))
    .map((v) => `${v.id}: ${v.text} — FAIL (not measured)`);
}
