// Covers: properties of webhook signing and verifying
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  verifyWebhook,
  verifyWebhookAsync,
  type WebhookEvent,
  WebhookVerificationError,
} from '../../src/webhooks/index.js';
import {
  anyDelivery,
  type Delivery,
  headersOf,
  mustAccept,
  NOW,
  SECRETS,
  tamperedDelivery,
} from './arbitraries/deliveries.js';
import { PROPERTY_RUNS, PROPERTY_SEED } from './property-settings.js';

const settings = { seed: PROPERTY_SEED, numRuns: PROPERTY_RUNS };

type Outcome = { ok: true; event: WebhookEvent } | { ok: false; error: unknown };

function verifySync(delivery: Delivery): Outcome {
  try {
    return {
      ok: true,
      event: verifyWebhook({ body: delivery.body, headers: headersOf(delivery), secrets: SECRETS, now: NOW }),
    };
  } catch (error) {
    return { ok: false, error };
  }
}

async function verifyAsync(delivery: Delivery): Promise<Outcome> {
  try {
    const event = await verifyWebhookAsync({
      body: delivery.body,
      headers: headersOf(delivery),
      secrets: SECRETS,
      now: NOW,
    });
    return { ok: true, event };
  } catch (error) {
    return { ok: false, error };
  }
}

/** Checks that both verifiers reached the same outcome, by the same reason, and returns it. */
function agree(sync: Outcome, async: Outcome): Outcome {
  if (!sync.ok) expect(sync.error, String(sync.error)).toBeInstanceOf(WebhookVerificationError);
  if (!async.ok) expect(async.error, String(async.error)).toBeInstanceOf(WebhookVerificationError);
  expect(async.ok, 'sync and async verifiers agree').toBe(sync.ok);
  if (sync.ok && async.ok) expect(async.event).toEqual(sync.event);
  if (!sync.ok && !async.ok) {
    expect((async.error as WebhookVerificationError).reason).toBe(
      (sync.error as WebhookVerificationError).reason,
    );
  }
  return sync;
}

describe('webhook verification', () => {
  test(`${PROPERTY_RUNS} random and hostile deliveries: only WebhookVerificationError, never a pass without a valid signature, sync and async agree`, async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(anyDelivery, async (delivery) => {
        const outcome = agree(verifySync(delivery), await verifyAsync(delivery));
        expect(outcome.ok).toBe(mustAccept(delivery));
        if (outcome.ok) accepted++;
      }),
      settings,
    );
    // The generator reaches both sides of the property.
    expect(accepted).toBeGreaterThan(PROPERTY_RUNS / 50);
    expect(accepted).toBeLessThan(PROPERTY_RUNS);
  });

  test(`${PROPERTY_RUNS} signed deliveries with one thing changed are refused; unchanged ones verify`, async () => {
    const reasons: Record<string, string> = {
      'body-byte': 'signature_mismatch',
      timestamp: 'signature_mismatch',
      'signature-digit': 'signature_mismatch',
      'other-kid': 'signature_mismatch',
      'unknown-kid': 'unknown_key',
      stale: 'timestamp_out_of_tolerance',
      'event-id': 'event_id_mismatch',
    };
    await fc.assert(
      fc.asyncProperty(tamperedDelivery, async ({ delivery, tamper }) => {
        const outcome = agree(verifySync(delivery), await verifyAsync(delivery));
        if (tamper === 'none') {
          expect(outcome.ok).toBe(true);
          return;
        }
        expect(outcome.ok, tamper).toBe(false);
        if (!outcome.ok) expect((outcome.error as WebhookVerificationError).reason).toBe(reasons[tamper]);
      }),
      settings,
    );
  });
});
