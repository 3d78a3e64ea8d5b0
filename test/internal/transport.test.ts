// Covers: src/internal/transport.ts
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import type { MediaGateway } from '../../src/client.js';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ContentModerationError,
  InternalServerError,
  InvalidResponseError,
  MediaExpiredError,
  MediaLibraryError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
} from '../../src/core/errors.js';
import type { RequestSpec } from '../../src/internal/request-spec.js';
import { VERSION } from '../../src/version.js';
import { testClient } from '../helpers/client.js';
import { type MswServer, useMswServer } from '../helpers/msw-server.js';
import { rejection } from '../helpers/rejection.js';

const KEY = 'mgw_test_transport_key_0123456789';
let server: MswServer;
useMswServer((started) => {
  server = started;
});

const transportFor = (
  baseURL = server.url,
  extra: Partial<ConstructorParameters<typeof MediaGateway>[0]> = {},
) => testClient({ apiKey: KEY, baseURL, ...extra })._transport;

const spec = (overrides: Partial<RequestSpec> = {}): RequestSpec => ({
  method: 'GET',
  path: '/videos/task_1',
  retry: 'safe',
  timeout: 5_000,
  ...overrides,
});

describe('request shape', () => {
  test('sends the key, the user agent and JSON with its content type', async () => {
    server.use(
      http.post('*/v1/embeddings', async ({ request }) => HttpResponse.json({ echo: await request.json() })),
    );
    const result = await transportFor().json<{ echo: unknown }>(
      spec({ method: 'POST', path: '/embeddings', body: { model: 'bge-m3', input: 'hi' } }),
    );
    expect(result.echo).toEqual({ model: 'bge-m3', input: 'hi' });
    const [seen] = server.requests;
    expect(seen?.headers.get('authorization')).toBe(`Bearer ${KEY}`);
    expect(seen?.headers.get('content-type')).toBe('application/json');
    expect(seen?.headers.get('user-agent')).toBe(`mediagw/${VERSION} node/${process.version}`);
    expect(JSON.parse(seen?.body.toString() ?? '')).toEqual({ model: 'bge-m3', input: 'hi' });
  });

  test.each(['', '/', '/v1', '/v1/'])('base URL form "%s" sends /v1 once', async (suffix) => {
    server.use(http.get('*/v1/videos/:id', ({ params }) => HttpResponse.json({ id: params.id })));
    await transportFor(`${server.url}${suffix}`).json(spec());
    expect(server.requests[0]?.url.pathname).toBe('/v1/videos/task_1');
  });

  test.each(['/gw', '/gw/', '/gw/v1'])('a base URL path prefix "%s" comes before /v1', async (prefix) => {
    server.use(http.get('*/gw/v1/videos/:id', ({ params }) => HttpResponse.json({ id: params.id })));
    const result = await transportFor(`${server.url}${prefix}`).json<{ id: string }>(
      spec({ path: '/videos/a%2Fb', query: { model: 'x y', skip: undefined } }),
    );
    expect(result.id).toBe('a/b');
    expect(server.requests[0]?.url.pathname).toBe('/gw/v1/videos/a%2Fb');
    expect(server.requests[0]?.url.search).toBe('?model=x+y');
  });

  test('answers a JSON call with the request ID beside the body', async () => {
    server.use(
      http.get('*/v1/videos/:id', () =>
        HttpResponse.json({ id: 'task_1' }, { headers: { 'X-Service-Request-Id': 'req_7' } }),
      ),
    );
    const answer = await transportFor().answer<{ id: string }>(spec());
    expect(answer).toMatchObject({
      body: { id: 'task_1' },
      requestId: 'req_7',
      status: 200,
      text: '{"id":"task_1"}',
    });
    expect(Object.getOwnPropertyNames(answer.body)).toEqual(['id']);
  });

  test('default, per-call and removed headers', async () => {
    server.use(http.get('*/v1/videos/:id', () => HttpResponse.json({})));
    const transport = transportFor(server.url, { defaultHeaders: { 'x-team': 'a', 'x-drop': '1' } });
    await transport.json(spec({ options: { headers: { 'x-call': 'b', 'x-drop': null } } }));
    const headers = server.requests[0]?.headers;
    expect(headers?.get('x-team')).toBe('a');
    expect(headers?.get('x-call')).toBe('b');
    expect(headers?.has('x-drop')).toBe(false);
  });

  test('keeps X-Service-Request-Id on the result, not enumerable', async () => {
    server.use(
      http.get('*/v1/videos/:id', () =>
        HttpResponse.json({ id: 'task_1' }, { headers: { 'X-Service-Request-Id': 'req_42' } }),
      ),
    );
    const result = await transportFor().json<{ id: string; _requestId?: string }>(spec());
    expect(result._requestId).toBe('req_42');
    expect(Object.keys(result)).toEqual(['id']);
  });

  test('a non-JSON 200 body is a clear InvalidResponseError', async () => {
    server.use(http.get('*/v1/videos/:id', () => new HttpResponse('<html>oops</html>', { status: 200 })));
    const error = await rejection(transportFor().json(spec()));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.message).toMatch(/not JSON: <html>oops/);
  });

  test.each([['[1,2]'], ['null'], ['"task"'], ['7']])(
    'a 200 whose JSON is %s, not an object, is an InvalidResponseError',
    async (body) => {
      server.use(http.get('*/v1/videos/:id', () => new HttpResponse(body, { status: 200 })));
      const error = await rejection(transportFor().json(spec()));
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect(error.message).toMatch(/with JSON that is not an object/);
    },
  );
});

describe('error mapping', () => {
  test.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [410, MediaExpiredError],
    [413, PayloadTooLargeError],
    [429, RateLimitError],
    [500, InternalServerError],
    [502, InternalServerError],
    [503, InternalServerError],
  ])('%i → %o with code, message and request ID', async (status, cls) => {
    server.use(
      http.get('*/v1/videos/:id', () =>
        HttpResponse.json(
          { code: 'some_code', message: 'some message', data: null },
          { status, headers: { 'X-Service-Request-Id': `req_${status}` } },
        ),
      ),
    );
    const error = await rejection(transportFor().json(spec()));
    expect(error).toBeInstanceOf(cls);
    expect(error).toMatchObject({ status, code: 'some_code', requestId: `req_${status}` });
    expect(error.message).toContain('GET /v1/videos/task_1');
    expect(error.message).toContain('some message');
  });

  test.each([
    [
      'parameter validation',
      { code: 'invalid_request', message: 'bad ratio', data: null },
      BadRequestError,
      'invalid_request',
    ],
    [
      'moderation',
      { code: 'nsfw_content_detected', message: 'flagged: violence', data: null },
      ContentModerationError,
      'nsfw_content_detected',
    ],
    [
      'library',
      { error: { message: 'invalid_asset_material assets[0]', type: 'media_library_error' } },
      MediaLibraryError,
      'media_library_error',
    ],
    ['anything else', { detail: 'weird' }, BadRequestError, undefined],
  ])('400 body shape: %s', async (_name, body, cls, code) => {
    server.use(http.post('*/v1/videos/generations', () => HttpResponse.json(body, { status: 400 })));
    const error = await rejection(
      transportFor().json(spec({ method: 'POST', path: '/videos/generations', body: {}, retry: 'billable' })),
    );
    expect(error).toBeInstanceOf(cls);
    expect(error.code).toBe(code);
    expect(error.body).toEqual(body);
  });

  test('a non-JSON error body is kept as text', async () => {
    server.use(http.get('*/v1/videos/:id', () => new HttpResponse('upstream down', { status: 502 })));
    const error = await rejection(transportFor().json(spec()));
    expect(error).toBeInstanceOf(APIError);
    expect(error.body).toBe('upstream down');
  });
});
