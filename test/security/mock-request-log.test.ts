// Covers: src/testing/state/request-log.ts
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { InvalidOptionError } from '../../src/core/options.js';
import { type MockGateway, startMockGateway } from '../../src/testing/index.js';
import { api, createAgent } from '../testing/helpers.js';

// A mock gateway left running under load (a soak test, a benchmark, a dev server) must not grow
// without bound: its request log keeps the newest requests only.

const agent = createAgent();
let gateway: MockGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});
afterAll(() => agent.close());

/** Sends `count` requests to `/v1/log/<n>`, `width` at a time, in order of n within each batch. */
async function send(target: MockGateway, count: number, width = 16): Promise<void> {
  for (let first = 1; first <= count; first += width) {
    const batch: Array<Promise<unknown>> = [];
    for (let n = first; n < first + width && n <= count; n++) {
      batch.push(api(agent, target, 'GET', `/v1/log/${n}`, { key: target.apiKey }));
    }
    await Promise.all(batch);
  }
}

describe('the mock request log keeps the newest requests only', () => {
  test('requestLogLimit: after N + k requests the last N are kept, oldest first', async () => {
    gateway = await startMockGateway({ clock: 'manual', requestLogLimit: 5 });
    for (let n = 1; n <= 8; n++) await api(agent, gateway, 'GET', `/v1/log/${n}`, { key: gateway.apiKey });
    expect(gateway.requests.map((r) => [r.id, r.path])).toEqual([
      ['req_4', '/v1/log/4'],
      ['req_5', '/v1/log/5'],
      ['req_6', '/v1/log/6'],
      ['req_7', '/v1/log/7'],
      ['req_8', '/v1/log/8'],
    ]);
    // Reading the log gives plain arrays, and resetting it keeps the limit.
    expect(Array.isArray(gateway.requests.filter(() => true))).toBe(true);
    gateway.resetRequests();
    await send(gateway, 7, 1);
    expect(gateway.requests.map((r) => r.path)).toEqual([
      '/v1/log/3',
      '/v1/log/4',
      '/v1/log/5',
      '/v1/log/6',
      '/v1/log/7',
    ]);
  });

  test('by default 20,000 requests leave the newest 1,000', async () => {
    gateway = await startMockGateway({ clock: 'manual' });
    // Batches of 20 end exactly at the 1,000th newest, so which requests are kept does not
    // depend on the order they are logged in within a batch.
    await send(gateway, 20_000, 20);
    expect(gateway.requests).toHaveLength(1000);
    const kept = gateway.requests.map((r) => Number(r.path.split('/').pop()));
    expect([...kept].sort((a, b) => a - b)).toEqual(Array.from({ length: 1000 }, (_, i) => 19_001 + i));
    // Oldest first: a batch's requests all come before the next batch's.
    const batches = kept.map((n) => Math.floor((n - 1) / 20));
    expect(batches).toEqual([...batches].sort((a, b) => a - b));
  });

  test('requestLogLimit: 0 keeps nothing', async () => {
    gateway = await startMockGateway({ clock: 'manual', requestLogLimit: 0 });
    await send(gateway, 3);
    expect(gateway.requests).toEqual([]);
  });

  test.each([
    ['-1', -1],
    ['1.5', 1.5],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['the string "10"', '10'],
  ])('requestLogLimit %s is refused before anything listens', async (_, value) => {
    const error = await startMockGateway({ requestLogLimit: value as number }).then(
      (started) => {
        gateway = started;
        return undefined;
      },
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(error).toMatchObject({ option: 'requestLogLimit', value });
  });
});
