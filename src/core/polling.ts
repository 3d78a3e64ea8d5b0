import { sleep } from '../internal/sleep.js';
import { APIUserAbortError, TaskFailedError, WaitTimeoutError } from './errors.js';
import type { TaskEventSource } from './events-hub.js';
import type { WebhookEventLike } from './task-events.js';

/** Options of every `waitForTask`. */
export interface WaitOptions<T = unknown> {
  /** Overall deadline in milliseconds. @default 600000 (10 minutes, the spec's suggestion) */
  timeout?: number | undefined;
  /**
   * Milliseconds between polls: a number, or `[min, max]` for a jittered interval.
   * @default the spec's figure for the task kind (images and vidmodel-2.0-mini 3-5 s, vidmodel-2.5 and review tasks 5-10 s)
   */
  interval?: number | readonly [number, number] | undefined;
  /** Aborts the wait at once, sleeps included; passed to every request of the wait. */
  signal?: AbortSignal | undefined;
  /** Called with the task after every poll. */
  onProgress?: ((task: T) => void) | undefined;
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
  /** Whether a failed task resolves instead of throwing (review batches can partly succeed). */
  resolveOnFailure?: boolean | undefined;
}

/** spec: Events 10 — fallback polling for a task without a terminal event, every 60-120 s. */
export const EVENT_FALLBACK_INTERVAL: readonly [number, number] = [60_000, 120_000];
/** spec: States — the suggested overall polling deadline, 10 minutes. */
export const DEFAULT_WAIT_TIMEOUT = 600_000;

function pick(interval: number | readonly [number, number]): number {
  if (typeof interval === 'number') return interval;
  const [min, max] = interval;
  return min + Math.random() * (max - min);
}

/**
 * Polls a task until it ends: returns it on success, throws `TaskFailedError` on failure and
 * `WaitTimeoutError` at the deadline. Never resubmits anything.
 */
export async function pollTask<T>(spec: PollSpec<T>, options: WaitOptions<T> = {}): Promise<T> {
  const timeout = options.timeout ?? DEFAULT_WAIT_TIMEOUT;
  const deadline = Date.now() + timeout;
  const controller = new AbortController();
  const onAbort = () => controller.abort(new APIUserAbortError('The wait was aborted by the caller.'));
  if (options.signal?.aborted) throw new APIUserAbortError('The wait was aborted by the caller.');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const signal = controller.signal;
  const events = options.events;
  const chosen = events ? (options.fallbackInterval ?? EVENT_FALLBACK_INTERVAL) : options.interval;
  const defaultInterval = spec.defaultInterval;
  let lastTask: T | undefined;
  // With events, the first query waits for the event (or the fallback interval).
  let pollNow = !events;
  // The last event this wait was handed. The source is asked for another one, so an event the
  // task API does not confirm yet is not confirmed again and again in a loop.
  let seen: WebhookEventLike | undefined;

  try {
    for (;;) {
      if (pollNow) {
        lastTask = await spec.fetch(signal);
        options.onProgress?.(lastTask);
        const outcome = spec.outcome(lastTask);
        if (outcome === 'succeeded' || (outcome === 'failed' && spec.resolveOnFailure)) return lastTask;
        if (outcome === 'failed') {
          const { code, message } = spec.failure(lastTask);
          throw new TaskFailedError(spec.taskId, lastTask, code, message);
        }
      }
      pollNow = true;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new WaitTimeoutError(spec.taskId, timeout, lastTask);
      const interval =
        chosen ?? (typeof defaultInterval === 'function' ? defaultInterval(lastTask) : defaultInterval);
      const delay = Math.min(pick(interval), remaining);
      if (events) seen = (await sleepOrEvent(events, spec.taskId, delay, signal, seen)) ?? seen;
      else await sleep(delay, signal);
      if (Date.now() >= deadline && delay >= remaining) {
        // One last look at the deadline, then give up without resubmitting.
        lastTask = await spec.fetch(signal);
        options.onProgress?.(lastTask);
        const outcome = spec.outcome(lastTask);
        if (outcome === 'pending') throw new WaitTimeoutError(spec.taskId, timeout, lastTask);
        pollNow = false;
        if (outcome === 'succeeded' || spec.resolveOnFailure) return lastTask;
        const { code, message } = spec.failure(lastTask);
        throw new TaskFailedError(spec.taskId, lastTask, code, message);
      }
    }
  } catch (error) {
    if (signal.aborted && !(error instanceof TaskFailedError || error instanceof WaitTimeoutError)) {
      throw signal.reason;
    }
    throw error;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    controller.abort(); // ends any event listener still waiting
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
  const event = events.waitFor(taskId, local.signal, seen).catch(() => new Promise<never>(() => {}));
  try {
    return (await Promise.race([event, sleep(ms, local.signal)])) ?? undefined;
  } finally {
    signal.removeEventListener('abort', stop);
    local.abort();
  }
}
