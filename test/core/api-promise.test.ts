// Covers: src/core/api-promise.ts
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { APIPromise } from '../../src/core/api-promise.js';
import { NotFoundError, RequestValidationError } from '../../src/core/errors.js';
import { testClient } from '../helpers/client.js';
import { type MswServer, useMswServer } from '../helpers/msw-server.js';
import { rejection } from '../helpers/rejection.js';

let server: MswServer;
useMswServer((started) => {
  server = started;
});

const client = () => testClient({ apiKey: 'k_raw', baseURL: server.url });
const task = { id: 'task_1', status: 'completed', model: 'vidmodel-2.5' };
const answerTask = () =>
  server.use(
    http.get('*/v1/videos/task_1', () =>
      HttpResponse.json(task, {
        status: 200,
        headers: { 'x-service-request-id': 'req_42', 'x-ratelimit-remaining': '7' },
      }),
    ),
  );

describe('withResponse()', () => {
  test('gives the result with its status, headers and request ID, from one request', async () => {
    answerTask();
    const { data, response, requestId } = await client().videos.retrieve('task_1').withResponse();
    expect(data).toMatchObject(task);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-remaining')).toBe('7');
    expect(requestId).toBe('req_42');
    expect(server.requests).toHaveLength(1);
  });

  test('awaiting and withResponse() on one call share the request', async () => {
    answerTask();
    const call = client().videos.retrieve('task_1');
    const [awaited, raw] = await Promise.all([call, call.withResponse()]);
    expect(raw.data).toBe(awaited);
    expect(server.requests).toHaveLength(1);
  });

  test('gives the mapped result of a call that builds its own (a submission)', async () => {
    server.use(
      http.post('*/v1/videos/generations', () =>
        HttpResponse.json(
          { code: 200, data: [{ status: 'submitted', task_id: 'task_v1' }], error: null },
          { status: 202, headers: { 'x-service-request-id': 'req_sub' } },
        ),
      ),
    );
    const { data, response } = await client()
      .videos.create({ model: 'vidmodel-2.5', prompt: 'a lighthouse' })
      .withResponse();
    expect(data.task_id).toBe('task_v1');
    expect(response.status).toBe(202);
  });

  test('rejects as the call does: an APIError for a refusal, a validation error before sending', async () => {
    server.use(
      http.get('*/v1/videos/task_x', () => HttpResponse.json({ error: { message: 'no' } }, { status: 404 })),
    );
    expect(await rejection(client().videos.retrieve('task_x').withResponse())).toBeInstanceOf(NotFoundError);
    const invalid = client().videos.create({
      model: 'vidmodel-2.0-mini',
      prompt: 'x',
      duration: 20,
    } as never);
    expect(invalid).toBeInstanceOf(APIPromise);
    expect(await rejection(invalid.withResponse())).toBeInstanceOf(RequestValidationError);
    expect(server.requests).toHaveLength(1);
  });
});

describe('asResponse()', () => {
  test('gives the answer as a Response whose body is the text read', async () => {
    answerTask();
    const response = await client().videos.retrieve('task_1').asResponse();
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-service-request-id')).toBe('req_42');
    expect(await response.json()).toEqual(task);
  });
});

describe('APIPromise', () => {
  test('is a Promise whose then() gives plain Promises', async () => {
    answerTask();
    const call = client().videos.retrieve('task_1');
    expect(call).toBeInstanceOf(Promise);
    const next = call.then((t) => t.id);
    expect(next).not.toBeInstanceOf(APIPromise);
    expect(await next).toBe('task_1');
    expect(await call.finally(() => undefined)).toMatchObject(task);
  });
});

describe('list().withResponse()', () => {
  test('gives the first page with its answer, from one request', async () => {
    server.use(
      http.get('*/v1/vidmodel2/private-avatar/groups', () =>
        HttpResponse.json(
          { code: 200, data: { items: [{ id: 'grp_1' }], total: 1, page: 1, limit: 20 } },
          { headers: { 'x-service-request-id': 'req_list' } },
        ),
      ),
    );
    const list = client().library.groups.list();
    const { data: page, response, requestId } = await list.withResponse();
    expect(page.items).toEqual([{ id: 'grp_1' }]);
    expect(response.status).toBe(200);
    expect(requestId).toBe('req_list');
    expect((await list.asResponse()).headers.get('x-service-request-id')).toBe('req_list');
    expect(server.requests).toHaveLength(1);
  });
});
