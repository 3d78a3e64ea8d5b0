// Covers: examples/: the webhook examples against the mock gateway
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as expressExample from '../../examples/webhooks-express.js';
import * as fastifyExample from '../../examples/webhooks-fastify.js';
import * as honoExample from '../../examples/webhooks-hono.js';
import { type MockGateway, startMockGateway } from '../../src/testing/index.js';
import { mockWebhooks } from '../../src/testing/state/webhooks/index.js';
import { type HandledWebhookEvent, signWebhook, WEBHOOK_API_VERSION } from '../../src/webhooks/index.js';

const SECRETS = { kid_example: 'whsec_example_secret' };

/** A signed delivery of `event`, as the gateway sends it. */
function delivery(event: Record<string, unknown>, secret = SECRETS.kid_example) {
  const body = JSON.stringify(event);
  return {
    body,
    headers: { ...signWebhook({ body, secret, keyId: 'kid_example' }), 'content-type': 'application/json' },
  };
}

/** The gateway's verification challenge for a new endpoint. */
function challengeEvent(id: string, challenge: string) {
  return {
    id,
    type: 'webhook.endpoint_verification',
    api_version: WEBHOOK_API_VERSION,
    created_at: Math.floor(Date.now() / 1000),
    data: { challenge },
  };
}

function taskEvent(id: string) {
  return {
    id,
    type: 'task.completed',
    api_version: WEBHOOK_API_VERSION,
    created_at: Math.floor(Date.now() / 1000),
    data: {
      task_id: 'cgt-1',
      model: 'vidmodel-2.5',
      kind: 'video',
      status: 'completed',
      result: { outputs: [] },
      error: null,
    },
  };
}

type Served = { url: string; close: () => Promise<void> };

const frameworks: Array<{
  name: string;
  main: typeof expressExample.main;
  serve: (options: expressExample.ReceiverOptions) => Promise<Served>;
}> = [
  {
    name: 'express',
    main: expressExample.main,
    serve: async (options) => {
      const app = expressExample.createApp(options);
      const server = await new Promise<Server>((resolve) => {
        const s = app.listen(0, '127.0.0.1', () => resolve(s));
      });
      return {
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
        close: () => new Promise((resolve) => server.close(() => resolve())),
      };
    },
  },
  {
    name: 'fastify',
    main: fastifyExample.main,
    serve: async (options) => {
      const app = fastifyExample.createApp(options);
      await app.listen({ port: 0, host: '127.0.0.1' });
      return {
        url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/webhooks`,
        close: () => app.close(),
      };
    },
  },
  {
    name: 'hono',
    main: honoExample.main,
    serve: async (options) => {
      const app = honoExample.createApp(options);
      const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>(
        (resolve) => {
          const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
            resolve({ server: s, port: info.port }),
          );
        },
      );
      return {
        url: `http://127.0.0.1:${port}/webhooks`,
        close: () => new Promise((resolve) => server.close(() => resolve())),
      };
    },
  },
];

for (const { name, main, serve: start } of frameworks) {
  describe(`examples/webhooks-${name}.ts`, () => {
    let gateway: MockGateway;
    beforeAll(async () => {
      gateway = await startMockGateway({ speed: 20 });
    });
    afterAll(() => gateway.close());

    test('main(): registers, verifies, and the video wait ends on the delivered event', async () => {
      const webhooks = mockWebhooks(gateway);
      const result = await main({
        baseURL: gateway.url,
        apiKey: gateway.apiKey,
        route: (publicUrl, localUrl) => webhooks.route(publicUrl, localUrl),
      });
      expect(result.task.status).toBe('completed');
      expect(result.events.map((e) => [e.type, (e.data as { task_id?: string }).task_id])).toEqual([
        ['task.completed', result.taskId],
      ]);
      expect(result.events[0]?.data).toMatchObject({ client_reference_id: `example-${name}`, kind: 'video' });
      expect(webhooks.verifications.at(-1)).toMatchObject({ endpointId: result.endpointId, verified: true });
      expect(webhooks.events({ taskId: result.taskId }).map((e) => e.status)).toEqual(['delivered']);
      const taskGets = gateway.requests.filter(
        (r) => r.method === 'GET' && r.path === `/v1/videos/${result.taskId}`,
      );
      expect(taskGets).toHaveLength(1); // only the confirmation after the event
    });

    test('createApp(): answers the challenge, drops duplicates, refuses a bad signature', async () => {
      const events: HandledWebhookEvent[] = [];
      const served = await start({ secrets: SECRETS, onEvent: (event) => void events.push(event) });
      try {
        const post = (d: { body: string; headers: Record<string, string> }) =>
          fetch(served.url, { method: 'POST', body: d.body, headers: d.headers });
        const challenge = await post(delivery(challengeEvent('evt_verify', 'chl_123')));
        expect([challenge.status, await challenge.json()]).toEqual([200, { challenge: 'chl_123' }]);

        const first = await post(delivery(taskEvent('evt_a')));
        const again = await post(delivery(taskEvent('evt_a')));
        expect([first.status, again.status]).toEqual([200, 200]);
        expect(await again.json()).toMatchObject({ duplicate: true });
        expect(events.map((e) => e.id)).toEqual(['evt_a']);

        const forged = await post(delivery(taskEvent('evt_b'), 'whsec_wrong'));
        expect(forged.status).toBe(400);
        expect(await forged.json()).toMatchObject({ error: { type: 'webhook_verification_failed' } });
        const reserialized = delivery(taskEvent('evt_c'));
        const tampered = await post({
          ...reserialized,
          body: JSON.stringify(JSON.parse(reserialized.body), null, 2),
        });
        expect(tampered.status).toBe(400);
        expect(events.map((e) => e.id)).toEqual(['evt_a']);
      } finally {
        await served.close();
      }
    });
  });
}

describe('examples/webhooks-nextjs-route.ts', () => {
  let route: typeof import('../../examples/webhooks-nextjs-route.js');
  beforeAll(async () => {
    process.env.MEDIAGW_WEBHOOK_KEY_ID = 'kid_example';
    process.env.MEDIAGW_WEBHOOK_SECRET = SECRETS.kid_example;
    route = await import('../../examples/webhooks-nextjs-route.js');
  });
  afterAll(() => {
    delete process.env.MEDIAGW_WEBHOOK_KEY_ID;
    delete process.env.MEDIAGW_WEBHOOK_SECRET;
  });

  const request = (d: { body: string; headers: Record<string, string> }) =>
    new Request('https://app.example.com/api/webhooks', { method: 'POST', body: d.body, headers: d.headers });

  test('POST answers the challenge and stores each event once', async () => {
    const challenge = await route.POST(request(delivery(challengeEvent('evt_v', 'chl_next'))));
    expect([challenge.status, await challenge.json()]).toEqual([200, { challenge: 'chl_next' }]);
    const first = await route.POST(request(delivery(taskEvent('evt_next'))));
    const again = await route.POST(request(delivery(taskEvent('evt_next'))));
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(route.receivedEvents.map((e) => e.id)).toEqual(['evt_next']);
  });

  test('POST refuses a bad signature with 400 and other methods with 405', async () => {
    const forged = await route.POST(request(delivery(taskEvent('evt_forged'), 'whsec_wrong')));
    expect(forged.status).toBe(400);
    const get = await route.POST(new Request('https://app.example.com/api/webhooks', { method: 'GET' }));
    expect(get.status).toBe(405);
    expect(route.receivedEvents.map((e) => e.id)).not.toContain('evt_forged');
  });

  test('secretsFromEnv holds the previous pair during a rotation', () => {
    expect(
      route.secretsFromEnv({
        MEDIAGW_WEBHOOK_KEY_ID: 'kid_new',
        MEDIAGW_WEBHOOK_SECRET: 'whsec_new',
        MEDIAGW_WEBHOOK_PREVIOUS_KEY_ID: 'kid_old',
        MEDIAGW_WEBHOOK_PREVIOUS_SECRET: 'whsec_old',
      }),
    ).toEqual({ kid_new: 'whsec_new', kid_old: 'whsec_old' });
  });
});
