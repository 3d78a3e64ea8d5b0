// Covers: src/testing/state/webhooks/engine.ts
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import type { MockWebhookEvent } from '../../src/testing/state/webhooks/index.js';
import { deliveryVerdict, RETRY_DELAYS_MS } from '../../src/testing/state/webhooks/index.js';
import { verifyWebhook } from '../../src/webhooks/index.js';
import { startRig, videoTask, type WebhookRig } from '../integration/webhooks-setup.js';

let rig: WebhookRig;

beforeAll(async () => {
  rig = await startRig();
});
afterAll(() => rig.close());
afterEach(() => {
  rig.receiver.script.length = 0;
  rig.webhooks.configure({ jitter: false, duplicateDeliveries: false, shuffleDeliveries: false });
});

/** Finishes a new subscribed video task and lets its first attempt run. */
async function finishTask(failed = false, data: Record<string, unknown> = {}): Promise<MockWebhookEvent> {
  const task = videoTask(rig, data, failed);
  rig.gateway.tasks.finishNow(task.id);
  await rig.webhooks.flush();
  const event = rig.webhooks.events({ taskId: task.id })[0];
  if (!event) throw new Error('no event was created');
  return event;
}

/** Moves the mock clock by `ms` and waits for the deliveries that fell due. */
async function advance(ms: number): Promise<void> {
  await rig.gateway.clock.advance(ms);
  await rig.webhooks.flush();
}

const MIN = 60_000;
const HOUR = 60 * MIN;

describe('retries on the schedule, on the mock clock', () => {
  test('500, 500, then 200: three attempts, 1 and 2 minutes apart, same event, new signature', async () => {
    rig.receiver.script.push({ status: 500 }, { status: 500 });
    const event = await finishTask();
    const t0 = event.attempts[0]?.startedAt ?? 0;
    expect(event.attempts).toHaveLength(1);
    expect(event).toMatchObject({ status: 'retrying', nextAttemptAt: t0 + MIN });

    await advance(MIN - 1);
    expect(event.attempts).toHaveLength(1);
    await advance(1);
    expect(event.attempts).toHaveLength(2);
    expect(event).toMatchObject({ status: 'retrying', nextAttemptAt: t0 + 3 * MIN });
    await advance(2 * MIN);
    expect(event.status).toBe('delivered');
    expect(event.attempts.map((a) => a.startedAt - t0)).toEqual([0, MIN, 3 * MIN]);
    expect(event.attempts.map((a) => a.statusCode)).toEqual([500, 500, 200]);

    const requests = rig.receiver.requests.filter((r) => r.headers['x-service-event-id'] === event.id);
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.body)).size).toBe(1);
    expect(new Set(requests.map((r) => r.headers['x-service-delivery-id'])).size).toBe(3);
    expect(new Set(requests.map((r) => r.headers['x-service-timestamp'])).size).toBe(3);
    expect(new Set(requests.map((r) => r.headers['x-service-signature'])).size).toBe(3);
    expect(rig.receiver.events.filter((e) => e.id === event.id)).toHaveLength(1);
  });

  test('a receiver that always fails is tried on the whole schedule for 72 hours, then exhausted', async () => {
    for (let i = 0; i < 20; i++) rig.receiver.script.push({ status: 503 });
    const event = await finishTask();
    const t0 = event.attempts[0]?.startedAt ?? 0;
    for (let i = 0; i < 20 && event.status === 'retrying'; i++) {
      await advance((event.nextAttemptAt ?? 0) - rig.gateway.clock.now());
    }
    expect(event.status).toBe('exhausted');
    const offsets = event.attempts.map((a) => a.startedAt - t0);
    const expected = [0];
    for (const delay of [...RETRY_DELAYS_MS, 12 * HOUR, 12 * HOUR, 12 * HOUR, 12 * HOUR]) {
      expected.push((expected.at(-1) ?? 0) + delay);
    }
    expect(offsets).toEqual(expected);
    expect(offsets.at(-1)).toBeLessThanOrEqual(72 * HOUR);
    expect((offsets.at(-1) ?? 0) + 12 * HOUR).toBeGreaterThan(72 * HOUR);
    rig.receiver.script.length = 0;
  });

  test('jitter adds up to 20% to a delay', async () => {
    rig.webhooks.configure({ jitter: true, random: () => 0.5 });
    rig.receiver.script.push({ status: 500 });
    const event = await finishTask();
    expect((event.nextAttemptAt ?? 0) - (event.attempts[0]?.startedAt ?? 0)).toBe(66_000);
    rig.webhooks.configure({ random: () => 0.999 });
    rig.receiver.script.push({ status: 500 });
    await advance(66_000);
    const delay = (event.nextAttemptAt ?? 0) - (event.attempts[1]?.startedAt ?? 0);
    expect(delay).toBeGreaterThan(2 * MIN);
    expect(delay).toBeLessThanOrEqual(2.4 * MIN);
    await advance(delay);
    expect(event.status).toBe('delivered');
  });

  test('other 4xx answers are retried', async () => {
    rig.receiver.script.push({ status: 404 });
    const event = await finishTask();
    expect(event.status).toBe('retrying');
    await advance(MIN);
    expect(event.status).toBe('delivered');
  });
});

describe('Retry-After', () => {
  test.each([
    [429, '30', 30_000],
    [503, '600', 600_000],
  ])('on %i is honoured inside the window (%s s)', async (status, header, delay) => {
    rig.receiver.script.push({ status, headers: { 'Retry-After': header } });
    const event = await finishTask();
    expect((event.nextAttemptAt ?? 0) - (event.attempts[0]?.startedAt ?? 0)).toBe(delay);
    await advance(delay);
    expect(event.status).toBe('delivered');
  });

  test.each([
    [503, '1.5'],
    [429, '0'],
    [429, 'soon'],
    [503, '-5'],
    [500, '30'],
    [429, ''],
  ])('on %i with %j: the wait deliveryVerdict reads, else the schedule', async (status, header) => {
    rig.receiver.script.push({ status, headers: { 'Retry-After': header } });
    const event = await finishTask();
    const asked = deliveryVerdict({ status, retryAfter: header }).retryAfterMs;
    expect((event.nextAttemptAt ?? 0) - (event.attempts[0]?.startedAt ?? 0)).toBe(asked ?? MIN);
    await advance(asked ?? MIN);
    expect(event.status).toBe('delivered');
  });

  test('is ignored on other statuses, and beyond the 72-hour window', async () => {
    rig.receiver.script.push({ status: 500, headers: { 'Retry-After': '30' } });
    const first = await finishTask();
    expect((first.nextAttemptAt ?? 0) - (first.attempts[0]?.startedAt ?? 0)).toBe(MIN);
    await advance(MIN);
    rig.receiver.script.push({ status: 429, headers: { 'Retry-After': String(80 * 3600) } });
    const second = await finishTask();
    expect((second.nextAttemptAt ?? 0) - (second.attempts[0]?.startedAt ?? 0)).toBe(MIN);
    await advance(MIN);
    expect([first.status, second.status]).toEqual(['delivered', 'delivered']);
  });
});

describe('Retry-After as a date, with the mock clock at speed 60', () => {
  // Date alone is faked (HTTP runs as usual), so each instant below is exact: the real clock
  // stands at T0 + 1 min while the mock clock, 60 times faster, stands at T0 + 1 h.
  const T0 = Date.parse('2026-11-27T10:00:00Z');
  const REAL = T0 + MIN;
  let fast: WebhookRig;
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: T0 });
    fast = await startRig({ clock: 'real', speed: 60 });
    vi.setSystemTime(REAL);
  });
  afterAll(async () => {
    await fast.close();
    vi.useRealTimers();
  });

  const http = (ms: number) => new Date(ms).toUTCString();

  test.each([
    ['a Date 5 minutes behind', 503, REAL - 5 * MIN],
    ['a Date 5 minutes ahead', 503, REAL + 5 * MIN],
    ['no Date (real time)', 429, undefined],
  ])('3 s after %s: the retry comes 3 s of mock time later', async (_, status, date) => {
    expect(fast.gateway.clock.now() - Date.now()).toBeGreaterThanOrEqual(58 * MIN);
    const from = date ?? REAL;
    fast.receiver.script.push({
      status,
      headers: { 'Retry-After': http(from + 3_000), ...(date === undefined ? {} : { Date: http(date) }) },
      ...(date === undefined ? { sendDate: false as const } : {}),
    });
    const task = videoTask(fast);
    fast.gateway.tasks.finishNow(task.id);
    await fast.webhooks.flush();
    const event = fast.webhooks.events({ taskId: task.id })[0];
    const first = event?.attempts[0];
    expect(first?.statusCode).toBe(status);
    expect(event?.status).toBe('retrying');
    expect((event?.nextAttemptAt ?? 0) - (first?.finishedAt ?? 0)).toBe(3_000);
    await fast.gateway.clock.advance(3_000);
    await fast.webhooks.flush();
    expect(event?.status).toBe('delivered');
    expect(event?.attempts.map((a) => a.startedAt - (first?.startedAt ?? 0))).toEqual([0, 3_000]);
  });
});

describe('failures that are not answers', () => {
  let target: Server;
  let hits = 0;
  beforeAll(async () => {
    target = createServer((_req, res) => {
      hits++;
      res.end('{}');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => target.close(() => resolve())));

  test('a redirect is not followed: the attempt fails and is retried', async () => {
    const elsewhere = `http://127.0.0.1:${(target.address() as AddressInfo).port}/elsewhere`;
    rig.receiver.script.push({ status: 307, headers: { Location: elsewhere } });
    const event = await finishTask();
    expect(event.attempts[0]).toMatchObject({ outcome: 'failed', statusCode: 307 });
    expect(event.attempts[0]?.error).toContain('redirect (307) not followed');
    expect(hits).toBe(0);
    expect(event.status).toBe('retrying');
    await advance(MIN);
    expect(event.status).toBe('delivered');
  });

  test('no answer within the time limit counts as a failure', async () => {
    rig.webhooks.configure({ timeoutMs: 200, headersTimeoutMs: 150 });
    try {
      rig.receiver.script.push({ status: 200, hang: true });
      const event = await finishTask();
      expect(event.attempts[0]?.outcome).toBe('failed');
      expect(event.attempts[0]?.error).toMatch(/no (response headers|answer) within/);
      expect(event.status).toBe('retrying');
      await advance(MIN);
      expect(event.status).toBe('delivered');
    } finally {
      rig.webhooks.configure({ timeoutMs: 10_000, headersTimeoutMs: 8_000 });
    }
  });

  test('a connection error counts as a failure', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const url = rig.webhooks.endpoints.get(rig.endpointId)?.url ?? '';
    const unroute = rig.webhooks.route(url, `http://127.0.0.1:${port}/gone`);
    const event = await finishTask();
    expect(event.attempts[0]?.outcome).toBe('failed');
    expect(event.attempts[0]?.error).toContain('ECONNREFUSED');
    unroute();
    rig.webhooks.route(url, rig.receiver.url);
    await advance(MIN);
    expect(event.status).toBe('delivered');
  });
});

describe('an answer whose body has not ended when the time is up', () => {
  test('a 200 with an endless body is no answer: the attempt fails with its status, and is retried', async () => {
    const endless = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const piece = Buffer.alloc(64 * 1024, 0x61);
      let sent = 0;
      const more = () => {
        while (!res.destroyed && sent++ < 16_384) if (!res.write(piece)) return void res.once('drain', more);
        res.end();
      };
      more();
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    const url = rig.webhooks.endpoints.get(rig.endpointId)?.url ?? '';
    const unroute = rig.webhooks.route(url, `http://127.0.0.1:${(endless.address() as AddressInfo).port}/`);
    rig.webhooks.configure({ timeoutMs: 300 });
    let event: MockWebhookEvent;
    try {
      event = await finishTask();
    } finally {
      rig.webhooks.configure({ timeoutMs: 10_000 });
      unroute();
      rig.webhooks.route(url, rig.receiver.url);
      endless.closeAllConnections();
      await new Promise((resolve) => endless.close(resolve));
    }
    expect(event.attempts[0]).toMatchObject({ outcome: 'failed', statusCode: 200 });
    expect(event.attempts[0]?.error).toMatch(
      /^the answer's body had not ended after 300 ms \(\d+ bytes read\)/,
    );
    expect(event.status).toBe('retrying');
    await advance(MIN);
    expect(event.status).toBe('delivered');
  });
});

describe('410 Gone', () => {
  test('pauses the endpoint; its events wait until it is resumed', async () => {
    rig.receiver.script.push({ status: 410 });
    const event = await finishTask();
    const endpoint = rig.webhooks.endpoints.get(rig.endpointId);
    expect(endpoint).toMatchObject({ enabled: false, pausedBy: 'gone' });
    expect(event.status).toBe('paused');
    const later = await finishTask();
    expect(later).toMatchObject({ status: 'paused', attempts: [] });
    await advance(HOUR);
    expect(event.attempts).toHaveLength(1);

    const resumed = await rig.client.webhooks.endpoints.update(rig.endpointId, { enabled: true });
    expect(resumed.endpoint).toMatchObject({ enabled: true, paused_reason: null });
    await rig.webhooks.flush();
    expect([event.status, later.status]).toEqual(['delivered', 'delivered']);
  });
});

describe('envelopes', () => {
  test('task.failed: result null, error generation_failed, signed with the current secret', async () => {
    const event = await finishTask(true, { client_reference_id: 'job-7' });
    const request = rig.receiver.requests.at(-1);
    const received = verifyWebhook({
      body: request?.body ?? '',
      headers: request?.headers ?? {},
      secrets: rig.webhooks.secrets(rig.endpointId),
      now: rig.gateway.clock.nowSeconds(),
    });
    expect(received).toEqual({
      id: event.id,
      type: 'task.failed',
      api_version: '2026-10-03',
      created_at: Math.floor(event.createdAt / 1000),
      data: {
        task_id: event.taskIds[0],
        model: 'vidmodel-2.5',
        kind: 'video',
        status: 'failed',
        client_reference_id: 'job-7',
        completed_at: expect.any(Number),
        task_url: `${rig.gateway.url}/v1/videos/${event.taskIds[0]}`,
        result: null,
        error: { code: 'generation_failed', message: 'mock: generation failed' },
      },
    });
  });

  test('only the subscribed event types are sent', async () => {
    const task = videoTask(rig, { notifications: rig.notifications(['task.failed']) });
    rig.gateway.tasks.finishNow(task.id);
    await rig.webhooks.flush();
    expect(rig.webhooks.events({ taskId: task.id })).toEqual([]);
  });

  test('image events carry every output, on the authenticated image URL', async () => {
    const task = rig.gateway.tasks.create({
      account: 'acct_1',
      kind: 'image',
      model: 'imgmodel-2',
      data: { notifications: JSON.stringify(rig.notifications()) },
    });
    rig.gateway.media.publishImage({ account: 'acct_1', taskId: task.id, seed: 1 });
    rig.gateway.media.publishImage({ account: 'acct_1', taskId: task.id, seed: 2 });
    rig.gateway.tasks.finishNow(task.id);
    await rig.webhooks.flush();
    const event = rig.receiver.events.at(-1);
    expect(event).toMatchObject({
      type: 'task.completed',
      data: {
        kind: 'image',
        task_url: `${rig.gateway.url}/v1/tasks/${task.id}?model=imgmodel-2`,
      },
    });
    const data = event?.data as { result: { outputs: Array<{ type: string; url: string }> } } | undefined;
    const outputs = data?.result.outputs ?? [];
    expect(outputs).toHaveLength(2);
    for (const out of outputs) {
      expect(out).toMatchObject({ type: 'image', authentication: 'bearer', expires_at: null });
      expect(out.url.startsWith(`${rig.gateway.url}/v1/images/results/`)).toBe(true);
    }
  });

  test('Midjourney-family: children carry batch_id; batch.completed once all children ended', async () => {
    const data = {
      batch_id: 'mjb_test',
      notifications: rig.notifications(['task.completed', 'task.failed', 'batch.completed']),
    };
    const make = () =>
      rig.gateway.tasks.create({ account: 'acct_1', kind: 'image', model: 'midjourney', data });
    const [a, b] = [make(), make()];
    rig.gateway.tasks.finishNow(a.id);
    await rig.webhooks.flush();
    expect(rig.webhooks.events({ type: 'batch.completed' })).toEqual([]);
    rig.gateway.tasks.finishNow(b.id, { failed: { code: 'x', message: 'upstream refused' } });
    await rig.webhooks.flush();
    const childEvents = rig.receiver.events.filter(
      (e) => e.type !== 'batch.completed' && 'batch_id' in e.data,
    );
    expect(childEvents.map((e) => (e.data as { batch_id?: string }).batch_id)).toEqual([
      'mjb_test',
      'mjb_test',
    ]);
    const batch = rig.receiver.events.filter((e) => e.type === 'batch.completed');
    expect(batch).toHaveLength(1);
    expect(batch[0]?.data).toMatchObject({
      batch_id: 'mjb_test',
      status: 'partial_failure',
      summary: { total: 2, succeeded: 1, failed: 1 },
    });
  });
});

describe('duplicates and order, for receiver tests', () => {
  test('duplicateDeliveries sends each event twice; the handler calls onEvent once', async () => {
    rig.webhooks.configure({ duplicateDeliveries: true });
    const event = await finishTask();
    const requests = rig.receiver.requests.filter((r) => r.headers['x-service-event-id'] === event.id);
    expect(requests).toHaveLength(2);
    expect(requests[0]?.headers['x-service-delivery-id']).not.toBe(
      requests[1]?.headers['x-service-delivery-id'],
    );
    expect(requests.map((r) => r.status)).toEqual([200, 200]);
    expect(event.attempts.map((a) => a.duplicate)).toEqual([false, true]);
    expect(rig.receiver.events.filter((e) => e.id === event.id)).toHaveLength(1);
  });

  test('shuffleDeliveries sends events that became due together in reverse order', async () => {
    rig.webhooks.configure({ shuffleDeliveries: true });
    const tasks = [videoTask(rig), videoTask(rig), videoTask(rig)];
    const before = rig.receiver.requests.length;
    await advance(60_000); // all three end during this advance
    const created = tasks.map((t) => rig.webhooks.events({ taskId: t.id })[0]?.id);
    const arrived = rig.receiver.eventIds.slice(before);
    expect(arrived).toEqual([...created].reverse());
    expect(new Set(rig.receiver.events.map((e) => e.id)).size).toBe(rig.receiver.events.length);
  });
});
