/**
 * The fault matrix as data: every operation class crossed with every fault the mock gateway
 * injects, and the outcome each cell must have. `faults.test.ts` runs every cell against the
 * mock and checks it; `renderFaultMatrix()` prints the same data as docs/fault-matrix.md.
 */
import { renderWaitReceiverRows } from './wait-receiver-rows.js';

/** An operation class and the call that stands for it. */
export interface OperationClass {
  id: OperationId;
  /** Column heading. */
  label: string;
  /** The SDK call made. */
  call: string;
  /** What else the call does, printed beside it. */
  note?: string | undefined;
  /** How it is retried (docs/errors-and-retries.md). */
  retry: 'safe' | 'billable' | 'create';
}

export type OperationId =
  | 'query'
  | 'download'
  | 'patch'
  | 'delete'
  | 'billable-sync'
  | 'billable-async'
  | 'create'
  | 'embeddings';

export type FaultId =
  | 'refused'
  | 'reset-before-body'
  | 'reset-after-body'
  | 'hang'
  | 'delay'
  | 'status-408'
  | 'status-429-seconds'
  | 'status-429-date'
  | 'status-500'
  | 'status-502'
  | 'status-503'
  | 'malformed-json'
  | 'truncated-body'
  | 'truncated-download'
  | 'drip'
  | 'oversize'
  | 'abort'
  | 'redirect-cross-origin'
  | 'redirect-https-to-http'
  | 'redirect-other-scheme';

/** A fault and how it is produced. */
export interface FaultKind {
  id: FaultId;
  label: string;
  /** How the test produces it. */
  how: string;
  /** Matching requests it applies to. @default 1 (`Infinity`: every attempt) */
  times?: number | undefined;
  /** The client's `timeout` in this row, ms. @default MATRIX_SETTINGS.timeoutMs */
  timeoutMs?: number | undefined;
  /** The client's `maxResponseBytes` in this row. @default the SDK's, 32 MiB */
  maxResponseBytes?: number | undefined;
}

/** What one cell must give: a value or an error class, the requests the mock received, the attempts made. */
export interface Expected {
  /** `value`, or the name of the error class thrown (the exact class, not a parent). */
  outcome: string;
  /** Requests the mock gateway received (both origins; a download's redirect counts as one more). */
  requests: number;
  /** Attempts the client made (1 + retries logged). */
  attempts: number;
  /** A note printed in the table. */
  note?: string | undefined;
  /** The call resolves, but with the fault's body instead of the media (a download saves what it got). */
  wrongContent?: true | undefined;
}

/** Settings every cell runs with. */
export const MATRIX_SETTINGS = {
  /** Client timeout per attempt, ms. */
  timeoutMs: 1_000,
  maxRetries: 2,
  /** `Retry-After` in seconds of the 429 and 503 cells. */
  retryAfterSeconds: 1,
  /** How far ahead the `Retry-After` date of the 429 date cell is, ms (HTTP dates have whole seconds). */
  retryAfterDateAheadMs: 2_000,
  /** The delay of the "delay under the timeout" cell, ms. */
  delayMs: 100,
  /** The sub-second `timeout` of the drip row, ms. */
  dripTimeoutMs: 300,
  /** How often a dripping answer sends a piece, ms. */
  dripEveryMs: 100,
  /** Bytes per piece of a dripping video (a JSON answer drips one byte at a time). */
  dripVideoBytes: 512,
  /** `maxResponseBytes` of the oversize row. */
  maxResponseBytes: 64 * 1024,
  /** Spaces the oversize row adds after each answer. */
  padBytes: 1024 * 1024,
  /** Headers every cell's client sends (`defaultHeaders`), none of them allowlisted across origins. */
  defaultHeaders: { 'X-Tenant': 'acme', Cookie: 'session=s3cr3t' },
} as const;

/** The headers a download's redirect to another origin may carry, plus what undici adds itself. */
export const CROSS_ORIGIN_ALLOWED = [
  'accept',
  'accept-encoding',
  'range',
  'if-range',
  'user-agent',
  'host',
  'connection',
] as const;

export const OPERATIONS: readonly OperationClass[] = [
  { id: 'query', label: 'GET query', call: 'videos.retrieve(id)', retry: 'safe' },
  {
    id: 'download',
    label: 'GET download',
    call: 'videos.downloadContent(id), then .saveTo(path)',
    note: 'the gateway answers 302 to the media origin',
    retry: 'safe',
  },
  { id: 'patch', label: 'PATCH', call: 'library.groups.update(id, { name })', retry: 'safe' },
  { id: 'delete', label: 'DELETE', call: 'library.groups.delete(id)', retry: 'safe' },
  {
    id: 'billable-sync',
    label: 'billable, sync',
    call: "images.generate({ model: 'imgmodel-2', prompt })",
    retry: 'billable',
  },
  {
    id: 'billable-async',
    label: 'billable, async',
    call: "videos.create({ model: 'vidmodel-2.0-mini', prompt, duration: 5 })",
    retry: 'billable',
  },
  { id: 'create', label: 'creating POST', call: 'library.groups.create({ name })', retry: 'create' },
  {
    id: 'embeddings',
    label: 'embeddings',
    call: "embeddings.create({ model: 'bge-m3', input })",
    retry: 'safe',
  },
];

const { retryAfterSeconds, delayMs, timeoutMs, dripTimeoutMs, dripEveryMs, dripVideoBytes } = MATRIX_SETTINGS;
const kib = (bytes: number) => `${bytes / 1024} KiB`;

export const FAULTS: readonly FaultKind[] = [
  { id: 'refused', label: 'connection refused', how: 'the client points at a closed port on 127.0.0.1' },
  {
    id: 'reset-before-body',
    label: 'reset before the body',
    how: "`{ reset: 'before-body' }`: the socket is destroyed before the request body is read",
  },
  {
    id: 'reset-after-body',
    label: 'reset after the body',
    how: "`{ reset: 'after-body', runHandler: true }`: the route runs (a task or group may be created), then the socket is destroyed instead of answering",
  },
  {
    id: 'hang',
    label: 'hang past the timeout',
    how: `\`{ hang: true }\`: no answer; the client times out after ${timeoutMs} ms`,
  },
  {
    id: 'delay',
    label: 'delay under the timeout',
    how: `\`{ delayMs: ${delayMs} }\`, then the normal answer`,
  },
  { id: 'status-408', label: '408', how: '`{ status: 408 }`' },
  {
    id: 'status-429-seconds',
    label: '429, Retry-After seconds',
    how: `\`{ status: 429, headers: { 'Retry-After': '${retryAfterSeconds}' } }\``,
  },
  {
    id: 'status-429-date',
    label: '429, Retry-After date',
    how: '`{ status: 429 }` with `Retry-After` an HTTP date 2 s ahead',
  },
  { id: 'status-500', label: '500', how: '`{ status: 500 }`' },
  { id: 'status-502', label: '502', how: '`{ status: 502 }`' },
  {
    id: 'status-503',
    label: '503, Retry-After',
    how: `\`{ status: 503, headers: { 'Retry-After': '${retryAfterSeconds}' } }\``,
  },
  {
    id: 'malformed-json',
    label: 'malformed JSON',
    how: '`{ malformedJson: true, runHandler: true }`: the route runs, its answer is replaced by 200 with a body that is not JSON',
  },
  {
    id: 'truncated-body',
    label: 'truncated body',
    how: '`{ truncate: true }` on the gateway: the full Content-Length is announced, half the body is sent, the socket is destroyed',
  },
  {
    id: 'truncated-download',
    label: 'truncated download',
    how: "`{ truncate: true }` on the media origin (`match.origin: 'media'`): the video's body breaks off half-way",
  },
  {
    id: 'drip',
    label: 'answer drips past a sub-second timeout',
    how: `\`{ drip: { everyMs: ${dripEveryMs} } }\` on every attempt, with \`timeout: ${dripTimeoutMs}\`: the route runs, the headers come at once, then one byte every ${dripEveryMs} ms; a download's video drips from the media origin, ${dripVideoBytes} bytes at a time. The test also checks that each failed attempt lasted ${dripTimeoutMs} ms, not a second or more`,
    times: Number.POSITIVE_INFINITY,
    timeoutMs: dripTimeoutMs,
  },
  {
    id: 'oversize',
    label: 'JSON answer over maxResponseBytes',
    how: `\`{ padBytes: ${MATRIX_SETTINGS.padBytes} }\` with \`maxResponseBytes: ${MATRIX_SETTINGS.maxResponseBytes}\` (${kib(MATRIX_SETTINGS.maxResponseBytes)}): the route runs, its answer goes out without Content-Length and with ${kib(MATRIX_SETTINGS.padBytes)} of spaces after it`,
    maxResponseBytes: MATRIX_SETTINGS.maxResponseBytes,
  },
  {
    id: 'abort',
    label: 'caller aborts mid-request',
    how: "`{ hang: true }`; once the gateway has the whole request, the caller's `signal` is aborted with a reason. The test checks the reason is the `cause` of `APIUserAbortError` (through `AmbiguousSubmissionError` for a billable call)",
  },
  {
    id: 'redirect-cross-origin',
    label: 'download redirected cross-origin',
    how: `no fault: the client sends \`defaultHeaders\` (${Object.keys(MATRIX_SETTINGS.defaultHeaders).join(', ')}) and the key; the gateway answers 302 to the media origin on another port. The test checks the media origin got none of them: only ${CROSS_ORIGIN_ALLOWED.slice(0, 5).join(', ')} (and host, connection)`,
  },
  {
    id: 'redirect-https-to-http',
    label: 'download redirected https → http',
    how: "the client's `baseURL` is `https://gateway.test`, which a dispatcher carries to the mock; its 302 to the media origin (`http:`) would be a downgrade",
  },
  {
    id: 'redirect-other-scheme',
    label: 'download redirected to file:',
    how: "`{ status: 302, headers: { Location: 'file:///etc/passwd' } }`",
  },
];

const value = (requests: number, attempts = requests, note?: string): Expected => ({
  outcome: 'value',
  requests,
  attempts,
  note,
});
const error = (outcome: string, requests: number, attempts = requests, note?: string): Expected => ({
  outcome,
  requests,
  attempts,
  note,
});

type Row = Record<OperationId, Expected | null>;

/** A row where every safe call recovers with one retry and billable and creating calls fail at once. */
function retriedWhenSafe(failure: string): Row {
  return {
    query: value(2),
    download: value(3, 2),
    patch: value(2),
    delete: value(2),
    'billable-sync': error(failure, 1),
    'billable-async': error(failure, 1),
    create: error(failure, 1),
    embeddings: value(2),
  };
}

const AMBIGUOUS = 'AmbiguousSubmissionError';

/** A row only a download can meet: the media origin and redirects. */
function downloadOnly(download: Expected): Row {
  return {
    query: null,
    download,
    patch: null,
    delete: null,
    'billable-sync': null,
    'billable-async': null,
    create: null,
    embeddings: null,
  };
}

/**
 * The expected outcome of every cell. Each fault is injected once (`times: 1`), except a refused
 * connection, which refuses every attempt, and the faults whose `times` says otherwise.
 * `null`: the fault cannot reach that call.
 */
export const EXPECTED: Record<FaultId, Row> = {
  refused: {
    query: error('APIConnectionError', 0, 3),
    download: error('APIConnectionError', 0, 3),
    patch: error('APIConnectionError', 0, 3),
    delete: error('APIConnectionError', 0, 3),
    'billable-sync': error('APIConnectionError', 0, 3, 'nothing was sent, so retrying is safe'),
    'billable-async': error('APIConnectionError', 0, 3, 'nothing was sent, so retrying is safe'),
    create: error('APIConnectionError', 0, 3),
    embeddings: error('APIConnectionError', 0, 3),
  },
  'reset-before-body': {
    ...retriedWhenSafe(AMBIGUOUS),
    create: error('APIConnectionError', 1),
  },
  'reset-after-body': {
    ...retriedWhenSafe(AMBIGUOUS),
    delete: error('NotFoundError', 2, 2, 'the first attempt deleted the group; the retry finds none'),
    'billable-async': error(AMBIGUOUS, 1, 1, 'the task exists (one reservation)'),
    create: error('APIConnectionError', 1, 1, 'the group exists'),
  },
  hang: {
    ...retriedWhenSafe(AMBIGUOUS),
    create: error('APIConnectionTimeoutError', 1),
  },
  delay: {
    query: value(1),
    download: value(2, 1),
    patch: value(1),
    delete: value(1),
    'billable-sync': value(1),
    'billable-async': value(1),
    create: value(1),
    embeddings: value(1),
  },
  'status-408': retriedWhenSafe('APIError'),
  'status-429-seconds': {
    query: value(2),
    download: value(3, 2),
    patch: value(2),
    delete: value(2),
    'billable-sync': value(2, 2, 'a 429 proves the gateway did not take it'),
    'billable-async': value(2, 2, 'a 429 proves the gateway did not take it'),
    create: value(2),
    embeddings: value(2),
  },
  'status-429-date': {
    query: value(2),
    download: value(3, 2),
    patch: value(2),
    delete: value(2),
    'billable-sync': value(2),
    'billable-async': value(2),
    create: value(2),
    embeddings: value(2),
  },
  'status-500': retriedWhenSafe('InternalServerError'),
  'status-502': retriedWhenSafe('InternalServerError'),
  'status-503': retriedWhenSafe('InternalServerError'),
  'malformed-json': {
    ...retriedWhenSafe(AMBIGUOUS),
    download: {
      ...value(1, 1, 'resolves with the 200 body saved as sent: a download does not check the media'),
      wrongContent: true,
    },
    delete: error('NotFoundError', 2, 2, 'the first attempt deleted the group; the retry finds none'),
    create: error('InvalidResponseError', 1, 1, 'the group exists'),
  },
  'truncated-body': {
    ...retriedWhenSafe(AMBIGUOUS),
    download: value(2, 1, 'the cut-off body is a redirect, which is followed without reading it'),
    delete: error('NotFoundError', 2, 2, 'the first attempt deleted the group; the retry finds none'),
    create: error('APIConnectionError', 1, 1, 'the group exists'),
  },
  'truncated-download': downloadOnly(
    error('APIConnectionError', 2, 1, 'no partial file is left; a download is not resumed'),
  ),
  drip: {
    query: error('APIConnectionTimeoutError', 3),
    download: value(
      2,
      1,
      "the deadline covers the headers; the body's limit is the longest pause between chunks",
    ),
    patch: error('APIConnectionTimeoutError', 3),
    delete: error('APIConnectionTimeoutError', 3),
    'billable-sync': error(AMBIGUOUS, 1),
    'billable-async': error(AMBIGUOUS, 1, 1, 'the task exists (one reservation)'),
    create: error('APIConnectionTimeoutError', 1),
    embeddings: error('APIConnectionTimeoutError', 3),
  },
  oversize: {
    query: error('ResponseTooLargeError', 1, 1, 'not retried: the next answer would be as large'),
    download: value(2, 1, 'the padded answer is the redirect, followed without reading it'),
    patch: error('ResponseTooLargeError', 1),
    delete: error('ResponseTooLargeError', 1),
    'billable-sync': error(AMBIGUOUS, 1, 1, 'a 2xx answer: the image was made'),
    'billable-async': error(AMBIGUOUS, 1, 1, 'a 2xx answer: the task exists'),
    create: error('ResponseTooLargeError', 1, 1, 'the group exists'),
    embeddings: error('ResponseTooLargeError', 1),
  },
  abort: {
    query: error('APIUserAbortError', 1),
    download: error('APIUserAbortError', 1),
    patch: error('APIUserAbortError', 1),
    delete: error('APIUserAbortError', 1),
    'billable-sync': error(AMBIGUOUS, 1, 1, 'the request was sent'),
    'billable-async': error(AMBIGUOUS, 1, 1, 'the request was sent'),
    create: error('APIUserAbortError', 1),
    embeddings: error('APIUserAbortError', 1),
  },
  'redirect-cross-origin': downloadOnly(value(2, 1, 'the media origin gets only the allowlisted headers')),
  'redirect-https-to-http': downloadOnly(
    error('InvalidResponseError', 1, 1, 'not followed, not retried; the media origin gets nothing'),
  ),
  'redirect-other-scheme': downloadOnly(error('InvalidResponseError', 1, 1, 'not followed, not retried')),
};

/** Every cell that runs: `[fault, operation, expected]`. */
export function matrixCells(): Array<{ fault: FaultKind; operation: OperationClass; expected: Expected }> {
  const cells = [];
  for (const fault of FAULTS) {
    for (const operation of OPERATIONS) {
      const expected = EXPECTED[fault.id][operation.id];
      if (expected) cells.push({ fault, operation, expected });
    }
  }
  return cells;
}

function cellText(expected: Expected | null): string {
  if (!expected) return 'n/a';
  const head = expected.outcome === 'value' ? 'value' : `\`${expected.outcome}\``;
  const attempts = expected.attempts === 1 ? '1 attempt' : `${expected.attempts} attempts`;
  const note = expected.note ? ` (${expected.note})` : '';
  return `${head}; ${expected.requests} received, ${attempts}${note}`;
}

/** The overview: one row per fault, one column per operation class; outcome · requests received. */
export function overviewTable(): string[] {
  return [
    `| fault | ${OPERATIONS.map((op) => op.label).join(' | ')} |`,
    `|---|${OPERATIONS.map(() => '---').join('|')}|`,
    ...FAULTS.map((fault) => {
      const row = OPERATIONS.map((op) => {
        const expected = EXPECTED[fault.id][op.id];
        return expected
          ? `${expected.outcome === 'value' ? 'value' : expected.outcome} · ${expected.requests}`
          : '—';
      });
      return `| ${fault.label} | ${row.join(' | ')} |`;
    }),
  ];
}

/** The matrix as the markdown of docs/fault-matrix.md. */
export function renderFaultMatrix(): string {
  const cells = matrixCells();
  const lines = [
    '<!-- Generated from test/reliability/fault-matrix.ts; `UPDATE_FAULT_MATRIX=1 npx vitest run test/reliability/faults.test.ts` rewrites it. -->',
    '# Fault matrix',
    '',
    `Every operation class crossed with every fault the mock gateway injects, the caller's abort and`,
    `a download's redirects: ${cells.length} cells, each run by \`test/reliability/faults.test.ts\` against`,
    'the mock gateway over loopback. A cell states what the caller gets (a value, or the class of the',
    'error thrown), how many requests the mock received',
    '(both origins: a download is one request to the gateway and one to the media origin it redirects',
    'to) and how many attempts the client made. The test checks all three, and in every cell it also',
    'checks that no billable submission was taken twice: at most one submission the gateway did not',
    'refuse with 429, at most one task, at most one reservation. Where the gateway asked for a wait',
    '(`Retry-After`), the test checks that the client waited exactly that long before its retry.',
    '',
    `Settings: \`maxRetries: ${MATRIX_SETTINGS.maxRetries}\`, \`timeout: ${MATRIX_SETTINGS.timeoutMs}\` (ms, a total for each attempt), unless a fault's row says otherwise.`,
    'Each fault is injected once (`times: 1`), except a refused connection, which refuses every attempt,',
    'and a dripping answer, which meets every attempt. Every client sends `defaultHeaders`',
    `(${Object.keys(MATRIX_SETTINGS.defaultHeaders).join(', ')}); in every download the test checks that the media origin got none of them, nor the key.`,
    "A call that fails leaves no file behind, and every error is one of the SDK's exported classes.",
    '',
    '## Overview',
    '',
    'Each cell: the outcome, then the requests the mock received. Details and notes follow below.',
    '',
    ...overviewTable(),
    '',
    '## Operation classes',
    '',
    '| class | call | retried as |',
    '|---|---|---|',
    ...OPERATIONS.map(
      (op) => `| ${op.label} | \`${op.call}\`${op.note ? `; ${op.note}` : ''} | ${op.retry} |`,
    ),
    '',
    '## Faults',
    '',
    '| fault | how it is produced |',
    '|---|---|',
    ...FAULTS.map((fault) => `| ${fault.label} | ${fault.how} |`),
    '',
    '## Outcomes',
    '',
  ];
  for (const fault of FAULTS) {
    lines.push(`### ${fault.label}`, '', '| class | outcome |', '|---|---|');
    for (const op of OPERATIONS) lines.push(`| ${op.label} | ${cellText(EXPECTED[fault.id][op.id])} |`);
    lines.push('');
  }
  lines.push(...renderWaitReceiverRows());
  return `${lines.join('\n')}`;
}
