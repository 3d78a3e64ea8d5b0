// Covers: src/core/errors/transport.ts
import { delay, HttpResponse, http } from 'msw';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { APIUserAbortError, abortedBy } from '../../src/core/errors.js';
import { testClient } from '../helpers/client.js';
import { type MswServer, startMswServer } from '../helpers/msw-server.js';
import { rejection } from '../helpers/rejection.js';

let server: MswServer;
beforeAll(async () => {
  server = await startMswServer(
    http.get('*/v1/videos/:id', async () => {
      await delay(2_000);
      return HttpResponse.json({ id: 'task_1', status: 'queued' });
    }),
  );
});
afterAll(() => server.close());

const client = () => testClient({ apiKey: 'k_abort', baseURL: server.url });

describe('an abort says who aborted and why', () => {
  test.each([
    ['abort() without a reason', (c: AbortController) => c.abort(), '(abort() was called without a reason)'],
    [
      'abort(reason)',
      (c: AbortController) => c.abort(new Error('the user closed the page')),
      'the user closed the page',
    ],
    ['abort with a string', (c: AbortController) => c.abort('shutting down'), ': shutting down'],
  ])('%s', async (_name, abort, reason) => {
    const controller = new AbortController();
    setTimeout(() => abort(controller), 30);
    const error = await rejection(client().videos.retrieve('task_1', { signal: controller.signal }));
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(error.message).toMatch(/^GET \/v1\/videos\/task_1 was aborted by the caller's signal/);
    expect(error.message).toContain(reason);
  });

  test("the signal's own AbortSignal.timeout() is named, not taken for the SDK's timeout", async () => {
    const error = await rejection(client().videos.retrieve('task_1', { signal: AbortSignal.timeout(50) }));
    expect(error.message).toBe(
      "GET /v1/videos/task_1 was aborted by the caller's signal: its AbortSignal.timeout() ran out.",
    );
  });

  test('a call whose signal was aborted before it started says nothing was sent', async () => {
    const error = await rejection(
      client().videos.retrieve('task_1', { signal: AbortSignal.abort('too late') }),
    );
    expect(error.message).toBe(
      "GET /v1/videos/task_1 was not sent: it was aborted before it started, by the caller's signal: too late.",
    );
  });

  test('a wait names its task', async () => {
    const error = await rejection(
      client().videos.waitForTask('task_1', { signal: AbortSignal.abort(new Error('deploy')) }),
    );
    expect(error.message).toBe("The wait for task task_1 was aborted by the caller's signal: Error: deploy.");
  });

  test('a reason that cannot be printed is still described', () => {
    const hostile = {
      toString() {
        throw new Error('no');
      },
    };
    expect(abortedBy(hostile)).toBe("by the caller's signal: [object Object]");
    expect(abortedBy(undefined)).toBe("by the caller's signal");
  });
});

describe('the SDK’s own deadline', () => {
  test('a 50 ms timeout is reported in ms', async () => {
    const error = await rejection(client().videos.retrieve('task_1', { timeout: 50 }));
    expect(error.message).toBe('GET /v1/videos/task_1: no complete answer within 50 ms');
  });
});
