// Covers: src/testing/state/faults.ts
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type MockGateway, startMockGateway } from '../../src/testing/index.js';
import { api, createAgent } from './helpers.js';

const agent = createAgent();
let gateway: MockGateway;
const key = () => gateway.apiKey;

beforeAll(async () => {
  gateway = await startMockGateway({ clock: 'manual' });
  // A billable-looking submission: creates a task with a reservation, so side effects can be counted.
  gateway.router.add('POST', '/v1/test/submit', async (ctx) => {
    const task = ctx.gateway.tasks.create({
      account: ctx.account.id,
      kind: 'video',
      model: 'vidmodel-2.0-mini',
      reserve: { seconds: 5, tier: '720P' },
    });
    await ctx.json(200, { code: 200, data: [{ status: 'submitted', task_id: task.id }] });
  });
  gateway.router.add('GET', '/v1/test/doc', (ctx) => ctx.json(200, { text: 'x'.repeat(2_000) }));
});
beforeEach(() => {
  gateway.clearFaults();
  gateway.resetRequests();
});
afterAll(async () => {
  await gateway.close();
  await agent.close();
});

const submit = (options: { signal?: AbortSignal; headersTimeout?: number } = {}) =>
  api(agent, gateway, 'POST', '/v1/test/submit', { key: key(), body: { prompt: 'a cat' }, ...options });
const tasksCreated = () => gateway.tasks.list().length;

describe('status faults', () => {
  test('answer with the status, Retry-After and a spec-shaped body, without running the route', async () => {
    const before = tasksCreated();
    const handle = gateway.inject({
      match: { method: 'POST', path: '/v1/test' },
      times: 2,
      fault: { status: 429, headers: { 'Retry-After': '3' } },
    });
    expect(handle.remaining).toBe(2);
    const first = await submit();
    expect(first.status).toBe(429);
    expect(first.headers['retry-after']).toBe('3');
    expect(first.headers['x-service-request-id']).toMatch(/^req_/);
    expect(first.json()).toEqual({
      code: 'rate_limit_exceeded',
      message: 'mock fault: HTTP 429',
      data: null,
    });
    expect(handle.remaining).toBe(1);
    expect((await submit()).status).toBe(429);
    expect((await submit()).status).toBe(200);
    expect(handle).toMatchObject({ remaining: 0, hits: 2 });
    expect(tasksCreated()).toBe(before + 1);
    expect(gateway.requests.map((r) => [r.fault, r.status])).toEqual([
      ['status 429', 429],
      ['status 429', 429],
      [undefined, 200],
    ]);
    expect(gateway.requests[0]?.body).toEqual({ prompt: 'a cat' });
  });

  test('a custom body, and matching by method, path prefix, RegExp and origin', async () => {
    gateway.inject({ match: { method: 'GET' }, fault: { status: 500 } });
    gateway.inject({
      match: { path: /\/doc$/ },
      fault: { status: 503, body: { error: { message: 'down' } } },
    });
    gateway.inject({ match: { origin: 'media' }, fault: { status: 502 } });
    expect((await submit()).status).toBe(200); // POST: neither GET fault applies
    const a = await api(agent, gateway, 'GET', '/v1/test/doc', { key: key() });
    expect(a.status).toBe(500);
    const b = await api(agent, gateway, 'GET', '/v1/test/doc', { key: key() });
    expect([b.status, b.json()]).toEqual([503, { error: { message: 'down' } }]);
    expect((await api(agent, gateway, 'GET', '/v1/test/doc', { key: key() })).status).toBe(200);
  });

  test('cancel removes a fault', async () => {
    const handle = gateway.inject({ times: Number.POSITIVE_INFINITY, fault: { status: 500 } });
    expect((await submit()).status).toBe(500);
    handle.cancel();
    expect((await submit()).status).toBe(200);
  });
});

describe('timing faults', () => {
  test('delay holds the headers back, then answers normally', async () => {
    gateway.inject({ match: { path: '/v1/test/doc' }, fault: { delayMs: 150 } });
    const started = Date.now();
    const reply = await api(agent, gateway, 'GET', '/v1/test/doc', { key: key() });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(reply.status).toBe(200);
    expect(gateway.requests[0]).toMatchObject({ fault: 'delay', status: 200 });
  });

  test('hang never answers: the client times out; the request was received, the route did not run', async () => {
    const before = tasksCreated();
    gateway.inject({ fault: { hang: true } });
    await expect(submit({ headersTimeout: 200 })).rejects.toMatchObject({ code: 'UND_ERR_HEADERS_TIMEOUT' });
    expect(gateway.requests).toHaveLength(1);
    expect(gateway.requests[0]).toMatchObject({ fault: 'hang', body: { prompt: 'a cat' } });
    expect(gateway.requests[0]?.status).toBeUndefined();
    expect(tasksCreated()).toBe(before);
  });
});

describe('connection faults', () => {
  test('reset before the body: the client sees a socket error and the body was never read', async () => {
    gateway.inject({ fault: { reset: 'before-body' } });
    await expect(submit()).rejects.toThrow();
    expect(gateway.requests).toHaveLength(1);
    expect(gateway.requests[0]).toMatchObject({ fault: 'reset-before-body' });
    expect(gateway.requests[0]?.body).toBeUndefined();
  });

  test('reset after the body: received (and logged with its body), route not run', async () => {
    const before = tasksCreated();
    gateway.inject({ fault: { reset: 'after-body' } });
    await expect(submit()).rejects.toThrow();
    expect(gateway.requests[0]).toMatchObject({ fault: 'reset-after-body', body: { prompt: 'a cat' } });
    expect(tasksCreated()).toBe(before);
  });

  test('reset after the body with runHandler: the task exists and is reserved, the client got nothing', async () => {
    const before = gateway.tasks.list();
    gateway.inject({ fault: { reset: 'after-body', runHandler: true } });
    await expect(submit()).rejects.toThrow();
    const created = gateway.tasks.list().filter((t) => !before.includes(t));
    expect(created).toHaveLength(1);
    expect(gateway.ledger.entriesFor(created[0]!.id).map((e) => e.kind)).toEqual(['reserve']);
  });

  test('truncate sends the full Content-Length and half the body, then closes', async () => {
    gateway.inject({ fault: { truncate: true } });
    const response = await request(`${gateway.url}/v1/test/doc`, {
      headers: { authorization: `Bearer ${key()}` },
      dispatcher: agent,
    });
    expect(response.statusCode).toBe(200);
    const announced = Number(response.headers['content-length']);
    expect(announced).toBeGreaterThan(2_000);
    let received = 0;
    await expect(
      (async () => {
        for await (const chunk of response.body) received += (chunk as Buffer).length;
      })(),
    ).rejects.toThrow();
    expect(received).toBe(Math.floor(announced / 2));
    expect(gateway.requests[0]).toMatchObject({ fault: 'truncate', status: 200 });
  });

  test('truncate with bytes cuts a stream at that many bytes', async () => {
    const record = gateway.media.publishVideo({ account: 'acct_1' });
    gateway.inject({ match: { origin: 'media' }, fault: { truncate: true, bytes: 1_000 } });
    const response = await request(record.url, { dispatcher: agent });
    expect(Number(response.headers['content-length'])).toBe(record.size);
    let received = 0;
    await expect(
      (async () => {
        for await (const chunk of response.body) received += (chunk as Buffer).length;
      })(),
    ).rejects.toThrow();
    expect(received).toBe(1_000);
  });
});

describe('slow and oversized answers', () => {
  test('drip sends the headers at once, then the body a few bytes at a time; the route runs', async () => {
    const before = tasksCreated();
    gateway.inject({ fault: { drip: { everyMs: 20, bytes: 10 } } });
    const response = await request(`${gateway.url}/v1/test/submit`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'a cat' }),
      dispatcher: agent,
    });
    expect(response.statusCode).toBe(200);
    const sizes: number[] = [];
    for await (const chunk of response.body) sizes.push((chunk as Buffer).length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(10);
    expect(sizes.length).toBeGreaterThan(3);
    expect(tasksCreated()).toBe(before + 1);
    expect(gateway.requests[0]).toMatchObject({ fault: 'drip', status: 200 });
  });

  test('drip ends when the gateway closes, however long its pause', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const own = await startMockGateway({ clock: 'manual' });
    own.inject({ fault: { drip: { everyMs: 60_000 } } });
    const before = timers();
    const response = await request(`${own.url}/v1/videos/cgt-missing`, {
      headers: { authorization: `Bearer ${own.apiKey}` },
      dispatcher: agent,
    });
    expect(response.statusCode).toBe(404); // the headers came at once; the body is held back
    const reading = response.body.text().catch((error: unknown) => error);
    const started = Date.now();
    await own.close();
    expect(await reading).toBeInstanceOf(Error);
    expect(Date.now() - started).toBeLessThan(5_000);
    await sleep(20);
    expect(timers(), 'the 60 s pause is not left pending').toBeLessThan(before + 1);
  });

  test('padBytes sends the answer without Content-Length and that many spaces after it', async () => {
    const before = tasksCreated();
    gateway.inject({ fault: { padBytes: 200_000 } });
    const response = await request(`${gateway.url}/v1/test/submit`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'a cat' }),
      dispatcher: agent,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-length']).toBeUndefined();
    const text = await response.body.text();
    const json = JSON.parse(text) as { data: Array<{ task_id: string }> };
    expect(json.data[0]?.task_id).toEqual(expect.any(String));
    expect(text.length - text.trimEnd().length).toBe(200_000);
    expect(tasksCreated()).toBe(before + 1);
    expect(gateway.requests[0]).toMatchObject({ fault: 'pad', status: 200 });
  });
});

describe('malformed JSON', () => {
  test('answers 200 with a body that does not parse, without running the route', async () => {
    const before = tasksCreated();
    gateway.inject({ fault: { malformedJson: true } });
    const reply = await submit();
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(() => reply.json()).toThrow(SyntaxError);
    expect(tasksCreated()).toBe(before);
    expect(gateway.requests[0]).toMatchObject({ fault: 'malformed-json', status: 200 });
  });

  test('with runHandler the route runs and its answer is replaced', async () => {
    const before = tasksCreated();
    gateway.inject({ fault: { malformedJson: true, runHandler: true } });
    const reply = await submit();
    expect(() => reply.json()).toThrow(SyntaxError);
    expect(tasksCreated()).toBe(before + 1);
  });
});

test('the connection stays usable after a fault that answered', async () => {
  gateway.inject({ fault: { status: 503 } });
  expect((await submit()).status).toBe(503);
  await sleep(1);
  expect((await submit()).status).toBe(200);
});

test('inject refuses a non-positive times', () => {
  expect(() => gateway.inject({ times: 0, fault: { status: 500 } })).toThrow(RangeError);
});
