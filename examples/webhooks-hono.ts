/**
 * Receiving the gateway's webhooks with Hono 4 on Node (@hono/node-server), and ending a video
 * wait on the event. The same app runs on Bun, Deno and Workers: the handler uses Web Crypto.
 *
 *   npx tsx examples/webhooks-hono.ts
 *
 * Run directly, it starts a mock gateway and routes the registered HTTPS URL to the local
 * server (a stand-in for a tunnel). In your app, keep `createApp` and call `main` with your gateway.
 */
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { MediaGateway, TaskEventHub } from 'mediagw';
import { mockWebhooks, startMockGateway } from 'mediagw/testing';
import { createWebhookHandler, type HandledWebhookEvent, type WebhookHandlerOptions } from 'mediagw/webhooks';

/** What the receiver needs: the endpoint's secrets by key ID, and where verified events go. */
export type ReceiverOptions = Pick<WebhookHandlerOptions, 'secrets' | 'onEvent'>;

/**
 * The Hono app. The Fetch API handler reads the raw body from `c.req.raw` itself, so nothing
 * may read the body before it (no `c.req.json()` or `c.req.text()` on this route).
 */
export function createApp({ secrets, onEvent }: ReceiverOptions): Hono {
  const handle = createWebhookHandler({ secrets, onEvent });
  const app = new Hono();
  app.post('/webhooks', (c) => handle(c.req.raw));
  app.get('/health', (c) => c.json({ ok: true }));
  return app;
}

/** Options of {@link main}. */
export interface MainOptions {
  baseURL: string;
  apiKey: string;
  /** The public HTTPS URL the gateway delivers to. @default 'https://hooks.example.com/hono' */
  publicUrl?: string;
  /** Connects `publicUrl` to the local server (a tunnel; with the mock, `mockWebhooks(gateway).route`). */
  route?: (publicUrl: string, localUrl: string) => void;
}

/** Registers and verifies a receiver, submits a video that notifies it, and waits on the event. */
export async function main(opts: MainOptions) {
  const client = new MediaGateway({ baseURL: opts.baseURL, apiKey: opts.apiKey });
  const publicUrl = opts.publicUrl ?? 'https://hooks.example.com/hono';

  // 1. Register. The signing secret is returned only now: store it (a secret manager).
  const { endpoint, signing_secret } = await client.webhooks.endpoints.create({ url: publicUrl });

  // 2. Serve the receiver. In production, store the event durably in onEvent; here it is
  //    also handed to a TaskEventHub so a wait in this process ends on it.
  const hub = new TaskEventHub();
  const events: HandledWebhookEvent[] = [];
  const app = createApp({
    secrets: { [endpoint.key_id]: signing_secret },
    onEvent: (event) => {
      events.push(event);
      hub.publish(event);
    },
  });
  const { server, port } = await listen(app);
  try {
    const localUrl = `http://127.0.0.1:${port}/webhooks`;
    opts.route?.(publicUrl, localUrl);

    // 3. Verify: the gateway sends a signed challenge, which the handler answers.
    await client.webhooks.endpoints.verify(endpoint.id);

    // 4. Submit a video that notifies the endpoint, and wait: the event ends the wait (one
    //    confirming query); polling every 60-120 s is only the fallback.
    const { task_id } = await client.videos.create({
      model: 'vidmodel-2.0-mini',
      prompt: 'a paper boat drifting on a pond',
      duration: 5,
      notifications: { webhook: { endpoint_id: endpoint.id, events: ['task.completed', 'task.failed'] } },
      client_reference_id: 'example-hono',
    });
    const task = await client.videos.waitForTask(task_id, { events: hub, model: 'vidmodel-2.0-mini' });
    console.log(`task ${task_id} ${task.status}; events: ${events.map((e) => e.type).join(', ')}`);
    return { endpointId: endpoint.id, taskId: task_id, task, events };
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function listen(app: Hono): Promise<{ server: ReturnType<typeof serve>; port: number }> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve({ server, port: info.port }),
    );
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const gateway = await startMockGateway({ speed: 10 });
  try {
    await main({
      baseURL: gateway.url,
      apiKey: gateway.apiKey,
      route: (publicUrl, localUrl) => mockWebhooks(gateway).route(publicUrl, localUrl),
    });
  } finally {
    await gateway.close();
  }
}
