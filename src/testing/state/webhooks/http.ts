/**
 * One HTTP POST of a signed delivery to a receiver, with the gateway's limits.
 * spec: Events 5 and 7 — 10 s in total, headers within 8 s, redirects not followed.
 */
import { type Dispatcher, request } from 'undici';

/**
 * What a delivery request got.
 *
 * @inline
 */
export interface PostOutcome {
  /** HTTP status; `undefined` after a network error or timeout. */
  statusCode: number | undefined;
  /** Response headers, lower-case names. */
  headers: Record<string, string>;
  /** The first 64 KiB of the answer, as text. */
  text: string;
  /** Why no answer came: a network error or a timeout. */
  error: string | undefined;
}

/** Limits of {@link postDelivery}. */
export interface PostLimits {
  /** Total time limit of the request, in real ms. */
  timeoutMs: number;
  /** Time limit for the response headers, in real ms. */
  headersTimeoutMs: number;
  /** Aborts the request when the gateway closes. */
  signal: AbortSignal;
}

const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * POSTs `body` with `headers` to `url` and reads (the start of) the answer. Never throws: a
 * failure is returned as `error`. A 3xx is returned as it is (undici's `request` follows no
 * redirect), so the caller counts it as a failed attempt.
 */
export async function postDelivery(
  dispatcher: Dispatcher,
  url: string,
  body: string,
  headers: Record<string, string>,
  limits: PostLimits,
): Promise<PostOutcome> {
  const signal = AbortSignal.any([limits.signal, AbortSignal.timeout(limits.timeoutMs)]);
  try {
    const response = await request(url, {
      method: 'POST',
      dispatcher,
      body,
      headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'mediagw-mock-gateway' },
      signal,
      headersTimeout: limits.headersTimeoutMs,
      bodyTimeout: limits.timeoutMs,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      const buffer = Buffer.from(chunk as Uint8Array);
      chunks.push(buffer);
      size += buffer.length;
      if (size >= MAX_ANSWER_BYTES) break;
    }
    const flat: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    return {
      statusCode: response.statusCode,
      headers: flat,
      text: Buffer.concat(chunks).toString('utf8').slice(0, MAX_ANSWER_BYTES),
      error: undefined,
    };
  } catch (error) {
    return { statusCode: undefined, headers: {}, text: '', error: describe(error, signal, limits) };
  }
}

function describe(error: unknown, signal: AbortSignal, limits: PostLimits): string {
  if (limits.signal.aborted) return 'the gateway closed';
  if (signal.aborted) return `no answer within ${limits.timeoutMs} ms`;
  const code = (error as { code?: unknown }).code;
  if (code === 'UND_ERR_HEADERS_TIMEOUT') return `no response headers within ${limits.headersTimeoutMs} ms`;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' ? `${code}: ${message}` : message;
}
