// Covers: src/client.ts
import { HttpResponse, http } from 'msw';
import { Agent, type Dispatcher } from 'undici';
import { beforeEach, describe, expect, test } from 'vitest';
import { MediaGateway } from '../src/client.js';
import { InternalServerError } from '../src/core/errors.js';
import { QueueTimeoutError } from '../src/core/limits.js';
import { type MswServer, useMswServer } from './helpers/msw-server.js';
import { rejection } from './helpers/rejection.js';

/** An undici Agent that counts the requests dispatched through it. */
class CountingAgent extends Agent {
  dispatched = 0;
  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    this.dispatched++;
    return super.dispatch(options, handler);
  }
}

let server: MswServer;
useMswServer((started) => {
  server = started;
});
beforeEach(() => {
  server.use(http.get('*/v1/videos/:id', () => HttpResponse.json({ id: 'task_1', status: 'queued' })));
});

describe('client.withOptions()', () => {
  test('sends through the same dispatcher as the client it came from', async () => {
    const dispatcher = new CountingAgent();
    const client = new MediaGateway({ apiKey: 'k_opts', baseURL: server.url, dispatcher });
    const derived = client.withOptions({ timeout: 5_000 });
    await client.videos.retrieve('task_1');
    await derived.videos.retrieve('task_1');
    expect(dispatcher.dispatched).toBe(2);
    expect(server.requests.map((r) => r.headers.get('authorization'))).toEqual([
      'Bearer k_opts',
      'Bearer k_opts',
    ]);
    await dispatcher.close();
  });

  test('applies its own defaults and leaves the original client as it was', async () => {
    const client = new MediaGateway({
      apiKey: 'k_opts',
      baseURL: server.url,
      defaultHeaders: { 'x-team': 'media' },
      maxRetries: 1,
    });
    const derived = client.withOptions({ defaultHeaders: { 'x-team': 'billing' }, maxRetries: 0 });
    await derived.videos.retrieve('task_1');
    await client.videos.retrieve('task_1');
    expect(server.requests.map((r) => r.headers.get('x-team'))).toEqual(['billing', 'media']);

    server.use(
      http.get('*/v1/videos/:id', () => HttpResponse.json({ error: { message: 'down' } }, { status: 500 })),
    );
    server.requests.length = 0;
    expect(await rejection(derived.videos.retrieve('task_1'))).toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(1);
    server.requests.length = 0;
    expect(await rejection(client.videos.retrieve('task_1'))).toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(2);
  });

  test('takes a new base URL and keeps the key, even one read from the environment', () => {
    const saved = process.env.MEDIAGW_API_KEY;
    process.env.MEDIAGW_API_KEY = 'k_env';
    try {
      const client = new MediaGateway({ baseURL: 'https://a.example' });
      delete process.env.MEDIAGW_API_KEY;
      const derived = client.withOptions({ baseURL: 'https://b.example/v1' });
      expect(derived.baseURL).toBe('https://b.example');
      expect(client.baseURL).toBe('https://a.example');
    } finally {
      if (saved === undefined) delete process.env.MEDIAGW_API_KEY;
      else process.env.MEDIAGW_API_KEY = saved;
    }
  });

  test('shares the rate limiter unless limits are given: one in flight holds back the other client', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.get('*/v1/videos/:id', async () => {
        await held;
        return HttpResponse.json({ id: 'task_1', status: 'queued' });
      }),
    );
    const client = new MediaGateway({
      apiKey: 'k_opts',
      baseURL: server.url,
      limits: { maxInFlight: 1, maxQueueWaitMs: 50 },
    });
    const first = client.videos.retrieve('task_1');
    // Shared: the derived client's call waits for the parent's permit, and times out in the queue.
    const shared = client.withOptions({ timeout: 5_000 });
    expect(await rejection(shared.videos.retrieve('task_1'))).toBeInstanceOf(QueueTimeoutError);
    // Its own limits: its own budget, so it is sent while the parent's call is in flight.
    const own = client.withOptions({ limits: { maxInFlight: 1, maxQueueWaitMs: 50 } });
    const second = own.videos.retrieve('task_1');
    // No limits at all.
    const unlimited = client.withOptions({ limits: undefined });
    const third = unlimited.videos.retrieve('task_1');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.requests).toHaveLength(3);
    release();
    await Promise.all([first, second, third]);
  });

  test('rateLimiter: the limiter the client waits on, shared by withOptions, given to another client as its limits', async () => {
    const client = new MediaGateway({ apiKey: 'k_opts', baseURL: server.url, limits: { maxInFlight: 1 } });
    const limiter = client.rateLimiter;
    expect(typeof limiter?.acquire).toBe('function');
    expect(client.withOptions({ timeout: 5_000 }).rateLimiter).toBe(limiter);
    expect(client.withOptions({ limits: { maxInFlight: 2 } }).rateLimiter).not.toBe(limiter);
    expect(client.withOptions({ limits: undefined }).rateLimiter).toBeUndefined();
    expect(new MediaGateway({ apiKey: 'k_opts', baseURL: server.url }).rateLimiter).toBeUndefined();
    const other = new MediaGateway({ apiKey: 'k_other', baseURL: server.url, limits: limiter });
    expect(other.rateLimiter).toBe(limiter);
    // One budget: the permit the first client holds keeps the other's call waiting.
    const permit = await limiter?.acquire({ model: undefined, family: 'query' });
    const waiting = other.videos.retrieve('task_1', { timeout: 5_000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.requests).toHaveLength(0);
    permit?.release();
    await waiting;
    expect(server.requests).toHaveLength(1);
  });
});
