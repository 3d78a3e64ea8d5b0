// Covers: the client against the mock gateway: upload progress
/**
 * `onProgress` of uploads and image edits against the mock gateway: the bytes sent, rising to
 * the body's length, throttled; a callback that throws never changes the call.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest';
import {
  fileFromPath,
  InvalidOptionError,
  type MediaGateway,
  type UploadOptions,
  type UploadProgress,
} from '../../src/index.js';
import { pngImage } from '../../src/testing/index.js';
import { testClient } from '../helpers/client.js';
import { warningsDuring } from '../helpers/process-warnings.js';
import { rejection } from '../helpers/rejection.js';
import { throwingThenable, unhandledRejectionsDuring } from '../helpers/unhandled-rejections.js';
import { apiRequests, writePaddedFile } from './images-helpers.js';
import { mockGatewayClient } from './mock-client.js';

const MiB = 1024 * 1024;
const { gateway, client, agent } = await mockGatewayClient({ maxRetries: 2 });
const dir = await mkdtemp(join(tmpdir(), 'mediagw-upload-progress-'));
const bigPng = join(dir, 'big.png');
await writePaddedFile(bigPng, pngImage({ seed: 3 }), 4 * MiB);
afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(() => {
  vi.restoreAllMocks();
});

/** The body length the gateway received for the one request of `method path`. */
function received(method: string, path: string): number {
  const requests = apiRequests(gateway, method, path);
  expect(requests).toHaveLength(1);
  return Number(requests[0]?.headers['content-length']);
}

const operations = [
  {
    name: 'uploads.image',
    method: 'POST',
    path: '/v1/uploads/images',
    call: async (c: MediaGateway, options?: UploadOptions) =>
      c.uploads.image(await fileFromPath(bigPng), options),
  },
  {
    name: 'images.edit',
    method: 'POST',
    path: '/v1/images/edits',
    call: async (c: MediaGateway, options?: UploadOptions) =>
      c.images.edit(
        { model: 'imgmodel-2', prompt: 'night', image: [await fileFromPath(bigPng), pngImage({ seed: 4 })] },
        options,
      ),
  },
  {
    name: 'images.editAsync',
    method: 'POST',
    path: '/v1/images/edits/async',
    call: async (c: MediaGateway, options?: UploadOptions) =>
      c.images.editAsync({ model: 'imgmodel-2', prompt: 'snow', image: await fileFromPath(bigPng) }, options),
  },
];

describe.each(operations)('$name with onProgress', ({ method, path, call }) => {
  test('reports rising byte counts that end at the Content-Length the gateway received', async () => {
    const calls: UploadProgress[] = [];
    await call(client, { onProgress: (p) => void calls.push(p) });
    const length = received(method, path);
    expect(length).toBeGreaterThan(4 * MiB);
    expect(calls.length).toBeGreaterThanOrEqual(2);
    const bytes = calls.map((c) => c.bytes);
    expect(bytes).toEqual([...bytes].sort((a, b) => a - b));
    expect(new Set(bytes).size).toBe(bytes.length);
    expect(calls.at(-1)).toEqual({ bytes: length, total: length });
    expect(calls.every((c) => c.total === length)).toBe(true);
  });

  test('with the clock standing still, it is called twice however many chunks: the first and the last', async () => {
    // The throttle reads performance.now(): frozen, no 100 ms ever passes after the first call.
    vi.spyOn(performance, 'now').mockReturnValue(1_000);
    const calls: number[] = [];
    await call(client, { onProgress: (p) => void calls.push(p.bytes) });
    const length = received(method, path);
    expect(calls).toHaveLength(2);
    expect(calls[0]).toBeLessThan(length);
    expect(calls[1]).toBe(length);
  });

  test.each([
    ['a string', 'progress'],
    ['an object', { onProgress: () => undefined }],
  ])('an onProgress that is %s is refused before anything is sent', async (_name, onProgress) => {
    const error = await rejection(call(client, { onProgress: onProgress as unknown as () => void }));
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(error).toMatchObject({ option: 'onProgress' });
    expect(apiRequests(gateway, method, path)).toHaveLength(0);
  });

  /** A client of the mock that logs at warn, and the lines it logged. */
  const loggingClient = () => {
    const warnings: string[] = [];
    const logged = testClient({
      ...gateway.clientOptions(),
      dispatcher: agent,
      logger: { warn: (message: string) => void warnings.push(message) },
      logLevel: 'warn',
      maxRetries: 2,
    });
    return { warnings, logged };
  };

  test('an onProgress that throws changes nothing: sent once, answered, the failure logged at warn', async () => {
    const { warnings, logged } = loggingClient();
    let calls = 0;
    const result = await call(logged, {
      onProgress: () => {
        calls++;
        throw new Error('the bar is gone');
      },
    });
    expect(result).toBeTruthy();
    expect(calls).toBe(1);
    received(method, path);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/onProgress threw \(Error: the bar is gone\); the request went on/);
  });

  test('an onProgress whose promise rejects changes nothing: sent once, answered, logged at warn, nothing left unhandled', async () => {
    const { warnings, logged } = loggingClient();
    let result: unknown;
    const unhandled = await unhandledRejectionsDuring(async () => {
      result = await call(logged, {
        onProgress: async () => {
          throw new Error('metrics sink down');
        },
      });
    });
    expect(unhandled).toEqual([]);
    expect(result).toBeTruthy();
    received(method, path);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/onProgress threw \(Error: metrics sink down\); the request went on/);
  });
});

test('without a logger, a throwing onProgress is a process warning', async () => {
  const emitted = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  await client.uploads.image(pngImage({ seed: 5 }), {
    onProgress: () => {
      throw new Error('nope');
    },
  });
  expect(emitted).toHaveBeenCalledTimes(1);
  expect(emitted.mock.calls[0]?.[0]).toMatch(/^uploads\.image: onProgress threw \(Error: nope\)/);
  expect(emitted.mock.calls[0]?.[1]).toEqual({ code: 'MEDIAGW_PROGRESS_CALLBACK_FAILED' });
});

test('without a logger, an onProgress returning a thenable whose then throws is a process warning', async () => {
  const warnings = await warningsDuring(() =>
    client.uploads.image(pngImage({ seed: 5 }), {
      onProgress: () => throwingThenable(new Error('not a real promise')),
    }),
  );
  const progress = warnings.filter(
    (w) => (w as { code?: string }).code === 'MEDIAGW_PROGRESS_CALLBACK_FAILED',
  );
  expect(progress.map((w) => w.message)).toEqual([
    expect.stringMatching(/^uploads\.image: onProgress threw \(Error: not a real promise\)/),
  ]);
});

test('a stream of unknown length reports total undefined and its bytes to the end', async () => {
  const bytes = pngImage({ seed: 6 });
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes.subarray(0, 100));
      controller.enqueue(bytes.subarray(100));
      controller.close();
    },
  });
  const calls: UploadProgress[] = [];
  await client.uploads.image(stream, { onProgress: (p) => void calls.push(p) });
  // The same bytes as a Buffer: the same parts and a boundary of the same length, a known length.
  await client.uploads.image(bytes);
  const [streamed, sized] = apiRequests(gateway, 'POST', '/v1/uploads/images');
  expect(streamed?.headers['content-length']).toBeUndefined();
  expect(calls.every((c) => c.total === undefined)).toBe(true);
  expect(calls.at(-1)?.bytes).toBe(Number(sized?.headers['content-length']));
});

test('a retried upload reports its body again from 0', async () => {
  // A 429 proves the upload was not taken: the SDK sends it again.
  gateway.inject({
    match: { method: 'POST', path: '/v1/uploads/images' },
    times: 1,
    fault: { status: 429, headers: { 'Retry-After': '0' } },
  });
  vi.spyOn(performance, 'now').mockReturnValue(1_000);
  const calls: number[] = [];
  await client.uploads.image(pngImage({ seed: 7 }), { onProgress: (p) => void calls.push(p.bytes) });
  const sent = apiRequests(gateway, 'POST', '/v1/uploads/images');
  expect(sent).toHaveLength(2);
  const length = Number(sent[1]?.headers['content-length']);
  expect(calls.filter((b) => b === length)).toHaveLength(2);
  expect(calls.at(-1)).toBe(length);
  expect(calls.indexOf(length)).toBeLessThan(calls.length - 1);
});
