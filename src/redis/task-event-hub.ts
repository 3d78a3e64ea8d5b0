/**
 * Task events shared by every replica through Redis pub/sub, for `waitForTask({ events })`.
 * spec: Events — item 6 (an event can arrive before the submission response) and item 10
 * (the task API stays authoritative; polling every 60-120 s is the fallback).
 */
import { MediaGatewayError } from '../core/base-error.js';
import type { TaskEventSource } from '../core/events-hub.js';
import { checkOptions, count, duration } from '../core/options.js';
import type { WebhookEventLike } from '../core/task-events.js';
import {
  commandClient,
  DEFAULT_PREFIX,
  DEFAULT_TIMEOUT_MS,
  type RedisCommandClient,
  type RedisKeyOptions,
  type RedisSubscriberClient,
  run,
  subscription,
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
  /** The event this wait was handed before: not handed again. */
  seen: WebhookEventLike | undefined;
  resolve(event: WebhookEventLike): void;
  reject(error: unknown): void;
}

/** Whether two events are one: the same `id`, or the same JSON when either has none. */
function sameEvent(a: WebhookEventLike, b: WebhookEventLike | undefined): boolean {
  if (!b) return false;
  return a.id !== undefined || b.id !== undefined ? a.id === b.id : JSON.stringify(a) === JSON.stringify(b);
}

const TERMINAL = new Set(['task.completed', 'task.failed']);

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

/** The numeric options of {@link RedisTaskEventHub}, in the order they are checked: rule and default. */
const HUB_OPTIONS = {
  publisher: commandClient,
  keepSeconds: count(1, 600),
  timeoutMs: duration(DEFAULT_TIMEOUT_MS),
};

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
 * - `waitFor(taskId, signal, seen?)`: subscribes to `<prefix>task-events` (once per hub), then
 *   reads `<prefix>event:<task_id>` once, so an event published before the wait started is seen
 *   too. Then it only listens, sending no command, until a message for the task or `signal`
 *   (the wait's sleep: its fallback interval or deadline) ends it. The event `seen` (the one the
 *   wait was handed last time, which the task API did not confirm yet) is not handed again,
 *   neither from the key nor from a message; so a wait costs one `GET` per call (one per event
 *   and per fallback poll) and one confirming task query per event, however far the task API
 *   lags behind the event. Each time the subscriber connection is ready again after a drop (its
 *   `'ready'` event), the hub confirms its subscription and reads the key of every task waited
 *   for once more, so an event published while it was down is not missed.
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
  #subscription: Promise<void> | undefined;
  #closed = false;

  constructor(options: RedisTaskEventHubOptions) {
    const checked = checkOptions(HUB_OPTIONS, options, 'RedisTaskEventHub.');
    this.#publisher = checked.publisher;
    this.#subscriber = options.subscriber;
    this.#prefix = options.prefix ?? DEFAULT_PREFIX;
    this.#keep = String(checked.keepSeconds);
    this.#timeoutMs = checked.timeoutMs;
    this.#subscriber.on?.('ready', this.#onReady);
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
    this.#deliver(taskId, event);
    const message = JSON.stringify(event);
    // The key first: a wait reads it after subscribing, so it misses neither the key nor the message.
    await run(this.#publisher, ['SET', this.keyOf(taskId), message, 'EX', this.#keep], this.#timeoutMs);
    await run(this.#publisher, ['PUBLISH', this.channel, message], this.#timeoutMs);
  };

  /**
   * Resolves with the task's terminal event when any replica publishes it, or soon after the
   * call if one was published within `keepSeconds`; never with `seen` (same `id`).
   * Rejects with `signal.reason` when `signal` aborts, with a `RedisUnavailableError` when Redis
   * fails or does not answer in time, and with a `MediaGatewayError` after {@link close}.
   */
  waitFor(taskId: string, signal: AbortSignal, seen?: WebhookEventLike): Promise<WebhookEventLike> {
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
        seen,
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
        .then(() => this.#read(taskId))
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
    this.#subscriber.off?.('ready', this.#onReady);
    const error = new MediaGatewayError('mediagw/redis: the RedisTaskEventHub was closed.');
    for (const set of [...this.#waiters.values()]) for (const waiter of [...set]) waiter.reject(error);
    if (!this.#subscription) return;
    this.#subscription = undefined;
    // A connection that is already gone has no subscription left to end.
    await subscription(this.#subscriber, 'unsubscribe', this.channel, this.#onMessage, this.#timeoutMs).catch(
      () => {},
    );
  }

  readonly #onMessage = (message: string): void => {
    const event = parseEvent(message);
    const taskId = terminalTaskId(event);
    if (taskId) this.#deliver(taskId, event!);
  };

  /**
   * The subscriber connection is back: what was published while it was down reached no
   * listener, so the waits read their keys again once the subscription is confirmed (node-redis
   * has renewed it by its `'ready'`; ioredis renews it after).
   */
  readonly #onReady = (): void => {
    if (!this.#waiters.size) return;
    this.#subscription = undefined;
    this.#subscribe()
      .then(() => Promise.all([...this.#waiters.keys()].map((taskId) => this.#read(taskId))))
      // A wait that cannot read goes on listening; its fallback poll still comes.
      .catch(() => {});
  };

  /** Reads the task's kept event and hands it to the task's waits. */
  async #read(taskId: string): Promise<void> {
    const event = parseEvent(await run(this.#publisher, ['GET', this.keyOf(taskId)], this.#timeoutMs));
    if (terminalTaskId(event) === taskId) this.#deliver(taskId, event!);
  }

  #deliver(taskId: string, event: WebhookEventLike): void {
    const waiters = this.#waiters.get(taskId);
    if (!waiters) return;
    for (const waiter of [...waiters]) if (!sameEvent(event, waiter.seen)) waiter.resolve(event);
  }

  /** Subscribes once per hub; a failed attempt is forgotten, so the next wait tries again. */
  #subscribe(): Promise<void> {
    if (!this.#subscription) {
      const current = subscription(
        this.#subscriber,
        'subscribe',
        this.channel,
        this.#onMessage,
        this.#timeoutMs,
      ).then(() => {});
      this.#subscription = current;
      current.catch(() => {
        if (this.#subscription === current) this.#subscription = undefined;
      });
    }
    return this.#subscription;
  }
}
