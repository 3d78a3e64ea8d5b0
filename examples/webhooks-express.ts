/**
 * Receiving the gateway's webhooks with Express 5, and ending a video wait on the event.
 *
 *   npx tsx examples/webhooks-express.ts
 *
 * Run directly, it starts a mock gateway and routes the registered HTTPS URL to the local
 * server (a stand-in for a tunnel). In your app, keep `createApp` and call `main` with your gateway.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import express from 'express';
import { MediaGateway, TaskEventHub } from 'mediagw';
import { mockWebhooks, startMockGateway } from 'mediagw/testing';
import {
  createNodeWebhookHandler,
  type HandledWebhookEvent,
  type WebhookHandlerOptions,
} from 'mediagw/webhooks';

/** What the receiver needs: the endpoint's secrets by key ID, and where verified events go. */
export type ReceiverOptions = Pick<WebhookHandlerOptions, 'secrets' | 'onEvent'>;

/**
 * The Express app. The webhook route gets the raw bytes from `express.raw()` (the signature
 * covers them exactly); a JSON parser for other routes is mounted after it.
 */
export function createApp({ secrets, onEvent }: ReceiverOptions): express.Express {
  const app = express();
  app.post(
    '/webhooks',
    express.raw({ type: 'application/json', limit: '1mb' }),
    createNodeWebhookHandler({ secrets, onEvent }),
  );
  app.use(express.json());
  app.get('/health', (_req, res) => {
    res.json({ ok: true });
  });
  return app;
}

/** Options of {@link main}. */
export interface MainOptions {
  baseURL: string;
  apiKey: string;
  /** The public HTTPS URL the gateway delivers to. @default 'https://hooks.example.com/express' */
  publicUrl?: string;
  /** Connects `publicUrl` to the local server (a tunnel; with the mock, `mockWebhooks(gateway).route`). */
  route?: (publicUrl: string, localUrl: string) => void;
}

/** Registers and verifies a receiver, submits a video that notifies it, and waits on the event. */
export async function main(opts: MainOptions) {
  const client = new MediaGateway({ baseURL: opts.baseURL, apiKey: opts.apiKey });
  const publicUrl = opts.publicUrl ?? 'https://hooks.example.com/express';

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
  const server = await listen(app);
  try {
    const localUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
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
      client_reference_id: 'example-express',
    });
    const task = await client.videos.waitForTask(task_id, { events: hub, model: 'vidmodel-2.0-mini' });
    console.log(`task ${task_id} ${task.status}; events: ${events.map((e) => e.type).join(', ')}`);
    return { endpointId: endpoint.id, taskId: task_id, task, events };
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function listen(app: express.Express): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(0, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve(server)));
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
