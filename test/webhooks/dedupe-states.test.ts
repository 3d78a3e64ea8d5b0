// Covers: src/webhooks/dedupe.ts
// An event is acknowledged only once it is done: a delivery of an event that another
// delivery is still handling is answered 503 with Retry-After (spec: Events 7 — the gateway
// honours Retry-After on 503), never 200, so a later retry runs onEvent if the first fails.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import {
  createNodeWebhookHandler,
  createWebhookHandler,
  type DedupeStore,
  type HandledWebhookEvent,
  MemoryDedupeStore,
  signWebhook,
} from '../../src/webhooks/index.js';
import { completedEvent, KEY_ID, NOW, SECRET, SECRETS } from './fixtures.js';

function delivery(event = completedEvent()) {
  const body = JSON.stringify(event);
  const headers = signWebhook({ body, secret: SECRET, keyId: KEY_ID, timestamp: NOW });
  return { body, headers: { ...headers, 'content-type': 'application/json' } };
}

function fetchDelivery(event = completedEvent()): Request {
  return new Request('http://127.0.0.1/webhooks', { method: 'POST', ...delivery(event) });
}

/** An onEvent whose calls wait until the test settles them, one by one. */
function controlledOnEvent() {
  const pending: Array<{ id: string; settle: (error?: Error) => void }> = [];
  const completed: string[] = [];
  const onEvent = (event: HandledWebhookEvent) =>
    new Promise<void>((resolve, reject) => {
      pending.push({
        id: event.id,
        settle: (error) => {
          if (error) return reject(error);
          completed.push(event.id);
          resolve();
        },
      });
    });
  const started = async (count: number) => {
    for (let i = 0; i < 200 && pending.length < count; i++) await new Promise((r) => setTimeout(r, 1));
    expect(pending).toHaveLength(count);
  };
  return { onEvent, pending, completed, started };
}

describe('MemoryDedupeStore.claimState', () => {
  test('claimed, then in flight until released or marked done, then done', async () => {
    const store = new MemoryDedupeStore();
    expect(await store.claimState('evt_1')).toBe('claimed');
    expect(await store.claimState('evt_1')).toBe('in_flight');
    expect(await store.claim('evt_1')).toBe(false);
    await store.release('evt_1');
    expect(await store.claimState('evt_1')).toBe('claimed');
    await store.markDone('evt_1');
    expect(await store.claimState('evt_1')).toBe('done');
    expect(await store.claimState('evt_1')).toBe('done');
  });

  test('of many concurrent claims of one ID exactly one is claimed, the rest in flight', async () => {
    const store = new MemoryDedupeStore();
    const found = await Promise.all(Array.from({ length: 20 }, () => store.claimState('evt_same')));
    expect(found.filter((f) => f === 'claimed')).toHaveLength(1);
    expect(found.filter((f) => f === 'in_flight')).toHaveLength(19);
  });
});

describe('two handlers sharing one MemoryDedupeStore', () => {
  test('a delivery of an event in flight gets 503 with Retry-After; after a throw the retry runs onEvent', async () => {
    const dedupe = new MemoryDedupeStore();
    const a = controlledOnEvent();
    const b = controlledOnEvent();
    const handlerA = createWebhookHandler({
      secrets: SECRETS,
      clock: () => NOW,
      dedupe,
      onEvent: a.onEvent,
      onError: () => {},
    });
    const handlerB = createWebhookHandler({
      secrets: SECRETS,
      clock: () => NOW,
      dedupe,
      onEvent: b.onEvent,
      onError: () => {},
    });

    const first = handlerA(fetchDelivery());
    await a.started(1);
    const retry = await handlerB(fetchDelivery());
    expect(retry.status).toBe(503);
    expect(retry.headers.get('retry-after')).toBe('10');
    expect((await retry.json()).error.type).toBe('in_flight');
    expect(b.pending).toHaveLength(0);

    a.pending[0]!.settle(new Error('database down'));
    expect((await first).status).toBe(500);

    const next = handlerB(fetchDelivery());
    await b.started(1);
    expect((await handlerA(fetchDelivery())).status).toBe(503);
    b.pending[0]!.settle();
    expect((await next).status).toBe(200);
    expect(b.completed).toEqual(['evt_0001']);

    const late = await handlerA(fetchDelivery());
    expect(late.status).toBe(200);
    expect(await late.json()).toEqual({ received: true, duplicate: true });
    expect(a.completed).toEqual([]);
  });

  test('the node handler answers 503 with Retry-After too', async () => {
    const dedupe = new MemoryDedupeStore();
    const a = controlledOnEvent();
    const handlerA = createWebhookHandler({ secrets: SECRETS, clock: () => NOW, dedupe, onEvent: a.onEvent });
    const nodeB = createNodeWebhookHandler({ secrets: SECRETS, clock: () => NOW, dedupe, onEvent: () => {} });
    servers.push(createServer(nodeB));
    const server = servers[0]!;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;

    const first = handlerA(fetchDelivery());
    await a.started(1);
    const retry = await fetch(url, { method: 'POST', ...delivery() });
    expect(retry.status).toBe(503);
    expect(retry.headers.get('retry-after')).toBe('10');
    a.pending[0]!.settle();
    expect((await first).status).toBe(200);
    expect((await fetch(url, { method: 'POST', ...delivery() })).status).toBe(200);
  });
});

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

describe('a custom store with claim alone (no claimState)', () => {
  test('a lost claim is answered 503, not acknowledged: the store cannot tell done from in flight', async () => {
    const claimed = new Set<string>();
    const dedupe: DedupeStore = {
      claim: async (id) => !claimed.has(id) && Boolean(claimed.add(id)),
      release: async (id) => void claimed.delete(id),
    };
    const handler = createWebhookHandler({ secrets: SECRETS, clock: () => NOW, dedupe, onEvent: () => {} });
    expect((await handler(fetchDelivery())).status).toBe(200);
    const again = await handler(fetchDelivery());
    expect(again.status).toBe(503);
    expect(again.headers.get('retry-after')).toBe('10');
  });

  test('a store with claimState answers done duplicates 200 and nothing else', async () => {
    const states = new Map<string, 'in_flight' | 'done'>();
    const dedupe: DedupeStore = {
      claim: async () => {
        throw new Error('not used when claimState exists');
      },
      claimState: async (id) => {
        const found = states.get(id);
        if (found) return found;
        states.set(id, 'in_flight');
        return 'claimed';
      },
      release: async (id) => void states.delete(id),
      markDone: async (id) => void states.set(id, 'done'),
    };
    let calls = 0;
    const handler = createWebhookHandler({
      secrets: SECRETS,
      clock: () => NOW,
      dedupe,
      onEvent: () => void calls++,
    });
    expect((await handler(fetchDelivery())).status).toBe(200);
    expect((await handler(fetchDelivery())).status).toBe(200);
    states.set('evt_2', 'in_flight');
    expect((await handler(fetchDelivery(completedEvent({ id: 'evt_2' })))).status).toBe(503);
    expect(calls).toBe(1);
  });
});

describe("a store's hold limit counts from the claim", () => {
  // The handler armed its timer after onEvent's synchronous start, later than the store counts
  // from: an onEvent settling in between was acknowledged while the store, past its hold, had
  // let the claim go, so markDone recorded nothing and a duplicate ran onEvent again.
  test('an onEvent that settles past maxHoldSeconds from its claim is taken as hung, even after a synchronous start', async () => {
    const marked: string[] = [];
    const released: string[] = [];
    const store: DedupeStore = {
      maxHoldSeconds: 1,
      claim: async () => true,
      claimState: async () => 'claimed',
      release: async (id) => void released.push(id),
      markDone: async (id) => void marked.push(id),
    };
    const errors: unknown[] = [];
    const handler = createWebhookHandler({
      secrets: SECRETS,
      clock: () => NOW,
      dedupe: store,
      onError: (error) => void errors.push(error),
      onEvent: async () => {
        const busyUntil = Date.now() + 150;
        while (Date.now() < busyUntil) {
          // synchronous work before the first await
        }
        // Settles 1,050 ms after the claim: after the hold limit, before one counted from here.
        await new Promise((resolve) => setTimeout(resolve, 900));
      },
    });
    const answer = await handler(fetchDelivery());
    expect(answer.status).toBe(503);
    expect(marked).toEqual([]);
    expect(released).toEqual([]);
    expect(String(errors[0])).toMatch(/hung over maxHoldSeconds/);
  });
});
