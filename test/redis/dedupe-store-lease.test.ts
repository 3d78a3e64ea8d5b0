// A RedisDedupeStore keeps the claims it granted alive while they are held, holds one claim per
// event ID in its process, and gets a done record to Redis after a markDone that failed.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RedisDedupeStore, RedisUnavailableError } from '../../src/redis/index.js';
import { createWebhookHandler, type WebhookHandlerOptions } from '../../src/webhooks/index.js';
import { startChild, stopChild, testRedis, uniquePrefix, waitUntil } from './helpers.js';
import {
  closeRedis,
  connectRedis,
  SECRETS,
  signedDelivery,
  type TestRedisClient,
  taskEvent,
} from './shared.js';

const redis = await testRedis();
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A replica's connection that can stop answering (`down`), as when its network drops, counting `EVAL`s. */
function switchable(client: TestRedisClient) {
  const link = {
    down: false,
    evals: 0,
    client: {
      sendCommand: (args: string[]): Promise<unknown> => {
        if (args[0] === 'EVAL') link.evals++;
        return link.down ? Promise.reject(new Error('Socket closed unexpectedly')) : client.sendCommand(args);
      },
    },
  };
  return link;
}

/** A Fetch API handler over `dedupe`; `deliver` resolves with the status of one signed delivery. */
function receiver(options: Omit<WebhookHandlerOptions, 'secrets'>) {
  const handler = createWebhookHandler({ secrets: SECRETS, onError: () => {}, ...options });
  return async (event: { id: string }) => {
    const { body, headers } = signedDelivery(event);
    const request = new Request('http://receiver.test/webhooks', { method: 'POST', body, headers });
    return (await handler(request)).status;
  };
}

describe.skipIf('skip' in redis)('RedisDedupeStore claims over time', () => {
  const url = (redis as { url: string }).url;
  const prefix = uniquePrefix();
  let a: TestRedisClient;
  let b: TestRedisClient;
  let inspect: TestRedisClient;

  beforeAll(async () => {
    [a, b, inspect] = await Promise.all([connectRedis(url), connectRedis(url), connectRedis(url)]);
  });
  afterAll(async () => {
    for (const client of [a, b, inspect]) if (client) closeRedis(client);
    if (!('skip' in redis)) await redis.stop();
  });

  test('a held claim is renewed past its lease, up to maxHoldSeconds; then it lapses though never released', async () => {
    const holder = new RedisDedupeStore({ client: a, prefix, leaseSeconds: 1, maxHoldSeconds: 4 });
    const other = new RedisDedupeStore({ client: b, prefix });
    expect(await holder.claimState('evt_renewed')).toBe('claimed');
    const states: string[] = [];
    for (let i = 0; i < 6; i++) {
      await pause(400);
      states.push(await other.claimState('evt_renewed'));
    }
    expect(states).toEqual(Array(6).fill('in_flight'));
    await waitUntil(
      async () => (await other.claimState('evt_renewed')) === 'claimed',
      'the claim to lapse after maxHoldSeconds',
      200,
    );
  });

  test('renewal stops once the key holds another claim', async () => {
    const link = switchable(a);
    const holder = new RedisDedupeStore({ client: link.client, prefix, leaseSeconds: 1 });
    expect(await holder.claimState('evt_taken')).toBe('claimed');
    await inspect.set(holder.keyOf('evt_taken'), 'pending:another-replica', { EX: 60 });
    await pause(1_000);
    const sent = link.evals;
    await pause(1_000);
    expect(link.evals).toBe(sent);
    expect(await inspect.get(holder.keyOf('evt_taken'))).toBe('pending:another-replica');
  });

  test('two handlers sharing one store: while the first runs onEvent, the second answers 503, even once the claim lapsed', async () => {
    const store = new RedisDedupeStore({ client: a, prefix, leaseSeconds: 1, maxHoldSeconds: 1 });
    const event = taskEvent('evt_shared', 'task_shared');
    const key = store.keyOf(event.id);
    const runs: string[] = [];
    let fail = () => {};
    const failing = new Promise<void>((resolve) => {
      fail = resolve;
    });
    const first = receiver({
      dedupe: store,
      onEvent: async () => {
        runs.push('first');
        await failing;
        throw new Error('injected failure');
      },
    });
    const second = receiver({ dedupe: store, onEvent: () => void runs.push('second') });
    const answer = first(event);
    await waitUntil(() => runs.length === 1, 'the first onEvent');
    await waitUntil(async () => (await inspect.exists(key)) === 0, 'the claim to lapse', 200);
    expect(await second(event)).toBe(503);
    expect(await inspect.exists(key)).toBe(0);
    // Its onEvent failed: the first holder releases the one claim, and the retry is processed.
    fail();
    expect(await answer).toBe(500);
    expect(await second(event)).toBe(200);
    expect(runs).toEqual(['first', 'second']);
    expect(await inspect.get(key)).toBe('done');
  });

  test('a markDone that fails while Redis does not answer is retried: the done record lands once it answers', async () => {
    const link = switchable(a);
    const errors: unknown[] = [];
    const event = taskEvent('evt_blip', 'task_blip');
    const deliver = receiver({
      dedupe: new RedisDedupeStore({ client: link.client, prefix, leaseSeconds: 2 }),
      onEvent: () => {
        link.down = true;
      },
      onError: (error) => errors.push(error),
    });
    // Handled: acknowledged, though the done record failed (a retry would only run onEvent again).
    expect(await deliver(event)).toBe(200);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(RedisUnavailableError);
    expect(await inspect.get(`${prefix}dedupe:${event.id}`)).toMatch(/^pending:/);
    await pause(1_500);
    link.down = false;
    await waitUntil(
      async () => (await inspect.get(`${prefix}dedupe:${event.id}`)) === 'done',
      'the done record',
      300,
    );
    expect(await new RedisDedupeStore({ client: b, prefix }).claimState(event.id)).toBe('done');
  });

  test('a process holding a claim still exits by itself: the renewal timer does not keep it alive', async () => {
    const child = startChild('claim-and-exit.ts', { REDIS_URL: url, PREFIX: prefix });
    try {
      expect(await child.line((l) => l.startsWith('CLAIMED '))).toBe('CLAIMED claimed');
      const code = await Promise.race([child.exited, pause(10_000).then(() => 'still running')]);
      expect(code, child.stderr()).toBe(0);
    } finally {
      await stopChild(child);
    }
  });
});
