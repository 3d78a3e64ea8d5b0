import {
  APIUserAbortError,
  abortedBy,
  ProgressCallbackError,
  TaskFailedError,
  WaitTimeoutError,
} from './errors.js';
import type { TaskEventSource } from './events-hub.js';
import {
  type CheckedOptions,
  checkCallback,
  checkInterval,
  checkOptions,
  duration,
  InvalidOptionError,
} from './options.js';
import { untilAborted } from './signal-fanout.js';
import { sleep } from './sleep.js';
import type { WebhookEventLike } from './task-events.js';
import type { AnyTask, TaskKind } from './task-types.js';

/** Options of every `waitForTask`. */
export interface WaitOptions<T = unknown> {
  /**
   * Overall deadline in milliseconds, a whole number from 1 to 2147483647. It ends the wait at
   * that instant, a poll in flight or a retry's sleep included, with `WaitTimeoutError`.
   * @default 600000 (10 minutes, the spec's suggestion)
   */
  timeout?: number | undefined;
  /**
   * Milliseconds between polls: a number, or `[min, max]` for a jittered interval; whole
   * numbers from 1. Wins over the client's `pollInterval`.
   * @default the client's `pollInterval`, else the spec's figure for the task kind (images and vidmodel-2.0-mini 3-5 s, vidmodel-2.5 and review tasks 5-10 s)
   */
  interval?: number | readonly [number, number] | undefined;
  /**
   * Aborts the wait at once, sleeps included; passed to every request of the wait. The wait
   * then throws `APIUserAbortError` with the signal's reason as `cause`.
   */
  signal?: AbortSignal | undefined;
  /**
   * Called with the task after every poll; a promise it returns is awaited before the wait
   * goes on, so the wait settles only once it is done (its time counts toward `timeout`, but
   * it is not interrupted). When it throws or rejects, the wait stops with
   * `ProgressCallbackError`, holding the task ID and the error as `cause`.
   */
  onProgress?: ((task: T) => unknown) | undefined;
  /**
   * A {@link TaskEventSource} (a `TaskEventHub`): the wait ends when the task's terminal
   * event arrives, confirmed by one query, and polls only every `fallbackInterval` as a fallback.
   */
  events?: TaskEventSource | undefined;
  /**
   * With `events`: milliseconds between fallback polls, a number or `[min, max]`.
   * @default [60000, 120000] (spec: Events 10 — poll every 60-120 s when no terminal event came)
   */
  fallbackInterval?: number | readonly [number, number] | undefined;
}

/** Where a task stands, as a wait sees it. */
export type TaskOutcome = 'pending' | 'succeeded' | 'failed';

/** What a resource tells the wait loop about its task kind. */
export interface PollSpec<T> {
  /** The task to poll. */
  taskId: string;
  /** Which kind of task `T` is: the errors of the wait carry it, so that checking it narrows their task. */
  kind: TaskKind;
  /** Reads the task once. */
  fetch: (signal: AbortSignal) => Promise<T>;
  /** Where a task read stands. */
  outcome: (task: T) => TaskOutcome;
  /** The error code and message of a failed task. */
  failure: (task: T) => { code?: string | undefined; message?: string | undefined };
  /**
   * The spec's interval for this kind of task, `[min, max]` ms; or a function of the last task
   * read, asked before every sleep, for kinds whose interval depends on what the task says.
   */
  defaultInterval: readonly [number, number] | ((task: T | undefined) => readonly [number, number]);
  /**
   * The client's `pollInterval`: replaces `defaultInterval` for every kind, and yields to the
   * wait's own `interval`. Not used between the fallback polls of a wait on `events`.
   */
  clientInterval?: number | readonly [number, number] | undefined;
  /** Whether a failed task resolves instead of throwing (review batches can partly succeed). */
  resolveOnFailure?: boolean | undefined;
}

/** spec: Events 10 — fallback polling for a task without a terminal event, every 60-120 s. */
export const EVENT_FALLBACK_INTERVAL: readonly [number, number] = [60_000, 120_000];
/** spec: States — the suggested overall polling deadline, 10 minutes. */
export const DEFAULT_WAIT_TIMEOUT = 600_000;
/**
 * The least time left for the last poll before the deadline to answer: that poll starts at
 * least this long (or twice as long as the previous poll took) before the deadline.
 */
const LAST_POLL_RESERVE = 100;

/**
 * The options of a wait, checked where the wait is asked for (see {@link WaitOptions}): `timeout`
 * a duration (10 minutes when left out), `interval` and `fallbackInterval` a duration or a
 * `[min, max]` pair of them, `onProgress` a function, `events` a source with `waitFor`.
 */
export const WAIT_OPTIONS = {
  timeout: duration(DEFAULT_WAIT_TIMEOUT),
  interval: checkInterval,
  fallbackInterval: checkInterval,
  onProgress: checkCallback,
  events: (option: string, events: TaskEventSource | undefined) => {
    if (events !== undefined && typeof (events as { waitFor?: unknown } | null)?.waitFor !== 'function')
      throw new InvalidOptionError(
        option,
        events,
        'a task event source with a waitFor() method (a TaskEventHub)',
      );
    return events;
  },
};

/** The options of a wait as {@link checkWaitOptions} returns them, `timeout` resolved. */
export type WaitSettings<T> = CheckedOptions<WaitOptions<T>, typeof WAIT_OPTIONS>;

/**
 * Checks the options of a wait, once, before anything is sent, so that a bad option of
 * `createAndWait` refuses the call before the submission.
 *
 * @throws InvalidOptionError naming the option and the value.
 */
export function checkWaitOptions<T>(options: WaitOptions<T>): WaitSettings<T> {
  return checkOptions(WAIT_OPTIONS, options);
}

function pick(interval: number | readonly [number, number]): number {
  if (typeof interval === 'number') return interval;
  const [min, max] = interval;
  return min + Math.random() * (max - min);
}

/**
 * Polls a task until it ends: returns it on success, throws `TaskFailedError` on failure and
 * `WaitTimeoutError` at the deadline, which interrupts a poll in flight and the retry sleeps
 * of its request. Never resubmits anything.
 *
 * @throws InvalidOptionError for a bad `timeout`, `interval` or `fallbackInterval`, or an
 * `onProgress` that is not a function, before any request.
 * @throws ProgressCallbackError when `onProgress` throws or rejects.
 * @throws APIUserAbortError when `options.signal` aborts, with its reason as `cause`.
 */
export async function pollTask<T>(spec: PollSpec<T>, options: WaitOptions<T> = {}): Promise<T> {
  return pollChecked(spec, checkWaitOptions(options));
}

/** {@link pollTask} with options checked already, by {@link checkWaitOptions}. */
export async function pollChecked<T>(spec: PollSpec<T>, options: WaitSettings<T>): Promise<T> {
  const caller = options.signal;
  const callerAbort = () =>
    new APIUserAbortError(`The wait for task ${spec.taskId} was aborted ${abortedBy(caller?.reason)}.`, {
      cause: caller?.reason,
    });
  if (caller?.aborted) throw callerAbort();
  const timeout = options.timeout;
  const deadline = Date.now() + timeout;
  const controller = new AbortController();
  const onAbort = () => controller.abort(callerAbort());
  caller?.addEventListener('abort', onAbort, { once: true });
  const signal = controller.signal;
  let lastTask: T | undefined;
  // The deadline is a timer, not a check between polls: aborting the wait's signal ends the
  // poll in flight and its retry sleeps, which rethrow the reason.
  const timer = setTimeout(
    () =>
      controller.abort(
        new WaitTimeoutError(spec.taskId, timeout, lastTask as AnyTask | undefined, spec.kind),
      ),
    timeout,
  );
  const events = options.events;
  const chosen = events
    ? (options.fallbackInterval ?? EVENT_FALLBACK_INTERVAL)
    : (options.interval ?? spec.clientInterval);
  const defaultInterval = spec.defaultInterval;
  // With events, the first query waits for the event (or the fallback interval).
  let pollNow = !events;
  // Whether the last sleep was cut to leave the last poll time to answer before the deadline.
  let lastPoll = false;
  let pollMs = 0;
  // The last event this wait was handed. The source is asked for another one, so an event the
  // task API does not confirm yet is not confirmed again and again in a loop.
  let seen: WebhookEventLike | undefined;

  try {
    for (;;) {
      if (pollNow) {
        // No poll starts at the deadline: the last one was moved before it.
        if (Date.now() >= deadline)
          throw new WaitTimeoutError(spec.taskId, timeout, lastTask as AnyTask | undefined, spec.kind);
        const started = Date.now();
        const task = await spec.fetch(signal);
        pollMs = Date.now() - started;
        lastTask = task;
        if (options.onProgress) await report(options.onProgress, spec, task, caller);
        const outcome = spec.outcome(task);
        if (outcome === 'succeeded' || (outcome === 'failed' && spec.resolveOnFailure)) return task;
        if (outcome === 'failed') {
          const { code, message } = spec.failure(task);
          throw new TaskFailedError(spec.taskId, task as AnyTask, code, message, spec.kind);
        }
      }
      pollNow = true;
      // The deadline or the caller's abort may have come while onProgress ran: its reason wins.
      if (signal.aborted) throw signal.reason;
      const remaining = deadline - Date.now();
      if (remaining <= 0)
        throw new WaitTimeoutError(spec.taskId, timeout, lastTask as AnyTask | undefined, spec.kind);
      const reserve = Math.max(LAST_POLL_RESERVE, 2 * pollMs);
      const interval =
        chosen ?? (typeof defaultInterval === 'function' ? defaultInterval(lastTask) : defaultInterval);
      let delay = pick(interval);
      // The last poll was made and no other could answer in time: wait out the deadline, which
      // ends the wait without resubmitting (a task event may still end it sooner).
      const waitOut = lastPoll && remaining <= reserve;
      if (waitOut) {
        delay = remaining;
      } else {
        // A poll due after the deadline is moved forward, so that one last look can still
        // catch a task that ended in the meantime. The deadline bounds that poll too.
        lastPoll = delay >= remaining - reserve;
        if (lastPoll) delay = Math.max(0, remaining - reserve);
      }
      const handed = seen;
      if (events) seen = (await sleepOrEvent(events, spec.taskId, delay, signal, seen)) ?? seen;
      else await sleep(delay, signal);
      // Waited out without an event: the wait ends here, even when this sleep's timer ran a
      // moment before the deadline's (Date.now() may still read a millisecond short of it), so
      // no poll starts that the deadline would cut off.
      if (waitOut && seen === handed)
        throw new WaitTimeoutError(spec.taskId, timeout, lastTask as AnyTask | undefined, spec.kind);
    }
  } catch (error) {
    // A request or a sleep ended by the wait's signal throws whatever it makes of the abort;
    // the caller gets the reason itself: the deadline's WaitTimeoutError or APIUserAbortError.
    if (signal.aborted && !ownError(error)) throw signal.reason;
    throw error;
  } finally {
    clearTimeout(timer);
    caller?.removeEventListener('abort', onAbort);
    controller.abort(); // ends any event listener still waiting
  }
}

/** Errors the wait itself decided on, which an abort at the same moment must not replace. */
function ownError(error: unknown): boolean {
  return (
    error instanceof TaskFailedError ||
    error instanceof WaitTimeoutError ||
    error instanceof ProgressCallbackError
  );
}

/**
 * Runs `onProgress` and waits for it; what it throws becomes a ProgressCallbackError. The
 * caller's signal ends the wait for it (the deadline does not: its time counts, it is not cut).
 */
async function report<T>(
  onProgress: (task: T) => unknown,
  spec: PollSpec<T>,
  task: T,
  caller: AbortSignal | undefined,
): Promise<void> {
  try {
    await untilAborted(() => onProgress(task), caller);
  } catch (cause) {
    // The wait's own abort error, made of the reason, is thrown by the wait.
    if (caller?.aborted && cause === caller.reason) return;
    throw new ProgressCallbackError(spec.taskId, task as AnyTask, cause, spec.kind);
  }
}

async function sleepOrEvent(
  events: TaskEventSource,
  taskId: string,
  ms: number,
  signal: AbortSignal,
  seen: WebhookEventLike | undefined,
): Promise<WebhookEventLike | undefined> {
  const local = new AbortController();
  const stop = () => local.abort(signal.reason);
  signal.addEventListener('abort', stop, { once: true });
  // A failing event source (a lost Redis connection, say) must not end the wait: the sleep
  // then decides, and the wait goes on polling at the fallback interval.
  // Called inside a promise, so that a source that throws rather than rejects is treated the same.
  // So is one that hands back anything but a new terminal event of this task (undefined, the
  // event it was handed last time, another task's): taken as an event, it would start a poll
  // at once, and again, in a loop.
  const event = new Promise<WebhookEventLike | undefined>((resolve) =>
    resolve(events.waitFor(taskId, local.signal, seen)),
  ).then(
    (found) => (isNewTerminalEvent(found, taskId, seen) ? found : new Promise<never>(() => {})),
    () => new Promise<never>(() => {}),
  );
  try {
    return (await Promise.race([event, sleep(ms, local.signal)])) ?? undefined;
  } finally {
    signal.removeEventListener('abort', stop);
    local.abort();
  }
}

/** A terminal event (`task.completed`, `task.failed`) of `taskId` that is not `seen` again. */
function isNewTerminalEvent(
  event: WebhookEventLike | undefined,
  taskId: string,
  seen: WebhookEventLike | undefined,
): event is WebhookEventLike {
  return (
    typeof event === 'object' &&
    event !== null &&
    (event.type === 'task.completed' || event.type === 'task.failed') &&
    event.data?.task_id === taskId &&
    event !== seen &&
    (event.id === undefined || event.id !== seen?.id)
  );
}
