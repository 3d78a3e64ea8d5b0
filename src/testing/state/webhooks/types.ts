/**
 * Records the mock gateway keeps about webhook endpoints, events and delivery attempts.
 * spec: Webhook endpoint; Webhook event envelope; Event delivery statuses.
 */
import type { Dispatcher } from 'undici';

/** spec: Event delivery statuses. */
export type MockDeliveryStatus = 'pending' | 'in_flight' | 'retrying' | 'delivered' | 'paused' | 'exhausted';

/** A registered webhook endpoint. */
export interface MockWebhookEndpoint {
  /** `whep_...` */
  readonly id: string;
  /** The owning account. */
  readonly account: string;
  /** The registered HTTPS URL; immutable. */
  readonly url: string;
  /** Key ID and secret that sign deliveries now. */
  keyId: string;
  /** The signing secret of `keyId`. */
  secret: string;
  /** The pair before the last rotation and the mock ms until which it stays valid (24 h). */
  previous:
    | {
        /** The previous key ID. */
        keyId: string;
        /** The previous secret. */
        secret: string;
        /** Mock ms until which it still verifies. */
        expiresAt: number;
      }
    | undefined;
  /** Whether the verification challenge succeeded; only verified endpoints may be named in requests. */
  verified: boolean;
  /** `false` while paused (by a PATCH or a delivery answered 410). */
  enabled: boolean;
  /** Why a paused endpoint is paused: a PATCH `enabled: false`, or a delivery answered 410. */
  pausedBy: 'request' | 'gone' | undefined;
  /** Mock ms. */
  readonly createdAt: number;
}

/** One HTTP attempt to deliver an event. */
export interface MockDeliveryAttempt {
  /** `dlv_...`, new per attempt; sent as `X-Service-Delivery-ID`. */
  readonly id: string;
  /** 1-based number among the event's attempts. */
  readonly attempt: number;
  /** Mock ms the attempt started and ended. */
  readonly startedAt: number;
  /** Mock ms the attempt ended; `undefined` while in flight. */
  finishedAt: number | undefined;
  /** `X-Service-Timestamp` sent (Unix seconds, on the `signingClock`). */
  readonly timestamp: number;
  /** `kid` of the signature. */
  readonly keyId: string;
  /** The local URL the attempt went to; `undefined` when no route maps the endpoint's URL. */
  readonly target: string | undefined;
  /** `in_flight`, `delivered` (a 2xx answer, whole within the time limit) or `failed`. */
  outcome: 'in_flight' | 'delivered' | 'failed';
  /**
   * HTTP status answered; `undefined` when no headers came (a network error, a timeout). A
   * status with `error` set is an answer whose body had not ended in time.
   */
  statusCode: number | undefined;
  /** Why the attempt failed: a network error, a timeout, a redirect, a missing route. */
  error: string | undefined;
  /** Sent only because `duplicateDeliveries` is on. */
  readonly duplicate: boolean;
}

/** An event of a task (or of a batch) for one endpoint, with its delivery state. */
export interface MockWebhookEvent {
  /** `evt_...`; kept by retries and replays. */
  readonly id: string;
  /** The owning account. */
  readonly account: string;
  /** The endpoint it is delivered to. */
  readonly endpointId: string;
  /** `task.completed`, `task.failed` or `batch.completed`. */
  readonly type: 'task.completed' | 'task.failed' | 'batch.completed';
  /** The task it reports, or every child task of the batch. */
  readonly taskIds: readonly string[];
  /** The Midjourney-family batch, when the task belongs to one. */
  readonly batchId: string | undefined;
  /** Mock ms. */
  readonly createdAt: number;
  /** The envelope; built once, just after the task ends, then never changed. */
  payload: Record<string, unknown> | undefined;
  /** The exact bytes sent on every attempt. */
  body: string | undefined;
  /** Delivery status: `pending`, `in_flight`, `retrying`, `delivered`, `paused` or `exhausted`. */
  status: MockDeliveryStatus;
  /** Mock ms until which attempts are made: 72 h from creation, or from the last replay. */
  deadline: number;
  /** How many retry delays of the schedule have been used in this window. */
  retryIndex: number;
  /** Mock ms of the next scheduled attempt. */
  nextAttemptAt: number | undefined;
  /** Every delivery attempt, oldest first. */
  readonly attempts: MockDeliveryAttempt[];
  /** Mock ms of each manual replay. */
  readonly replays: number[];
}

/** A verification challenge the mock sent. */
export interface MockVerificationRecord {
  /** The endpoint being verified. */
  readonly endpointId: string;
  /** The `webhook.endpoint_verification` event's ID. */
  readonly eventId: string;
  /** The challenge value the receiver must echo. */
  readonly challenge: string;
  /** Mock ms. */
  readonly at: number;
  /** The local URL the challenge went to; `undefined` when no route maps the endpoint's URL. */
  readonly target: string | undefined;
  /** HTTP status answered; `undefined` when no headers came (a network error, a timeout). */
  statusCode: number | undefined;
  /** Whether the receiver answered 200 with the challenge within 10 s. */
  verified: boolean;
  /** Why it failed. */
  reason: string | undefined;
}

/** Settings of the mock's webhook side. Change them with `mockWebhooks(gateway).configure()`. */
export interface MockWebhookOptions {
  /**
   * Adds up to 20% to each retry delay, as the gateway does. Turn off for exact delays in tests.
   * @default true
   */
  jitter: boolean;
  /** Random source of the jitter, in [0, 1). @default Math.random */
  random: () => number;
  /** Sends every delivered event a second time (new delivery ID, timestamp and signature). @default false */
  duplicateDeliveries: boolean;
  /**
   * Sends events that become due together in reverse order of creation, one after another, so
   * receivers see them out of order. @default false
   */
  shuffleDeliveries: boolean;
  /** Total real-time limit of one delivery or verification request, in ms. spec: Events 5. @default 10000 */
  timeoutMs: number;
  /** Real-time limit for the response headers, in ms. spec: Events 5. @default 8000 */
  headersTimeoutMs: number;
  /**
   * Endpoint IDs that receive the `task.completed` and `task.failed` events (and
   * `batch.completed`) of every task whose request subscribed no endpoint: the one of the task's
   * account is used. This is how `mediagw mock --forward-to` sends every task's events to a
   * local receiver. @default []
   */
  catchAllEndpoints: readonly string[];
  /**
   * The clock of the signed `X-Service-Timestamp`: `wall` (real time) or `mock` (the mock clock).
   * A receiver checks the timestamp against its own clock within 300 s. `wall` keeps deliveries
   * verifiable by a receiver on the system clock however fast the mock runs (`speed: 1000`) or
   * however far it was advanced; `mock` is for a receiver given the mock clock
   * (`clock: () => gateway.clock.nowSeconds()`), e.g. to test its own tolerance. @default 'wall'
   */
  signingClock: 'mock' | 'wall';
  /**
   * The undici dispatcher deliveries and verification challenges are sent through, e.g. an
   * `EnvHttpProxyAgent` to reach the receiver through a proxy (`mediagw mock --forward-to` passes
   * one when `HTTPS_PROXY` or `HTTP_PROXY` is set). It is not closed with the gateway.
   * @default an Agent of the mock's own
   */
  dispatcher?: Dispatcher | undefined;
}

/**
 * Told about each delivery attempt once it has ended and its consequence is settled: `event.status`
 * is `delivered`, `retrying` (with `event.nextAttemptAt`), `paused` or `exhausted`.
 * Register with `mockWebhooks(gateway).on('delivery', listener)`.
 */
export type MockDeliveryListener = (attempt: MockDeliveryAttempt, event: MockWebhookEvent) => void;
