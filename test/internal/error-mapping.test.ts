// Covers: src/internal/error-mapping.ts
/**
 * What a failure of the client's own `fetch` becomes: an SDK error that names what the fetch did
 * (threw, rejected, resolved something that is not a Response), ambiguous for a billable
 * submission, and told apart from a network failure seen through it.
 */
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { AmbiguousSubmissionError, APIConnectionError } from '../../src/core/errors.js';
import type { FetchLike } from '../../src/internal/request-spec.js';
import { testClient } from '../helpers/client.js';
import { rejection } from '../helpers/rejection.js';
import { throwingThenable } from '../helpers/unhandled-rejections.js';

const KEY = 'mgw_test_error_mapping_key_0123';
const kite = { model: 'vidmodel-2.0-mini', prompt: 'a red kite', duration: 5 } as const;

/** A client whose every request goes to `fetch`, counting the calls; no network is touched. */
function clientWith(fetch: (...args: Parameters<FetchLike>) => unknown) {
  const state = { calls: 0 };
  const client = testClient({
    apiKey: KEY,
    baseURL: 'http://127.0.0.1:9',
    maxRetries: 2,
    fetch: ((url, init) => {
      state.calls += 1;
      return fetch(url, init);
    }) as FetchLike,
  });
  return { client, state };
}

const syncBoom = new TypeError('sync fetch boom');
const cases: Array<[string, () => unknown, string, unknown]> = [
  [
    'throws at once',
    () => {
      throw syncBoom;
    },
    'the fetch given failed: TypeError: sync fetch boom',
    syncBoom,
  ],
  [
    'rejects with a string',
    async () => Promise.reject('just a string'),
    'the fetch given failed: just a string',
    'just a string',
  ],
  [
    'returns a thenable whose then throws',
    () => throwingThenable(new Error('then boom')),
    'the fetch given failed: Error: then boom',
    expect.any(Error),
  ],
  [
    'resolves undefined',
    async () => undefined,
    'the fetch given resolved undefined, not a Response',
    undefined,
  ],
  ['resolves a number', async () => 200, 'the fetch given resolved a number, not a Response', undefined],
  [
    'resolves an answer without headers',
    async () => ({ status: 200, body: null }),
    'the fetch given resolved an object without headers to read (a Headers, with forEach), not a Response',
    undefined,
  ],
  [
    'resolves an answer whose status is not a number',
    async () => ({ status: 'abc', headers: new Headers(), body: null }),
    'the fetch given resolved an object without a whole-number status, not a Response',
    undefined,
  ],
];

describe('a fetch that fails', () => {
  test.each(cases)('(%s): a query is APIConnectionError saying so', async (_name, fetch, said, cause) => {
    const { client } = clientWith(fetch);
    const error = await rejection(client.videos.retrieve('task_1', { maxRetries: 0 }));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.message).toBe(`GET /v1/videos/task_1: ${said}`);
    expect(error.cause).toEqual(cause);
  });

  test.each(cases)(
    '(%s): a billable submission is ambiguous, says so, and is sent once',
    async (_name, fetch, said) => {
      const { client, state } = clientWith(fetch);
      const error = await rejection(client.videos.create(kite));
      expect(error).toBeInstanceOf(AmbiguousSubmissionError);
      expect(error.message).toBe(
        `POST /v1/videos/generations was sent but its outcome is unknown (${said}). The task may exist and be billed: ` +
          'check your tasks (or the client_reference_id you sent) before submitting again.',
      );
      expect(error.cause).toBeInstanceOf(APIConnectionError);
      expect(state.calls).toBe(1);
    },
  );

  test('a network failure seen through the fetch is named with its code', async () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    const { client } = clientWith(async () => {
      throw new TypeError('fetch failed', { cause: reset });
    });
    const error = await rejection(client.videos.retrieve('task_1', { maxRetries: 0 }));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.message).toBe(
      'GET /v1/videos/task_1: the fetch given failed: TypeError: fetch failed (ECONNRESET)',
    );
  });
});

describe('a fetch that answers', () => {
  test.each([
    ['a web stream', () => new Response('{"id":"task_1"}').body],
    ['an async iterable (a Node stream)', () => Readable.from([Buffer.from('{"id":"task_1"}')])],
  ])('with a plain object whose body is %s is taken as a Response', async (_name, body) => {
    const { client, state } = clientWith(async () => ({
      status: 200,
      headers: new Headers({ 'content-type': 'application/json', 'x-service-request-id': 'req_1' }),
      body: body(),
    }));
    const task = await client.videos.retrieve('task_1');
    expect(task.id).toBe('task_1');
    expect(state.calls).toBe(1);
  });

  test('with a 404 and no body: the gateway refused, not the fetch failed', async () => {
    const { client } = clientWith(async () => new Response(null, { status: 404 }));
    const error = await rejection(client.videos.retrieve('task_1'));
    expect(error.status).toBe(404);
    expect(error.message).not.toMatch(/fetch given/);
  });
});
