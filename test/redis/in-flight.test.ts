// Covers: src/redis/dedupe-store.ts
// Receivers in separate processes sharing one Redis: an event in flight on one receiver is
// never acknowledged by another. Its deliveries get 503 with Retry-After (spec: Events 7 —
// honoured on 503) until the holder finishes, fails or dies and its lease lapses.
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { signWebhook } from '../../src/webhooks/index.js';
import { type Child, startChild, stopChild, testRedis, uniquePrefix } from './helpers.js';
import { closeRedis, connectRedis, KEY_ID, SECRET, type TestRedisClient, taskEvent } from './shared.js';

const redis = await testRedis();

describe.skipIf('skip' in redis)('an event in flight on another receiver process', () => {
  const url = (redis as { url: string }).url;
  const prefix = uniquePrefix();
  const children: Child[] = [];
  const agent = new Agent({ keepAliveTimeout: 1_000 });
  let inspect: TestRedisClient;
  let a: string;
  let b: string;

  const receiver = async (name: string, leaseSeconds: number) => {
    const child = startChild('holding-receiver.ts', {
      REDIS_URL: url,
      PREFIX: prefix,
      NAME: name,
      LEASE_SECONDS: String(leaseSeconds),
    });
    children.push(child);
    const port = (await child.line((l) => l.startsWith('READY '))).slice('READY '.length);
    return { child, base: `http://127.0.0.1:${port}` };
  };

  let sequence = 0;
  /** One signed delivery; `kind` picks what the receiver's onEvent does (see the fixture). */
  const deliver = async (base: string, event: { id: string }, kind: 'hold' | 'throw' | 'ok' = 'ok') => {
    const body = JSON.stringify(event);
    const deliveryId = `dlv_${kind}_${++sequence}`;
    const headers = signWebhook({ body, secret: SECRET, keyId: KEY_ID, deliveryId });
    const response = await request(`${base}/webhooks`, {
      method: 'POST',
      body,
      headers: { ...headers, 'content-type': 'application/json' },
      dispatcher: agent,
    });
    const json = (await response.body.json()) as Record<string, unknown>;
    return { status: response.statusCode, retryAfter: response.headers['retry-after'], json };
  };
  const completed = () => inspect.lRange(`${prefix}completed`, 0, -1);

  beforeAll(async () => {
    if ('skip' in redis) return;
    inspect = await connectRedis(url);
    [{ base: a }, { base: b }] = await Promise.all([receiver('A', 30), receiver('B', 30)]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(children.map(stopChild));
    closeRedis(inspect);
    await agent.close();
    if (!('skip' in redis)) await redis.stop();
  });

  /** Starts a held delivery on the receiver; resolves, once its onEvent runs, with its answer to come. */
  const hold = async (child: Child, base: string, event: { id: string }) => {
    const answer = deliver(base, event, 'hold');
    answer.catch(() => {}); // awaited by the test, or lost with a killed process
    await child.line((l) => l.startsWith(`STARTED ${event.id} `));
    return { answer };
  };

  test('while A runs onEvent, B answers 503 with Retry-After; once A is done, 200 as a duplicate', async () => {
    const event = taskEvent('evt_hold_ok', 'task_hold_ok');
    const { answer: first } = await hold(children[0]!, a, event);
    const retry = await deliver(b, event);
    expect(retry.status).toBe(503);
    expect(retry.retryAfter).toBe('10');
    expect(retry.json).toMatchObject({ error: { type: 'in_flight' } });
    expect(await completed()).not.toContain('evt_hold_ok A');

    await inspect.set(`${prefix}go:evt_hold_ok`, 'ok');
    expect((await first).status).toBe(200);
    const late = await deliver(b, event);
    expect(late).toMatchObject({ status: 200, json: { received: true, duplicate: true } });
    expect((await completed()).filter((c) => c.startsWith('evt_hold_ok '))).toEqual(['evt_hold_ok A']);
  });

  test("A's onEvent throws: the retry B answered 503 comes back and B processes it", async () => {
    const event = taskEvent('evt_hold_throw', 'task_hold_throw');
    const { answer: first } = await hold(children[0]!, a, event);
    expect((await deliver(b, event)).status).toBe(503);
    await inspect.set(`${prefix}go:evt_hold_throw`, 'throw');
    expect((await first).status).toBe(500);
    const next = await deliver(b, event);
    expect(next).toMatchObject({ status: 200, json: { received: true } });
    expect((await completed()).filter((c) => c.startsWith('evt_hold_throw '))).toEqual(['evt_hold_throw B']);
    expect((await deliver(a, event)).json).toEqual({ received: true, duplicate: true });
  });

  test("A's onEvent outlasts its lease: A keeps its claim, B answers 503; once A is killed, B processes it", async () => {
    const slow = await receiver('S', 1);
    const event = taskEvent('evt_slow', 'task_slow');
    await hold(slow.child, slow.base, event);
    // About 3.5 s, three leases and more, while S still runs onEvent: every retry is in flight.
    for (let i = 0; i < 8; i++) {
      expect((await deliver(b, event)).status).toBe(503);
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
    slow.child.process.kill('SIGKILL');
    await slow.child.exited;
    // Nothing renews the claim now: it lapses within the lease and the next retry is processed.
    let status = 0;
    for (let i = 0; i < 60 && status !== 200; i++) {
      ({ status } = await deliver(b, event));
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toBe(200);
    expect((await completed()).filter((c) => c.startsWith('evt_slow '))).toEqual(['evt_slow B']);
  }, 30_000);

  test('the holder is killed (SIGKILL) inside onEvent: 503 until its lease lapses, then B processes it', async () => {
    const killed = await receiver('K', 3);
    const event = taskEvent('evt_killed', 'task_killed');
    const { answer } = await hold(killed.child, killed.base, event);
    killed.child.process.kill('SIGKILL');
    await killed.child.exited;
    expect(await answer.catch((error: unknown) => error)).toBeInstanceOf(Error); // died with the process
    expect(await inspect.get(`${prefix}dedupe:evt_killed`)).toMatch(/^pending:/);

    const statuses: number[] = [];
    // The gateway's retries, sped up; bounded well past the 3 s lease.
    for (let i = 0; i < 60 && statuses.at(-1) !== 200; i++) {
      const { status, retryAfter } = await deliver(b, event);
      statuses.push(status);
      if (status === 503) expect(retryAfter).toBe('10');
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(statuses[0]).toBe(503);
    expect(statuses.at(-1)).toBe(200);
    expect(new Set(statuses.slice(0, -1))).toEqual(new Set([503]));
    expect((await completed()).filter((c) => c.startsWith('evt_killed '))).toEqual(['evt_killed B']);
    expect(await inspect.get(`${prefix}dedupe:evt_killed`)).toBe('done');
  }, 30_000);
});
