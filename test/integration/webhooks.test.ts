// Covers: the client against the mock gateway: webhook endpoints
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { MediaGateway } from '../../src/client.js';
import {
  BadRequestError,
  ConflictError,
  NotFoundError,
  RequestValidationError,
} from '../../src/core/errors.js';
import { MockHttpError } from '../../src/testing/index.js';
import { webhookEndpointCheck } from '../../src/testing/routes/webhook-endpoint-check.js';
import { verifyWebhook } from '../../src/webhooks/index.js';
import { testClient } from '../helpers/client.js';
import { startReceiver } from './webhooks-receiver.js';
import { startRig, videoTask, type WebhookRig } from './webhooks-setup.js';

let rig: WebhookRig;
let other: MediaGateway;

beforeAll(async () => {
  rig = await startRig();
  other = testClient({ apiKey: rig.gateway.account('acct_2').apiKey, baseURL: rig.gateway.url });
});
afterAll(() => rig.close());

const sent = (method: string, path: string) =>
  rig.gateway.requests.filter((r) => r.method === method && r.path.startsWith(path));

describe('endpoints.create', () => {
  test.each([
    ['http://hooks.example.com/x', 'must use https://'],
    ['https://hooks.example.com:8443/x', 'must use port 443'],
    ['https://user:pw@hooks.example.com/x', 'must not hold a user name or password'],
    ['not a url', 'absolute https:// URL'],
  ])('refuses %s before sending (%s)', async (url, rule) => {
    const before = sent('POST', '/v1/webhook-endpoints').length;
    const error = await rig.client.webhooks.endpoints.create({ url }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(String((error as Error).message)).toContain(rule);
    expect(sent('POST', '/v1/webhook-endpoints').length).toBe(before);
  });

  test('registers an endpoint: whep_ id, key ID, a secret shown once, unverified', async () => {
    const created = await rig.client.webhooks.endpoints.create({ url: 'https://hooks.example.com:443/a' });
    expect(created.endpoint.id).toMatch(/^whep_/);
    expect(created.endpoint.key_id).toEqual(expect.any(String));
    expect(created.signing_secret).toMatch(/^whsec_/);
    expect(created.endpoint).toMatchObject({ verified: false, enabled: true });
    expect(JSON.stringify(created.endpoint)).not.toContain(created.signing_secret);
    const wire = sent('POST', '/v1/webhook-endpoints').at(-1);
    expect(wire?.body).toEqual({ url: 'https://hooks.example.com:443/a' });
  });

  test.each([
    'https://127.0.0.1/x',
    'https://localhost/x',
    'https://10.0.0.5/x',
    'https://192.168.1.2/x',
    'https://[::1]/x',
    'https://[::ffff:127.0.0.1]/x',
  ])('refuses the non-public host of %s before sending (public address rule)', async (url) => {
    const before = sent('POST', '/v1/webhook-endpoints').length;
    const error = await rig.client.webhooks.endpoints.create({ url }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues).toEqual([
      { path: 'url', message: expect.stringContaining('must be a public address') },
    ]);
    expect(sent('POST', '/v1/webhook-endpoints').length).toBe(before);
  });

  test('the mock refuses a non-public host sent past the SDK, with the same rule', async () => {
    for (const url of ['https://127.0.0.1/x', 'https://localhost/x', 'https://[::1]/x']) {
      const response = await fetch(`${rig.gateway.url}/v1/webhook-endpoints`, {
        method: 'POST',
        headers: { authorization: `Bearer ${rig.gateway.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url }),
      });
      expect(response.status, url).toBe(400);
      expect(JSON.stringify(await response.json()), url).toContain('must be a public address');
    }
  });
});

describe('endpoints.verify', () => {
  test('sends a signed challenge that the SDK handler answers, and marks the endpoint verified', async () => {
    const verification = rig.webhooks.verifications.find((v) => v.endpointId === rig.endpointId);
    expect(verification).toMatchObject({ verified: true, statusCode: 200 });
    const request = rig.receiver.requests[0];
    const event = verifyWebhook({
      body: request?.body ?? '',
      headers: request?.headers ?? {},
      secrets: { [rig.keyId]: rig.secret },
      now: rig.gateway.clock.nowSeconds(),
    });
    expect(event).toMatchObject({
      type: 'webhook.endpoint_verification',
      api_version: '2026-10-03',
      data: { challenge: verification?.challenge },
    });
    expect(rig.webhooks.endpoints.get(rig.endpointId)?.verified).toBe(true);
  });

  test('a receiver with the wrong secret fails verification: 400, endpoint stays unverified', async () => {
    const created = await other.webhooks.endpoints.create({ url: 'https://hooks.example.com/wrong' });
    const receiver = await startReceiver({ secrets: { [created.endpoint.key_id]: 'whsec_not_it' } });
    try {
      rig.webhooks.route('https://hooks.example.com/wrong', receiver.url);
      const error = await other.webhooks.endpoints.verify(created.endpoint.id).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BadRequestError);
      expect((error as BadRequestError).code).toBe('endpoint_verification_failed');
      expect((error as BadRequestError).message).toContain('answered 400');
      expect(rig.webhooks.endpoints.get(created.endpoint.id)?.verified).toBe(false);
    } finally {
      await receiver.close();
    }
  });

  test('a receiver that does not echo the challenge, or no route at all, fails verification', async () => {
    const created = await other.webhooks.endpoints.create({ url: 'https://hooks.example.com/echo' });
    const error = await other.webhooks.endpoints.verify(created.endpoint.id).catch((e: unknown) => e);
    expect((error as BadRequestError).message).toContain('no local route');
    const receiver = await startReceiver({ secrets: { [created.endpoint.key_id]: created.signing_secret } });
    try {
      rig.webhooks.route('https://hooks.example.com/echo', receiver.url);
      receiver.script.push({ status: 200, body: '{"challenge":"something else"}' });
      const again = await other.webhooks.endpoints.verify(created.endpoint.id).catch((e: unknown) => e);
      expect((again as BadRequestError).message).toContain('did not answer {"challenge"');
    } finally {
      await receiver.close();
    }
  });

  test('a receiver that answers too late fails verification (10 s limit, shortened here)', async () => {
    const created = await other.webhooks.endpoints.create({ url: 'https://hooks.example.com/slow' });
    const receiver = await startReceiver({ secrets: { [created.endpoint.key_id]: created.signing_secret } });
    rig.webhooks.configure({ timeoutMs: 150, headersTimeoutMs: 150 });
    try {
      rig.webhooks.route('https://hooks.example.com/slow', receiver.url);
      receiver.script.push({ status: 200, hang: true });
      const error = await other.webhooks.endpoints.verify(created.endpoint.id).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BadRequestError);
      expect((error as BadRequestError).message).toMatch(/no (response headers|answer) within 150 ms/);
      expect(rig.webhooks.endpoints.get(created.endpoint.id)?.verified).toBe(false);
      // Answered in time, the same endpoint verifies.
      await expect(other.webhooks.endpoints.verify(created.endpoint.id)).resolves.toMatchObject({
        verified: true,
        endpoint: { id: created.endpoint.id, verified: true },
      });
    } finally {
      rig.webhooks.configure({ timeoutMs: 10_000, headersTimeoutMs: 8_000 });
      await receiver.close();
    }
  });

  test("another account's endpoint is not found", async () => {
    await expect(other.webhooks.endpoints.verify(rig.endpointId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(other.webhooks.endpoints.update(rig.endpointId, { enabled: false })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(other.webhooks.endpoints.rotateSecret(rig.endpointId)).rejects.toBeInstanceOf(NotFoundError);
    expect(rig.webhooks.endpoints.get(rig.endpointId)?.enabled).toBe(true);
  });
});

describe('task requests name a verified, enabled, own endpoint', () => {
  const notifications = (endpointId: string) => ({
    webhook: { endpoint_id: endpointId, events: ['task.completed' as const] },
  });

  test('webhookEndpointCheck refuses unknown, foreign, unverified and paused endpoints', async () => {
    const unverified = await rig.client.webhooks.endpoints.create({ url: 'https://hooks.example.com/unv' });
    const check = (account: string, id: string) => () =>
      webhookEndpointCheck(rig.gateway, account, notifications(id));
    expect(check('acct_1', rig.endpointId)).not.toThrow();
    expect(() => webhookEndpointCheck(rig.gateway, 'acct_1', undefined)).not.toThrow();
    expect(() =>
      webhookEndpointCheck(rig.gateway, 'acct_1', JSON.stringify(notifications(rig.endpointId))),
    ).not.toThrow();
    for (const [account, id, why] of [
      ['acct_1', 'whep_missing', 'was not found'],
      ['acct_2', rig.endpointId, 'was not found'],
      ['acct_1', unverified.endpoint.id, 'is not verified'],
    ] as const) {
      const error = (() => {
        try {
          check(account, id)();
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(MockHttpError);
      expect((error as MockHttpError).status).toBe(400);
      expect((error as MockHttpError).body).toMatchObject({ code: 'invalid_request', data: null });
      expect(JSON.stringify((error as MockHttpError).body)).toContain(why);
    }
  });

  test('a video request naming a paused endpoint is rejected before a task exists', async () => {
    await rig.client.webhooks.endpoints.update(rig.endpointId, { enabled: false });
    try {
      const tasksBefore = rig.gateway.tasks.list().length;
      const error = await rig.client.videos
        .create({
          model: 'vidmodel-2.5',
          prompt: 'a lighthouse',
          notifications: notifications(rig.endpointId),
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BadRequestError);
      expect((error as BadRequestError).message).toContain('notifications.webhook.endpoint_id');
      expect((error as BadRequestError).message).toContain('paused');
      expect(rig.gateway.tasks.list().length).toBe(tasksBefore);
    } finally {
      await rig.client.webhooks.endpoints.update(rig.endpointId, { enabled: true });
    }
  });
});

describe('endpoints.update (pause and resume)', () => {
  test('answers the endpoint; `enabled` must be a boolean (checked before sending)', async () => {
    const paused = await rig.client.webhooks.endpoints.update(rig.endpointId, { enabled: false });
    expect(paused.endpoint).toMatchObject({ id: rig.endpointId, enabled: false, paused_reason: 'request' });
    const resumed = await rig.client.webhooks.endpoints.update(rig.endpointId, { enabled: true });
    expect(resumed.endpoint).toMatchObject({ enabled: true, verified: true, paused_reason: null });
    await expect(
      rig.client.webhooks.endpoints.update(rig.endpointId, { enabled: 'false' as unknown as boolean }),
    ).rejects.toBeInstanceOf(RequestValidationError);
  });

  test('events of a paused endpoint wait, and are delivered on resume within their window', async () => {
    await rig.client.webhooks.endpoints.update(rig.endpointId, { enabled: false });
    const task = videoTask(rig);
    rig.gateway.tasks.finishNow(task.id);
    await rig.webhooks.flush();
    const [event] = rig.webhooks.events({ taskId: task.id });
    expect(event?.status).toBe('paused');
    expect(event?.attempts).toHaveLength(0);
    await rig.client.webhooks.endpoints.update(rig.endpointId, { enabled: true });
    await rig.webhooks.flush();
    expect(event?.status).toBe('delivered');
    expect(rig.receiver.events.map((e) => e.id)).toContain(event?.id);
  });

  test('a paused event whose 72-hour window has passed is not continued on resume', async () => {
    await rig.client.webhooks.endpoints.update(rig.endpointId, { enabled: false });
    const task = videoTask(rig);
    rig.gateway.tasks.finishNow(task.id);
    await rig.webhooks.flush();
    await rig.gateway.clock.advance(72 * 3_600_000 + 1_000);
    await rig.client.webhooks.endpoints.update(rig.endpointId, { enabled: true });
    await rig.webhooks.flush();
    const [event] = rig.webhooks.events({ taskId: task.id });
    expect(event?.status).toBe('exhausted');
    expect(event?.attempts).toHaveLength(0);
  });
});

describe('endpoint limit', () => {
  test('an account holds at most 20 endpoints', async () => {
    const owned = [...rig.webhooks.endpoints.values()].filter((e) => e.account === 'acct_1').length;
    for (let i = owned; i < 20; i++) {
      await rig.client.webhooks.endpoints.create({ url: `https://hooks.example.com/fill-${i}` });
    }
    const error = await rig.client.webhooks.endpoints
      .create({ url: 'https://hooks.example.com/one-too-many' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).code).toBe('endpoint_limit_reached');
    // Another account has its own quota.
    const theirs = await other.webhooks.endpoints.create({ url: 'https://hooks.example.com/theirs' });
    expect(theirs.endpoint.id).toMatch(/^whep_/);
  });
});
