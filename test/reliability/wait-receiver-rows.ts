/**
 * The failures of waits and webhook receivers, which do not fit the operation × fault grid: each
 * row names the test that proves it, by file and title. `faults.test.ts` checks that every cited
 * file exists and holds the title (and the table row, for a `test.each`), so the table in
 * docs/fault-matrix.md cannot name a test that is gone.
 */

/** Where a row is proven: a test file, a test's title as written, and the row of a `test.each`. */
export interface ProvenBy {
  /** Path from the repository root. */
  file: string;
  /** The title as written in the file (a `test.each` title keeps its `%s`). */
  title: string;
  /** For a `test.each`, the name of the table row, as written in the file. */
  row?: string | undefined;
}

/** One situation, what the caller or the gateway gets, and the test that proves it. */
export interface SituationRow {
  situation: string;
  outcome: string;
  provenBy: ProvenBy;
}

const WAITS = 'test/reliability/waits.test.ts';
const VIDEOS_WAIT = 'test/integration/videos-wait.test.ts';
const DEADLINE_TITLE = '%s: WaitTimeoutError at 1 s, submitted once';
const IN_FLIGHT = 'test/redis/in-flight.test.ts';
const DEDUPE_STATES = 'test/webhooks/dedupe-states.test.ts';
const DEDUPE_LEASE = 'test/redis/dedupe-store-lease.test.ts';

/** Waits: `createAndWait` and `waitForTask` with `timeout` (the deadline), polls, callbacks and aborts. */
export const WAIT_ROWS: readonly SituationRow[] = [
  {
    situation: 'wait deadline (1 s) during a poll answered 503 with `Retry-After: 20`',
    outcome:
      '`WaitTimeoutError` at the deadline, with the task ID and the last task seen; the retry sleep is cut short; submitted once',
    provenBy: {
      file: WAITS,
      title: DEADLINE_TITLE,
      row: 'a poll answered 503 with Retry-After: 20 (retried after 20 s)',
    },
  },
  {
    situation: 'wait deadline during a poll answered 429 with `Retry-After: 20`',
    outcome: '`WaitTimeoutError` at the deadline, as above',
    provenBy: { file: WAITS, title: DEADLINE_TITLE, row: 'a poll answered 429 with Retry-After: 20' },
  },
  {
    situation: 'a poll hangs',
    outcome: '`WaitTimeoutError` at the deadline: the query in flight is interrupted; no retry goes out',
    provenBy: { file: WAITS, title: DEADLINE_TITLE, row: 'a poll that never answers' },
  },
  {
    situation: 'the last poll before the deadline hangs (interval longer than the deadline)',
    outcome: '`WaitTimeoutError` at the deadline, not at the next interval',
    provenBy: { file: WAITS, title: DEADLINE_TITLE, row: 'the last poll before the deadline never answers' },
  },
  {
    situation: 'a wait on events whose only task query hangs',
    outcome: '`WaitTimeoutError` at the deadline, with no last task',
    provenBy: { file: WAITS, title: 'the deadline also bounds a wait on events whose only query hangs' },
  },
  {
    situation: 'the caller aborts during a `Retry-After` sleep',
    outcome: '`APIUserAbortError` at once, `cause` = the abort reason',
    provenBy: {
      file: WAITS,
      title: 'the caller aborting while %s gets APIUserAbortError with its reason',
      row: 'sleeping before a retry of a 503',
    },
  },
  {
    situation: 'the caller aborts while a poll hangs',
    outcome: '`APIUserAbortError` at once, `cause` = the abort reason',
    provenBy: {
      file: WAITS,
      title: 'the caller aborting while %s gets APIUserAbortError with its reason',
      row: 'waiting for a poll that never answers',
    },
  },
  {
    situation: '`onSubmitted` is async',
    outcome: 'awaited: it finishes before the first poll',
    provenBy: {
      file: WAITS,
      title: 'an async save finishes before the first poll and before the wait resolves',
    },
  },
  {
    situation: '`onSubmitted` throws or rejects',
    outcome:
      "`SubmittedCallbackError` with the task ID, `cause` = the callback's error; no poll, no second submission, no unhandled rejection",
    provenBy: {
      file: WAITS,
      title: 'a save that %s rejects with SubmittedCallbackError holding the task ID',
    },
  },
  {
    situation: '`onProgress` is async',
    outcome: 'awaited: no poll starts while it runs',
    provenBy: {
      file: WAITS,
      title: 'no poll starts while it runs, and the wait resolves after the last call returned',
    },
  },
  {
    situation: '`onProgress` throws or rejects',
    outcome: "`ProgressCallbackError` with the task ID and the task seen, `cause` = the callback's error",
    provenBy: {
      file: WAITS,
      title: 'one that %s ends the wait with ProgressCallbackError holding the task ID',
    },
  },
  {
    situation: 'the caller aborts `createAndWait` during its wait',
    outcome: '`APIUserAbortError` carrying `taskId` (in its JSON too); submitted once',
    provenBy: {
      file: VIDEOS_WAIT,
      title: 'a caller abort during the wait: APIUserAbortError with taskId, in its JSON too',
    },
  },
  {
    situation: 'every poll of `createAndWait` fails (503 after retries)',
    outcome: 'the status error, carrying `taskId`; submitted once',
    provenBy: {
      file: VIDEOS_WAIT,
      title: 'polls that fail for good: the status error with taskId, submitted once',
    },
  },
  {
    situation: "the event source's `waitFor` throws instead of rejecting",
    outcome: 'the wait goes on polling at the fallback interval and ends with the task',
    provenBy: {
      file: VIDEOS_WAIT,
      title: 'an event source that throws rather than rejects does not end the wait: it polls on',
    },
  },
  {
    situation: '`onSubmitted` not a function, or `events` without `waitFor`',
    outcome: '`InvalidOptionError` naming the option; nothing submitted',
    provenBy: {
      file: VIDEOS_WAIT,
      title: '%s is refused before the submission',
      row: 'onSubmitted that is not a function',
    },
  },
  {
    situation: '`timeout`, `interval` or `fallbackInterval` not a valid number',
    outcome: '`InvalidOptionError` naming the option; nothing submitted, no poll',
    provenBy: { file: WAITS, title: 'createAndWait with %s: InvalidOptionError, nothing submitted' },
  },
];

/** Webhook receivers sharing a dedupe store, under the gateway's at-least-once delivery. */
export const RECEIVER_ROWS: readonly SituationRow[] = [
  {
    situation: 'receiver A holds an event (its `onEvent` runs); the retry reaches receiver B',
    outcome: 'B answers 503 with `Retry-After`, never 200; once A is done, a retry gets 200 as a duplicate',
    provenBy: {
      file: IN_FLIGHT,
      title: 'while A runs onEvent, B answers 503 with Retry-After; once A is done, 200 as a duplicate',
    },
  },
  {
    situation: "A's `onEvent` throws while B answered a retry 503",
    outcome: 'A releases its claim; the next retry reaches B, which processes the event',
    provenBy: {
      file: IN_FLIGHT,
      title: "A's onEvent throws: the retry B answered 503 comes back and B processes it",
    },
  },
  {
    situation: 'A is killed (SIGKILL) inside `onEvent`',
    outcome: '503 until its lease lapses, then B processes the event',
    provenBy: {
      file: IN_FLIGHT,
      title: 'the holder is killed (SIGKILL) inside onEvent: 503 until its lease lapses, then B processes it',
    },
  },
  {
    situation: "A's `onEvent` runs past its lease while retries reach B",
    outcome:
      'A renews its claim: B answers 503 throughout; once A is killed, its claim lapses and B processes the event',
    provenBy: {
      file: IN_FLIGHT,
      title:
        "A's onEvent outlasts its lease: A keeps its claim, B answers 503; once A is killed, B processes it",
    },
  },
  {
    situation: 'a claim is held (never released) past `maxHoldSeconds`',
    outcome: 'it is no longer renewed and lapses within `leaseSeconds`; another store can claim the event',
    provenBy: {
      file: DEDUPE_LEASE,
      title:
        'a held claim is renewed past its lease, up to maxHoldSeconds; then it lapses though never released',
    },
  },
  {
    situation:
      "two handlers in one process share a `RedisDedupeStore`; the first one's claim lapsed while its `onEvent` runs",
    outcome:
      'the second answers 503 and takes no claim; after the first throws (releasing nothing of another), the retry runs `onEvent`',
    provenBy: {
      file: DEDUPE_LEASE,
      title:
        'two handlers sharing one store: while the first runs onEvent, the second answers 503, even once the claim lapsed',
    },
  },
  {
    situation: 'Redis stops answering a receiver after its `onEvent` resolved, before the done record',
    outcome:
      '200 (the event was handled), the error to `onError`; the done record is sent again and lands once Redis answers',
    provenBy: {
      file: DEDUPE_LEASE,
      title:
        'a markDone that fails while Redis does not answer is retried: the done record lands once it answers',
    },
  },
  {
    situation: 'two handlers in one process share a `MemoryDedupeStore`; one holds the event',
    outcome: 'the other answers 503 with `Retry-After`; after a throw the retry runs `onEvent`',
    provenBy: {
      file: DEDUPE_STATES,
      title:
        'a delivery of an event in flight gets 503 with Retry-After; after a throw the retry runs onEvent',
    },
  },
  {
    situation: 'a custom store with `claim` alone loses a claim',
    outcome: '503, never 200: the store cannot tell done from in flight',
    provenBy: {
      file: DEDUPE_STATES,
      title: 'a lost claim is answered 503, not acknowledged: the store cannot tell done from in flight',
    },
  },
  {
    situation: '200 shuffled deliveries of 50 events to four processes, with throws and one receiver killed',
    outcome:
      "every event's `onEvent` completes exactly once; no delivery is acknowledged before its event completed",
    provenBy: {
      file: 'test/reliability/exactly-once.test.ts',
      title: '200 shuffled deliveries of 50 events, injected throws, one receiver killed holding events',
    },
  },
];

const JOBS_RUN = 'test/jobs/run.test.ts';
const JOBS_CLI = 'test/jobs/cli.test.ts';

/** Job runs (`mediagw/jobs`, `mediagw jobs run`): crashes, lost answers, failures, budgets, fleets. */
export const JOB_ROWS: readonly SituationRow[] = [
  {
    situation: 'the runner is killed (SIGKILL) at 8 points of a run of 16 mixed jobs, resumed after each',
    outcome:
      "no job is submitted twice; a kill between the journal's intent and the answer leaves that job `in_doubt`, never resent; the output folder holds only whole outputs, and no staging folder is left",
    provenBy: {
      file: JOBS_CLI,
      title:
        'at random points, resumed each time: no job is submitted twice, and the folder holds only outputs',
    },
  },
  {
    situation:
      'the connection is reset after the gateway accepted a video job (reset after the body, route run)',
    outcome:
      "`in_doubt` (`AmbiguousSubmissionError`) with the `client_reference_id` it was sent with; not resent on resume; with events, reconciled from the task's webhook event and completed; one submission",
    provenBy: {
      file: JOBS_RUN,
      title:
        'leaves a job in doubt when the answer is lost, never resubmits it, and reconciles it from its webhook event',
    },
  },
  {
    situation: "a job's task fails, and the gateway refuses another job's body (400)",
    outcome:
      'both `failed` with their error, the other jobs complete; a rerun sends neither again; `retryFailed` sends both once more',
    provenBy: {
      file: JOBS_RUN,
      title: 'keeps failures as failures: a failed task and a refused body fail',
    },
  },
  {
    situation: '`maxReservedSeconds` reached, then the run restarted with the same budget and a larger one',
    outcome:
      'jobs past it are `skipped` (reason `budget`); the restarted run counts what the journal reserved and sends nothing more; the larger budget sends what fits',
    provenBy: {
      file: JOBS_RUN,
      title:
        'holds the budget across restarts: jobs past it are skipped, and a larger budget sends them later',
    },
  },
  {
    situation: 'SIGINT or SIGTERM during `mediagw jobs run`',
    outcome:
      'no new job is sent; jobs in flight keep their task IDs (none `in_doubt`); the resume command is printed; exit 130 or 143; the rerun completes every job, each submitted once',
    provenBy: {
      file: JOBS_CLI,
      title: 'mid-run stops submitting, leaves the journal consistent, says how to resume',
    },
  },
  {
    situation: "a completed job's output file is deleted before a rerun",
    outcome: 'downloaded again from its task; never resubmitted',
    provenBy: {
      file: JOBS_RUN,
      title: 'downloads again, never resubmits, a completed job whose file is gone',
    },
  },
  {
    situation: 'a manifest line breaks a rule (bad JSON, a repeated id, an unknown operation, a body rule)',
    outcome:
      '`ManifestError` (a `RequestValidationError`) naming each line, its id and the field paths; nothing sent; `mediagw jobs plan` exits 1',
    provenBy: { file: JOBS_RUN, title: 'refuses a manifest with a bad line before sending anything' },
  },
  {
    situation: 'three `mediagw jobs run` processes share one run in a real Redis',
    outcome: 'every job submitted exactly once, by one of them; a later run finds all completed',
    provenBy: {
      file: 'test/jobs/fleet.test.ts',
      title: 'submits every job once, by one of them, and a later run finds all completed',
    },
  },
];

function cite({ file, title, row }: ProvenBy): string {
  return `\`${file}\`: "${title}"${row ? `, row "${row}"` : ''}`;
}

function table(rows: readonly SituationRow[]): string[] {
  return [
    '| situation | outcome | proven by |',
    '|---|---|---|',
    ...rows.map((r) => `| ${r.situation} | ${r.outcome} | ${cite(r.provenBy)} |`),
  ];
}

/** The section of docs/fault-matrix.md for waits and receivers. */
export function renderWaitReceiverRows(): string[] {
  return [
    '## Waits, webhook receivers and job runs',
    '',
    'Failures that are not one call against one fault. Each row names the test that proves it;',
    '`test/reliability/faults.test.ts` checks that the file exists and holds that title (and row).',
    '',
    '### Waits',
    '',
    ...table(WAIT_ROWS),
    '',
    '### Webhook receivers',
    '',
    ...table(RECEIVER_ROWS),
    '',
    '### Job runs',
    '',
    ...table(JOB_ROWS),
    '',
  ];
}
