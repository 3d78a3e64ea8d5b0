import { checkCallback, checkOptions, count, duration } from './options.js';
import type { WebhookEventLike } from './task-events.js';

/** Something a wait can listen to for a task's terminal event. */
export interface TaskEventSource {
  /**
   * Resolves with the task's terminal event (`task.completed` or `task.failed`) when it
   * arrives, or at once if it already arrived; rejects when `signal` aborts.
   *
   * `seen` is the event this wait was handed last time, which the task API did not confirm
   * yet: a source should resolve only with another event (another `id`), not `seen` again. A wait
   * calls `waitFor` again right after its confirming query, so a source that hands back the
   * same kept event would make it query in a loop.
   */
  waitFor(taskId: string, signal: AbortSignal, seen?: WebhookEventLike): Promise<WebhookEventLike>;
}

/** Options of {@link TaskEventHub}. */
export interface TaskEventHubOptions {
  /** How many early events are kept for waits that have not started yet. @default 1000 */
  maxBuffered?: number | undefined;
  /** How long an early event is kept, in milliseconds. @default 600000 (10 minutes) */
  maxAgeMs?: number | undefined;
  /** Clock for tests. @default Date.now */
  now?: (() => number) | undefined;
}

const TERMINAL = new Set(['task.completed', 'task.failed']);

/**
 * Connects webhook deliveries to waits in the same process: pass `hub.publish` as a webhook
 * handler's `onEvent`, and `{ events: hub }` to `waitForTask`. A wait then ends as soon as
 * the task's terminal event arrives (confirmed with one task query) and polls only as a
 * fallback. Events that arrive before their wait starts are kept, bounded in count and age.
 *
 * @example
 * const hub = new TaskEventHub();
 * app.post('/webhooks', createNodeWebhookHandler({ secrets, onEvent: hub.publish }));
 * const task = await client.videos.createAndWait(params, { events: hub });
 */
export class TaskEventHub implements TaskEventSource {
  private readonly early = new Map<string, { event: WebhookEventLike; at: number }>();
  private readonly waiters = new Map<string, Set<(event: WebhookEventLike) => void>>();
  private readonly maxBuffered: number;
  private readonly maxAgeMs: number;
  private readonly now: () => number;

  /**
   * @param options - bounds of the early-event buffer, and a clock for tests.
   * @throws {InvalidOptionError} when `maxBuffered` is not a whole number of 0 or more, or
   * `maxAgeMs` not a whole number of milliseconds from 1 to 2147483647, or `now` is not a
   * function.
   */
  constructor(options: TaskEventHubOptions = {}) {
    // `now` is checked here: a clock that is not a function would otherwise throw from every
    // publish, inside the webhook handler that received the event.
    const checked = checkOptions(
      { maxBuffered: count(0, 1000), maxAgeMs: duration(600_000), now: checkCallback },
      options,
      'TaskEventHub.',
    );
    this.maxBuffered = checked.maxBuffered;
    this.maxAgeMs = checked.maxAgeMs;
    this.now = checked.now ?? Date.now;
  }

  /** Hands an event to the waits of its task (of its key). Bound, so `onEvent: hub.publish` works. */
  readonly publish = (event: WebhookEventLike): void => {
    const key = this.keyOf(event);
    if (!key) return;
    const waiting = this.waiters.get(key);
    if (waiting?.size) {
      for (const resolve of waiting) resolve(event);
      this.waiters.delete(key);
      return;
    }
    this.prune();
    this.early.delete(key);
    this.early.set(key, { event, at: this.now() });
    while (this.early.size > this.maxBuffered) {
      const oldest = this.early.keys().next().value;
      if (oldest === undefined) break;
      this.early.delete(oldest);
    }
  };

  /**
   * Resolves with the task's terminal event: at once when it arrived early (and is still
   * kept), or when {@link TaskEventHub.publish} receives it. Called by waits; each event
   * ends every wait of its task.
   *
   * @throws the signal's reason (a rejection) when `signal` aborts first.
   */
  waitFor(taskId: string, signal: AbortSignal): Promise<WebhookEventLike> {
    this.prune();
    const kept = this.early.get(taskId);
    if (kept) {
      this.early.delete(taskId);
      return Promise.resolve(kept.event);
    }
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const set = this.waiters.get(taskId) ?? new Set();
      const done = (event: WebhookEventLike) => {
        signal.removeEventListener('abort', onAbort);
        resolve(event);
      };
      const onAbort = () => {
        set.delete(done);
        if (!set.size) this.waiters.delete(taskId);
        reject(signal.reason);
      };
      set.add(done);
      this.waiters.set(taskId, set);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * The key an event is kept under, which {@link TaskEventHub.waitFor} asks for; `undefined`
   * skips the event. A subclass may key events otherwise.
   *
   * @returns the `data.task_id` of a terminal event (`task.completed` or `task.failed`).
   */
  protected keyOf(event: WebhookEventLike): string | undefined {
    return TERMINAL.has(event.type) ? event.data?.task_id : undefined;
  }

  /** Number of waits listening now and events kept for later waits (for monitoring and tests). */
  get size(): {
    /** Waits listening now. */
    waiting: number;
    /** Early events kept for waits that have not started. */
    buffered: number;
  } {
    let waiting = 0;
    for (const set of this.waiters.values()) waiting += set.size;
    return { waiting, buffered: this.early.size };
  }

  private prune(): void {
    const cutoff = this.now() - this.maxAgeMs;
    for (const [taskId, entry] of this.early) {
      if (entry.at >= cutoff) break; // insertion order is arrival order
      this.early.delete(taskId);
    }
  }
}
