// Covers: src/internal/limiter.ts
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import {
  APIUserAbortError,
  InvalidOptionError,
  MediaGateway,
  MediaGatewayError,
  QueueTimeoutError,
  RateLimitError,
  type RateLimiter,
  type RequestLimits,
} from '../../src/index.js';
import { modelOf, routeFamilyOf } from '../../src/internal/limiter.js';
import type { RequestSpec } from '../../src/internal/request-spec.js';
import { testClient } from '../helpers/client.js';
import { drain, type RawServer, startRawServer } from '../helpers/raw-server.js';

const EMBEDDING = JSON.stringify({
  object: 'list',
  data: [{ object: 'embedding', index: 0, embedding: [1, 0] }],
});

let server: RawServer | undefined;
let agent: Agent | undefined;
afterEach(async () => {
  await server?.close();
  await agent?.close();
  server = undefined;
  agent = undefined;
});

async function clientFor(
  handle: (req: IncomingMessage, res: ServerResponse, index: number) => void | Promise<void>,
  limits: RequestLimits | RateLimiter,
) {
  server = await startRawServer(handle);
  agent = new Agent({ connections: 64 });
  return testClient({ apiKey: 'k', baseURL: server.url, dispatcher: agent, limits });
}

const embed = (client: MediaGateway, model: 'bge-m3' | 'text-embedding-3-small' = 'bge-m3') =>
  client.embeddings.create({ model, input: 'x' });

describe('client limits', () => {
  it('keeps at most maxInFlight requests at the server and queues the rest in order', async () => {
    let inFlight = 0;
    let peak = 0;
    const bodies: string[] = [];
    const client = await clientFor(
      async (req, res) => {
        bodies.push(JSON.parse((await drain(req)).toString()).input);
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight--;
        res.writeHead(200, { 'content-type': 'application/json' }).end(EMBEDDING);
      },
      { perModel: { '*': { maxInFlight: 2 } } },
    );
    const inputs = Array.from({ length: 12 }, (_, i) => `t${i}`);
    await Promise.all(inputs.map((input) => client.embeddings.create({ model: 'bge-m3', input })));
    expect(peak).toBe(2);
    expect(server?.received).toHaveLength(12);
    expect(bodies.sort()).toEqual([...inputs].sort());
  });

  it('a request that waits past maxQueueWaitMs rejects with QueueTimeoutError and is not sent', async () => {
    const answers: Array<() => void> = [];
    const client = await clientFor(
      (_req, res) => {
        answers.push(() => res.writeHead(200, { 'content-type': 'application/json' }).end(EMBEDDING));
      },
      { maxInFlight: 1, maxQueueWaitMs: 30 },
    );
    const first = embed(client);
    const second = embed(client);
    await expect(second).rejects.toBeInstanceOf(QueueTimeoutError);
    for (let i = 0; i < 100 && answers.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    answers[0]?.();
    await first;
    expect(server?.received).toHaveLength(1);
  });

  it('a call aborted while it waits its turn rejects with APIUserAbortError and is not sent', async () => {
    const answers: Array<() => void> = [];
    const client = await clientFor(
      (_req, res) => {
        answers.push(() => res.writeHead(200, { 'content-type': 'application/json' }).end(EMBEDDING));
      },
      { maxInFlight: 1 },
    );
    const first = embed(client);
    const controller = new AbortController();
    const second = client.embeddings.create({ model: 'bge-m3', input: 'x' }, { signal: controller.signal });
    // Calls start on a later turn (APIPromise): abort once the second one is queued, not before.
    await new Promise((r) => setTimeout(r, 20));
    controller.abort(new Error('no longer needed'));
    const error = await second.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as APIUserAbortError).cause).toEqual(new Error('no longer needed'));
    expect((error as APIUserAbortError).message).toMatch(
      /was not sent: it was aborted while it waited for its turn/,
    );
    for (let i = 0; i < 100 && answers.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    answers[0]?.();
    await first;
    expect(server?.received).toHaveLength(1);
  });

  it("a 429's Retry-After pauses its model for every call of the client, not other models", async () => {
    const client = await clientFor(
      async (req, res, index) => {
        await drain(req);
        if (index === 0) {
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
          res.end(JSON.stringify({ code: 'rate_limit_exceeded', message: 'slow down', data: null }));
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(EMBEDDING);
      },
      { maxInFlight: 8 },
    );
    await expect(embed(client, 'bge-m3')).rejects.toBeInstanceOf(RateLimitError);
    const limitedAt = Date.now();
    const same = [embed(client, 'bge-m3'), embed(client, 'bge-m3'), embed(client, 'bge-m3')];
    await embed(client, 'text-embedding-3-small');
    // The other model went through while the paused one had sent nothing.
    expect(server?.received).toHaveLength(2);
    await Promise.all(same);
    const received = server?.received ?? [];
    expect(received).toHaveLength(5);
    for (const request of received.slice(2)) expect(request.at - limitedAt).toBeGreaterThanOrEqual(900);
  });
});

describe('a 429 asking for a long wait', () => {
  it.each([
    ['99999999 seconds', '99999999', 60_000],
    ['an hour', '3600', 60_000],
    ['60 seconds', '60', 60_000],
    ['2 seconds', '2', 2_000],
  ])('Retry-After: %s pauses the model for %i ms at most', async (_, retryAfter, paused) => {
    const pauses: number[] = [];
    const limiter: RateLimiter = {
      acquire: async () => ({ release: () => undefined }),
      pause: (_model, _family, ms) => pauses.push(ms),
    };
    const client = await clientFor(async (req, res) => {
      await drain(req);
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': retryAfter });
      res.end(JSON.stringify({ code: 'rate_limit_exceeded', message: 'slow down', data: null }));
    }, limiter);
    await expect(embed(client)).rejects.toBeInstanceOf(RateLimitError);
    expect(pauses).toEqual([paused]);
  });
});

describe('a limiter given by the caller that fails', () => {
  const ACCEPTED = JSON.stringify({ code: 'success', data: [{ task_id: 'cgt-kept', status: 'submitted' }] });
  /** A gateway that accepts every submission, counting them. */
  const accepting = async () => {
    const counted = { posts: 0, url: '' };
    server = await startRawServer(async (req, res) => {
      await drain(req);
      counted.posts++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(ACCEPTED);
    });
    counted.url = server.url;
    return counted;
  };
  /** A client under `limits` whose warn lines are kept. */
  const logging = (baseURL: string, maxRetries: number, limits: RateLimiter) => {
    const warnings: string[] = [];
    const client = testClient({
      apiKey: 'k',
      baseURL,
      maxRetries,
      logger: { warn: (message: string) => void warnings.push(message) },
      logLevel: 'warn',
      limits,
    });
    return { client, warnings };
  };
  const submit = (client: MediaGateway) =>
    client.videos.create({ model: 'vidmodel-2.0-mini', prompt: 'a kite', duration: 5 });

  it.each([
    [
      'throws from release()',
      () => ({
        release: () => {
          throw new Error('release boom');
        },
      }),
    ],
  ])('that %s after the request was sent: the accepted submission keeps its task ID', async (_, permit) => {
    const counted = await accepting();
    const { client, warnings } = logging(counted.url, 0, {
      acquire: async () => permit(),
      pause: () => undefined,
    });
    expect((await submit(client)).task_id).toBe('cgt-kept');
    expect(counted.posts).toBe(1);
    expect(warnings).toEqual([
      "the rate limiter's release() threw (release boom) after POST /v1/videos/generations; the call went on",
    ]);
  });

  it('whose pause() throws on a 429: the 429 is still retried, and the failure logged', async () => {
    let calls = 0;
    server = await startRawServer(async (req, res) => {
      await drain(req);
      if (calls++ === 0) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0.05' });
        return void res.end(JSON.stringify({ code: 'rate_limit_exceeded', message: 'slow', data: null }));
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(EMBEDDING);
    });
    const { client, warnings } = logging(server.url, 1, {
      acquire: async () => ({ release: () => undefined }),
      pause: () => {
        throw new Error('pause boom');
      },
    });
    const answer = await client.embeddings.create({ model: 'bge-m3', input: 'x' });
    expect(answer.data).toHaveLength(1);
    expect(calls).toBe(2);
    expect(warnings.filter((w) => w.includes('rate limiter'))).toEqual([
      "the rate limiter's pause() threw (pause boom); POST /v1/embeddings goes on without pausing its model",
    ]);
  });

  it.each([
    [
      'throws',
      () => {
        throw new Error('acquire boom');
      },
      /acquire\(\) failed \(acquire boom\)/,
    ],
    [
      'rejects',
      async () => {
        throw new Error('acquire boom');
      },
      /acquire\(\) failed \(acquire boom\)/,
    ],
    [
      'resolves no permit',
      async () => undefined,
      /acquire\(\) resolved undefined, not a permit with release\(\)/,
    ],
    [
      'returns, not as a promise, an object whose release is not a function',
      () => ({ release: 5 }),
      /resolved object, not a permit/,
    ],
  ])('whose acquire() %s: a MediaGatewayError before anything is sent', async (_, acquire, message) => {
    const counted = await accepting();
    const client = testClient({
      apiKey: 'k',
      baseURL: counted.url,
      limits: { acquire, pause: () => undefined } as unknown as RateLimiter,
    });
    const error = await submit(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaGatewayError);
    expect((error as Error).message).toMatch(
      /^POST \/v1\/videos\/generations was not sent: the rate limiter's /,
    );
    expect((error as Error).message).toMatch(message);
    expect(counted.posts).toBe(0);
  });

  it('whose acquire() never settles and ignores the signal: the abort still ends the call', async () => {
    server = await startRawServer(async (req, res) => {
      await drain(req);
      res.writeHead(200, { 'content-type': 'application/json' }).end(EMBEDDING);
    });
    const client = testClient({
      apiKey: 'k',
      baseURL: server.url,
      limits: { acquire: () => new Promise(() => {}), pause: () => undefined },
      maxRetries: 2,
    });
    const controller = new AbortController();
    const call = client.embeddings.create({ model: 'bge-m3', input: 'x' }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user left')), 20);
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as Error).message).toMatch(/was not sent: it was aborted while it waited for its turn/);
  });
});

describe('a permit granted after the call gave up', () => {
  it('is released: an abort during a slow acquire() does not keep its room for good', async () => {
    server = await startRawServer(async (req, res) => {
      await drain(req);
      res.writeHead(200, { 'content-type': 'application/json' }).end(EMBEDDING);
    });
    let released = 0;
    let grant: ((permit: { release(): void }) => void) | undefined;
    // Grants when the test says so (a Redis round trip), whatever the signal did meanwhile.
    const limits: RateLimiter = {
      acquire: () => new Promise((resolve) => (grant = resolve)),
      pause: () => undefined,
    };
    const client = testClient({ apiKey: 'k', baseURL: server.url, limits, maxRetries: 0 });
    const controller = new AbortController();
    const call = client.embeddings.create({ model: 'bge-m3', input: 'x' }, { signal: controller.signal });
    for (let i = 0; i < 100 && !grant; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect(await call.catch((e: unknown) => e)).toBeInstanceOf(APIUserAbortError);
    grant?.({ release: () => void released++ });
    await new Promise((resolve) => setImmediate(resolve));
    expect(released).toBe(1);
  });
});

describe('the limits option', () => {
  it('refuses a limiter without pause(), which every 429 calls', () => {
    const make = (limits: unknown) => () =>
      new MediaGateway({ apiKey: 'k', baseURL: 'http://127.0.0.1:1', limits: limits as RateLimiter });
    expect(make({ acquire: async () => ({ release() {} }) })).toThrow(InvalidOptionError);
    expect(make({ acquire: async () => ({ release() {} }) })).toThrow(
      /^limits\.pause must be a function; got undefined/,
    );
    expect(make({ acquire: async () => ({ release() {} }), pause() {} })).not.toThrow();
  });

  it('refuses limits: null (plain JavaScript) with InvalidOptionError, not a TypeError', () => {
    expect(
      () =>
        new MediaGateway({
          apiKey: 'k',
          baseURL: 'http://127.0.0.1:1',
          limits: null as unknown as RequestLimits,
        }),
    ).toThrow(/^limits must be an object/);
  });

  it('refuses a number out of range where the client is made, naming it', () => {
    expect(
      () =>
        new MediaGateway({
          apiKey: 'k',
          baseURL: 'http://127.0.0.1:1',
          limits: { perModel: { 'bge-m3': { requestsPerSecond: 0 } } },
        }),
    ).toThrow('limits.perModel.bge-m3.requestsPerSecond');
  });

  it('without limits the transport holds no limiter, so requests take no extra step', () => {
    const client = new MediaGateway({ apiKey: 'k', baseURL: 'http://127.0.0.1:1' });
    expect(
      (client._transport as unknown as { config: { limiter?: unknown } }).config.limiter,
    ).toBeUndefined();
  });
});

describe('what a request is limited as', () => {
  const spec = (over: Partial<RequestSpec>): RequestSpec => ({
    method: 'POST',
    path: '/x',
    retry: 'safe',
    timeout: 1,
    ...over,
  });
  it.each([
    [
      'a billable JSON submission',
      spec({ path: '/videos/generations', retry: 'billable', body: { model: 'vidmodel-2.5' } }),
      'creation',
      'vidmodel-2.5',
    ],
    [
      'a multipart edit',
      spec({ path: '/images/edits', retry: 'billable', model: 'imgmodel-2' }),
      'creation',
      'imgmodel-2',
    ],
    ['an upload', spec({ path: '/uploads/images', retry: 'create' }), 'upload', undefined],
    [
      'a task query',
      spec({ method: 'GET', path: '/tasks/t1', query: { model: 'imgmodel-2' } }),
      'query',
      'imgmodel-2',
    ],
    ['embeddings', spec({ path: '/embeddings', body: { model: 'bge-m3' } }), 'query', 'bge-m3'],
  ])('%s', (_name, request, family, model) => {
    expect(routeFamilyOf(request)).toBe(family);
    expect(modelOf(request)).toBe(model);
  });
});
