/**
 * The transport's requests through a WHATWG `fetch`, for runtimes where undici does not run (Bun)
 * or for a caller's own fetch. The transport keeps every rule (headers, redirects, deadlines,
 * capping, error mapping); this only turns a request into a fetch call and its answer back.
 */
import { APIConnectionError } from '../core/errors.js';
import { InvalidOptionError } from '../core/options.js';
import { showUnparsedURL } from '../core/redact.js';
import { untilAborted } from '../core/signal-fanout.js';
import { FetchBody } from './fetch-body.js';
import type { FetchInit, FetchLike, OutgoingRequest, RawResponse } from './request-spec.js';

/**
 * The fetch of a runtime whose `undici` is a stand-in (see `loadUndici`). A `dispatcher` is
 * undici's alone, so a client given one cannot send there, nor one given a `proxy` (which the
 * SDK applies through undici).
 *
 * @throws InvalidOptionError when `dispatcher` or `proxy` is set, or the runtime has no global fetch.
 */
export function runtimeFetch(dispatcher: unknown, proxy?: string | undefined): FetchLike {
  // The runtime's fetch would send past the proxy asked for: refused rather than sent directly.
  if (proxy !== undefined) {
    throw new InvalidOptionError(
      'proxy',
      showUnparsedURL(proxy),
      'left out where undici cannot run (this runtime answers `undici` with a stand-in): pass a `fetch` that sends through your proxy instead',
    );
  }
  if (dispatcher !== undefined) {
    throw new InvalidOptionError(
      'dispatcher',
      dispatcher,
      'left out where undici cannot run (this runtime answers `undici` with a stand-in): pass `fetch` instead',
    );
  }
  if (typeof globalThis.fetch !== 'function') {
    throw new InvalidOptionError('fetch', undefined, 'given where neither undici nor a global fetch exists');
  }
  return globalThis.fetch as unknown as FetchLike;
}

/**
 * A streamed body as a `ReadableStream` that asks the iterator for a chunk only when the fetch
 * pulls one (`highWaterMark` 0): the body is never read ahead, nor held whole.
 */
function toReadableStream(chunks: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * Sends `request` with `fetch`; the answer is given as it came, a 3xx included (redirects are the
 * transport's). `operation` names the request in a timeout's message.
 *
 * @throws APIConnectionError when the fetch hides a redirect (an `opaqueredirect` answer); the
 * fetch's own failures as they are, for the transport to map.
 */
export async function fetchRequest(
  fetch: FetchLike,
  request: OutgoingRequest,
  url: string,
  operation: string,
): Promise<RawResponse> {
  const init: FetchInit = {
    method: request.method,
    headers: request.headers,
    redirect: 'manual',
    signal: request.deadline.abortSignal,
  };
  const body = request.body;
  if (typeof body === 'string') init.body = body;
  else if (body !== undefined) {
    init.body = toReadableStream(body);
    init.duplex = 'half';
  }
  const deadline = request.deadline.abortSignal;
  // Raced, not only signalled: a fetch that does not heed its signal (a wrapper that drops it, a
  // test double) still ends with the deadline.
  const response = await untilAborted(() => fetch(url, init), deadline);
  if (response.type === 'opaqueredirect' || response.status === 0) {
    throw new APIConnectionError(
      `${operation}: the fetch given hid a redirect (an opaque answer); pass a fetch that answers a 3xx as it is under redirect: 'manual', as Node's, Bun's and Deno's do`,
    );
  }
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    const name = key.toLowerCase();
    // set-cookie comes once per value: joined as undici's headers are.
    headers[name] = Object.hasOwn(headers, name) ? `${headers[name]}, ${value}` : value;
  });
  // A fetch hands over the body decoded (gzip, br, deflate undone), but the headers as sent: the
  // length is that of the encoded bytes, and would hold a complete download short. Dropped, as
  // undici's decompress interceptor drops it.
  if (headers['content-encoding'] !== undefined && headers['content-encoding'] !== 'identity') {
    delete headers['content-length'];
  }
  const answer = new FetchBody(
    response.body as ConstructorParameters<typeof FetchBody>[0],
    operation,
    request.timeout,
  );
  // The deadline ends the body's reading too, whether or not the fetch's stream heeds the signal.
  // A download's deadline is released once its headers are here: its body streams on.
  deadline.addEventListener('abort', () => answer.destroy(deadline.reason), { once: true });
  return {
    status: response.status,
    headers,
    requestId: headers['x-service-request-id'],
    body: answer,
  };
}
