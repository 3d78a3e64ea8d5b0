import {
  createDeliveryProcessor,
  NOT_POST,
  type Reply,
  refusal,
  tooLarge,
  type WebhookHandlerOptions,
} from './handler-core.js';
import { bodyBytes, concatBytes, type WebhookHeaders } from './signature.js';
import { verifyWebhook } from './verify-node.js';

/** The parts of a node:http `IncomingMessage` (or an Express request) the handler reads. */
export interface NodeWebhookRequest extends AsyncIterable<Uint8Array | string> {
  /** The HTTP method; anything but `POST` is answered 405. */
  method?: string | undefined;
  /** The request headers, read for the `X-Service-*` signature headers. */
  headers: WebhookHeaders;
  /** Set by a body parser: a Buffer from `express.raw()` or a string is used as the raw body. */
  body?: unknown;
  /** `false` while the stream is unread: an empty `body` object then means no parser ran. */
  readableEnded?: boolean | undefined;
}

/** The parts of a node:http `ServerResponse` (or an Express response) the handler writes. */
export interface NodeWebhookResponse {
  /** Set to the answer's status. */
  statusCode: number;
  /** When `true`, the handler writes nothing more. */
  headersSent?: boolean | undefined;
  /** Sets `content-type` (and `allow` or `connection` where needed). */
  setHeader(name: string, value: string): unknown;
  /** Ends the answer with its JSON body. */
  end(body?: string): unknown;
}

const PARSED_HINT = "req.body is parsed: use express.raw({ type: 'application/json' })";

function send(res: NodeWebhookResponse, { status, body, headers }: Reply): void {
  if (res.headersSent) return;
  res.statusCode = status;
  // A 413 may go out before the body is read: the connection is closed after it, not reused.
  const all = {
    'content-type': 'application/json',
    ...headers,
    ...(status === 413 && { connection: 'close' }),
  };
  for (const [name, value] of Object.entries(all)) res.setHeader(name, value);
  res.end(JSON.stringify(body));
}

/**
 * Reads the body stream. Past `limit` it answers 413 at once and drains the rest without
 * keeping it, so the sender sees the answer; returns `undefined` then.
 */
async function readStream(req: NodeWebhookRequest, res: NodeWebhookResponse, limit: number) {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of req) {
    const bytes = bodyBytes(chunk);
    size += bytes.length;
    if (size > limit) {
      if (size - bytes.length <= limit) send(res, tooLarge(limit));
      chunks.length = 0;
      continue;
    }
    chunks.push(bytes);
  }
  return size > limit ? undefined : concatBytes(chunks);
}

/**
 * A webhook endpoint for node:http and Express, `(req, res, next?) => void`. Reads the raw
 * body from the request stream, or takes `req.body` when `express.raw()` (a Buffer) or a text
 * parser (a string) ran first; a body already parsed into an object is answered 400 with how
 * to fix the route. Uses `node:crypto`. Answers like {@link createWebhookHandler}: 200 to a
 * verified challenge or after `onEvent` resolved, 200 for an event already handled, 503 with
 * `Retry-After: 10` for one still being handled by another delivery, 400 when verification
 * fails, 413 over `maxBodyBytes`, 405 for other methods, 500 when `onEvent` throws. An
 * unexpected internal error goes to `next` when given.
 *
 * @throws {MediaGatewayError} at creation when `secrets` holds no usable secret.
 * @throws {InvalidOptionError} at creation when `onEvent` is not a function, or `toleranceSeconds`
 * or `maxBodyBytes` is not a whole number in range.
 * @example
 * // Express: raw bytes for this route only (express.raw's own limit defaults to 100kb)
 * app.post('/webhooks', express.raw({ type: 'application/json', limit: '1mb' }),
 *   createNodeWebhookHandler({ secrets: { [keyId]: secret }, onEvent: (e) => queue.add(e) }));
 * // node:http
 * http.createServer(createNodeWebhookHandler({ secrets, onEvent })).listen(3000);
 */
export function createNodeWebhookHandler(
  options: WebhookHandlerOptions,
): (req: NodeWebhookRequest, res: NodeWebhookResponse, next?: (error?: unknown) => void) => void {
  const core = createDeliveryProcessor(options);
  const limit = core.maxBodyBytes;

  async function run(req: NodeWebhookRequest, res: NodeWebhookResponse): Promise<void> {
    if (req.method !== 'POST') return send(res, NOT_POST);
    const given = req.body;
    let body: Uint8Array | string | undefined;
    if (typeof given === 'string' || given instanceof Uint8Array) {
      body = bodyBytes(given);
      if (body.length > limit) return send(res, tooLarge(limit));
    } else if (
      given == null ||
      (typeof given === 'object' && Object.keys(given).length === 0 && req.readableEnded === false)
    ) {
      // No body parser ran (Express 4 sets an empty object without reading the stream).
      body = await readStream(req, res, limit);
      if (body === undefined) return;
    } else {
      return send(res, refusal(400, 'webhook_verification_failed', PARSED_HINT, 'invalid_body'));
    }
    send(res, await core.process(verifyWebhook, body, req.headers));
  }

  return (req, res, next) => {
    run(req, res).catch((error: unknown) => {
      if (next) next(error);
      else send(res, refusal(500, 'internal_error', 'retry'));
    });
  };
}
