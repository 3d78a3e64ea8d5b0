// Covers: aborts and their reasons, through the whole client
import { getEventListeners } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { Agent } from 'undici';
import { afterEach, describe, expect, test } from 'vitest';
import { AmbiguousSubmissionError, APIUserAbortError } from '../../src/core/errors.js';
import type { RequestSpec } from '../../src/internal/request-spec.js';
import { testClient } from '../helpers/client.js';
import { warningsDuring } from '../helpers/process-warnings.js';
import { drain, type RawServer, startRawServer } from '../helpers/raw-server.js';
import { rejection } from '../helpers/rejection.js';

const KEY = 'mgw_abort_key_0000111122223333';
const SLACK_MS = 2_000;

const servers: RawServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(handle: Parameters<typeof startRawServer>[0]): Promise<RawServer> {
  const s = await startRawServer(handle);
  servers.push(s);
  return s;
}

const transport = (baseURL: string, maxRetries = 0) =>
  testClient({ apiKey: KEY, baseURL, maxRetries })._transport;
const query: RequestSpec = { method: 'GET', path: '/videos/t1', retry: 'safe', timeout: 10_000 };
const submission: RequestSpec = {
  method: 'POST',
  path: '/videos/generations',
  body: { model: 'vidmodel-2.0-mini', prompt: 'a red kite' },
  retry: 'billable',
  timeout: 10_000,
};
/** A server that takes requests and never answers (until closed). */
const silent = () =>
  server((req) => {
    req.resume();
  });

describe("the abort's reason reaches the caller", () => {
  test('as the cause of APIUserAbortError while the request is in flight', async () => {
    const gw = await silent();
    const controller = new AbortController();
    const reason = new Error('user left the page');
    const call = transport(gw.url).json({ ...query, options: { signal: controller.signal } });
    await delay(100);
    controller.abort(reason);
    const error = await rejection(call);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(error.cause).toBe(reason);
  });

  test('as the cause when the signal was aborted before the call; nothing is sent', async () => {
    const gw = await silent();
    const reason = { why: 'shutdown' };
    const error = await rejection(
      transport(gw.url).json({ ...query, options: { signal: AbortSignal.abort(reason) } }),
    );
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(error.cause).toBe(reason);
    expect(gw.received).toHaveLength(0);
  });

  test('as the cause when the abort ends a retry wait', async () => {
    const gw = await server((_req, res) => {
      res.writeHead(503, { 'retry-after': '30', 'content-type': 'application/json' }).end('{}');
    });
    const controller = new AbortController();
    const reason = new Error('deploy started');
    const started = performance.now();
    const call = transport(gw.url, 2).json({ ...query, options: { signal: controller.signal } });
    while (gw.received.length === 0) await delay(10); // bounded by the test's timeout
    await delay(100);
    controller.abort(reason);
    const error = await rejection(call);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(error.message).toMatch(/retry wait/);
    expect(error.cause).toBe(reason);
    expect(gw.received).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(100 + SLACK_MS);
  });

  test('through AmbiguousSubmissionError when a billable submission is aborted after sending', async () => {
    const gw = await server(async (req) => {
      await drain(req);
    });
    const controller = new AbortController();
    const reason = new Error('user cancelled');
    const call = transport(gw.url, 2).json({ ...submission, options: { signal: controller.signal } });
    while (gw.received.length === 0) await delay(10);
    await delay(100);
    controller.abort(reason);
    const error = await rejection(call);
    expect(error).toBeInstanceOf(AmbiguousSubmissionError);
    expect(error.cause).toBeInstanceOf(APIUserAbortError);
    expect((error.cause as Error).cause).toBe(reason);
    expect(gw.received).toHaveLength(1);
  });
});

describe('one signal shared by many calls', () => {
  test('1,000 concurrent calls: no MaxListenersExceededWarning, no listener left once settled', async () => {
    const gw = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"t1"}');
    });
    const dispatcher = new Agent({ connections: 16 });
    const client = testClient({ apiKey: KEY, baseURL: gw.url, dispatcher });
    const controller = new AbortController();
    const { signal } = controller;
    try {
      const warnings = await warningsDuring(async () => {
        const calls = Array.from({ length: 1_000 }, () =>
          client._transport.json<{ id: string }>({ ...query, options: { signal } }),
        );
        expect(getEventListeners(signal, 'abort').length).toBeLessThanOrEqual(1);
        const results = await Promise.all(calls);
        expect(results.every((r) => r.id === 't1')).toBe(true);
      }, 50);
      expect(warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([]);
      expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    } finally {
      await dispatcher.close();
    }
  });

  test('1,000 calls aborted together all get the reason, and leave no listener', async () => {
    const gw = await silent();
    const dispatcher = new Agent({ connections: 16 });
    const client = testClient({ apiKey: KEY, baseURL: gw.url, dispatcher });
    const controller = new AbortController();
    const { signal } = controller;
    const reason = new Error('stop everything');
    try {
      const warnings = await warningsDuring(async () => {
        const calls = Array.from({ length: 1_000 }, () =>
          rejection(client._transport.json({ ...query, options: { signal } })),
        );
        while (gw.received.length < 16) await delay(10);
        controller.abort(reason);
        const errors = await Promise.all(calls);
        expect(errors.filter((e) => !(e instanceof APIUserAbortError) || e.cause !== reason)).toEqual([]);
      }, 50);
      expect(warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([]);
      expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    } finally {
      await dispatcher.destroy();
    }
  });
});
