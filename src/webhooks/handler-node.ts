import { checkDuration } from '../core/options.js';
import {
  createDeliveryProcessor,
  NOT_POST,
  type Reply,
  refusal,
  tooLarge,
  unreadable,
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

/** Options of `createNodeWebhookHandler`: those of both handlers, and the time a body may take. */
export interface NodeWebhookHandlerOptions extends WebhookHandlerOptions {
  /**
   * How long the handler waits for the whole body when it reads the request stream itself,
   * in ms from the start of its reading (1 to 2147483647). A body not received by then is
   * answered 408 and the connection closed: the gateway stops waiting for an answer after
   * 10 s, so a sender that drips its body holds nothing longer. A body parser that ran first
   * (`express.raw()`) reads the body under the server's own timeouts instead.
   * @default 10000
   */
  bodyTimeoutMs?: number | undefined;
}

function send(res: NodeWebhookResponse, { status, body, headers }: Reply): void {
  if (res.headersSent) return;
  res.statusCode = status;
  // A 413 or 408 may go out before the body is read: the connection is closed after it, not reused.
  const all = {
    'content-type': 'application/json',
    ...headers,
    ...(status > 407 && status < 414 && { connection: 'close' }),
  };
  for (const [name, value] of Object.entries(all)) res.setHeader(name, value);
  res.end(JSON.stringify(body));
}

/**
 * Reads the body stream, or the body a parser gave (one chunk). Past `limit` bytes, or once `ms`
 * passed, it answers 413 or 408 at once (the connection then closes) and drains the rest without
 * keeping it, so the sender sees the answer; returns `undefined` then.
 */
async function readStream(
  req: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  limit: number,
  ms: number,
  refuse: (reply: Reply) => void,
) {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let refused: Reply | undefined;
  const stop = (reply: Reply) => {
    if (refused) return;
    refused = reply;
    refuse(reply);
  };
  const timer = setTimeout(stop, ms, refusal(408, 'body_timeout', `body not received in ${ms} ms`));
  try {
    for await (const chunk of req) {
      const bytes = bodyBytes(chunk);
      size += bytes.length;
      if (size > limit) stop(tooLarge(limit));
      if (!refused) chunks.push(bytes);
    }
  } catch (error) {
    // The connection closed after the answer, before the body ended.
    if (!refused) throw error;
  } finally {
    clearTimeout(timer);
  }
  return refused ? undefined : concatBytes(chunks);
}

/**
 * A webhook endpoint for node:http and Express, `(req, res, next?) => void`. Reads the raw
 * body from the request stream, or takes `req.body` when `express.raw()` (a Buffer) or a text
 * parser (a string) ran first; a body already parsed into an object is answered 400 with how
 * to fix the route. Uses `node:crypto`. Answers like `createWebhookHandler`: 200 to a
 * verified challenge or after `onEvent` resolved, 200 for an event already handled, 503 with
 * `Retry-After: 10` for one still being handled by another delivery, 400 when verification
 * fails, 413 over `maxBodyBytes`, 408 for a body it reads itself that has not arrived within
 * `bodyTimeoutMs` (10 s by default; the connection is closed after it), 405 for other methods,
 * 500 when `onEvent` throws. Every refusal goes to `onError` with its reason. An unexpected
 * internal error goes to `next` when given, else to `onError` and is answered 500.
 *
 * @throws {MediaGatewayError} at creation when `secrets` holds no usable secret.
 * @throws {InvalidOptionError} at creation when `onEvent` is not a function, or `toleranceSeconds`,
 * `maxBodyBytes`, `bodyTimeoutMs` or the dedupe store's `maxHoldSeconds` is not a whole number
 * in range.
 * @example
 * // Express: raw bytes for this route only (express.raw's own limit defaults to 100kb)
 * app.post('/webhooks', express.raw({ type: 'application/json', limit: '1mb' }),
 *   createNodeWebhookHandler({ secrets: { [keyId]: secret }, onEvent: (e) => queue.add(e) }));
 * // node:http
 * http.createServer(createNodeWebhookHandler({ secrets, onEvent })).listen(3000);
 */
export function createNodeWebhookHandler(
  options: NodeWebhookHandlerOptions,
): (req: NodeWebhookRequest, res: NodeWebhookResponse, next?: (error?: unknown) => void) => void {
  const core = createDeliveryProcessor(options);
  const ms = checkDuration('bodyTimeoutMs', options.bodyTimeoutMs) ?? 10_000;

  async function run(req: NodeWebhookRequest, res: NodeWebhookResponse): Promise<void> {
    const refuse = (reply: Reply) => send(res, core.refuse(reply));
    if (req.method !== 'POST') return refuse(NOT_POST);
    const given = req.body;
    let source: NodeWebhookRequest | [Uint8Array | string];
    // Given by express.raw() or a text parser: the same limit applies.
    if (typeof given === 'string' || given instanceof Uint8Array) source = [given];
    else if (
      given == null ||
      (typeof given === 'object' && Object.keys(given).length === 0 && req.readableEnded === false)
    ) {
      // No body parser ran (Express 4 sets an empty object without reading the stream).
      source = req;
    } else {
      return refuse(
        unreadable(
          "req.body is parsed: mount express.raw({ type: 'application/json' }) before any express.json()",
        ),
      );
    }
    const body = await readStream(source, core.maxBodyBytes, ms, refuse);
    if (body) send(res, await core.process(verifyWebhook, body, req.headers));
  }

  return (req, res, next) => {
    run(req, res).catch((error: unknown) => {
      if (next) next(error);
      else {
        core.report(error);
        send(res, refusal(500, 'internal_error', 'retry'));
      }
    });
  };
}
