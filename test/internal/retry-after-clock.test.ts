// Covers: src/internal/retry-policy.ts
import { afterAll, describe, expect, test } from 'vitest';
import type { LimitedRequest, RateLimiter } from '../../src/core/limits.js';
import { testClient } from '../helpers/client.js';
import { drain, startRawServer } from '../helpers/raw-server.js';

// A gateway whose clock is off by `skewMs` from this one: its Date and its Retry-After dates come
// from its own clock, as a real server's do. Its first answer asks to come back in `afterMs`.
async function skewedGateway(skewMs: number, status: 429 | 503, withDate = true, afterMs = 1000) {
  const server = await startRawServer(async (req, res, index) => {
    await drain(req);
    // Node adds a Date of its own unless told not to.
    res.sendDate = withDate;
    const serverNow = Math.floor((Date.now() + skewMs) / 1000) * 1000;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (withDate) headers.date = new Date(serverNow).toUTCString();
    if (index === 0) {
      headers['retry-after'] = new Date(serverNow + afterMs).toUTCString();
      res.writeHead(status, headers).end(JSON.stringify({ code: 'busy', message: 'busy', data: null }));
    } else {
      res.writeHead(200, headers).end(JSON.stringify({ model: 'vidmodel-2.5', supported: true }));
    }
  });
  servers.push(server);
  return server;
}
const servers: { close(): Promise<void> }[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

const FIVE_MINUTES = 5 * 60_000;

describe('Retry-After as an HTTP date is counted from the answer’s Date', () => {
  test.each([
    ['5 min ahead', FIVE_MINUTES],
    ['5 min behind', -FIVE_MINUTES],
  ])('a gateway clock %s: the retry waits the 1 s asked for', async (_name, skew) => {
    const server = await skewedGateway(skew, 503);
    const delays: number[] = [];
    const client = testClient({
      baseURL: server.url,
      maxRetries: 1,
      hooks: { onRetry: ({ delayMs }) => void delays.push(delayMs) },
    });
    const started = performance.now();
    await client.webhooks.capabilities({ model: 'vidmodel-2.5' });
    expect(delays).toEqual([1000]);
    expect(server.received).toHaveLength(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
  });

  test('a 429 pauses the model for the 1 s asked for, whatever this clock says', async () => {
    const server = await skewedGateway(FIVE_MINUTES, 429);
    const pauses: number[] = [];
    const limiter: RateLimiter = {
      acquire: (_request: LimitedRequest) => Promise.resolve({ release: () => undefined }),
      pause: (_model, _family, ms) => void pauses.push(ms),
    };
    const client = testClient({ baseURL: server.url, maxRetries: 1, limits: limiter });
    await client.webhooks.capabilities({ model: 'vidmodel-2.5' });
    expect(pauses).toEqual([1000]);
  });

  // An HTTP date has whole seconds: the server's second began up to 1 s before this clock's now,
  // so a date 3 s on is 2-3 s away here, and a delay over 1 s can only come from this clock.
  test('without a Date header, the date is counted from this clock', async () => {
    const server = await skewedGateway(0, 503, false, 3000);
    const delays: number[] = [];
    const client = testClient({
      baseURL: server.url,
      maxRetries: 1,
      hooks: { onRetry: ({ delayMs }) => void delays.push(delayMs) },
    });
    await client.webhooks.capabilities({ model: 'vidmodel-2.5' });
    expect(server.received).toHaveLength(2);
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeGreaterThan(1000);
    expect(delays[0]).toBeLessThanOrEqual(3000);
  });
});
