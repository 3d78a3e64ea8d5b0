/**
 * What both request handlers do once they hold the raw body: verify, answer the verification
 * challenge, drop duplicates, call `onEvent`, and pick the status code.
 * spec: Events — items 4-7; Webhook endpoint states (HTTP 410 pauses the endpoint, so never send it).
 */
import { MediaGatewayError } from '../core/base-error.js';
import { WebhookVerificationError, type WebhookVerificationReason } from '../core/errors/webhooks.js';
import { checkCount, InvalidOptionError } from '../core/options.js';
import { type DedupeClaim, type DedupeStore, MemoryDedupeStore } from './dedupe.js';
import type { HandledWebhookEvent, WebhookEvent } from './events.js';
import {
  CHECKED_TOLERANCE,
  type CheckedVerifyOptions,
  normalizeSecrets,
  readHeader,
  WEBHOOK_HEADERS,
  type WebhookBody,
  type WebhookHeaders,
  type WebhookSecrets,
} from './signature.js';

/** About the delivery that carried an event. */
export interface WebhookDelivery {
  /** `X-Service-Delivery-ID`: new for every attempt, so not a deduplication key. */
  deliveryId: string | undefined;
}

/** Options of `createWebhookHandler` and `createNodeWebhookHandler`. */
export interface WebhookHandlerOptions {
  /** Secrets by key ID; during a rotation give the current and the previous pair. */
  secrets: WebhookSecrets;
  /**
   * Called once per verified event ID, except `webhook.endpoint_verification`, which the
   * handler answers itself. The handler answers 2xx only after it resolves, so store the event
   * durably here and download media later. If it throws, the handler answers 500, forgets the
   * event ID and the gateway retries. While it runs, a delivery of the same event to another
   * handler sharing the `dedupe` store is answered 503 with `Retry-After`, not acknowledged.
   */
  onEvent: (event: HandledWebhookEvent, delivery: WebhookDelivery) => unknown;
  /**
   * Where event IDs are recorded: an event recorded as done is answered 200 as a duplicate,
   * one claimed by another delivery still running 503 with `Retry-After: 10`.
   * @default a new MemoryDedupeStore()
   */
  dedupe?: DedupeStore | undefined;
  /** Largest accepted clock difference, in whole seconds, 0 or more. @default 300 */
  toleranceSeconds?: number | undefined;
  /** Largest accepted body, in bytes (1 or more); a larger one is answered 413. @default 1048576 (1 MiB) */
  maxBodyBytes?: number | undefined;
  /** The current time for the timestamp check, for tests: Unix seconds or a Date. @default the system clock */
  clock?: (() => number | Date) | undefined;
  /**
   * Told about each refused delivery, as a `WebhookVerificationError` whose `reason` says why:
   * a failed verification or a body not given as raw bytes (answered 400), a method other than
   * POST (`method_not_allowed`, 405), a body over `maxBodyBytes` (`body_too_large`, 413) or
   * not received in time (`body_timeout`, 408, Node handler); told too what `onEvent` or the
   * dedupe store threw (answered 500), and of an `onEvent` still running after the store's
   * `maxHoldSeconds` (a `MediaGatewayError`). Not awaited; what it throws or rejects with
   * changes no answer, and the error it was given goes to console.error instead.
   * @default logs what is not a refused delivery with console.error
   */
  onError?: ((error: unknown) => unknown) | undefined;
}

/** A handler's answer before it is written to a response. */
export interface Reply {
  /** HTTP status. */
  status: number;
  /** JSON body. */
  body: Record<string, unknown>;
  /** Headers besides `content-type`, the same in both handlers. */
  headers?: Record<string, string>;
}

/** An error answer; an absent `reason` is left out when it is serialized. */
export const refusal = (status: number, type: string, message: string, reason?: string): Reply => ({
  status,
  body: { error: { type, reason, message } },
});

/** The answer to any method but POST. */
export const NOT_POST: Reply = {
  ...refusal(405, 'method_not_allowed', 'use POST'),
  headers: { allow: 'POST' },
};

/**
 * The answer to a delivery of an event that another delivery is handling: 503 with
 * `Retry-After: 10`, so the gateway retries soon.
 */
export const IN_FLIGHT: Reply = {
  ...refusal(503, 'in_flight', 'in flight elsewhere; retry'),
  headers: { 'retry-after': '10' },
};

/**
 * The answer to a body the handler cannot verify as received (parsed or read by the route
 * first): 400, with how to fix the route, which says nothing of the signature.
 */
export const unreadable = (hint: string): Reply =>
  refusal(400, 'webhook_verification_failed', hint, 'invalid_body');

/** The answer to a body over `limit` bytes. */
export const tooLarge = (limit: number): Reply => refusal(413, 'body_too_large', `over ${limit} bytes`);

/** The shared core of the two handlers. */
export interface DeliveryProcessor {
  /** Largest accepted body, in bytes. */
  maxBodyBytes: number;
  /**
   * Reports a refused delivery to `onError`: a `WebhookVerificationError` whose reason is the
   * reply's `reason`, else its `type`; returns `reply`.
   */
  refuse(reply: Reply): Reply;
  /** Hands an error to `onError` (or console.error); never throws. */
  report(error: unknown): unknown;
  /** Verifies a delivery, answers a challenge, drops duplicates, calls `onEvent`; never throws. */
  process(
    verify: (options: CheckedVerifyOptions) => WebhookEvent | Promise<WebhookEvent>,
    body: WebhookBody,
    headers: WebhookHeaders,
  ): Promise<Reply>;
}

/**
 * Builds the shared core.
 * @throws {MediaGatewayError} when `secrets` holds no usable secret.
 * @throws {InvalidOptionError} when `onEvent` or the dedupe store's `claim` is not a function,
 * `toleranceSeconds` is not a whole number of 0 or more, `maxBodyBytes` not one of 1 or more, or
 * the dedupe store's `maxHoldSeconds` not one from 1 to 2147483.
 */
export function createDeliveryProcessor(options: WebhookHandlerOptions): DeliveryProcessor {
  options = Object(options);
  if (typeof options.onEvent !== 'function')
    throw new InvalidOptionError('onEvent', options.onEvent, 'a function');
  // Checked once, here: every delivery takes it as checked (see CHECKED_TOLERANCE).
  const toleranceSeconds = checkCount('toleranceSeconds', options.toleranceSeconds, 0) ?? 300;
  const maxBodyBytes = checkCount('maxBodyBytes', options.maxBodyBytes, 1) ?? 1_048_576;
  const secrets = Object.fromEntries(normalizeSecrets(options.secrets));
  const dedupe: DedupeStore = options.dedupe ?? new MemoryDedupeStore();
  // Something else given as the store (a Redis client) would answer every delivery 500.
  if (typeof dedupe.claim !== 'function')
    throw new InvalidOptionError('dedupe.claim', dedupe.claim, 'a function');
  // Read once: a store's hold limit is fixed, and one past setTimeout's range would fire at once.
  const hold = checkCount('maxHoldSeconds', dedupe.maxHoldSeconds, 1, 2_147_483);
  // Never throws nor rejects: an onError that fails must not change an answer or leave a claim
  // held (the event would be in flight for good); the error it was given is logged instead.
  // Without onError, what is not a refused delivery is logged.
  const report = async (error: unknown) => {
    try {
      if (options.onError) await options.onError(error);
      else if (!(error instanceof WebhookVerificationError)) throw error;
    } catch {
      console.error('mediagw/webhooks:', error);
    }
  };
  // Concurrent deliveries of one event in this process share the first one's outcome, so a
  // duplicate is not acknowledged before the original is handled.
  const inFlight = new Map<string, Promise<Reply>>();
  // Store bookkeeping after the outcome is decided never changes the answer; a failure is reported.
  const quietly = async (step: () => unknown) => {
    try {
      await step();
    } catch (error) {
      report(error);
    }
  };

  async function handle(event: HandledWebhookEvent, delivery: WebhookDelivery): Promise<Reply> {
    let found: DedupeClaim | undefined;
    // Past the store's maxHoldSeconds the call is taken as hung: its claim lapses, so this
    // process stops holding the event too. The deliveries waiting on it are answered 503, a
    // later one goes to the store again (and runs onEvent once it can claim the event), and
    // whatever the hung call does later changes nothing in the store. Armed before the claim,
    // as the store counts from it: an onEvent settling after the store let its claim go (and
    // before a timer started later) would be acknowledged with no done record.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const hung = new Promise((resolve) => {
      if (!hold) return;
      timer = setTimeout(resolve, hold * 1e3, IN_FLIGHT);
      timer.unref?.();
    });
    try {
      // A store with `claim` alone cannot tell a handled event from one in flight: a lost
      // claim is taken as in flight, never acknowledged.
      found = dedupe.claimState
        ? await dedupe.claimState(event.id)
        : (await dedupe.claim(event.id))
          ? 'claimed'
          : 'in_flight';
      if (found === 'done') return { status: 200, body: { received: true, duplicate: true } };
      // spec: Events 7 — a Retry-After on 503 is honoured: the gateway comes back when the
      // holder has likely finished, released the event or lost its lease, not hours later.
      if (found !== 'claimed') return IN_FLIGHT;
      const outcome = await Promise.race([options.onEvent(event, delivery), hung]);
      if (outcome === IN_FLIGHT) {
        report(
          new MediaGatewayError(
            `onEvent for ${event.id} hung over maxHoldSeconds; rerun on its next delivery`,
          ),
        );
        return IN_FLIGHT;
      }
    } catch (error) {
      report(error);
      // Forget the ID so the gateway's retry of this event is processed.
      if (found === 'claimed') await quietly(() => dedupe.release(event.id));
      return refusal(500, 'handler_failed', 'not handled; retry');
    } finally {
      clearTimeout(timer);
    }
    // Acknowledged once recorded as done. A failure to record it is reported but still
    // acknowledged: `onEvent` completed, and a retry could only run it a second time.
    await quietly(() => dedupe.markDone?.(event.id));
    return { status: 200, body: { received: true } };
  }

  return {
    maxBodyBytes,
    report,
    refuse(reply) {
      const { type, reason = type, message } = reply.body.error as Record<string, string>;
      report(new WebhookVerificationError(reason as WebhookVerificationReason, message as string));
      return reply;
    },
    async process(verify, body, headers) {
      let event: WebhookEvent;
      try {
        event = await verify({
          body,
          headers,
          secrets,
          now: options.clock?.(),
          [CHECKED_TOLERANCE]: toleranceSeconds,
        });
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
        report(error);
        // spec: Events — a 4xx other than 410 is retried; 410 would pause the endpoint.
        // The reason (unknown key, bad signature, clock) is for the receiver (onError), not the sender.
        return refusal(400, 'webhook_verification_failed', 'verification failed');
      }
      // spec: Events — item 4, answered only after the signature verified.
      if (event.type === 'webhook.endpoint_verification') {
        return { status: 200, body: { challenge: event.data?.challenge } };
      }
      let outcome = inFlight.get(event.id);
      if (!outcome) {
        outcome = handle(event, { deliveryId: readHeader(headers, WEBHOOK_HEADERS.deliveryId) }).finally(() =>
          inFlight.delete(event.id),
        );
        inFlight.set(event.id, outcome);
      }
      return outcome;
    },
  };
}
