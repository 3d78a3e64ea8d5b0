// Covers: the fault matrix: every operation under every transport fault
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import * as sdk from '../../src/index.js';
import { ABORT_REASON, type Observed, runCell } from './fault-cell.js';
import { MATRIX_SETTINGS, matrixCells, overviewTable, renderFaultMatrix } from './fault-matrix.js';
import { mapLimit } from './limit.js';
import {
  CLI_ROWS,
  JOB_ROWS,
  LIMITER_ROWS,
  MOCK_ROWS,
  RECEIVER_ROWS,
  REQUEST_ROWS,
  WAIT_ROWS,
  WIRE_ROWS,
} from './wait-receiver-rows.js';

// Timed checks end within the expected time plus this much: the machine is shared and noisy.
const SLACK_MS = 2_000;

const cells = matrixCells();
const observed = new Map<string, Observed>();
const key = (fault: string, operation: string) => `${fault} × ${operation}`;

// Each cell runs on a gateway of its own, so cells run side by side; the table then checks each.
beforeAll(async () => {
  await mapLimit(cells, 12, async ({ fault, operation }) => {
    observed.set(key(fault.id, operation.id), await runCell(operation.id, fault.id));
  });
}, 120_000);

describe(`fault matrix: ${cells.length} cells`, () => {
  test.each(cells.map((cell) => [`${cell.fault.label} × ${cell.operation.label}`, cell] as const))(
    '%s',
    (_name, { fault, operation, expected }) => {
      const seen = observed.get(key(fault.id, operation.id));
      expect(seen, 'the cell ran').toBeDefined();
      const cell = seen!;
      const error = cell.error as Error | undefined;
      expect(
        { outcome: cell.outcome, requests: cell.requests, attempts: cell.attempts },
        `error: ${error?.message ?? 'none'}`,
      ).toEqual({ outcome: expected.outcome, requests: expected.requests, attempts: expected.attempts });
      if (expected.outcome === 'value') {
        if (expected.wrongContent) expect(cell.valueProblem).toMatch(/not the video/);
        else expect(cell.valueProblem).toBeUndefined();
      } else {
        // Every error the SDK throws is one of its public classes.
        const publicClass = (sdk as unknown as Record<string, unknown>)[expected.outcome];
        expect(typeof publicClass, `${expected.outcome} is exported`).toBe('function');
        expect(cell.error).toBeInstanceOf(sdk.MediaGatewayError);
        expect(cell.error).toBeInstanceOf(publicClass as new () => unknown);
        expect(cell.leftoverFiles, 'a failed call leaves no file behind').toEqual([]);
      }
      // No billable submission is ever taken twice, whatever the fault.
      expect(cell.billableTaken).toBeLessThanOrEqual(1);
      expect(cell.tasksCreated).toBeLessThanOrEqual(1);
      expect(cell.reservations).toBeLessThanOrEqual(1);
      // Retry-After is honoured: the wait before the retry is the one the gateway asked for.
      if (fault.id === 'status-429-seconds' || (fault.id === 'status-503' && cell.attempts > 1)) {
        expect(cell.delays).toEqual([MATRIX_SETTINGS.retryAfterSeconds * 1000]);
      }
      // A download never carries the caller's headers or key to the media origin.
      if (operation.id === 'download') expect(cell.mediaExtraHeaders).toEqual([]);
      if (fault.id === 'redirect-cross-origin') {
        expect(cell.apiGotHeaders, 'the gateway itself got the headers and the key').toBe(true);
        expect(cell.mediaRequests).toBe(1);
      }
      if (fault.id === 'redirect-https-to-http' || fault.id === 'redirect-other-scheme') {
        expect(cell.mediaRequests).toBe(0);
        expect(error?.message).toMatch(
          fault.id === 'redirect-https-to-http' ? /refused a redirect from https to http/ : /not http\(s\)/,
        );
      }
      if (fault.id === 'drip') {
        const timeout = MATRIX_SETTINGS.dripTimeoutMs;
        if (expected.outcome === 'value') {
          // The video took longer than the timeout to arrive and was not cut.
          expect(cell.elapsedMs).toBeGreaterThan(timeout);
        } else {
          // Every attempt ended at its deadline: not earlier, and not rounded up to a second.
          const waited = cell.delays.reduce((sum, d) => sum + d, 0);
          expect(cell.elapsedMs).toBeGreaterThanOrEqual(cell.attempts * (timeout - 5) + waited);
          expect(cell.elapsedMs).toBeLessThan(cell.attempts * timeout + waited + SLACK_MS);
          const timedOut = expected.outcome === 'APIConnectionTimeoutError' ? error : error?.cause;
          expect(timedOut).toBeInstanceOf(sdk.APIConnectionTimeoutError);
        }
      }
      if (fault.id === 'oversize' && expected.outcome === 'AmbiguousSubmissionError') {
        expect(error?.cause).toBeInstanceOf(sdk.ResponseTooLargeError);
      }
      if (fault.id === 'abort') {
        // The caller's reason comes back as the cause of APIUserAbortError, wrapped for a billable call.
        const aborted = (expected.outcome === 'APIUserAbortError' ? error : error?.cause) as
          | Error
          | undefined;
        expect(aborted).toBeInstanceOf(sdk.APIUserAbortError);
        expect(aborted?.cause).toBe(ABORT_REASON);
      }
      if (fault.id === 'status-429-date') {
        expect(cell.delays).toHaveLength(1);
        expect(cell.delays[0]).toBeGreaterThan(0);
        expect(cell.delays[0]).toBeLessThanOrEqual(MATRIX_SETTINGS.retryAfterDateAheadMs);
      }
    },
  );

  test('billable submissions received twice: zero, across every cell', () => {
    const twice = [...observed.entries()].filter(
      ([, cell]) => cell.billableTaken > 1 || cell.tasksCreated > 1,
    );
    expect(observed.size).toBe(cells.length);
    expect(twice.map(([name]) => name)).toEqual([]);
  });
});

test('docs/fault-matrix.md is the table this test checks', async () => {
  const path = fileURLToPath(new URL('../../docs/fault-matrix.md', import.meta.url));
  const rendered = renderFaultMatrix();
  if (process.env.UPDATE_FAULT_MATRIX === '1') await writeFile(path, rendered);
  expect(await readFile(path, 'utf8')).toBe(rendered);
});

test('docs/errors-and-retries.md prints the same overview', async () => {
  const path = fileURLToPath(new URL('../../docs/errors-and-retries.md', import.meta.url));
  const text = await readFile(path, 'utf8');
  const start = text.indexOf('\n', text.indexOf('<!-- fault-matrix:start')) + 1;
  const end = text.indexOf('<!-- fault-matrix:end -->');
  expect(start).toBeGreaterThan(0);
  expect(text.slice(start, end)).toBe(`${overviewTable().join('\n')}\n`);
});

describe('waits, receivers and request checks: every row cites a test that exists', () => {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  test.each(
    [
      ...WAIT_ROWS,
      ...RECEIVER_ROWS,
      ...CLI_ROWS,
      ...LIMITER_ROWS,
      ...MOCK_ROWS,
      ...REQUEST_ROWS,
      ...WIRE_ROWS,
      ...JOB_ROWS,
    ].map((row) => [row.situation, row.provenBy] as const),
  )('%s', async (_situation, { file, title, row }) => {
    expect(existsSync(`${root}${file}`), `${file} exists`).toBe(true);
    const text = await readFile(`${root}${file}`, 'utf8');
    expect(text.includes(title), `${file} holds the title "${title}"`).toBe(true);
    if (row) expect(text.includes(row), `${file} holds the row "${row}"`).toBe(true);
  });
});
