/**
 * One delivery attempt: sign the event's body with the endpoint's current secret, POST it to the
 * local route, and record what happened. spec: Authentication 5-6; Events 5 and 7.
 */
import { signWebhook } from '../../../webhooks/sign.js';
import type { MockClock } from '../clock.js';
import { newId } from '../ids.js';
import type { PostOutcome } from './http.js';
import type { MockDeliveryAttempt, MockWebhookEndpoint, MockWebhookEvent } from './types.js';
import { type DeliveryVerdict, deliveryVerdict } from './verdict.js';

/** What an attempt needs from the webhook state. */
export interface AttemptHost {
  /** The gateway, for its clock. */
  readonly gateway: { readonly clock: MockClock };
  /** The local URL for an endpoint's registered URL. */
  targetFor(url: string): string | undefined;
  /** Sends one POST with the gateway's limits. */
  post(url: string, body: string, headers: Record<string, string>): Promise<PostOutcome>;
  /** Which clock signs the timestamp; real time when left out. */
  readonly options?: { readonly signingClock?: 'mock' | 'wall' } | undefined;
}

/** Unix seconds for `X-Service-Timestamp`: real time, or the mock clock when asked. */
export function signingSeconds(
  clock: { nowSeconds(): number },
  options: { readonly signingClock?: 'mock' | 'wall' } | undefined,
): number {
  return options?.signingClock === 'mock' ? clock.nowSeconds() : Math.floor(Date.now() / 1000);
}

/** The attempt as recorded, and what the gateway makes of its answer. */
export interface AttemptResult {
  /** The attempt as recorded. */
  attempt: MockDeliveryAttempt;
  /** The answer read by the gateway's rules: acknowledged, retried (when), or pausing the endpoint. */
  verdict: DeliveryVerdict;
}

/**
 * Sends `event.body` once and appends the attempt to `event.attempts`. Each attempt has a new
 * delivery ID, timestamp and signature; the event ID and body stay the same. Never throws.
 */
export async function sendAttempt(
  host: AttemptHost,
  event: MockWebhookEvent,
  endpoint: MockWebhookEndpoint,
  duplicate: boolean,
): Promise<AttemptResult> {
  const clock = host.gateway.clock;
  const body = event.body ?? '';
  const target = host.targetFor(endpoint.url);
  const attempt: MockDeliveryAttempt = {
    id: newId('dlv_'),
    attempt: event.attempts.length + 1,
    startedAt: clock.now(),
    finishedAt: undefined,
    timestamp: signingSeconds(clock, host.options),
    keyId: endpoint.keyId,
    target,
    outcome: 'in_flight',
    statusCode: undefined,
    error: undefined,
    duplicate,
  };
  event.attempts.push(attempt);
  if (target === undefined) {
    attempt.finishedAt = clock.now();
    attempt.outcome = 'failed';
    attempt.error = `no local route for ${endpoint.url}: call mockWebhooks(gateway).route(url, localUrl)`;
    return { attempt, verdict: deliveryVerdict({ error: attempt.error }) };
  }
  const headers = signWebhook({
    body,
    secret: endpoint.secret,
    keyId: endpoint.keyId,
    timestamp: attempt.timestamp,
    eventId: event.id,
    deliveryId: attempt.id,
  });
  const answer = await host.post(target, body, headers);
  const status = answer.statusCode;
  attempt.finishedAt = clock.now();
  attempt.statusCode = status;
  // spec: Events 5 and 7 — any 2xx that came whole in time acknowledges; redirects are not
  // followed. A date in Retry-After is counted from the answer's Date (real time without one).
  // The headers' limit is the one the mock was configured with (`headersTimeoutMs`), which the
  // sender applied; the verdict's own 8 s is not asked again.
  const verdict = deliveryVerdict({ ...answer, headersMs: undefined });
  attempt.outcome = verdict.acknowledged ? 'delivered' : 'failed';
  const redirect = status !== undefined && status >= 300 && status < 400;
  attempt.error = answer.error ?? (redirect ? `redirect (${status}) not followed` : undefined);
  return { attempt, verdict };
}
