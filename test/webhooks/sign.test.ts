// Covers: src/webhooks/sign.ts
import { describe, expect, test, vi } from 'vitest';
import { MediaGatewayError } from '../../src/core/base-error.js';
import {
  signWebhook,
  signWebhookAsync,
  verifyWebhook,
  verifyWebhookAsync,
} from '../../src/webhooks/index.js';
import { completedEvent, hmacHex, KEY_ID, NOW, SECRET, SECRETS } from './fixtures.js';

const raw = JSON.stringify(completedEvent());

describe('signWebhook', () => {
  test('gives exactly the four headers the gateway sends, signed over "<timestamp>.<body>"', () => {
    const headers = signWebhook({
      body: raw,
      secret: SECRET,
      keyId: KEY_ID,
      timestamp: NOW,
      deliveryId: 'dlv_1',
    });
    expect(headers).toEqual({
      'X-Service-Event-ID': 'evt_0001',
      'X-Service-Delivery-ID': 'dlv_1',
      'X-Service-Timestamp': String(NOW),
      'X-Service-Signature': `v1=${hmacHex(SECRET, String(NOW), raw)},kid=${KEY_ID}`,
    });
  });

  test('defaults: event ID from the body, a new dlv_ delivery ID each call, the current time', () => {
    const before = Math.floor(Date.now() / 1000);
    const a = signWebhook({ body: raw, secret: SECRET, keyId: KEY_ID });
    const b = signWebhook({ body: raw, secret: SECRET, keyId: KEY_ID });
    const after = Math.floor(Date.now() / 1000);
    expect(a['X-Service-Event-ID']).toBe('evt_0001');
    expect(a['X-Service-Delivery-ID']).toMatch(/^dlv_[0-9a-f]{24}$/);
    expect(b['X-Service-Delivery-ID']).not.toBe(a['X-Service-Delivery-ID']);
    const ts = Number(a['X-Service-Timestamp']);
    expect(ts).toBeGreaterThanOrEqual(before);
    expect(ts).toBeLessThanOrEqual(after);
    expect(verifyWebhook({ body: raw, headers: a, secrets: SECRETS }).id).toBe('evt_0001');
  });

  test('a Date timestamp is whole seconds; bytes bodies sign the same as their text', () => {
    const date = new Date(NOW * 1000 + 999);
    const fromText = signWebhook({
      body: raw,
      secret: SECRET,
      keyId: KEY_ID,
      timestamp: date,
      deliveryId: 'd',
    });
    const fromBytes = signWebhook({
      body: new TextEncoder().encode(raw),
      secret: SECRET,
      keyId: KEY_ID,
      timestamp: date,
      deliveryId: 'd',
    });
    expect(fromText['X-Service-Timestamp']).toBe(String(NOW));
    expect(fromBytes).toEqual(fromText);
  });

  test('an explicit eventId is used, so a mismatch can be produced on purpose', () => {
    const headers = signWebhook({
      body: raw,
      secret: SECRET,
      keyId: KEY_ID,
      eventId: 'evt_x',
      timestamp: NOW,
    });
    expect(() => verifyWebhook({ body: raw, headers, secrets: SECRETS, now: NOW })).toThrow(
      expect.objectContaining({ reason: 'event_id_mismatch' }),
    );
  });

  test('signWebhookAsync gives the same headers, and both verifiers accept them', async () => {
    const options = { body: raw, secret: SECRET, keyId: KEY_ID, timestamp: NOW, deliveryId: 'dlv_same' };
    const web = await signWebhookAsync(options);
    expect(web).toEqual(signWebhook(options));
    expect((await verifyWebhookAsync({ body: raw, headers: web, secrets: SECRETS, now: NOW })).id).toBe(
      'evt_0001',
    );
  });

  test.each([
    ['a parsed object body', { body: {} as string }, /string or bytes/],
    ['a body without id and no eventId', { body: 'not json' }, /give eventId/],
    ['an empty secret', { secret: '' }, /secret and keyId/],
    ['an empty keyId', { keyId: '' }, /secret and keyId/],
  ])('refuses %s', async (_name, over, message) => {
    const options = { body: raw, secret: SECRET, keyId: KEY_ID, ...over };
    expect(() => signWebhook(options)).toThrow(message);
    await expect(signWebhookAsync(options)).rejects.toThrow(message);
  });

  test.each([
    ['no options at all', undefined],
    ['null options', null],
  ])('refuses %s as a MediaGatewayError about the body, not a TypeError', async (_name, options) => {
    expect(() => signWebhook(options as never)).toThrow(MediaGatewayError);
    expect(() => signWebhook(options as never)).toThrow(/body must be the string or bytes/);
    await expect(signWebhookAsync(options as never)).rejects.toThrow(MediaGatewayError);
  });
});

describe('where node:crypto is missing', () => {
  test('the sync functions say to use the async ones; the async ones still work', async () => {
    const original = process.getBuiltinModule;
    vi.resetModules();
    // biome-ignore lint/suspicious/noExplicitAny: simulating a runtime without getBuiltinModule
    (process as any).getBuiltinModule = undefined;
    try {
      const fresh = await import('../../src/webhooks/index.js');
      const options = { body: raw, secret: SECRET, keyId: KEY_ID, timestamp: NOW };
      expect(() => fresh.signWebhook(options)).toThrow(/signWebhookAsync/);
      const headers = await fresh.signWebhookAsync(options);
      expect(() => fresh.verifyWebhook({ body: raw, headers, secrets: SECRETS, now: NOW })).toThrow(
        /verifyWebhookAsync/,
      );
      expect((await fresh.verifyWebhookAsync({ body: raw, headers, secrets: SECRETS, now: NOW })).id).toBe(
        'evt_0001',
      );
    } finally {
      process.getBuiltinModule = original;
    }
  });
});
