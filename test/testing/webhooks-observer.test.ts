// Covers: src/testing/state/webhooks/index.ts
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { MockDeliveryAttempt, MockWebhookEvent } from '../../src/testing/index.js';
import { startRig, type WebhookRig } from '../integration/webhooks-setup.js';

let rig: WebhookRig;

beforeAll(async () => {
  rig = await startRig();
});
afterAll(() => rig.close());

describe("mockWebhooks(gateway).on('delivery')", () => {
  test('tells each attempt with its settled consequence: retrying with the next time, then delivered', async () => {
    const seen: Array<{ status: number | undefined; eventStatus: string; next: number | undefined }> = [];
    const off = rig.webhooks.on('delivery', (attempt: MockDeliveryAttempt, event: MockWebhookEvent) =>
      seen.push({ status: attempt.statusCode, eventStatus: event.status, next: event.nextAttemptAt }),
    );
    rig.receiver.script.push({ status: 503 });
    const task = rig.gateway.tasks.create({
      account: 'acct_1',
      kind: 'video',
      model: 'vidmodel-2.5',
      data: { notifications: rig.notifications() },
    });
    rig.gateway.tasks.finishNow(task.id);
    await rig.webhooks.flush();
    const start = rig.gateway.clock.now();
    expect(seen).toEqual([{ status: 503, eventStatus: 'retrying', next: start + 60_000 }]);
    await rig.gateway.clock.advance(60_000);
    await rig.webhooks.flush();
    expect(seen.at(-1)).toEqual({ status: 200, eventStatus: 'delivered', next: undefined });
    off();
  });

  test('a listener that throws does not stop delivery, and a removed listener hears nothing more', async () => {
    let calls = 0;
    const off = rig.webhooks.on('delivery', () => {
      calls++;
      throw new Error('listener bug');
    });
    const task = rig.gateway.tasks.create({
      account: 'acct_1',
      kind: 'video',
      model: 'vidmodel-2.5',
      data: { notifications: rig.notifications() },
    });
    rig.gateway.tasks.finishNow(task.id);
    await rig.webhooks.flush();
    expect(calls).toBe(1);
    expect(rig.webhooks.events({ taskId: task.id })[0]?.status).toBe('delivered');
    off();
    const next = rig.gateway.tasks.create({
      account: 'acct_1',
      kind: 'video',
      model: 'vidmodel-2.5',
      data: { notifications: rig.notifications() },
    });
    rig.gateway.tasks.finishNow(next.id);
    await rig.webhooks.flush();
    expect(calls).toBe(1);
  });
});

describe('catchAllEndpoints', () => {
  test("events of tasks that subscribed nothing go to the account's catch-all endpoint", async () => {
    const bare = () => rig.gateway.tasks.create({ account: 'acct_1', kind: 'image', model: 'imgmodel-2' });
    const before = bare();
    rig.gateway.tasks.finishNow(before.id);
    await rig.webhooks.flush();
    expect(rig.webhooks.events({ taskId: before.id })).toEqual([]);

    rig.webhooks.configure({ catchAllEndpoints: [rig.endpointId] });
    try {
      const task = bare();
      const other = rig.gateway.tasks.create({ account: 'acct_2', kind: 'image', model: 'imgmodel-2' });
      rig.gateway.tasks.finishNow(task.id);
      rig.gateway.tasks.finishNow(other.id);
      await rig.webhooks.flush();
      const [event] = rig.webhooks.events({ taskId: task.id });
      expect(event).toMatchObject({
        type: 'task.completed',
        endpointId: rig.endpointId,
        status: 'delivered',
      });
      expect(rig.receiver.events.map((e) => e.id)).toContain(event?.id);
      // Another account's task is never sent to this account's endpoint.
      expect(rig.webhooks.events({ taskId: other.id })).toEqual([]);
    } finally {
      rig.webhooks.configure({ catchAllEndpoints: [] });
    }
  });
});

describe('signingClock', () => {
  test("'wall' signs with real time while the mock clock is hours ahead; 'mock' with the mock clock", async () => {
    await rig.gateway.clock.advance(5 * 3600_000);
    const finish = async () => {
      const task = rig.gateway.tasks.create({
        account: 'acct_1',
        kind: 'video',
        model: 'vidmodel-2.5',
        data: { notifications: rig.notifications() },
      });
      rig.gateway.tasks.finishNow(task.id);
      await rig.webhooks.flush();
      return rig.webhooks.events({ taskId: task.id })[0]?.attempts[0]?.timestamp ?? 0;
    };
    const wall = () => Math.floor(Date.now() / 1000);
    expect(Math.abs((await finish()) - rig.gateway.clock.nowSeconds())).toBeLessThanOrEqual(1);
    rig.webhooks.configure({ signingClock: 'wall' });
    try {
      // The rig's receiver checks against the mock clock: a wall-clock signature is refused...
      const signed = await finish();
      expect(Math.abs(signed - wall())).toBeLessThanOrEqual(1);
      // ...as a wall-clock receiver would refuse mock-clock signatures hours ahead.
      expect(rig.gateway.clock.nowSeconds() - signed).toBeGreaterThan(4 * 3600);
    } finally {
      rig.webhooks.configure({ signingClock: 'mock' });
    }
  });
});
