// Covers: src/internal/fetch-send.ts
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { HttpResponse, http } from 'msw';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { MediaGateway } from '../../src/client.js';
import {
  AmbiguousSubmissionError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  InternalServerError,
  NotFoundError,
  ResponseTooLargeError,
} from '../../src/core/errors.js';
import { InvalidOptionError } from '../../src/core/options.js';
import { runtimeFetch } from '../../src/internal/fetch-send.js';
import { CROSS_ORIGIN_HEADERS } from '../../src/internal/redirects.js';
import type { FetchInit, FetchLike } from '../../src/internal/request-spec.js';
import { type MockGateway, startMockGateway } from '../../src/testing/index.js';
import { mp4Video, pngImage } from '../../src/testing/state/media.js';
import { testClient } from '../helpers/client.js';
import { type MswServer, useMswServer } from '../helpers/msw-server.js';
import { refusedPort, startRawServer } from '../helpers/raw-server.js';
import { rejection } from '../helpers/rejection.js';

const KEY = 'mgw_test_fetch_key_0123456789';

/** A fetch over globalThis.fetch that records each call's URL and init. */
function recordingFetch() {
  const calls: Array<{ url: string; init: FetchInit }> = [];
  const fetch: FetchLike = (url, init) => {
    calls.push({ url, init });
    return globalThis.fetch(url, init);
  };
  return { calls, fetch };
}

let server: MswServer;
useMswServer((started) => {
  server = started;
});

describe('options', () => {
  test('fetch and dispatcher together are refused, naming both', () => {
    const error = rejectionSync(() =>
      testClient({
        apiKey: KEY,
        baseURL: server.url,
        fetch: globalThis.fetch,
        dispatcher: new Agent(),
        maxRetries: 2,
      }),
    );
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(error.option).toBe('fetch');
    expect(error.message).toMatch(/left out when `dispatcher` is given/);
  });

  test.each([
    ['a string', 'fetch'],
    ['an object', { fetch: () => undefined }],
    ['null', null],
  ])('a fetch that is %s is refused', (_name, value) => {
    const error = rejectionSync(() =>
      testClient({ apiKey: KEY, baseURL: server.url, fetch: value as unknown as FetchLike, maxRetries: 2 }),
    );
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(error.message).toMatch(/^fetch must be a function called as fetch\(url, init\)/);
  });

  test('a fetch or a dispatcher alone is taken; withOptions swaps one for the other', async () => {
    server.use(http.get('*/v1/videos/:id', ({ params }) => HttpResponse.json({ id: params.id })));
    const agent = new Agent();
    const viaAgent = testClient({ apiKey: KEY, baseURL: server.url, dispatcher: agent });
    const { calls, fetch } = recordingFetch();
    const viaFetch = viaAgent.withOptions({ fetch });
    expect((await viaFetch.videos.retrieve('t1')).id).toBe('t1');
    expect(calls.map((c) => c.url)).toEqual([`${server.url}/v1/videos/t1`]);
    // And back: a dispatcher given to a client with a fetch replaces it.
    const back = viaFetch.withOptions({ dispatcher: agent });
    expect((await back.videos.retrieve('t2')).id).toBe('t2');
    expect(calls).toHaveLength(1);
    // Another option alone keeps the fetch.
    await viaFetch.withOptions({ timeout: 5_000 }).videos.retrieve('t3');
    expect(calls).toHaveLength(2);
    await agent.close();
  });
});

function rejectionSync(fn: () => unknown): InvalidOptionError {
  try {
    fn();
  } catch (error) {
    return error as InvalidOptionError;
  }
  throw new Error('expected a throw');
}

describe('JSON calls through fetch', () => {
  test('sends the key and JSON, with manual redirects and an AbortSignal; answers with the request ID', async () => {
    server.use(
      http.post('*/v1/embeddings', async ({ request }) =>
        HttpResponse.json(
          { object: 'list', data: [], model: 'bge-m3', echo: await request.json() },
          { headers: { 'x-service-request-id': 'req_fetch_1' } },
        ),
      ),
    );
    const { calls, fetch } = recordingFetch();
    const client = testClient({ apiKey: KEY, baseURL: server.url, fetch });
    const { data, response, requestId } = await client.embeddings
      .create({ model: 'bge-m3', input: 'hi' })
      .withResponse();
    expect(data.model).toBe('bge-m3');
    expect(requestId).toBe('req_fetch_1');
    expect(response.headers.get('x-service-request-id')).toBe('req_fetch_1');
    expect(JSON.parse(server.requests[0]?.body.toString() ?? '')).toEqual({ model: 'bge-m3', input: 'hi' });
    const [call] = calls;
    expect(call?.init).toMatchObject({ method: 'POST', redirect: 'manual' });
    expect(call?.init.signal).toBeInstanceOf(AbortSignal);
    expect(typeof call?.init.body).toBe('string');
    const [seen] = server.requests;
    expect(seen?.headers.get('authorization')).toBe(`Bearer ${KEY}`);
    expect(seen?.headers.get('content-type')).toBe('application/json');
  });

  test('a repeated answer header is joined with ", " as undici gives it', async () => {
    const raw = await startRawServer((_req, res) => {
      res.setHeader('x-multi', ['a', 'b']);
      res.setHeader('content-type', 'application/json');
      res.end('{"id":"t1"}');
    });
    const client = testClient({ apiKey: KEY, baseURL: raw.url, fetch: globalThis.fetch });
    const { response } = await client.videos.retrieve('t1').withResponse();
    expect(response.headers.get('x-multi')).toBe('a, b');
    await raw.close();
  });

  test.each([
    [404, NotFoundError],
    [500, InternalServerError],
  ])(
    'a %i answer is its APIError subclass, with the gateway message and request ID',
    async (status, Class) => {
      server.use(
        http.get('*/v1/videos/:id', () =>
          HttpResponse.json(
            { error: { code: 'x', message: `gateway said ${status}`, type: 'error' } },
            { status, headers: { 'x-service-request-id': `req_${status}` } },
          ),
        ),
      );
      const client = testClient({ apiKey: KEY, baseURL: server.url, fetch: globalThis.fetch });
      const error = await rejection(client.videos.retrieve('t1'));
      expect(error).toBeInstanceOf(Class);
      expect(error.message).toContain(`gateway said ${status}`);
      expect((error as InstanceType<typeof Class>).requestId).toBe(`req_${status}`);
    },
  );
});

describe('failures through fetch', () => {
  test('a refused connection is APIConnectionError; nothing was sent, so a submission is retried', async () => {
    const port = await refusedPort();
    let calls = 0;
    const client = testClient({
      apiKey: KEY,
      baseURL: `http://127.0.0.1:${port}`,
      maxRetries: 1,
      fetch: (url, init) => {
        calls += 1;
        return globalThis.fetch(url, init);
      },
    });
    const error = await rejection(client.videos.create({ model: 'vidmodel-2.0-mini', prompt: 'a kite' }));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).not.toBeInstanceOf(AmbiguousSubmissionError);
    expect(error.message).toMatch(/could not connect \(ECONNREFUSED\)/);
    expect(calls).toBe(2);
  });

  test('a fetch failing without a code on a submission is ambiguous, and never sent twice', async () => {
    let calls = 0;
    const client = testClient({
      apiKey: KEY,
      baseURL: server.url,
      maxRetries: 2,
      fetch: async () => {
        calls += 1;
        throw new TypeError('fetch failed');
      },
    });
    const error = await rejection(client.videos.create({ model: 'vidmodel-2.0-mini', prompt: 'a kite' }));
    expect(error).toBeInstanceOf(AmbiguousSubmissionError);
    expect(error.cause).toBeInstanceOf(APIConnectionError);
    expect(calls).toBe(1);
  });

  test('an answer that never comes ends at the timeout with APIConnectionTimeoutError', async () => {
    const raw = await startRawServer(() => undefined);
    const client = testClient({ apiKey: KEY, baseURL: raw.url, fetch: globalThis.fetch });
    const error = await rejection(client.videos.retrieve('t1', { timeout: 200 }));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error.message).toBe('GET /v1/videos/t1: no complete answer within 200 ms');
    expect(raw.received).toHaveLength(1);
    await raw.close();
  });

  test("the caller's abort while waiting is APIUserAbortError with the reason as cause", async () => {
    const controller = new AbortController();
    const reason = new Error('navigated away');
    const raw = await startRawServer(() => controller.abort(reason));
    const client = testClient({ apiKey: KEY, baseURL: raw.url, fetch: globalThis.fetch });
    const error = await rejection(client.videos.retrieve('t1', { signal: controller.signal }));
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(error.cause).toBe(reason);
    await raw.close();
  });

  test('a body that stops halfway through a JSON answer ends at the timeout too', async () => {
    const raw = await startRawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":');
    });
    const client = testClient({ apiKey: KEY, baseURL: raw.url, fetch: globalThis.fetch });
    const error = await rejection(client.videos.retrieve('t1', { timeout: 300 }));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    await raw.close();
  });

  describe('a fetch that does not heed its signal still ends with the deadline', () => {
    /** An async iterable that yields one byte per 20 ms, at most 500 times, whatever is aborted. */
    async function* drip() {
      yield new TextEncoder().encode('{"id":"t1","pad":"');
      for (let i = 0; i < 500; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        yield new TextEncoder().encode('x');
      }
      yield new TextEncoder().encode('"}');
    }
    const answer = () =>
      ({
        status: 200,
        type: 'basic',
        headers: new Headers({ 'content-type': 'application/json' }),
        body: drip(),
      }) as unknown as Response;
    const deaf = (respond: () => Promise<Response>) =>
      testClient({ apiKey: KEY, baseURL: 'http://127.0.0.1:1', fetch: respond as never });

    test('an answer that never comes: APIConnectionTimeoutError at the timeout', async () => {
      const error = await rejection(
        deaf(() => new Promise(() => {})).videos.retrieve('t1', { timeout: 200 }),
      );
      expect(error).toBeInstanceOf(APIConnectionTimeoutError);
      expect(error.message).toMatch(/no complete answer within 200 ms/);
    });

    test('a body that drips on for 10 s: APIConnectionTimeoutError at the timeout', async () => {
      const error = await rejection(deaf(async () => answer()).videos.retrieve('t1', { timeout: 200 }));
      expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    });

    test('a submission whose answer never comes is ambiguous, sent once', async () => {
      let calls = 0;
      const client = deaf(() => {
        calls++;
        return new Promise(() => {});
      });
      const error = await rejection(
        client.videos.create({ model: 'vidmodel-2.0-mini', prompt: 'a kite', duration: 5 }, { timeout: 200 }),
      );
      expect(error).toBeInstanceOf(AmbiguousSubmissionError);
      expect(calls).toBe(1);
    });

    test("the caller's abort ends a fetch that never answers", async () => {
      const controller = new AbortController();
      const call = rejection(
        deaf(() => new Promise(() => {})).videos.retrieve('t1', { signal: controller.signal }),
      );
      setTimeout(() => controller.abort(new Error('user left')), 20);
      const error = await call;
      expect(error).toBeInstanceOf(APIUserAbortError);
    });
  });
});

describe('a streamed answer through fetch', () => {
  test('a download whose body pauses longer than the timeout ends with APIConnectionTimeoutError', async () => {
    const raw = await startRawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': '1000' });
      res.write(Buffer.alloc(10));
    });
    const client = testClient({ apiKey: KEY, baseURL: raw.url, fetch: globalThis.fetch });
    const download = await client.videos.downloadContent('t1', { timeout: 300 });
    const error = await rejection(download.arrayBuffer());
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error.message).toBe("GET /v1/videos/t1/content: the answer's body sent nothing for 300 ms");
    await raw.close();
  });
});

describe('runtimeFetch, where undici does not run', () => {
  test('is the global fetch; with a dispatcher it refuses, saying to pass fetch', () => {
    expect(runtimeFetch(undefined)).toBe(globalThis.fetch);
    const error = rejectionSync(() => runtimeFetch(new Agent()));
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(error.option).toBe('dispatcher');
    expect(error.message).toMatch(/pass `fetch` instead/);
  });

  test('with a proxy it refuses rather than send past it, its password not shown', () => {
    const error = rejectionSync(() => runtimeFetch(undefined, 'http://alice:hunter2@proxy.internal:3128'));
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(error.option).toBe('proxy');
    expect(error.message).not.toContain('hunter2');
    expect(JSON.stringify(error)).not.toContain('hunter2');
  });
});

describe('maxResponseBytes through fetch', () => {
  const big = JSON.stringify({ id: 't1', pad: 'x'.repeat(2_000) });

  test('a declared length over the limit is refused before reading', async () => {
    server.use(
      http.get('*/v1/videos/:id', () =>
        HttpResponse.text(big, { headers: { 'content-type': 'application/json' } }),
      ),
    );
    const client = testClient({
      apiKey: KEY,
      baseURL: server.url,
      maxResponseBytes: 1_000,
      fetch: globalThis.fetch,
    });
    const error = await rejection(client.videos.retrieve('t1'));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error.message).toMatch(/a body of \d+ bytes, over maxResponseBytes \(1000\)/);
  });

  test('a body of unknown length is cut off once past the limit; one within it is read', async () => {
    const raw = await startRawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      // Chunked: no content-length.
      for (let i = 0; i < big.length; i += 500) res.write(big.slice(i, i + 500));
      res.end();
    });
    const options = { apiKey: KEY, baseURL: raw.url, fetch: globalThis.fetch };
    const error = await rejection(testClient({ ...options, maxResponseBytes: 1_000 }).videos.retrieve('t1'));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error.message).toMatch(/more than 1000 bytes/);
    const task = await testClient({ ...options, maxResponseBytes: 4_000 }).videos.retrieve('t1');
    expect(task.id).toBe('t1');
    await raw.close();
  });

  test('a gzip body is counted as decoded: past the limit once inflated, within it if not', async () => {
    // 8 KiB on the wire, 8 MiB once the fetch has undone the gzip.
    const inflated = Buffer.alloc(8 * 1024 * 1024, 0x20);
    inflated.write('{"id":"t1"', 0);
    inflated.write('}', inflated.length - 1);
    const bodies = { big: gzipSync(inflated), small: gzipSync(JSON.stringify({ id: 't2' })) };
    const raw = await startRawServer((req, res) => {
      const body = req.url?.endsWith('t2') ? bodies.small : bodies.big;
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': body.length,
      });
      res.end(body);
    });
    const client = testClient({
      apiKey: KEY,
      baseURL: raw.url,
      maxResponseBytes: 64 * 1024,
      fetch: globalThis.fetch,
    });
    const error = await rejection(client.videos.retrieve('t1'));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error.message).toMatch(/more than 65536 bytes, over maxResponseBytes \(65536\)/);
    expect((await client.videos.retrieve('t2')).id).toBe('t2');
    await raw.close();
  });
});

describe('a gzip-encoded download through fetch', () => {
  test('has no contentLength (the header counts the encoded bytes), and saves whole', async () => {
    const plain = Buffer.alloc(50_000, 7);
    const encoded = gzipSync(plain);
    const raw = await startRawServer((_req, res) => {
      res.writeHead(200, {
        'content-type': 'video/mp4',
        'content-encoding': 'gzip',
        'content-length': encoded.length,
      });
      res.end(encoded);
    });
    const client = fetchClient(raw.url);
    const download = await client.videos.downloadContent('t1');
    expect(download.contentLength).toBeUndefined();
    expect(Buffer.from(await download.arrayBuffer()).equals(plain)).toBe(true);
    const dir = await mkdtemp(join(tmpdir(), 'mediagw-gzip-'));
    try {
      const saved = await (await client.videos.downloadContent('t1')).saveTo(join(dir, 'out.mp4'));
      expect(saved.bytes).toBe(plain.length);
    } finally {
      await rm(dir, { recursive: true, force: true });
      await raw.close();
    }
  });

  test('an identity download keeps its contentLength', async () => {
    const plain = Buffer.alloc(5_000, 7);
    const raw = await startRawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': plain.length }).end(plain);
    });
    const download = await fetchClient(raw.url).videos.downloadContent('t1');
    expect(download.contentLength).toBe(plain.length);
    expect((await download.arrayBuffer()).byteLength).toBe(plain.length);
    await raw.close();
  });
});

describe('redirects through fetch', () => {
  test('a fetch that hides redirects (an opaque answer) is refused with what to do', async () => {
    const client = testClient({
      apiKey: KEY,
      baseURL: 'https://gateway.test',
      fetch: async () => ({ status: 0, type: 'opaqueredirect', headers: new Headers(), body: null }),
    });
    const error = await rejection(client.videos.downloadContent('task_1'));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.message).toMatch(/hid a redirect .* redirect: 'manual'/);
  });
});

describe('against the mock gateway through fetch', () => {
  let gateway: MockGateway;
  let dir: string;
  beforeAll(async () => {
    gateway = await startMockGateway({ clock: 'manual' });
    dir = await mkdtemp(join(tmpdir(), 'mediagw-fetch-'));
  });
  afterAll(async () => {
    await gateway.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('a download follows the redirect to the media origin with only the allowed headers, and saves', async () => {
    const { calls, fetch } = recordingFetch();
    const client = testClient({ gateway, fetch, defaultHeaders: { 'x-team': 'kites' } });
    const { task_id } = await client.videos.create({ model: 'vidmodel-2.5', prompt: 'a lantern festival' });
    await gateway.clock.advance(10_000);
    gateway.resetRequests();
    calls.length = 0;
    const download = await client.videos.downloadContent(task_id, { headers: { 'x-call': 'one' } });
    expect(download.contentType).toBe('video/mp4');
    const target = join(dir, 'video.mp4');
    const saved = await download.saveTo(target);
    expect(saved.bytes).toBe(mp4Video().length);
    expect(await readFile(target)).toEqual(mp4Video());

    const [api, media] = gateway.requests;
    expect([api?.origin, api?.status, media?.origin, media?.status]).toEqual(['api', 302, 'media', 200]);
    expect(api?.headers).toMatchObject({ 'x-team': 'kites', 'x-call': 'one' });
    expect(api?.headers.authorization).toMatch(/^Bearer /);
    expect(calls).toHaveLength(2);
    expect(
      Object.keys(calls[1]?.init.headers ?? {}).every((h) =>
        (CROSS_ORIGIN_HEADERS as readonly string[]).includes(h),
      ),
    ).toBe(true);
    for (const name of ['authorization', 'x-team', 'x-call']) expect(media?.headers).not.toHaveProperty(name);
  });

  test('a multipart upload reaches fetch as a ReadableStream pulled in chunks, never one buffer', async () => {
    const sizes: number[] = [];
    const client = testClient({
      gateway,
      // Reads the body the SDK gives chunk by chunk, then sends the same bytes on.
      fetch: async (url, init) => {
        expect(init.body).toBeInstanceOf(ReadableStream);
        expect(init.duplex).toBe('half');
        const chunks: Uint8Array[] = [];
        const reader = (init.body as ReadableStream<Uint8Array>).getReader();
        for (let next = await reader.read(); !next.done; next = await reader.read()) {
          sizes.push(next.value.byteLength);
          chunks.push(next.value);
        }
        const { duplex: _, ...rest } = init;
        return globalThis.fetch(url, { ...rest, body: new Blob(chunks as BlobPart[]) });
      },
    });
    const png = pngImage({ width: 512, height: 512 });
    expect(png.length).toBeGreaterThan(64 * 1024);
    gateway.resetRequests();
    const uploaded = await client.uploads.image(png);
    expect(uploaded.url).toMatch(/^https?:\/\//);
    expect(sizes.length).toBeGreaterThan(2);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(64 * 1024);
    const [request] = gateway.requests;
    const file = request?.parts?.find((p) => p.name === 'file');
    expect(file?.size).toBe(png.length);
    expect(request?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
  });

  test('a 503 is retried through the same fetch, and hooks and logs see each attempt', async () => {
    const { calls, fetch } = recordingFetch();
    const lines: string[] = [];
    const statuses: number[] = [];
    const client = testClient({
      gateway,
      maxRetries: 1,
      fetch,
      logger: {
        debug: (message: string) => lines.push(message),
        warn: (message: string) => lines.push(message),
      },
      logLevel: 'debug',
      hooks: { onResponse: (info) => statuses.push(info.status) },
    });
    gateway.inject({
      match: { method: 'POST', path: '/v1/embeddings' },
      times: 1,
      fault: { status: 503, headers: { 'Retry-After': '0' } },
    });
    const answer = await client.embeddings.create({ model: 'bge-m3', input: 'again' });
    expect(answer.data).toHaveLength(1);
    expect(calls).toHaveLength(2);
    expect(statuses).toEqual([503, 200]);
    expect(lines.filter((line) => line.startsWith('← '))).toEqual([
      `← 503 POST ${gateway.url}/v1/embeddings`,
      `← 200 POST ${gateway.url}/v1/embeddings`,
    ]);
    expect(lines.some((line) => /retry 1 in 0 ms/.test(line))).toBe(true);
  });

  test('a multipart upload through globalThis.fetch arrives whole', async () => {
    const client = testClient({ gateway, fetch: globalThis.fetch });
    const png = pngImage({ seed: 9 });
    gateway.resetRequests();
    const edited = await client.images.edit({ model: 'imgmodel-2', prompt: 'at night', image: png });
    expect(edited.data).toHaveLength(1);
    const file = gateway.requests[0]?.parts?.find((p) => p.name === 'image');
    expect(file?.size).toBe(png.length);
  });
});

describe('undici is never loaded on the fetch path', () => {
  test('a child process with undici trapped runs calls, an upload, fileFromURL and a download through a counting fetch', async () => {
    const gateway = await startMockGateway({ clock: 'real', speed: 1000 });
    try {
      const here = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', '--import', here('register-deny-undici.mjs'), here('fetch-without-undici.ts')],
        {
          encoding: 'utf8',
          timeout: 60_000,
          env: { ...process.env, MOCK_URL: gateway.url, MOCK_KEY: gateway.apiKey },
        },
      );
      const out = JSON.parse(stdout);
      expect(out).toMatchObject({
        embeddings: 1,
        task: 'completed',
        uploaded: 'string',
        fetchedBytes: pngImage({ seed: 3 }).length,
        savedBytes: mp4Video().length,
        undiciLoaded: false,
        trapped: true,
      });
      expect(out.urls[0]).toBe('POST /v1/embeddings');
      expect(out.urls).toContain('POST /v1/uploads/images');
      // The gateway saw each request the wrapper did (the media origin's too).
      expect(out.urls.length).toBe(gateway.requests.length);
    } finally {
      await gateway.close();
    }
  });
});

/** A client that sends through the runtime's fetch, without retries. */
function fetchClient(baseURL: string): MediaGateway {
  return testClient({ apiKey: KEY, baseURL, fetch: globalThis.fetch });
}
