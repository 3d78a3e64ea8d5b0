// Consumer type test: every entry point resolves with its types, and its names are typed.
// Type-checked like list.ts (see there); under moduleResolution node the subpaths resolve
// through the package's typesVersions. Never run.

import { RedisDedupeStore } from 'mediagw/redis';
import { type MockGateway, startMockGateway } from 'mediagw/testing';
import {
  type DedupeStore,
  MemoryDedupeStore,
  signWebhook,
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
} from 'mediagw/webhooks';

export async function entries(): Promise<string> {
  const gateway: MockGateway = await startMockGateway({ clock: 'manual' });
  const body = JSON.stringify({ id: 'evt_1', type: 'task.failed', api_version: '2026-10-03', data: {} });
  const headers = signWebhook({ body, secret: 'whsec_1', keyId: 'kid_1' });
  const store: DedupeStore = new MemoryDedupeStore();
  try {
    const event: WebhookEvent = verifyWebhook({ body, headers, secrets: { kid_1: 'whsec_1' } });
    // @ts-expect-error a parsed body is refused: verify the raw string or bytes
    verifyWebhook({ body: JSON.parse(body) as object, headers, secrets: { kid_1: 'whsec_1' } });
    return `${gateway.url} ${event.type} ${store === undefined}`;
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  } finally {
    await gateway.close();
  }
}

// @ts-expect-error a Redis store needs a client
export const missingClient = new RedisDedupeStore({});
