/**
 * The mock gateway's delivery engine: turns finished tasks into events, delivers them signed,
 * and retries on the spec's schedule on the mock clock. spec: Events 2-8.
 */
import type { CancelTimer } from '../clock.js';
import type { GatewayState } from '../gateway-state.js';
import { newId } from '../ids.js';
import type { MockTask } from '../tasks.js';
import { sendAttempt } from './attempt.js';
import {
  batchEventPayload,
  batchIdOf,
  subscriptionOf,
  type TaskSubscription,
  taskEventPayload,
  webhookDeliveryBody,
} from './envelope.js';
import type { PostOutcome } from './http.js';
import { DELIVERY_WINDOW_MS, retryDelay } from './schedule.js';
import type {
  MockDeliveryAttempt,
  MockWebhookEndpoint,
  MockWebhookEvent,
  MockWebhookOptions,
} from './types.js';

/** What the engine needs from the webhook state around it. */
export interface EngineHost {
  /** The gateway whose tasks produce events. */
  readonly gateway: GatewayState;
  /** The webhook settings in force. */
  readonly options: MockWebhookOptions;
  /** Every endpoint by ID. */
  readonly endpoints: ReadonlyMap<string, MockWebhookEndpoint>;
  /** The local URL deliveries for this registered URL go to. */
  targetFor(url: string): string | undefined;
  /** Sends one POST with the gateway's limits. */
  post(url: string, body: string, headers: Record<string, string>): Promise<PostOutcome>;
  /** Pauses an endpoint that answered 410. */
  pauseGone(endpoint: MockWebhookEndpoint): void;
  /** Tells the delivery listeners about an attempt whose consequence is settled. */
  notify(attempt: MockDeliveryAttempt, event: MockWebhookEvent): void;
}

type EventType = MockWebhookEvent['type'];

/** Task kinds that never send task events. spec: Events 1. */
const NO_EVENT_KINDS: ReadonlySet<string> = new Set(['review']);

/** Creates, delivers and retries events. One per gateway, owned by the webhook state. */
export class DeliveryEngine {
  /** Every event by ID. */
  readonly events = new Map<string, MockWebhookEvent>();
  private readonly builders = new Map<string, () => Record<string, unknown>>();
  private readonly timers = new Map<string, CancelTimer>();
  private readonly running = new Set<Promise<void>>();
  private readonly batchesSent = new Set<string>();
  private shuffled: MockWebhookEvent[] = [];
  private queued = 0;

  constructor(private readonly host: EngineHost) {}

  /**
   * Task listener: events for a finished task whose request subscribed to them. Library review
   * tasks send none, not even to a catch-all endpoint. spec: Events 1 — "library review produce[s]
   * no task events".
   */
  onTerminal(task: MockTask<unknown>): void {
    if (NO_EVENT_KINDS.has(task.kind)) return;
    const subscription = subscriptionOf(task) ?? this.catchAll(task);
    if (!subscription) return;
    const type: EventType = task.outcome === 'succeeded' ? 'task.completed' : 'task.failed';
    if (subscription.events.includes(type)) {
      this.create(task.account, subscription.endpointId, type, [task.id], undefined, (id, at) =>
        taskEventPayload(this.host.gateway, task, id, at),
      );
    }
    const batchId = batchIdOf(task);
    if (batchId && subscription.events.includes('batch.completed'))
      this.checkBatch(task, batchId, subscription.endpointId);
  }

  /** The catch-all endpoint of the task's account, subscribed to every event type. */
  private catchAll(task: MockTask<unknown>): TaskSubscription | undefined {
    for (const endpointId of this.host.options.catchAllEndpoints) {
      if (this.host.endpoints.get(endpointId)?.account === task.account)
        return { endpointId, events: ['task.completed', 'task.failed', 'batch.completed'] };
    }
    return undefined;
  }

  /** Sends `batch.completed` once every child of the batch has ended. spec: Events — batch.completed. */
  private checkBatch(task: MockTask<unknown>, batchId: string, endpointId: string): void {
    const key = `${task.account}/${batchId}`;
    if (this.batchesSent.has(key)) return;
    const now = this.host.gateway.clock.now();
    const children = this.host.gateway.tasks
      .list({ account: task.account })
      .filter((t) => batchIdOf(t) === batchId);
    if (children.some((t) => t.endsAt > now)) return;
    this.batchesSent.add(key);
    const ids = children.map((t) => t.id);
    this.create(task.account, endpointId, 'batch.completed', ids, batchId, (id, at) =>
      batchEventPayload(batchId, children, id, at),
    );
  }

  private create(
    account: string,
    endpointId: string,
    type: EventType,
    taskIds: string[],
    batchId: string | undefined,
    build: (id: string, createdAt: number) => Record<string, unknown>,
  ): void {
    const endpoint = this.host.endpoints.get(endpointId);
    if (!endpoint || endpoint.account !== account) return;
    const now = this.host.gateway.clock.now();
    const event: MockWebhookEvent = {
      id: newId('evt_'),
      account,
      endpointId,
      type,
      taskIds,
      batchId,
      createdAt: now,
      payload: undefined,
      body: undefined,
      status: endpoint.enabled ? 'pending' : 'paused',
      deadline: now + DELIVERY_WINDOW_MS,
      retryIndex: 0,
      nextAttemptAt: undefined,
      attempts: [],
      replays: [],
    };
    this.events.set(event.id, event);
    this.builders.set(event.id, () => build(event.id, now));
    // Other terminal listeners (the producers publishing media) run in the same turn; the body
    // is built after them, once, and every attempt sends the same bytes.
    this.queued++;
    queueMicrotask(() => {
      this.queued--;
      this.ensureBody(event);
      if (event.status !== 'pending') return;
      if (this.host.options.shuffleDeliveries) this.enqueueShuffled(event);
      else this.start(event);
    });
  }

  /** Builds the event's body once. */
  ensureBody(event: MockWebhookEvent): string {
    if (event.body === undefined) {
      const build = this.builders.get(event.id);
      event.payload = build ? build() : {};
      event.body = webhookDeliveryBody(event.payload);
      this.builders.delete(event.id);
    }
    return event.body;
  }

  private enqueueShuffled(event: MockWebhookEvent): void {
    this.shuffled.push(event);
    if (this.shuffled.length > 1) return;
    queueMicrotask(() => {
      const batch = this.shuffled.splice(0).reverse();
      this.track(
        (async () => {
          for (const next of batch) await this.attempt(next);
        })(),
      );
    });
  }

  /** Starts an attempt now. */
  start(event: MockWebhookEvent): void {
    this.track(this.attempt(event));
  }

  private track(work: Promise<void>): void {
    const tracked = work.catch((error: unknown) => console.error('mock webhooks:', error));
    this.running.add(tracked);
    void tracked.finally(() => this.running.delete(tracked));
  }

  private async attempt(event: MockWebhookEvent): Promise<void> {
    this.cancelTimer(event.id);
    event.nextAttemptAt = undefined;
    const endpoint = this.host.endpoints.get(event.endpointId);
    if (!endpoint?.enabled) {
      event.status = 'paused';
      return;
    }
    if (this.host.gateway.clock.now() > event.deadline) {
      event.status = 'exhausted';
      return;
    }
    event.status = 'in_flight';
    this.ensureBody(event);
    const { attempt, verdict } = await sendAttempt(this.host, event, endpoint, false);
    if (verdict.acknowledged) {
      event.status = 'delivered';
      this.host.notify(attempt, event);
      if (this.host.options.duplicateDeliveries) {
        const duplicate = await sendAttempt(this.host, event, endpoint, true);
        this.host.notify(duplicate.attempt, event);
      }
      return;
    }
    // spec: Webhook endpoint — any state: a delivery answered 410 pauses the endpoint.
    if (verdict.pausesEndpoint) this.host.pauseGone(endpoint);
    if (!endpoint.enabled) event.status = 'paused';
    else this.scheduleRetry(event, verdict.retryAfterMs);
    this.host.notify(attempt, event);
  }

  /** Schedules the next attempt: after `retryAfterMs` (the answer's Retry-After) when given, else the schedule's next step. */
  private scheduleRetry(event: MockWebhookEvent, retryAfterMs: number | undefined) {
    const { gateway, options } = this.host;
    const now = gateway.clock.now();
    let delay = retryDelay(event.retryIndex, options.jitter, options.random);
    event.retryIndex++;
    // spec: Events 7 — a valid Retry-After on 429 or 503 is honored inside the window.
    // A date is the receiver's: it was counted from the answer's own Date (real time without
    // one), never from the mock clock, which may run ahead at `speed`. The wait it names is
    // then mock time, as a number of seconds is and as the retry schedule is.
    if (retryAfterMs !== undefined && now + retryAfterMs <= event.deadline) delay = retryAfterMs;
    const due = now + delay;
    if (due > event.deadline) {
      event.status = 'exhausted';
      return;
    }
    event.status = 'retrying';
    event.nextAttemptAt = due;
    this.timers.set(
      event.id,
      gateway.clock.at(due, () => this.start(event)),
    );
  }

  /** Stops the scheduled attempts of an endpoint's events. spec: Webhook endpoint — paused. */
  pauseEndpoint(endpointId: string): void {
    for (const event of this.events.values()) {
      if (event.endpointId !== endpointId) continue;
      if (event.status === 'pending' || event.status === 'retrying') {
        this.cancelTimer(event.id);
        event.nextAttemptAt = undefined;
        event.status = 'paused';
      }
    }
  }

  /**
   * Continues the paused events of a resumed endpoint whose deadline has not passed; the others
   * are exhausted. spec: Webhook endpoint — paused -> active.
   */
  resumeEndpoint(endpointId: string): void {
    const now = this.host.gateway.clock.now();
    for (const event of this.events.values()) {
      if (event.endpointId !== endpointId || event.status !== 'paused') continue;
      if (now > event.deadline) event.status = 'exhausted';
      else {
        event.status = 'pending';
        this.start(event);
      }
    }
  }

  /**
   * Replays an event: same ID and body, a new 72-hour window, an attempt now (or when the
   * endpoint resumes). The caller checks the daily limit and the in-flight rule. spec: Events 8.
   */
  replay(event: MockWebhookEvent): void {
    const now = this.host.gateway.clock.now();
    this.cancelTimer(event.id);
    event.replays.push(now);
    event.deadline = now + DELIVERY_WINDOW_MS;
    event.retryIndex = 0;
    event.nextAttemptAt = undefined;
    event.status = 'pending';
    this.start(event);
  }

  /** Resolves once no delivery is under way or about to start (bounded). */
  async flush(): Promise<void> {
    for (let round = 0; round < 1000; round++) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.running.size === 0 && this.queued === 0 && this.shuffled.length === 0) return;
      await Promise.all([...this.running]);
    }
  }

  /** Drops every scheduled attempt. */
  close(): void {
    for (const cancel of this.timers.values()) cancel();
    this.timers.clear();
  }

  private cancelTimer(id: string): void {
    this.timers.get(id)?.();
    this.timers.delete(id);
  }
}
