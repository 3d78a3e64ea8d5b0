/**
 * The verification challenge. spec: Events 4 — "the receiver returns HTTP 200 with
 * `{challenge: <received value>}` within 10 seconds"; Webhook endpoint — created -> verified.
 */
import { signWebhook } from '../../../webhooks/sign.js';
import { newId } from '../ids.js';
import { signingSeconds } from './attempt.js';
import { verificationPayload, webhookDeliveryBody } from './envelope.js';
import type { PostOutcome } from './http.js';
import type { MockVerificationRecord, MockWebhookEndpoint } from './types.js';
import { verificationVerdict } from './verdict.js';

/** What the challenge needs from the webhook state. */
export interface VerifyHost {
  /** The gateway, for its clock. */
  readonly gateway: { readonly clock: { now(): number; nowSeconds(): number } };
  /** The local URL for an endpoint's registered URL. */
  targetFor(url: string): string | undefined;
  /** Sends one POST with the gateway's limits. */
  post(url: string, body: string, headers: Record<string, string>): Promise<PostOutcome>;
  /** Which clock signs the timestamp; real time when left out. */
  readonly options?: { readonly signingClock?: 'mock' | 'wall' } | undefined;
}

/** Sends a signed `webhook.endpoint_verification` event and checks the answer. Never throws. */
export async function verifyEndpoint(
  host: VerifyHost,
  endpoint: MockWebhookEndpoint,
): Promise<MockVerificationRecord> {
  const clock = host.gateway.clock;
  const eventId = newId('evt_');
  const challenge = newId('chl_', 16);
  const target = host.targetFor(endpoint.url);
  const record: MockVerificationRecord = {
    endpointId: endpoint.id,
    eventId,
    challenge,
    at: clock.now(),
    target,
    statusCode: undefined,
    verified: false,
    reason: undefined,
  };
  if (target === undefined) {
    record.reason = `no local route for ${endpoint.url}: call mockWebhooks(gateway).route(url, localUrl)`;
    return record;
  }
  const body = webhookDeliveryBody(verificationPayload(eventId, challenge, clock.now()));
  const headers = signWebhook({
    body,
    secret: endpoint.secret,
    keyId: endpoint.keyId,
    timestamp: signingSeconds(clock, host.options),
    eventId,
  });
  const answer = await host.post(target, body, headers);
  record.statusCode = answer.statusCode;
  const verdict = verificationVerdict(answer, challenge);
  record.verified = verdict.verified;
  record.reason = verdict.reason;
  return record;
}
