// Covers: every client option is checked: src/client.ts, src/core/options.ts
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { MediaGateway } from '../../src/client.js';
import { APIConnectionTimeoutError, InternalServerError } from '../../src/core/errors.js';
import { InvalidOptionError } from '../../src/core/options.js';
import type { RequestOptions, RequestSpec } from '../../src/internal/request-spec.js';
import { type RawServer, startRawServer } from '../helpers/raw-server.js';
import { rejection } from '../helpers/rejection.js';

const KEY = 'mgw_options_key_0000111122223333';

let gw: RawServer;
let status = 200;
beforeAll(async () => {
  gw = await startRawServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end('{"id":"t1"}');
  });
});
afterAll(() => gw.close());
beforeEach(() => {
  gw.received.length = 0;
  status = 200;
});

const query: RequestSpec = { method: 'GET', path: '/videos/t1', retry: 'safe', timeout: 10_000 };
const client = (options: ConstructorParameters<typeof MediaGateway>[0] = {}) =>
  new MediaGateway({ apiKey: KEY, baseURL: gw.url, ...options });

const badDurations = [
  Number.NaN,
  -5,
  0,
  -0,
  1.5,
  Number.POSITIVE_INFINITY,
  2 ** 31,
  '1000' as unknown as number,
];
/** `-0` named as such, strings quoted. */
const label = (value: unknown) =>
  typeof value === 'string' ? JSON.stringify(value) : Object.is(value, -0) ? '-0' : String(value);
const badCounts = [Number.NaN, -1, 1.5, Number.POSITIVE_INFINITY, '2' as unknown as number];

describe('client options are refused where given', () => {
  test.each(badDurations)('timeout: %s', (timeout) => {
    expect(() => client({ timeout })).toThrow(InvalidOptionError);
    expect(() => client({ timeout })).toThrow(
      /^timeout must be a whole number of milliseconds from 1 to 2147483647/,
    );
  });

  test.each(badCounts)('maxRetries: %s', (maxRetries) => {
    expect(() => client({ maxRetries })).toThrow(InvalidOptionError);
    expect(() => client({ maxRetries })).toThrow(/^maxRetries must be a whole number of 0 or more/);
  });

  test.each([...badCounts, 0])('maxResponseBytes: %s', (maxResponseBytes) => {
    expect(() => client({ maxResponseBytes })).toThrow(InvalidOptionError);
  });

  test('the edges pass: timeout 1 and 2147483647, maxRetries 0, maxResponseBytes 1', () => {
    expect(() => client({ timeout: 1 })).not.toThrow();
    expect(() => client({ timeout: 2_147_483_647 })).not.toThrow();
    expect(() => client({ maxRetries: 0 })).not.toThrow();
    expect(() => client({ maxResponseBytes: 1 })).not.toThrow();
  });
});

describe('per-call options are refused before any request is sent', () => {
  const cases: Array<[string, RequestOptions]> = [
    ...badDurations.map((timeout): [string, RequestOptions] => [`timeout: ${label(timeout)}`, { timeout }]),
    ...badCounts.map((maxRetries): [string, RequestOptions] => [
      `maxRetries: ${label(maxRetries)}`,
      { maxRetries },
    ]),
  ];

  test.each(cases)('%s', async (_name, options) => {
    const error = await rejection(client({ maxRetries: 2 })._transport.json({ ...query, options }));
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(error.message).toMatch(/Nothing was sent\.$/);
    expect(gw.received).toHaveLength(0);
  });

  test('through a resource method too: the promise rejects, nothing is thrown synchronously', async () => {
    const call = client().videos.retrieve('task_1', { timeout: Number.NaN });
    await expect(call).rejects.toBeInstanceOf(InvalidOptionError);
    expect(gw.received).toHaveLength(0);
  });

  test('timeout: 2147483647 is a valid deadline', async () => {
    const result = await client()._transport.json<{ id: string }>({
      ...query,
      options: { timeout: 2_147_483_647 },
    });
    expect(result.id).toBe('t1');
    expect(gw.received).toHaveLength(1);
  });

  test('timeout: 1 is a valid (if hopeless) deadline: it is applied, not refused', async () => {
    const error = await client({ maxRetries: 0 })
      ._transport.json({ ...query, options: { timeout: 1 } })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    // Loopback may answer within a millisecond; if not, the deadline ended the attempt.
    if (error !== undefined) expect(error).toBeInstanceOf(APIConnectionTimeoutError);
  });

  test('maxRetries: 0 is exactly one attempt', async () => {
    status = 500;
    // Its own path: the 1 ms attempt of the test before may still reach the server now.
    const error = await rejection(
      client({ maxRetries: 2 })._transport.json({
        ...query,
        path: '/videos/t-once',
        options: { maxRetries: 0 },
      }),
    );
    expect(error).toBeInstanceOf(InternalServerError);
    expect(gw.received.filter((r) => r.path === '/v1/videos/t-once')).toHaveLength(1);
  });
});
