// Covers: the transport against hostile servers
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { MediaGateway } from '../../src/client.js';
import { InternalServerError } from '../../src/core/errors.js';
import { type MockGateway, startMockGateway } from '../../src/testing/index.js';
import { testClient } from '../helpers/client.js';
import { drain, type RawServer, startRawServer } from '../helpers/raw-server.js';

let gateway: MockGateway;
let foreign: RawServer;
let client: MediaGateway;

beforeAll(async () => {
  gateway = await startMockGateway({ clock: 'manual' });
  client = testClient({ gateway });
  // Another origin, answering with a few bytes.
  foreign = await startRawServer(async (req, res) => {
    await drain(req);
    res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  });
  // Gateway routes that redirect: to a foreign origin, to the same server under another host name.
  gateway.router.add(
    'GET',
    '/v1/test/redirect/:to',
    (ctx) => {
      const targets: Record<string, string> = {
        foreign: `${foreign.url}/file.png`,
        'other-name': `${gateway.url.replace('127.0.0.1', 'localhost')}/v1/test/file`,
      };
      return ctx.redirect(targets[ctx.params.to] ?? gateway.url);
    },
    // Without auth, so that a hop that (rightly) carries no key is still answered.
    { body: 'none', auth: false },
  );
  gateway.router.add('GET', '/v1/test/file', (ctx) => ctx.json(200, { ok: true }), {
    body: 'none',
    auth: false,
  });
});
afterAll(async () => {
  await gateway?.close();
  await foreign?.close();
});

const download = (path: string) =>
  (
    client as unknown as {
      _transport: { stream: (spec: object) => Promise<{ body: { dump(): Promise<void> } }> };
    }
  )._transport
    .stream({ method: 'GET', path, retry: 'safe', timeout: 5_000 })
    .then((response) => response.body.dump());

describe('Authorization is sent to the gateway origin only', () => {
  test('a video download redirected to the media origin carries no key there', async () => {
    const { task_id } = await client.videos.create({ model: 'vidmodel-2.0-mini', prompt: 'a kite' });
    await gateway.clock.advance(20_000);
    gateway.resetRequests();
    await (await client.videos.downloadContent(task_id)).arrayBuffer();
    const [first, second] = gateway.requests;
    expect(first?.origin).toBe('api');
    expect(first?.headers.authorization).toMatch(/^Bearer /);
    expect(second?.origin).toBe('media');
    expect(second?.headers.authorization).toBeUndefined();
  });

  test.each([
    ['a foreign origin', 'foreign'],
    ['the same host under another name (another origin)', 'other-name'],
  ])('a redirect to %s carries no key', async (_name, to) => {
    const before = foreign.received.length;
    gateway.resetRequests();
    await download(`/test/redirect/${to}`);
    for (const request of foreign.received.slice(before))
      expect(request.headers.authorization).toBeUndefined();
    // The first hop is on the gateway's origin and carries the key; every later hop is elsewhere.
    expect(gateway.requests[0]?.headers.authorization).toMatch(/^Bearer /);
    for (const request of gateway.requests.slice(1)) expect(request.headers.authorization).toBeUndefined();
    expect(foreign.received.length - before + gateway.requests.length).toBe(2);
  });

  test('images.download of a foreign URL sends no key; of a gateway URL it does', async () => {
    const before = foreign.received.length;
    await (await client.images.download(`${foreign.url}/result.png`)).arrayBuffer();
    expect(foreign.received).toHaveLength(before + 1);
    expect(foreign.received.at(-1)?.headers.authorization).toBeUndefined();

    const { data } = await client.images.generate({ model: 'imgmodel-2', prompt: 'a crane' });
    gateway.resetRequests();
    await (await client.images.download(data[0]!)).arrayBuffer();
    expect(gateway.requests[0]?.headers.authorization).toMatch(/^Bearer /);
  });
});

/** Starts a server answering every request with `status` and `body`. */
async function answering(status: number, body: string | Buffer): Promise<RawServer> {
  return startRawServer(async (req, res: ServerResponse) => {
    await drain(req);
    res
      .writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
      .end(body);
  });
}

const MB = 1024 * 1024;
const DEPTH = 100_000;

/** Settles `promise`, or fails after `ms` (a generous limit: this checks for a hang, not for speed). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, limit]);
  } finally {
    clearTimeout(timer);
  }
}

describe('hostile answers are parsed defensively', () => {
  const cases: Array<[string, number, () => string]> = [
    [
      'a 50 MB JSON error body',
      500,
      () => JSON.stringify({ code: 'x', message: 'm'.repeat(50 * MB), data: null }),
    ],
    ['a 50 MB error body that is not JSON', 500, () => 'x'.repeat(50 * MB)],
    [
      `a JSON error body nested ${DEPTH} levels deep`,
      500,
      () => `${'{"error":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`,
    ],
    [
      `a JSON array error body nested ${DEPTH} levels deep`,
      503,
      () => `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`,
    ],
  ];

  test.each(cases)(
    '%s: the call ends with InternalServerError and a short message',
    async (_name, status, body) => {
      const server = await answering(status, body());
      try {
        const hostile = testClient({
          apiKey: 'mgw_test',
          baseURL: server.url,
          maxRetries: 1,
          logger: { warn: () => {} },
        });
        const error = await within(
          hostile.videos.retrieve('cgt-1').catch((e: unknown) => e),
          60_000,
        );
        expect(error).toBeInstanceOf(InternalServerError);
        // The message stays readable; the body keeps the rest.
        expect((error as Error).message.length).toBeLessThan(2_000);
        expect(server.received).toHaveLength(2);
      } finally {
        await server.close();
      }
    },
    90_000,
  );

  test(`a successful answer nested ${DEPTH} levels deep is returned, not a crash`, async () => {
    const server = await answering(
      200,
      `{"id":"cgt-1","status":"queued","extra":${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}}`,
    );
    try {
      const hostile = testClient({ apiKey: 'mgw_test', baseURL: server.url });
      const task = await within(hostile.videos.retrieve('cgt-1'), 60_000);
      expect(task.status).toBe('queued');
    } finally {
      await server.close();
    }
  }, 90_000);
});
