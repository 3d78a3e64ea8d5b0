/**
 * One HTTP POST of a signed delivery to a receiver, with the gateway's limits: the one sender of
 * the mock gateway's deliveries and challenges and of `mediagw webhooks send`.
 * spec: Events 5 and 7 — 10 s in total, answer included; headers within 8 s; redirects not followed.
 */
import { type Dispatcher, request } from 'undici';
import { checkOptions, count, duration, InvalidOptionError } from '../../../core/options.js';
import { DELIVERY_HEADERS_TIMEOUT_MS, DELIVERY_TIMEOUT_MS } from './schedule.js';

/**
 * What a delivery request got.
 *
 * @inline
 */
export interface PostOutcome {
  /** HTTP status, once the answer's headers came; `undefined` when they did not. */
  statusCode: number | undefined;
  /** The same status, under the name `deliveryVerdict` and `verificationVerdict` read. */
  status: number | undefined;
  /** The answer's `Retry-After`, if any. */
  retryAfter: string | undefined;
  /** The answer's `Date`, if any: a `Retry-After` date is counted from it. */
  date: string | undefined;
  /** Response headers, lower-case names. */
  headers: Record<string, string>;
  /** The start of the answer's body, at most `keptBytes`, as text. */
  text: string;
  /**
   * Why no complete answer came: a network error, no headers or no answer in time, or a body
   * that had not ended when the time was up. `undefined` when the answer came whole.
   */
  error: string | undefined;
  /** When the headers came, in ms from the start; `undefined` when they did not. */
  headersMs: number | undefined;
  /** Bytes of the answer's body read, kept or not. */
  answerBytes: number;
  /** The whole exchange, in ms. */
  ms: number;
}

/** Limits of {@link postDelivery}. */
export interface PostLimits {
  /**
   * Total time limit of the request, the answer's body included, in real ms: a whole number
   * from 1 to 2147483647. @default 10000 (the gateway's)
   */
  timeoutMs?: number | undefined;
  /** Time limit for the response headers, in real ms, from 1 to 2147483647. @default 8000 (the gateway's) */
  headersTimeoutMs?: number | undefined;
  /** Most bytes of the answer kept as `text`, from 0 to 65536; the rest is read and dropped. @default 65536 */
  keptBytes?: number | undefined;
  /** Stops the request; `error` then says `stopped`. */
  signal?: AbortSignal | undefined;
  /** What `error` says when `signal` stopped the request. @default 'the request was stopped' */
  stopped?: string | undefined;
  /** The undici dispatcher to send through. @default undici's global dispatcher */
  dispatcher?: Dispatcher | undefined;
  /** The request's `user-agent`. @default 'mediagw' */
  userAgent?: string | undefined;
}

const MAX_ANSWER_BYTES = 64 * 1024;

/** The limits' numbers: the gateway's by default (spec: Events 5). */
const LIMITS = {
  timeoutMs: duration(DELIVERY_TIMEOUT_MS),
  headersTimeoutMs: duration(DELIVERY_HEADERS_TIMEOUT_MS),
  keptBytes: count(0, MAX_ANSWER_BYTES, MAX_ANSWER_BYTES),
};

/**
 * Checks every argument of {@link postDelivery} before anything is sent.
 *
 * @throws InvalidOptionError naming the argument or option.
 */
function checkPost(url: unknown, body: unknown, headers: unknown, limits: PostLimits | undefined) {
  let target: URL | undefined;
  try {
    target = new URL(url as string | URL);
  } catch {
    target = undefined;
  }
  if (target?.protocol !== 'http:' && target?.protocol !== 'https:')
    throw new InvalidOptionError('url', url, 'an http: or https: URL of the receiver');
  if (typeof body !== 'string')
    throw new InvalidOptionError('body', body, "the delivery's body, as a string");
  if (headers === null || typeof headers !== 'object')
    throw new InvalidOptionError('headers', headers, 'an object of header names and values');
  const given: PostLimits = Object(limits);
  const { signal, dispatcher, userAgent, stopped } = given;
  if (signal !== undefined && !(signal instanceof AbortSignal))
    throw new InvalidOptionError('signal', signal, 'an AbortSignal');
  if (
    dispatcher !== undefined &&
    typeof (dispatcher as { dispatch?: unknown } | null)?.dispatch !== 'function'
  )
    throw new InvalidOptionError(
      'dispatcher',
      dispatcher,
      'an undici Dispatcher (an Agent, Pool or MockAgent)',
    );
  for (const [option, value] of [
    ['userAgent', userAgent],
    ['stopped', stopped],
  ] as const)
    if (value !== undefined && typeof value !== 'string') throw new InvalidOptionError(option, value, 'text');
  return { target, ...checkOptions(LIMITS, given) };
}

/**
 * POSTs `body` with `headers` to `url` and reads the answer as the gateway does: the headers
 * must come within `headersTimeoutMs`, and the whole answer, body included, within `timeoutMs`;
 * a body still coming then (dripping, or endless) is no answer, whatever the status. The body
 * is read to its end, keeping `keptBytes`, so memory stays bounded however much the receiver
 * sends. A 3xx is returned as it is (no redirect is followed), for the caller to count as a
 * failure. A failure to deliver is returned as `error`, never thrown.
 *
 * @throws InvalidOptionError, before anything is sent, when `url` is not an http(s) URL, `body`
 * is not a string, `headers` not an object, or an option breaks its rule.
 * @example
 * const headers = signWebhook({ body, secret, keyId });
 * const answer = await postWebhookDelivery('https://hooks.example.com/in', body, headers);
 * deliveryVerdict(answer).acknowledged; // whether the gateway would count it as delivered
 */
export async function postDelivery(
  url: string | URL,
  body: string,
  headers: Record<string, string>,
  limits?: PostLimits,
): Promise<PostOutcome> {
  const checked = checkPost(url, body, headers, limits);
  const started = performance.now();
  const timeout = AbortSignal.timeout(checked.timeoutMs);
  const signal = checked.signal ? AbortSignal.any([checked.signal, timeout]) : timeout;
  const keep = checked.keptBytes;
  const outcome: PostOutcome = {
    statusCode: undefined,
    status: undefined,
    retryAfter: undefined,
    date: undefined,
    headers: {},
    text: '',
    error: undefined,
    headersMs: undefined,
    answerBytes: 0,
    ms: 0,
  };
  const kept: Buffer[] = [];
  let keptBytes = 0;
  try {
    const response = await request(checked.target, {
      method: 'POST',
      ...(checked.dispatcher && { dispatcher: checked.dispatcher }),
      body,
      headers: {
        ...headers,
        'content-type': 'application/json',
        'user-agent': checked.userAgent ?? 'mediagw',
      },
      signal,
      headersTimeout: checked.headersTimeoutMs,
    });
    outcome.headersMs = performance.now() - started;
    outcome.statusCode = response.statusCode;
    outcome.status = response.statusCode;
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined)
        outcome.headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    outcome.retryAfter = outcome.headers['retry-after'];
    outcome.date = outcome.headers.date;
    for await (const chunk of response.body) {
      const piece = chunk as Buffer;
      outcome.answerBytes += piece.byteLength;
      if (keptBytes < keep) {
        const part = piece.subarray(0, keep - keptBytes);
        kept.push(part);
        keptBytes += part.byteLength;
      }
    }
  } catch (error) {
    outcome.error = describe(error, outcome, checked, timeout);
  }
  outcome.text = Buffer.concat(kept).toString('utf8');
  outcome.ms = Math.round(performance.now() - started);
  return outcome;
}

function describe(
  error: unknown,
  outcome: PostOutcome,
  limits: PostLimits & { timeoutMs: number; headersTimeoutMs: number },
  timeout: AbortSignal,
): string {
  if (limits.signal?.aborted) return limits.stopped ?? 'the request was stopped';
  const code = (error as { code?: unknown } | null)?.code;
  if (timeout.aborted) {
    return outcome.statusCode === undefined
      ? `no answer within ${seconds(limits.timeoutMs)}`
      : `the answer's body had not ended after ${seconds(limits.timeoutMs)} (${outcome.answerBytes} bytes read)`;
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT')
    return `no response headers within ${seconds(limits.headersTimeoutMs)}`;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}

/** A limit as messages say it: whole seconds as such (`10 s`), anything else in ms (`150 ms`). */
function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
