/**
 * Task events shared by every replica through Redis pub/sub, for `waitForTask({ events })`.
 * spec: Events — item 6 (an event can arrive before the submission response) and item 10
 * (the task API stays authoritative; polling every 60-120 s is the fallback).
 */
import { MediaGatewayError } from '../core/base-error.js';
import type { TaskEventSource } from '../core/events-hub.js';
import { checkCount, checkDuration } from '../core/options.js';
import type { WebhookEventLike } from '../core/task-events.js';
import {
  attempt,
  bounded,
  DEFAULT_PREFIX,
  DEFAULT_TIMEOUT_MS,
  type RedisCommandClient,
  type RedisKeyOptions,
  type RedisSubscriberClient,
  run,
} from './client.js';

/** Options of {@link RedisTaskEventHub}. */
export interface RedisTaskEventHubOptions extends RedisKeyOptions {
  /** A connected client for `SET`, `GET` and `PUBLISH` (it may be the one the dedupe store uses). */
  publisher: RedisCommandClient;
  /** A dedicated connected client for `SUBSCRIBE` (node-redis: `publisher.duplicate()`, then `connect()`). */
  subscriber: RedisSubscriberClient;
  /**
   * How long a terminal event is kept for waits that start after it arrived, in seconds.
   * @default 600 (10 minutes)
   */
  keepSeconds?: number | undefined;
}

interface Waiter {
  resolve(event: WebhookEventLike): void;
  reject(error: unknown): void;
}

const TERMINAL = new Set(['task.completed', 'task.failed']);

/**
 * How long an event handed to this process's waits is not handed again from the kept key or
 * an identical message. `waitForTask` calls `waitFor` again right after the event's confirming
 * query; when the task API lags behind the event, handing it again at once would confirm
 * again at once, in a loop. Past this, a new wait of the task in this process sees it again.
 */
const REHAND_AFTER_MS = 10_000;
/** Most tasks whose hand-out is remembered; the oldest is forgotten first. */
const HANDED_MAX = 1_000;

function terminalTaskId(event: WebhookEventLike | undefined): string | undefined {
  const taskId = event?.data?.task_id;
  return event && TERMINAL.has(event.type) && typeof taskId === 'string' && taskId ? taskId : undefined;
}

function parseEvent(text: unknown): WebhookEventLike | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (
      typeof value === 'object' &&
      value !== null &&
      typeof (value as { type?: unknown }).type === 'string'
    ) {
      return value as WebhookEventLike;
    }
  } catch {
    // Not an event: ignored like any foreign message on the channel.
  }
  return undefined;
}

/**
 * A task event hub shared by every replica through Redis: `hub.publish` (a webhook handler's
 * `onEvent`) on the replica that received a terminal event resolves
 * `waitForTask(id, { events: hub })` on every replica waiting for that task. Drop-in for the
 * in-process `TaskEventHub`.
 *
 * - `publish(event)`: for `task.completed` and `task.failed` only, hands the event to this
 *   process's waits, then `SET <prefix>event:<task_id> <event JSON> EX keepSeconds` and
 *   `PUBLISH <prefix>task-events <event JSON>`. Rejects when Redis fails, so a handler whose
 *   `onEvent` it is answers 500 and the gateway retries.
 * - `waitFor(taskId, signal)`: subscribes to `<prefix>task-events` (once per hub), then reads
 *   `<prefix>event:<task_id>` once, so an event published before the wait started is seen too.
 *   Then it only listens: it costs no Redis command until a message, and the caller's sleep
 *   (the fallback interval, the deadline) ends it. An event this process handed to a wait in
 *   the last 10 seconds is not handed again, so when the task API lags behind the event, the
 *   wait confirms once and sleeps until its fallback poll, instead of querying in a loop.
 *   Rejects when Redis fails; `waitForTask` then goes on polling at its fallback interval.
 *
 * @throws {InvalidOptionError} at construction when `keepSeconds` is not a whole number of at
 * least 1 or `timeoutMs` not a whole number of milliseconds from 1 to 2147483647.
 * @example
 * import { createClient } from 'redis';
 * import { RedisTaskEventHub } from 'mediagw/redis';
 * const publisher = await createClient({ url: process.env.REDIS_URL }).on('error', log.warn).connect();
 * const subscriber = await publisher.duplicate().on('error', log.warn).connect();
 * const hub = new RedisTaskEventHub({ publisher, subscriber });
 * app.post('/webhooks', express.raw({ type: 'application/json' }),
 *   createNodeWebhookHandler({ secrets, onEvent: hub.publish }));
 * const task = await client.videos.createAndWait(params, { events: hub });
 */
export class RedisTaskEventHub implements TaskEventSource {
  readonly #publisher: RedisCommandClient;
  readonly #subscriber: RedisSubscriberClient;
  readonly #prefix: string;
  readonly #keep: string;
  readonly #timeoutMs: number;
  readonly #waiters = new Map<string, Set<Waiter>>();
  /** Task ID -> the event (JSON) last handed to this process's waits, and when. */
  readonly #handed = new Map<string, { text: string; at: number }>();
  #subscription: Promise<void> | undefined;
  #closed = false;

  constructor(options: RedisTaskEventHubOptions) {
    this.#publisher = options.publisher;
    this.#subscriber = options.subscriber;
    this.#prefix = options.prefix ?? DEFAULT_PREFIX;
    this.#keep = String(checkCount('RedisTaskEventHub.keepSeconds', options.keepSeconds, 1) ?? 600);
    this.#timeoutMs = checkDuration('RedisTaskEventHub.timeoutMs', options.timeoutMs) ?? DEFAULT_TIMEOUT_MS;
  }

  /** The pub/sub channel every replica listens to. */
  get channel(): string {
    return `${this.#prefix}task-events`;
  }

  /** The key that keeps a task's terminal event for `keepSeconds`. */
  keyOf(taskId: string): string {
    return `${this.#prefix}event:${taskId}`;
  }

  /**
   * Shares a terminal event with every replica; other events are ignored. Bound, so
   * `onEvent: hub.publish` works.
   * @throws {RedisUnavailableError} when Redis fails or does not answer in time.
   */
  readonly publish = async (event: WebhookEventLike): Promise<void> => {
    const taskId = terminalTaskId(event);
    if (!taskId) return;
    const message = JSON.stringify(event);
    this.#deliver(taskId, event, message);
    // The key first: a wait reads it after subscribing, so it misses neither the key nor the message.
    await run(this.#publisher, ['SET', this.keyOf(taskId), message, 'EX', this.#keep], this.#timeoutMs);
    await run(this.#publisher, ['PUBLISH', this.channel, message], this.#timeoutMs);
  };

  /**
   * Resolves with the task's terminal event when any replica publishes it, or soon after the
   * call if one was published within `keepSeconds`.
   * Rejects with `signal.reason` when `signal` aborts, with a `RedisUnavailableError` when Redis
   * fails or does not answer in time, and with a `MediaGatewayError` after {@link close}.
   */
  waitFor(taskId: string, signal: AbortSignal): Promise<WebhookEventLike> {
    return new Promise((resolve, reject) => {
      if (this.#closed)
        return reject(new MediaGatewayError('mediagw/redis: the RedisTaskEventHub is closed.'));
      if (signal.aborted) return reject(signal.reason);
      const waiters = this.#waiters.get(taskId) ?? new Set<Waiter>();
      this.#waiters.set(taskId, waiters);
      const finish = () => {
        waiters.delete(waiter);
        if (!waiters.size && this.#waiters.get(taskId) === waiters) this.#waiters.delete(taskId);
        signal.removeEventListener('abort', onAbort);
      };
      const waiter: Waiter = {
        resolve: (event) => {
          finish();
          resolve(event);
        },
        reject: (error) => {
          finish();
          reject(error);
        },
      };
      const onAbort = () => waiter.reject(signal.reason);
      waiters.add(waiter);
      signal.addEventListener('abort', onAbort, { once: true });
      this.#subscribe()
        .then(() => run(this.#publisher, ['GET', this.keyOf(taskId)], this.#timeoutMs))
        .then((stored) => {
          const event = parseEvent(stored);
          if (!waiters.has(waiter) || terminalTaskId(event) !== taskId) return;
          if (this.#handedLately(taskId, stored as string)) return; // listen for a new message
          this.#remember(taskId, stored as string);
          waiter.resolve(event!);
        })
        .catch((error: unknown) => {
          if (waiters.has(waiter)) waiter.reject(error);
        });
    });
  }

  /** Waits listening in this process now (for monitoring and tests). */
  get size(): {
    /** Waits of this process listening for their task's event. */
    waiting: number;
  } {
    let waiting = 0;
    for (const set of this.#waiters.values()) waiting += set.size;
    return { waiting };
  }

  /**
   * Stops listening: rejects the waits of this process (their `waitForTask` goes on polling)
   * and unsubscribes the channel. Closing the Redis clients stays the caller's job.
   */
  async close(): Promise<void> {
    this.#closed = true;
    const error = new MediaGatewayError('mediagw/redis: the RedisTaskEventHub was closed.');
    for (const set of [...this.#waiters.values()]) for (const waiter of [...set]) waiter.reject(error);
    if (!this.#subscription) return;
    this.#subscription = undefined;
    const leaving = attempt(() => this.#subscriber.unsubscribe(this.channel, this.#onMessage));
    // A connection that is already gone has no subscription left to end.
    await bounded('UNSUBSCRIBE', leaving, this.#timeoutMs).catch(() => {});
  }

  readonly #onMessage = (message: string): void => {
    const event = parseEvent(message);
    const taskId = terminalTaskId(event);
    if (taskId) this.#deliver(taskId, event!, message);
  };

  /** Hands an event to the task's waits, unless it is the one they were handed lately. */
  #deliver(taskId: string, event: WebhookEventLike, text: string): void {
    const waiters = this.#waiters.get(taskId);
    if (!waiters?.size || this.#handedLately(taskId, text)) return;
    this.#remember(taskId, text);
    for (const waiter of [...waiters]) waiter.resolve(event);
  }

  #handedLately(taskId: string, text: string): boolean {
    const handed = this.#handed.get(taskId);
    return handed?.text === text && Date.now() - handed.at < REHAND_AFTER_MS;
  }

  #remember(taskId: string, text: string): void {
    this.#handed.delete(taskId);
    this.#handed.set(taskId, { text, at: Date.now() });
    if (this.#handed.size > HANDED_MAX) this.#handed.delete(this.#handed.keys().next().value!);
  }

  /** Subscribes once per hub; a failed attempt is forgotten, so the next wait tries again. */
  #subscribe(): Promise<void> {
    if (!this.#subscription) {
      const subscribing = attempt(() => this.#subscriber.subscribe(this.channel, this.#onMessage));
      const current = bounded('SUBSCRIBE', subscribing, this.#timeoutMs).then(() => {});
      this.#subscription = current;
      current.catch(() => {
        if (this.#subscription === current) this.#subscription = undefined;
      });
    }
    return this.#subscription;
  }
}
