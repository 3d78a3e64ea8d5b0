// Covers: src/testing/state/accounts.ts
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  type MockGateway,
  MockHttpError,
  startMockGateway,
  validationError,
} from '../../src/testing/index.js';
import { api, createAgent } from './helpers.js';

const agent = createAgent();
let gateway: MockGateway;

beforeAll(async () => {
  gateway = await startMockGateway({ clock: 'manual' });
  gateway.router
    .add('POST', '/v1/test/models', async (ctx) => {
      const { model } = ctx.body as { model?: unknown };
      ctx.requireModel(model);
      await ctx.json(200, { ok: true, account: ctx.account.id });
    })
    .add('GET', '/v1/test/tasks/:id', async (ctx) => {
      const task = ctx.gateway.tasks.getFor(ctx.account.id, ctx.params.id);
      if (!task) throw MockHttpError.notFound(`task ${ctx.params.id}`);
      await ctx.json(200, { id: task.id, status: ctx.gateway.tasks.state(task).status });
    })
    .add('GET', '/v1/test/tasks/special', (ctx) => ctx.json(200, { literal: true }))
    .add('GET', '/v1/test/public', (ctx) => ctx.json(200, { public: true }), { auth: false })
    .add('POST', '/v1/test/validate', async (ctx) => {
      const body = ctx.validate(
        z.looseObject({ duration: z.number().int().min(4, 'duration: must be an integer from 4 to 15') }),
      );
      await ctx.json(200, body);
    })
    .add('GET', '/v1/test/boom', () => {
      throw new Error('kaput');
    })
    .add('GET', '/v1/test/silent', () => undefined);
});
afterAll(async () => {
  await gateway.close();
  await agent.close();
});

const specError = (code: string) => ({ code, message: expect.any(String), data: null });

describe('authentication (spec: Authentication, Errors)', () => {
  test.each([
    ['no Authorization header', {}, 'unauthorized'],
    ['a key the gateway does not know', { authorization: 'Bearer mgw_test_not_a_key' }, 'invalid_api_key'],
    ['a scheme other than Bearer', { authorization: `Basic ${'x'.repeat(20)}` }, 'unauthorized'],
  ])('%s gives 401 in the spec shape', async (_name, headers, code) => {
    const reply = await api(agent, gateway, 'POST', '/v1/test/models', {
      headers,
      body: { model: 'imgmodel-2' },
    });
    expect(reply.status).toBe(401);
    expect(reply.json()).toEqual(specError(code));
    expect(reply.headers['x-service-request-id']).toMatch(/^req_\d+$/);
  });

  test('each account key is accepted and identifies its account', async () => {
    for (const account of gateway.accounts) {
      const reply = await api(agent, gateway, 'POST', '/v1/test/models', {
        key: account.apiKey,
        body: { model: 'vidmodel-2.5' },
      });
      expect(reply.json()).toEqual({ ok: true, account: account.id });
    }
    expect(gateway.accounts.map((a) => a.id)).toEqual(['acct_1', 'acct_2']);
    expect(gateway.apiKey).toBe(gateway.account('acct_1').apiKey);
    expect(gateway.apiKey).not.toBe(gateway.account('acct_2').apiKey);
  });

  test('a restricted key may use its models and gets 403 model_not_allowed for others', async () => {
    const { restrictedKey, restrictedModels } = gateway.account('acct_1');
    expect(restrictedModels).toEqual(['vidmodel-2.0-mini', 'imgmodel-2']);
    const allowed = await api(agent, gateway, 'POST', '/v1/test/models', {
      key: restrictedKey,
      body: { model: 'imgmodel-2' },
    });
    expect(allowed.json()).toEqual({ ok: true, account: 'acct_1' });
    const denied = await api(agent, gateway, 'POST', '/v1/test/models', {
      key: restrictedKey,
      body: { model: 'vidmodel-2.5' },
    });
    expect(denied.status).toBe(403);
    expect(denied.json()).toEqual(specError('model_not_allowed'));
  });

  test('a route with auth: false answers without a key', async () => {
    const reply = await api(agent, gateway, 'GET', '/v1/test/public');
    expect(reply).toMatchObject({ status: 200 });
    expect(reply.json()).toEqual({ public: true });
  });
});

describe('scoping', () => {
  test("another account's task is 404, its own is found", async () => {
    const task = gateway.tasks.create({ account: 'acct_1', kind: 'video', model: 'vidmodel-2.0-mini' });
    const own = await api(agent, gateway, 'GET', `/v1/test/tasks/${task.id}`, {
      key: gateway.account('acct_1').apiKey,
    });
    expect(own.status).toBe(200);
    expect(own.json()).toEqual({ id: task.id, status: 'queued' });
    const foreign = await api(agent, gateway, 'GET', `/v1/test/tasks/${task.id}`, {
      key: gateway.account('acct_2').apiKey,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.json()).toEqual({ code: 'not_found', message: `task ${task.id} not found`, data: null });
  });
});

describe('routing and error shapes', () => {
  const key = () => gateway.apiKey;

  test('an unknown path is 404 and a known path with another method is 405, both in the spec shape', async () => {
    const missing = await api(agent, gateway, 'GET', '/v1/v1/test/public', { key: key() });
    expect(missing.status).toBe(404);
    expect(missing.json()).toEqual(specError('not_found'));
    const wrongMethod = await api(agent, gateway, 'DELETE', '/v1/test/public', { key: key() });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.allow).toBe('GET');
  });

  test('a literal segment wins over a parameter', async () => {
    const reply = await api(agent, gateway, 'GET', '/v1/test/tasks/special', { key: key() });
    expect(reply.json()).toEqual({ literal: true });
  });

  test('invalid JSON is 400 invalid_request', async () => {
    const reply = await api(agent, gateway, 'POST', '/v1/test/models', {
      key: key(),
      body: '{"model":',
      headers: { 'content-type': 'application/json' },
    });
    expect(reply.status).toBe(400);
    expect(reply.json()).toEqual({
      code: 'invalid_request',
      message: 'the request body is not valid JSON',
      data: null,
    });
  });

  test('ctx.validate answers 400 invalid_request naming the field once', async () => {
    const reply = await api(agent, gateway, 'POST', '/v1/test/validate', {
      key: key(),
      body: { duration: 2 },
    });
    expect(reply.status).toBe(400);
    expect(reply.json()).toEqual({
      code: 'invalid_request',
      message: 'duration: must be an integer from 4 to 15',
      data: null,
    });
    const ok = await api(agent, gateway, 'POST', '/v1/test/validate', {
      key: key(),
      body: { duration: 5, extra: 1 },
    });
    expect(ok.json()).toEqual({ duration: 5, extra: 1 });
  });

  test('a route that throws is 500 internal_error and the log keeps the message', async () => {
    const reply = await api(agent, gateway, 'GET', '/v1/test/boom', { key: key() });
    expect(reply.status).toBe(500);
    expect(reply.json()).toEqual({
      code: 'internal_error',
      message: 'mock gateway error: kaput',
      data: null,
    });
    expect(gateway.requests.at(-1)).toMatchObject({ path: '/v1/test/boom', status: 500, error: 'kaput' });
  });

  test('a route that does not answer is 500, not a hang', async () => {
    const reply = await api(agent, gateway, 'GET', '/v1/test/silent', { key: key() });
    expect(reply.status).toBe(500);
  });

  test('request IDs are distinct and increasing', async () => {
    const a = await api(agent, gateway, 'GET', '/v1/test/public');
    const b = await api(agent, gateway, 'GET', '/v1/test/public');
    const n = (id: string | undefined) => Number(id?.slice(4));
    expect(n(b.headers['x-service-request-id'])).toBe(n(a.headers['x-service-request-id']) + 1);
  });
});

describe('accounts option', () => {
  test('custom accounts and keys are used as given; a restricted model list gets its own key', async () => {
    const custom = await startMockGateway({
      accounts: [
        { id: 'acct_a', apiKey: 'mgw_custom_key_a_0001' },
        { id: 'acct_b', restrictedModels: ['bge-m3'] },
      ],
    });
    try {
      expect(custom.apiKey).toBe('mgw_custom_key_a_0001');
      const b = custom.account('acct_b');
      expect(b.apiKey).toMatch(/^mgw_test_[0-9a-f]{32}$/);
      expect(b.restrictedKey).toMatch(/^mgw_test_/);
      expect(() => custom.account('acct_c')).toThrow(/no mock account acct_c/);
      custom.router.add('GET', '/v1/who', (ctx) => ctx.json(200, { id: ctx.account.id }));
      const reply = await api(agent, custom, 'GET', '/v1/who', { key: b.restrictedKey });
      expect(reply.json()).toEqual({ id: 'acct_b' });
    } finally {
      await custom.close();
    }
  });

  test('duplicate account IDs or keys are refused at start', async () => {
    await expect(startMockGateway({ accounts: [{ id: 'x' }, { id: 'x' }] })).rejects.toThrow(/duplicate/);
    await expect(
      startMockGateway({
        accounts: [
          { id: 'x', apiKey: 'same_key_123' },
          { id: 'y', apiKey: 'same_key_123' },
        ],
      }),
    ).rejects.toThrow(/equal/);
  });
});

describe('validationError', () => {
  test('joins issues as "path: rule" and does not repeat a path the rule already names', () => {
    const error = validationError([
      { path: 'duration', message: 'duration: must be an integer from 4 to 15' },
      { path: 'image_with_roles[1].role', message: 'must be first_frame, last_frame or reference_image' },
      { path: '', message: 'image_urls and image_with_roles cannot be combined' },
    ]);
    expect(error.status).toBe(400);
    expect(error.body).toEqual({
      code: 'invalid_request',
      message:
        'duration: must be an integer from 4 to 15; image_with_roles[1].role: must be first_frame, last_frame or reference_image; image_urls and image_with_roles cannot be combined',
      data: null,
    });
  });
});
