import {
  createDeliveryProcessor,
  NOT_POST,
  type Reply,
  tooLarge,
  type WebhookHandlerOptions,
} from './handler-core.js';
import { concatBytes } from './signature.js';
import { verifyWebhookAsync } from './verify-web.js';

// Response.json sets `content-type: application/json`.
const json = ({ body, ...init }: Reply) => Response.json(body, init);

/** Reads a request body up to `limit` bytes; `undefined` when it is larger. */
async function readLimited(req: Request, limit: number): Promise<Uint8Array | undefined> {
  if (Number(req.headers.get('content-length')) > limit) return undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  // A Web stream is async iterable in every server runtime (DOM's types do not say so yet);
  // leaving the loop early cancels it.
  for await (const chunk of (req.body ?? []) as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > limit) return undefined;
    chunks.push(chunk);
  }
  return concatBytes(chunks);
}

/**
 * A Fetch API webhook endpoint, `(req: Request) => Promise<Response>`, for Next.js route
 * handlers, Hono, Bun, Deno and Workers. Uses Web Crypto only. Answers:
 * - 200 `{"challenge": ...}` to a verified `webhook.endpoint_verification`;
 * - 200 after `onEvent` resolved, or at once for an event ID already handled;
 * - 503 with `Retry-After: 10` for an event ID another delivery is handling now (sharing the
 *   `dedupe` store), so the gateway retries soon; never 2xx before `onEvent` completed;
 * - 400 when verification fails (never 2xx, never 410, so the gateway retries and does not pause),
 *   a Request whose body the route read first included (`onError` is told, reason `invalid_body`);
 * - 413 for a body over `maxBodyBytes`; 405 for a method other than POST;
 * - 500 when `onEvent` or the dedupe store throws: the event ID is forgotten and the gateway retries.
 *
 * @throws {MediaGatewayError} at creation when `secrets` holds no usable secret.
 * @throws {InvalidOptionError} at creation when `onEvent` is not a function, or `toleranceSeconds`,
 * `maxBodyBytes` or the dedupe store's `maxHoldSeconds` is not a whole number in range.
 * @example
 * // app/api/webhooks/route.ts
 * export const POST = createWebhookHandler({
 *   secrets: { [process.env.MEDIAGW_WEBHOOK_KEY_ID!]: process.env.MEDIAGW_WEBHOOK_SECRET! },
 *   onEvent: async (event) => { await db.events.insert(event); },
 * });
 */
export function createWebhookHandler(options: WebhookHandlerOptions): (req: Request) => Promise<Response> {
  const core = createDeliveryProcessor(options);
  const limit = core.maxBodyBytes;
  return async (req) => {
    if (req.method !== 'POST') return json(core.refuse(NOT_POST));
    // Read by the route first (`await req.json()`), its stream cannot be read again: the verifier
    // refuses the missing body as it refuses a parsed one (invalid_body, told to onError).
    const body = req.bodyUsed ? null : await readLimited(req, limit);
    if (body === undefined) return json(core.refuse(tooLarge(limit)));
    return json(await core.process(verifyWebhookAsync, body as Uint8Array, req.headers));
  };
}
