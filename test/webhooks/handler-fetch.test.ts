// Covers: src/webhooks/handler-fetch.ts
import { describe, expect, test, vi } from 'vitest';
import {
  createWebhookHandler,
  type DedupeStore,
  signWebhook,
  type WebhookEvent,
  type WebhookHandlerOptions,
  WebhookVerificationError,
} from '../../src/webhooks/index.js';
import { completedEvent, KEY_ID, NOW, SECRET, SECRETS } from './fixtures.js';

const URL_ = 'http://127.0.0.1/webhooks';
const verification = {
  id: 'evt_v1',
  type: 'webhook.endpoint_verification',
  api_version: '2026-10-03',
  created_at: NOW,
  data: { challenge: 'ch_123' },
};

function signedRequest(
  event: unknown,
  over: { secret?: string; timestamp?: number; body?: string } = {},
): Request {
  const body = over.body ?? JSON.stringify(event);
  const headers = signWebhook({
    body,
    secret: over.secret ?? SECRET,
    keyId: KEY_ID,
    timestamp: over.timestamp ?? NOW,
  });
  return new Request(URL_, {
    method: 'POST',
    body,
    headers: { ...headers, 'content-type': 'application/json' },
  });
}

function setup(over: Partial<WebhookHandlerOptions> = {}) {
  const events: WebhookEvent[] = [];
  const errors: unknown[] = [];
  const onEvent = vi.fn(async (event: WebhookEvent) => {
    events.push(event);
  });
  const handler = createWebhookHandler({
    secrets: SECRETS,
    onEvent,
    clock: () => NOW,
    onError: (error) => errors.push(error),
    ...over,
  });
  return { handler, onEvent, events, errors };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('createWebhookHandler', () => {
  // A route that read the body first (`await req.json()`) made the handler throw a raw
  // TypeError: no Response, a bare 500 from the framework, retries for 72 h, and no onError.
  test('a Request whose body the route read first: 400, onError told (invalid_body), never 410', async () => {
    const { handler, onEvent, errors } = setup();
    const req = signedRequest(completedEvent());
    await req.json();
    const res = await handler(req);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { type: 'webhook_verification_failed', message: 'verification failed' },
    });
    expect(onEvent).not.toHaveBeenCalled();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(WebhookVerificationError);
    expect((errors[0] as WebhookVerificationError).reason).toBe('invalid_body');
    expect((errors[0] as Error).message).toContain('the body must be the raw string or bytes as received');
    // The same delivery, unread, is handled.
    expect((await handler(signedRequest(completedEvent()))).status).toBe(200);
  });

  test('answers a signed verification event with 200 {"challenge"} and does not call onEvent', async () => {
    const { handler, onEvent } = setup();
    const res = await handler(signedRequest(verification));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ challenge: 'ch_123' });
    expect(onEvent).not.toHaveBeenCalled();
  });

  test.each([
    [
      'unsigned',
      () => new Request(URL_, { method: 'POST', body: JSON.stringify(verification) }),
      'missing_header',
    ],
    [
      'signed with another secret',
      () => signedRequest(verification, { secret: 'whsec_wrong' }),
      'signature_mismatch',
    ],
    [
      'signed too long ago',
      () => signedRequest(verification, { timestamp: NOW - 600 }),
      'timestamp_out_of_tolerance',
    ],
  ])('never echoes the challenge of a verification event that is %s: 400', async (_name, make, reason) => {
    const { handler, errors } = setup();
    const res = await handler(make());
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).not.toContain('ch_123');
    // The reason goes to onError only: the sender learns nothing about which check failed.
    expect(JSON.parse(text)).toEqual({
      error: { type: 'webhook_verification_failed', message: 'verification failed' },
    });
    expect(errors[0]).toBeInstanceOf(WebhookVerificationError);
    expect((errors[0] as WebhookVerificationError).reason).toBe(reason);
  });

  test('a tampered event is answered 400 (never 2xx, never 410) and onEvent is not called', async () => {
    const { handler, onEvent, errors } = setup();
    const req = signedRequest(null, { body: JSON.stringify(completedEvent()) });
    const tampered = new Request(URL_, {
      method: 'POST',
      headers: req.headers,
      body: JSON.stringify(completedEvent({ created_at: 1 })),
    });
    const res = await handler(tampered);
    expect(res.status).toBe(400);
    expect((await res.json()).error.reason).toBeUndefined();
    expect((errors[0] as WebhookVerificationError).reason).toBe('signature_mismatch');
    expect(onEvent).not.toHaveBeenCalled();
  });

  test('calls onEvent with the event and delivery ID, then answers 200', async () => {
    const { handler, onEvent } = setup();
    const req = signedRequest(completedEvent());
    const deliveryId = req.headers.get('x-service-delivery-id');
    const res = await handler(req);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true });
    expect(onEvent).toHaveBeenCalledTimes(1);
    expect(onEvent).toHaveBeenCalledWith(completedEvent(), { deliveryId });
  });

  test('a duplicate delivery (new delivery ID and signature) is answered 200 without calling onEvent again', async () => {
    const { handler, onEvent } = setup();
    expect((await handler(signedRequest(completedEvent()))).status).toBe(200);
    const again = await handler(signedRequest(completedEvent(), { timestamp: NOW + 60 }));
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ received: true, duplicate: true });
    expect(onEvent).toHaveBeenCalledTimes(1);
  });

  test('answers 2xx only after onEvent resolved', async () => {
    let finish!: () => void;
    const { handler } = setup({ onEvent: () => new Promise<void>((resolve) => (finish = resolve)) });
    let settled = false;
    const pending = handler(signedRequest(completedEvent())).then((res) => {
      settled = true;
      return res;
    });
    for (let i = 0; i < 5; i++) await tick();
    expect(settled).toBe(false);
    finish();
    expect((await pending).status).toBe(200);
  });

  test('onEvent throwing gives 500, forgets the ID, and the retry of the event is processed', async () => {
    let calls = 0;
    const { handler, errors } = setup({
      onEvent: async () => {
        calls++;
        if (calls === 1) throw new Error('database down');
      },
    });
    const first = await handler(signedRequest(completedEvent()));
    expect(first.status).toBe(500);
    expect(JSON.stringify(await first.json())).not.toContain('database down');
    expect((errors[0] as Error).message).toBe('database down');
    expect((await handler(signedRequest(completedEvent()))).status).toBe(200);
    expect(calls).toBe(2);
    expect((await (await handler(signedRequest(completedEvent()))).json()).duplicate).toBe(true);
    expect(calls).toBe(2);
  });

  test('a duplicate that arrives while the first is in flight shares its outcome and does not call onEvent', async () => {
    const finish: Array<(error?: Error) => void> = [];
    const onEvent = vi.fn(
      () => new Promise<void>((resolve, reject) => finish.push((e) => (e ? reject(e) : resolve()))),
    );
    const { handler } = setup({ onEvent });
    const a = handler(signedRequest(completedEvent()));
    const b = handler(signedRequest(completedEvent()));
    for (let i = 0; i < 5 && finish.length === 0; i++) await tick();
    await tick();
    expect(onEvent).toHaveBeenCalledTimes(1);
    finish[0]!(new Error('fail'));
    expect([(await a).status, (await b).status]).toEqual([500, 500]);
    const retry = handler(signedRequest(completedEvent()));
    for (let i = 0; i < 5 && finish.length < 2; i++) await tick();
    finish[1]!();
    expect((await retry).status).toBe(200);
    expect(onEvent).toHaveBeenCalledTimes(2);
  });

  test('a body over maxBodyBytes is answered 413, with or without Content-Length', async () => {
    const { handler, onEvent } = setup({ maxBodyBytes: 100 });
    const big = JSON.stringify(completedEvent());
    expect(big.length).toBeGreaterThan(100);
    expect((await handler(signedRequest(null, { body: big }))).status).toBe(413);
    const chunks = [big.slice(0, 80), big.slice(80)];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(next));
      },
    });
    const streamed = new Request(URL_, { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    expect(streamed.headers.get('content-length')).toBeNull();
    const res = await handler(streamed);
    expect(res.status).toBe(413);
    expect((await res.json()).error.type).toBe('body_too_large');
    expect(onEvent).not.toHaveBeenCalled();
  });

  test('a streamed body past the limit is cancelled, not read to its end', async () => {
    const { handler } = setup({ maxBodyBytes: 100 });
    let pulls = 0;
    let cancelled = false;
    // Endless but for the bound: only a cancel stops it early.
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (++pulls > 10_000) controller.close();
        else controller.enqueue(new Uint8Array(64));
      },
      cancel() {
        cancelled = true;
      },
    });
    const res = await handler(
      new Request(URL_, { method: 'POST', body: endless, duplex: 'half' } as RequestInit),
    );
    expect(res.status).toBe(413);
    expect(cancelled).toBe(true);
    expect(pulls).toBeLessThan(10);
  });

  test('the default limit is 1 MiB', async () => {
    const { handler } = setup();
    const pad = 'x'.repeat(1024 * 1024);
    const nearBody = JSON.stringify(completedEvent({ pad: pad.slice(1000) }));
    expect(nearBody.length).toBeLessThanOrEqual(1024 * 1024);
    expect((await handler(signedRequest(null, { body: nearBody }))).status).toBe(200);
    const over = signedRequest(null, { body: JSON.stringify(completedEvent({ id: 'evt_big', pad })) });
    expect((await handler(over)).status).toBe(413);
  });

  test('a method other than POST is answered 405 with Allow: POST', async () => {
    const { handler } = setup();
    const res = await handler(new Request(URL_, { method: 'GET' }));
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  test('uses a custom dedupe store: claim, then markDone; release when onEvent throws', async () => {
    const calls: string[] = [];
    const dedupe: DedupeStore = {
      claim: async (id) => {
        calls.push(`claim ${id}`);
        return true;
      },
      release: async (id) => void calls.push(`release ${id}`),
      markDone: async (id) => void calls.push(`done ${id}`),
    };
    let fail = false;
    const { handler } = setup({
      dedupe,
      onEvent: async () => {
        if (fail) throw new Error('x');
      },
    });
    await handler(signedRequest(completedEvent()));
    fail = true;
    await handler(signedRequest(completedEvent({ id: 'evt_2' }), {}));
    expect(calls).toEqual(['claim evt_0001', 'done evt_0001', 'claim evt_2', 'release evt_2']);
  });

  test('a dedupe store that throws gives 500, so the gateway retries', async () => {
    const { handler, onEvent } = setup({
      dedupe: { claim: () => Promise.reject(new Error('redis down')), release: async () => {} },
    });
    expect((await handler(signedRequest(completedEvent()))).status).toBe(500);
    expect(onEvent).not.toHaveBeenCalled();
  });

  test('by default logs onEvent failures with console.error, and not verification failures', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const handler = createWebhookHandler({
        secrets: SECRETS,
        clock: () => NOW,
        onEvent: () => {
          throw new Error('boom');
        },
      });
      await handler(signedRequest(completedEvent(), { secret: 'wrong' }));
      expect(log).not.toHaveBeenCalled();
      await handler(signedRequest(completedEvent()));
      expect(log).toHaveBeenCalledTimes(1);
    } finally {
      log.mockRestore();
    }
  });

  test('refuses to be created without a usable secret', () => {
    expect(() => createWebhookHandler({ secrets: {}, onEvent: () => {} })).toThrow(/secrets must be/);
  });
});

describe('createWebhookHandler with a store whose bookkeeping fails', () => {
  test('a failing markDone or release is reported and does not change the answer', async () => {
    const errors: unknown[] = [];
    let fail = false;
    const handler = createWebhookHandler({
      secrets: SECRETS,
      clock: () => NOW,
      onError: (error) => errors.push(error),
      onEvent: () => {
        if (fail) throw new Error('onEvent');
      },
      dedupe: {
        claim: async () => true,
        release: () => {
          throw new Error('release');
        },
        markDone: () => {
          throw new Error('markDone');
        },
      },
    });
    expect((await handler(signedRequest(completedEvent()))).status).toBe(200);
    fail = true;
    expect((await handler(signedRequest(completedEvent()))).status).toBe(500);
    expect(errors.map((e) => (e as Error).message)).toEqual(['markDone', 'onEvent', 'release']);
  });
});

describe('an onError that fails', () => {
  const failing = {
    throws: () => {
      throw new Error('report sink down');
    },
    rejects: async () => {
      throw new Error('report sink down');
    },
    'is not a function': 'console.error' as never,
  };

  test.each(Object.entries(failing))(
    'that %s: a failed onEvent still releases its event, and the retry is handled',
    async (_, onError) => {
      const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      try {
        let calls = 0;
        const onEvent = vi.fn(async () => {
          if (calls++ === 0) throw new Error('database down');
        });
        const { handler } = setup({ onEvent, onError });
        const event = completedEvent();
        expect((await handler(signedRequest(event))).status).toBe(500);
        const retried = await handler(signedRequest(event));
        expect(retried.status).toBe(200);
        expect(await retried.json()).toEqual({ received: true });
        expect(onEvent).toHaveBeenCalledTimes(2);
        await tick();
        // The error onError could not take is logged, not lost.
        expect(logged.mock.calls.some(([, error]) => (error as Error).message === 'database down')).toBe(
          true,
        );
      } finally {
        logged.mockRestore();
      }
    },
  );

  test('that throws: a delivery that fails verification is still answered 400', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const { handler } = setup({ onError: failing.throws });
      const res = await handler(signedRequest(completedEvent(), { secret: 'whsec_wrong_secret_0000' }));
      expect(res.status).toBe(400);
    } finally {
      logged.mockRestore();
    }
  });
});

describe('createWebhookHandler tells onError of every refusal', () => {
  test('a method other than POST (405) and a body over maxBodyBytes (413), each with its reason', async () => {
    const { handler, errors } = setup({ maxBodyBytes: 64 });
    expect((await handler(new Request(URL_))).status).toBe(405);
    expect((await handler(signedRequest(completedEvent()))).status).toBe(413);
    expect(errors.every((e) => e instanceof WebhookVerificationError)).toBe(true);
    expect((errors as WebhookVerificationError[]).map((e) => [e.reason, e.message])).toEqual([
      ['method_not_allowed', 'webhook verification failed (method_not_allowed): use POST'],
      ['body_too_large', 'webhook verification failed (body_too_large): over 64 bytes'],
    ]);
  });
});
