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
const NODE_HANDLER = 'test/webhooks/handler-node.test.ts';
const LIMITER = 'test/redis/rate-limiter.test.ts';
const LIMITER_OUTAGE = 'test/redis/rate-limiter-outage.test.ts';

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
  {
    situation:
      '`createAndWait` with `events` for a request whose `notifications` subscribe no task event (or that has none)',
    outcome:
      "the wait polls at its normal pace (`interval`, the client's `pollInterval`, else the model's) and never listens on the hub; one `debug` line says why",
    provenBy: {
      file: 'test/integration/videos-wait-events.test.ts',
      title: 'polls at the client pollInterval, ends on the task, and logs why at debug',
    },
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
      "two handlers in one process share a `RedisDedupeStore`; the first one's claim lapsed (its renewals could not reach Redis) while its `onEvent` runs",
    outcome:
      'the second answers 503 and takes no claim; after the first throws (releasing nothing of another), the retry runs `onEvent`',
    provenBy: {
      file: DEDUPE_LEASE,
      title:
        'two handlers sharing one store: while the first runs onEvent, the second answers 503, even once the claim lapsed',
    },
  },
  {
    situation:
      'one replica (or a sticky load balancer): an `onEvent` hangs past `maxHoldSeconds` while retries of its event reach the same process',
    outcome:
      'the deliveries waiting on the call are answered 503 and `onError` is told; the process stops holding the event, and once its claim lapsed a retry runs `onEvent` again and is acknowledged',
    provenBy: {
      file: DEDUPE_LEASE,
      title:
        'past maxHoldSeconds one replica stops holding a hung onEvent: its waiting deliveries are answered, a retry runs onEvent again, onError is told',
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
  {
    situation: 'a sender drips the body to the Node handler, one byte at a time',
    outcome:
      'past `bodyTimeoutMs` (10 s by default) 408 `body_timeout` and the connection closed; `onEvent` not called; `onError` told (reason `body_timeout`)',
    provenBy: {
      file: NODE_HANDLER,
      title:
        'a body not received within bodyTimeoutMs is answered 408, the connection closed, and onError told',
    },
  },
  {
    situation: '`express.json()` runs before the Node handler',
    outcome:
      '400 saying to use `express.raw()`; `onError` told (`WebhookVerificationError`, reason `invalid_body`), as for every refusal (405, 413, 408)',
    provenBy: {
      file: NODE_HANDLER,
      title:
        'express.json() before the route: 400 explaining express.raw, and onError is told (invalid_body)',
    },
  },
];

const DASHBOARD_LIVE = 'test/testing/dashboard-live.test.ts';

/** The mock gateway under slow or many peers: its dashboard's viewers, a fast mock clock. */
export const MOCK_ROWS: readonly SituationRow[] = [
  {
    situation: 'dashboard pages that stop reading their live stream while 40 views of 1 MB are sent',
    outcome:
      'the mock holds at most three views a stream (measured: 80 MB without the bound); the pages that read get every view; a page that reads again gets the newest',
    provenBy: {
      file: DASHBOARD_LIVE,
      title: 'cost at most three views each; the reading page gets every view; a resumed one the newest',
    },
  },
  {
    situation: 'one dashboard page more than the 32 streaming',
    outcome:
      '503 `too_many_viewers` with `Retry-After: 5`; the open pages are still updated; one closes, another may open',
    provenBy: { file: DASHBOARD_LIVE, title: 'open pages, one more is refused with 503 until one closes' },
  },
  {
    situation:
      'a mock at `speed: 1000`, an hour ahead, delivering to a receiver with the default 300 s tolerance',
    outcome:
      "every delivery and the verification challenge verify (signed with real time); `signingClock: 'mock'` is refused",
    provenBy: {
      file: 'test/testing/webhooks-signing-clock.test.ts',
      title: 'the verification challenge and the task events are accepted and verify',
    },
  },
  {
    situation:
      'a mock at `speed: 60`, an hour ahead of real time; the receiver answers 503 with `Retry-After` an HTTP date 3 s after its own `Date`, that `Date` 5 min off',
    outcome:
      'the retry is scheduled 3 s of mock time later: `Retry-After` minus the receiver’s `Date` (real time without `Date`), never the mock clock (it was retried at once)',
    provenBy: {
      file: 'test/testing/webhooks-delivery.test.ts',
      title: '3 s after %s: the retry comes 3 s of mock time later',
      row: 'a Date 5 minutes behind',
    },
  },
];

/**
 * Requests refused before sending, where the caller's input (not the gateway) is at fault: each
 * is a `RequestValidationError` naming the path, and nothing reaches the gateway.
 */
export const REQUEST_ROWS: readonly SituationRow[] = [
  {
    situation:
      'a body that breaks rules of its fields and rules across fields at once (a mistyped `prompt` and `draft` sent to mini)',
    outcome:
      '`RequestValidationError` naming every broken rule in one pass, each at its path; a cross-field rule that would read a mistyped field is left out',
    provenBy: {
      file: 'test/schemas/every-rule.test.ts',
      title: 'one refusal names what every patch breaks alone, field rules and cross-field rules together',
    },
  },
  {
    situation:
      'a public method called from plain JavaScript with an argument left out, `null`, a number or a string where an object belongs',
    outcome:
      '`RequestValidationError` naming the argument (`options`, `params`, `texts`, `entry`, `hints`, an ID), never a `TypeError`; nothing sent',
    provenBy: {
      file: 'test/resources/arguments.test.ts',
      title: 'argument %i as %s: RequestValidationError naming it, nothing sent',
    },
  },
  {
    situation: '`images.getTask` / `images.waitForTask` with a video, embedding or unknown `imgmodel-` model',
    outcome: '`RequestValidationError` at `model` / `options.model`; nothing sent',
    provenBy: {
      file: 'test/resources/arguments.test.ts',
      title: 'the model of an image-task query is checked before sending',
    },
  },
  {
    situation: '`images.edit` / `editAsync` with a file that is empty or not an image (text, video)',
    outcome: '`RequestValidationError` at `image` or `image[i]`, every such file named; nothing sent',
    provenBy: {
      file: 'test/integration/images.test.ts',
      title: 'files that are not images are refused before sending, each at its path (edit and editAsync)',
    },
  },
  {
    situation: '`uploads.image` with an image whose header gives no width and height',
    outcome:
      '`RequestValidationError` at `file`; nothing sent (a stream whose header lies past its first 64 KiB is left to the gateway)',
    provenBy: {
      file: 'test/integration/uploads.test.ts',
      title: '%s: its dimensions cannot be read, refused before sending',
      row: 'a PNG cut before its IHDR',
    },
  },
  {
    situation:
      '`webhooks.endpoints.create` with a loopback, private, link-local or `localhost` host (`https://127.0.0.1/…`, `https://[::1]/…`)',
    outcome:
      '`RequestValidationError` at `url` ("must be a public address"); nothing sent; the mock refuses the same hosts',
    provenBy: {
      file: 'test/integration/webhooks.test.ts',
      title: 'refuses the non-public host of %s before sending (public address rule)',
    },
  },
];

const SKEW = 'test/internal/retry-after-clock.test.ts';
const PROXY = 'test/internal/proxy.test.ts';

/** The wire: clocks, connections, proxies and the bodies the SDK sends. */
export const WIRE_ROWS: readonly SituationRow[] = [
  {
    situation:
      'the gateway’s clock is 5 min ahead of the client’s; an answer 503 with `Retry-After` an HTTP date 1 s after its `Date`',
    outcome: 'retried after 1 s: `Retry-After` minus `Date`, the local clock only without `Date`',
    provenBy: {
      file: SKEW,
      title: 'a gateway clock %s: the retry waits the 1 s asked for',
      row: '5 min ahead',
    },
  },
  {
    situation: 'the same, the gateway’s clock 5 min behind',
    outcome: 'retried after 1 s, not at once',
    provenBy: {
      file: SKEW,
      title: 'a gateway clock %s: the retry waits the 1 s asked for',
      row: '5 min behind',
    },
  },
  {
    situation: 'the same date on a 429, under `limits`',
    outcome: 'the model is paused for 1 s',
    provenBy: { file: SKEW, title: 'a 429 pauses the model for the 1 s asked for, whatever this clock says' },
  },
  {
    situation: '600 calls at once to one gateway',
    outcome:
      'at most `maxConnections` connections (128 by default); the rest queue on the client; all 600 answered',
    provenBy: {
      file: 'test/internal/connection-pool.test.ts',
      title: 'by default at most DEFAULT_MAX_CONNECTIONS (128): a burst of 600 calls queues on the client',
    },
  },
  {
    situation: 'an HTTP proxy between the client and an https gateway (`proxy`)',
    outcome: 'one `CONNECT` tunnel; the call answered through it',
    provenBy: { file: PROXY, title: 'an https gateway is reached through a CONNECT tunnel' },
  },
  {
    situation: 'an HTTP proxy (`proxy`), with a download redirected to another origin',
    outcome: 'both hops through the proxy; the key only on the gateway’s origin',
    provenBy: {
      file: PROXY,
      title: 'redirects keep their rules through the proxy: the key stays on the gateway’s origin',
    },
  },
  {
    situation: 'an upload stream of unknown length passes 20 MiB while it is being sent',
    outcome:
      '`RequestValidationError` at `file`, saying how many bytes were sent before it was cut off; nothing uploaded, nothing billed',
    provenBy: {
      file: 'test/integration/uploads.test.ts',
      title: 'a stream of unknown length past 20 MiB is cut off, and the error says bytes were sent',
    },
  },
  {
    situation: 'a caller’s `content-type` or `content-length` header on a call with a body',
    outcome: 'ignored: the SDK’s own go out, the multipart boundary included',
    provenBy: {
      file: 'test/integration/body-headers.test.ts',
      title: 'a multipart upload keeps its boundary, and the gateway reads the file',
    },
  },
  {
    situation: 'a refused connection, printed with `console.log`',
    outcome: '`APIConnectionError: ...`, the public class, no internal name',
    provenBy: {
      file: 'test/core/error-class-names.test.ts',
      title: 'a refused connection, as console.log prints it',
    },
  },
];

const SIGNALS = 'test/cli/signals.test.ts';
const INPUT_EDGES = 'test/cli/input-edges.test.ts';
const WEBHOOK_SEND = 'test/cli/webhook-send.test.ts';

/** The `mediagw` command: signals at each stage, input at its edges, `webhooks send`'s slow receivers. */
export const CLI_ROWS: readonly SituationRow[] = [
  {
    situation: 'SIGINT or SIGTERM while `--output` downloads',
    outcome:
      'exit 130 or 143, not killed by the signal; no `.mediagw-*.part` file left; with `--json`, one error document naming the task and the resume command',
    provenBy: {
      file: SIGNALS,
      title: '%s: exit %i, no partial file, one JSON document with the resume command',
      row: "'SIGTERM', 143",
    },
  },
  {
    situation: 'SIGINT while `--output` downloads, then the printed resume command is run',
    outcome: 'the file is saved',
    provenBy: { file: SIGNALS, title: 'the printed resume command saves the file' },
  },
  {
    situation: 'SIGTERM during the wait of `videos create --output ... --json`',
    outcome:
      'exit 143 and one error document with the task ID and a resume command that keeps `--output`; submitted once',
    provenBy: {
      file: SIGNALS,
      title: 'SIGTERM with --json: exit 143, one document naming the task and the resume command',
    },
  },
  {
    situation: 'Ctrl+C during the wait of `videos create --output --last-frame`, then the printed command',
    outcome: 'the video and the last frame are saved; nothing is submitted again',
    provenBy: {
      file: SIGNALS,
      title: 'videos create --output: the resume command printed after Ctrl+C waits and saves the video',
    },
  },
  {
    situation: 'Ctrl+C during a wait under `--mock`',
    outcome: 'exit 130 and no resume command: the embedded mock and its tasks end with the command',
    provenBy: {
      file: SIGNALS,
      title: 'under --mock no resume command is printed: the mock and its tasks end with the command',
    },
  },
  {
    situation: 'SIGINT while a billable submission is in flight (the gateway holds it)',
    outcome:
      'exit 130 and one error document saying the task may exist and to check before submitting again; sent once, no resume command',
    provenBy: {
      file: SIGNALS,
      title: 'a submission in flight: exit 130, one document, sent once, and no resume command',
    },
  },
  {
    situation: 'SIGINT while an upload body is still being sent',
    outcome: 'exit 130 and one error document',
    provenBy: { file: SIGNALS, title: 'an upload being sent: exit 130 and one document' },
  },
  {
    situation: '`--file /dev/zero`, or an endless pipe into `-f -`',
    outcome: 'refused at 32 MiB read (exit 1), memory bounded; nothing sent',
    provenBy: {
      file: INPUT_EDGES,
      title: 'an endless stdin (-f -) is refused at 32 MiB, and nothing is sent',
    },
  },
  {
    situation: 'Ctrl+C while `--file` names a FIFO nobody writes to',
    outcome: 'exit 130 at the first signal, one message naming the file; nothing sent',
    provenBy: {
      file: SIGNALS,
      title: 'a request file that is a FIFO nobody writes to: one Ctrl+C ends it, exit 130, nothing sent',
    },
  },
  {
    situation: 'a request file (or stdin) in Latin-1, or a flag holding U+FFFD',
    outcome: 'refused as not UTF-8 (exit 1), naming the file and the byte; nothing sent',
    provenBy: {
      file: INPUT_EDGES,
      title: 'a request file in Latin-1: exit 1 naming the file and the byte, nothing sent',
    },
  },
  {
    situation: 'a flag that fails to parse before `--json`',
    outcome: 'one error document on stdout, exit 1',
    provenBy: {
      file: INPUT_EDGES,
      title: '%j: one error document on stdout, exit 1',
      row: "'--max-retries', 'abc', '--json'",
    },
  },
  {
    situation: '`webhooks send` to a receiver that answers 200 at once and drips its body past 10 s',
    outcome: 'not acknowledged, retried (exit 2), as the gateway judges it',
    provenBy: { file: WEBHOOK_SEND, title: 'a body still dripping at 10 s: not acknowledged, exit 2' },
  },
  {
    situation:
      '`webhooks send` to a receiver whose clock is 5 min off, answering 503 with `Retry-After` an HTTP date 120 s after its `Date`',
    outcome:
      '"the gateway retries after 120 s": `Retry-After` minus the answer’s `Date`, as the gateway counts it (it said 0 s, or 420 s)',
    provenBy: {
      file: WEBHOOK_SEND,
      title: '503 from a receiver whose clock is %s: Retry-After counted from its Date',
      row: "'5 minutes behind', -5",
    },
  },
  {
    situation: '`webhooks send` to a receiver whose body never ends',
    outcome: 'read and dropped past 2 KB (memory bounded); not acknowledged',
    provenBy: {
      file: WEBHOOK_SEND,
      title: 'an endless body: read and dropped past 2 KB, not acknowledged',
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
  {
    situation:
      'three `mediagw jobs run --rate 10` processes share one run in a real Redis, against a gateway limiting the key and model to 20 a second (a burst of 20)',
    outcome:
      "one `RedisRateLimiter` budget in Redis for the three: no 429, at most burst + rate (+ one arrival across a second's edge) per second at the gateway, every job submitted once; a single run with a file journal keeps to `--rate` in its process",
    provenBy: {
      file: 'test/jobs/fleet.test.ts',
      title: 'paces the fleet with --rate through one limiter in Redis',
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

/** The section of docs/fault-matrix.md for waits, receivers and request checks. */
export function renderWaitReceiverRows(): string[] {
  return [
    '## Waits, receivers, the mock, request checks, the wire and job runs',
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
    '### The mock gateway',
    '',
    ...table(MOCK_ROWS),
    '',
    '### Request checks',
    '',
    ...table(REQUEST_ROWS),
    '',
    '### The wire',
    '',
    ...table(WIRE_ROWS),
    '',
    '### Shared rate limits',
    '',
    ...table(LIMITER_ROWS),
    '',
    '### The `mediagw` command',
    '',
    ...table(CLI_ROWS),
    '',
    '### Job runs',
    '',
    ...table(JOB_ROWS),
    '',
  ];
}

/** A fleet sharing a `RedisRateLimiter`: its first second and the switches of a Redis outage. */
export const LIMITER_ROWS: readonly SituationRow[] = [
  {
    situation:
      '4 processes start cold on a bucket Redis does not hold (first use, an hour of quiet, or lost)',
    outcome:
      'at most 1 + the rate granted in the first second, by Redis time (a full burst let 15 through at 8/s)',
    provenBy: {
      file: LIMITER,
      title:
        '4 processes starting cold keep to the rate in their first second: no burst on a bucket Redis does not hold',
    },
  },
  {
    situation: 'Redis stops mid-run, then comes back with none of its data',
    outcome:
      'in the seconds around either switch, at most the rate (+2 for timing): the local shares start empty, and the first acquisition back lowers the buckets by what the other replicas may still send on their shares (without: 59-76 in a second at 20/s)',
    provenBy: {
      file: LIMITER_OUTAGE,
      title:
        'two replicas keep to the fleet rate through the outage and on the way back: no burst on top of the local shares',
    },
  },
];
