/**
 * A Next.js App Router route handler that receives the gateway's webhooks. Save it as
 * `app/api/webhooks/route.ts` and set `MEDIAGW_WEBHOOK_KEY_ID` and `MEDIAGW_WEBHOOK_SECRET`
 * (from `client.webhooks.endpoints.create`). During a secret rotation also set
 * `MEDIAGW_WEBHOOK_PREVIOUS_KEY_ID` and `MEDIAGW_WEBHOOK_PREVIOUS_SECRET` for 24 hours.
 *
 * The handler reads the raw body from the `Request` itself and uses Web Crypto only, so the
 * route runs on the Node.js and the Edge runtime alike.
 *
 * Outside Next.js, run it to post one signed test event to the route and print the answer:
 *
 *   MEDIAGW_WEBHOOK_KEY_ID=kid_try MEDIAGW_WEBHOOK_SECRET=whsec_try npx tsx examples/webhooks-nextjs-route.ts
 */
import {
  createWebhookHandler,
  type HandledWebhookEvent,
  signWebhookAsync,
  WEBHOOK_API_VERSION,
  type WebhookHandlerOptions,
} from 'mediagw/webhooks';

/** What the route needs: the endpoint's secrets by key ID, and where verified events go. */
export type ReceiverOptions = Pick<WebhookHandlerOptions, 'secrets' | 'onEvent'>;

/** Builds the route handler: `(req: Request) => Promise<Response>`. */
export function createRoute({ secrets, onEvent }: ReceiverOptions): (req: Request) => Promise<Response> {
  return createWebhookHandler({ secrets, onEvent });
}

/** The current pair, and the previous one while a rotation is in progress. */
export function secretsFromEnv(
  env: Record<string, string | undefined> = process.env,
): Record<string, string> {
  const secrets: Record<string, string> = {};
  if (env.MEDIAGW_WEBHOOK_KEY_ID && env.MEDIAGW_WEBHOOK_SECRET) {
    secrets[env.MEDIAGW_WEBHOOK_KEY_ID] = env.MEDIAGW_WEBHOOK_SECRET;
  }
  if (env.MEDIAGW_WEBHOOK_PREVIOUS_KEY_ID && env.MEDIAGW_WEBHOOK_PREVIOUS_SECRET) {
    secrets[env.MEDIAGW_WEBHOOK_PREVIOUS_KEY_ID] = env.MEDIAGW_WEBHOOK_PREVIOUS_SECRET;
  }
  return secrets;
}

/**
 * Where this example keeps events: replace with a table or a queue. Store, answer, and do slow
 * work (downloads) elsewhere: the gateway waits at most 10 seconds for the 2xx.
 */
export const receivedEvents: HandledWebhookEvent[] = [];

async function saveEvent(event: HandledWebhookEvent): Promise<void> {
  receivedEvents.push(event); // e.g. await db.webhookEvents.insert({ id: event.id, payload: event })
}

/** `POST /api/webhooks`. Fails at import when no secret is configured. */
export const POST = createRoute({ secrets: secretsFromEnv(), onEvent: saveEvent });

/**
 * Posts one signed `task.completed` event to the route, as the gateway would, and prints the
 * answer. signWebhookAsync uses Web Crypto, so the route stays edge-safe.
 */
async function tryRoute(): Promise<number> {
  const [keyId, secret] = Object.entries(secretsFromEnv())[0] ?? [];
  const body = JSON.stringify({
    id: 'evt_try_1',
    type: 'task.completed',
    api_version: WEBHOOK_API_VERSION,
    created_at: Math.floor(Date.now() / 1000),
    data: { task_id: 'cgt-try', model: 'vidmodel-2.5', kind: 'video', status: 'completed', error: null },
  });
  const headers = await signWebhookAsync({ body, secret: secret ?? '', keyId: keyId ?? '' });
  const answer = await POST(
    new Request('http://localhost:3000/api/webhooks', {
      method: 'POST',
      body,
      headers: { ...headers, 'content-type': 'application/json' },
    }),
  );
  console.log(
    `POST /api/webhooks answered ${answer.status}; stored: ${receivedEvents.map((e) => e.id).join(', ')}`,
  );
  return answer.status;
}

// Run directly (not under Next.js, where the module is bundled and `import.meta.filename` is not
// the command's file). No top-level await, so the route module stays synchronous.
if (import.meta.filename !== undefined && import.meta.filename === globalThis.process?.argv?.[1]) {
  tryRoute().then(
    (status) => {
      if (status !== 200) process.exitCode = 1;
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
