// Covers: webhook deliveries handled exactly once
// The gateway's at-least-once delivery against receivers in separate processes sharing one
// Redis, with failures injected into onEvent and one receiver killed while it holds events:
// every event's onEvent completes exactly once, and no delivery is acknowledged (2xx) before
// its event completed. Completions are recorded in Redis, outside every receiver process.
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { signWebhook } from '../../src/webhooks/index.js';
import { type Child, startChild, stopChild, testRedis, uniquePrefix } from '../redis/helpers.js';
import {
  closeRedis,
  connectRedis,
  KEY_ID,
  SECRET,
  type TestRedisClient,
  taskEvent,
} from '../redis/shared.js';

const redis = await testRedis();
const SEED = 20_261_125;

/** A small seeded generator, so a failing order can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
}

describe.skipIf('skip' in redis)(
  'exactly-once handling over at-least-once delivery (real Redis, 4 processes)',
  () => {
    const url = (redis as { url: string }).url;
    const prefix = uniquePrefix();
    const children: Child[] = [];
    const agent = new Agent({ keepAliveTimeout: 1_000, connections: 16, connect: { timeout: 2_000 } });
    let inspect: TestRedisClient;

    const receiver = async (name: string) => {
      const child = startChild('holding-receiver.ts', {
        REDIS_URL: url,
        PREFIX: prefix,
        NAME: name,
        LEASE_SECONDS: '3',
      });
      children.push(child);
      const port = (await child.line((l) => l.startsWith('READY '))).slice('READY '.length);
      return { name, child, base: `http://127.0.0.1:${port}` };
    };

    beforeAll(async () => {
      if ('skip' in redis) return;
      inspect = await connectRedis(url);
    });
    afterAll(async () => {
      await Promise.all(children.map(stopChild));
      closeRedis(inspect);
      await agent.close();
      if (!('skip' in redis)) await redis.stop();
    });

    test('200 shuffled deliveries of 50 events, injected throws, one receiver killed holding events', async () => {
      const next = random(SEED);
      const receivers = await Promise.all(['R1', 'R2', 'R3', 'K'].map(receiver));
      const killed = receivers[3]!;
      const events = Array.from({ length: 50 }, (_, i) => taskEvent(`evt_once_${i}`, `task_once_${i}`));
      let sequence = 0;
      const acknowledgedEarly: string[] = [];
      const statuses = new Map<string, number>();

      /** One attempt: the status, or 0 when the connection failed (the gateway retries both). */
      const attempt = async (base: string, event: { id: string }, kind: string) => {
        const body = JSON.stringify(event);
        const deliveryId = `dlv_${kind}_${++sequence}`;
        const headers = signWebhook({ body, secret: SECRET, keyId: KEY_ID, deliveryId });
        try {
          const response = await request(`${base}/webhooks`, {
            method: 'POST',
            body,
            headers: { ...headers, 'content-type': 'application/json' },
            dispatcher: agent,
          });
          await response.body.dump();
          if (response.statusCode === 503) expect(response.headers['retry-after']).toBe('10');
          return response.statusCode;
        } catch {
          return 0;
        }
      };

      /** A delivery and the gateway's retries of it, until a 2xx; retries sped up, bounded. */
      const chain = async (event: { id: string }, first: (typeof receivers)[number], kind: string) => {
        let target = first;
        for (let tries = 0; tries < 80; tries++) {
          const status = await attempt(
            target.base,
            event,
            tries === 0 ? kind : next() < 0.1 ? 'throw' : 'ok',
          );
          statuses.set(String(status), (statuses.get(String(status)) ?? 0) + 1);
          if (status >= 200 && status < 300) {
            // Acknowledged: its completion must already be on record.
            const completed = await inspect.lRange(`${prefix}completed`, 0, -1);
            if (!completed.some((line) => line.startsWith(`${event.id} `))) acknowledgedEarly.push(event.id);
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, 50 + next() * 150));
          target = receivers[Math.floor(next() * receivers.length)]!;
        }
        throw new Error(`${event.id}: no 2xx after 80 attempts (seed ${SEED})`);
      };

      // K takes the first deliveries of three events and is killed inside their onEvent.
      const held = events.slice(0, 3);
      const heldChains = held.map((event) => chain(event, killed, 'hold'));
      for (const event of held) await killed.child.line((l) => l.startsWith(`STARTED ${event.id} `));
      killed.child.process.kill('SIGKILL');
      await killed.child.exited;

      // The other 197 deliveries: every event 4 times in all, shuffled, to any receiver (K's
      // connections are refused now), a fifth of them failing in onEvent.
      const rest = events.flatMap((event, i) => Array.from({ length: i < 3 ? 3 : 4 }, () => event));
      for (let i = rest.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [rest[i], rest[j]] = [rest[j]!, rest[i]!];
      }
      expect(rest.length + held.length).toBe(200);
      let cursor = 0;
      const worker = async () => {
        while (cursor < rest.length) {
          const event = rest[cursor++]!;
          const to = receivers[Math.floor(next() * receivers.length)]!;
          await chain(event, to, next() < 0.2 ? 'throw' : 'ok');
        }
      };
      await Promise.all([...heldChains, ...Array.from({ length: 12 }, worker)]);

      const completed = await inspect.lRange(`${prefix}completed`, 0, -1);
      const byEvent = new Map<string, number>();
      for (const line of completed) {
        const id = line.split(' ')[0]!;
        byEvent.set(id, (byEvent.get(id) ?? 0) + 1);
      }
      expect(acknowledgedEarly).toEqual([]);
      expect([...byEvent.keys()].sort()).toEqual(events.map((e) => e.id).sort());
      expect(
        [...byEvent.values()].every((n) => n === 1),
        JSON.stringify([...byEvent]),
      ).toBe(true);
      // The held events were completed by the survivors, after K's lease lapsed.
      for (const event of held)
        expect(completed.find((l) => l.startsWith(`${event.id} `))).not.toMatch(/ K$/);
      // Every kind of answer the gateway would see came up: 2xx, 500 (throws), 503 (in flight), refused.
      for (const status of ['200', '500', '503', '0']) expect(statuses.get(status) ?? 0).toBeGreaterThan(0);
      for (const event of events) expect(await inspect.get(`${prefix}dedupe:${event.id}`)).toBe('done');
    }, 90_000);
  },
);
