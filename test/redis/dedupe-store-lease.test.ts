// Covers: src/redis/dedupe-store.ts
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

  test('renewal never overwrites another claim, and the timer still ends at maxHoldSeconds', async () => {
    const link = switchable(a);
    const holder = new RedisDedupeStore({ client: link.client, prefix, leaseSeconds: 1, maxHoldSeconds: 2 });
    expect(await holder.claimState('evt_taken')).toBe('claimed');
    await inspect.set(holder.keyOf('evt_taken'), 'pending:another-replica', { EX: 60 });
    await pause(2_500);
    const sent = link.evals;
    await pause(1_000);
    expect(link.evals).toBe(sent);
    expect(await inspect.get(holder.keyOf('evt_taken'))).toBe('pending:another-replica');
  });

  test('a claim whose key vanished (Redis restarted) is taken back by its renewal, and let go at maxHoldSeconds', async () => {
    const holder = new RedisDedupeStore({ client: a, prefix, leaseSeconds: 1, maxHoldSeconds: 2 });
    const other = new RedisDedupeStore({ client: b, prefix });
    expect(await holder.claimState('evt_vanished')).toBe('claimed');
    await inspect.del(holder.keyOf('evt_vanished'));
    await pause(500);
    expect(await inspect.get(holder.keyOf('evt_vanished'))).toMatch(/^pending:/);
    expect(await other.claimState('evt_vanished')).toBe('in_flight');
    // Past maxHoldSeconds the holder's own process asks Redis again, and claims once the key lapsed.
    await waitUntil(
      async () => (await holder.claimState('evt_vanished')) === 'claimed',
      'the holder to let the hung claim go',
      200,
    );
  });

  test('two handlers sharing one store: while the first runs onEvent, the second answers 503, even once the claim lapsed', async () => {
    // The holder's link drops: its renewals fail and the claim lapses in Redis, within maxHoldSeconds.
    const link = switchable(a);
    const store = new RedisDedupeStore({ client: link.client, prefix, leaseSeconds: 1, maxHoldSeconds: 60 });
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
    link.down = true;
    await waitUntil(async () => (await inspect.exists(key)) === 0, 'the claim to lapse', 200);
    expect(await second(event)).toBe(503);
    expect(await inspect.exists(key)).toBe(0);
    // Its onEvent failed: the first holder releases the one claim, and the retry is processed.
    link.down = false;
    fail();
    expect(await answer).toBe(500);
    expect(await second(event)).toBe(200);
    expect(runs).toEqual(['first', 'second']);
    expect(await inspect.get(key)).toBe('done');
  });

  test('past maxHoldSeconds one replica stops holding a hung onEvent: its waiting deliveries are answered, a retry runs onEvent again, onError is told', async () => {
    const store = new RedisDedupeStore({ client: a, prefix, leaseSeconds: 1, maxHoldSeconds: 2 });
    const event = taskEvent('evt_hung', 'task_hung');
    const key = store.keyOf(event.id);
    const errors: unknown[] = [];
    let runs = 0;
    // The first call never settles; the next one does.
    const deliver = receiver({
      dedupe: store,
      onEvent: () => (++runs === 1 ? new Promise(() => {}) : undefined),
      onError: (error) => errors.push(error),
    });
    const answers: number[] = [];
    const first = deliver(event).then((status) => answers.push(status));
    await waitUntil(() => runs === 1, 'the first onEvent');
    // A retry of the event reaches the same replica while the call runs: it waits on it.
    const retry = deliver(event).then((status) => answers.push(status));
    expect(answers).toEqual([]);
    await waitUntil(
      () => answers.length === 2,
      'the deliveries waiting on the hung call to be answered',
      200,
    );
    await Promise.all([first, retry]);
    expect(answers).toEqual([503, 503]);
    expect(runs).toBe(1);
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).name).toBe('MediaGatewayError');
    expect((errors[0] as Error).message).toBe(
      'onEvent for evt_hung hung over maxHoldSeconds; rerun on its next delivery',
    );
    // The gateway's retries, every 200 ms here: 503 while the lapsing claim lives, then processed.
    const later: number[] = [];
    await waitUntil(
      async () => {
        later.push(await deliver(event));
        return later.at(-1) === 200;
      },
      'a retry to run onEvent again',
      30,
    );
    expect(later.slice(0, -1).every((status) => status === 503)).toBe(true);
    expect(runs).toBe(2);
    expect(await inspect.get(key)).toBe('done');
    expect(await deliver(event)).toBe(200);
    expect(runs).toBe(2);
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
