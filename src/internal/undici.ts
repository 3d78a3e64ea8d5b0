/** undici, loaded on first use; the transport's requests through it; its answers' headers. */
import type { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { OutgoingRequest, RawResponse, ResponseBody } from './request-spec.js';

type Undici = typeof import('undici');

let undiciModule: Promise<Undici | undefined> | undefined;
let undiciLoaded: Undici | undefined;

/**
 * undici is loaded on the first request, so importing the SDK stays cheap. Resolves to
 * `undefined` where the runtime answers `import('undici')` with a stand-in of its own that lacks
 * the dispatcher API (Bun's does): the transport then sends with the runtime's fetch.
 */
export function loadUndici(): Promise<Undici | undefined> {
  undiciModule ??= import('undici').then((undici) => {
    if (typeof undici.Dispatcher?.prototype?.request !== 'function') return undefined;
    undiciLoaded = undici;
    return undici;
  });
  return undiciModule;
}

/** undici once loaded: later requests take it without waiting a turn of the event loop. */
export function undiciIfLoaded(): Undici | undefined {
  return undiciLoaded;
}

/** Where undici's `setGlobalDispatcher` keeps the dispatcher it is given (every copy of undici). */
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');
/**
 * The SDK's own dispatchers, one per setting, shared by every client with that setting. Each
 * client holds its own strongly; here they are held weakly, so a setting no client uses any
 * more (a proxy URL per tenant, say) does not keep its pools for the life of the process: one
 * is collected once its idle connections have closed. What stays of it is its key, until the
 * next dispatcher is built.
 */
const ownDispatchers = new Map<string, WeakRef<Dispatcher>>();

/** The dispatcher kept for `key`, or the one `create` builds, kept from now on. */
function shared(key: string, create: () => Dispatcher): Dispatcher {
  let dispatcher = ownDispatchers.get(key)?.deref();
  if (!dispatcher) {
    for (const [old, kept] of ownDispatchers) if (!kept.deref()) ownDispatchers.delete(old);
    dispatcher = create();
    ownDispatchers.set(key, new WeakRef(dispatcher));
  }
  return dispatcher;
}

/**
 * The dispatcher of a client given no `dispatcher`. One the application installed with undici's
 * `setGlobalDispatcher` (a proxy agent, a `MockAgent`: anything but a plain `Agent`) is used, as
 * it was before the SDK had its own. Else the SDK's own, built on first use and shared by every
 * client with the same settings: an `Agent` (through `proxy`, a `ProxyAgent`) that opens at most
 * `maxConnections` connections to one origin, so that a burst of calls waits on the client
 * rather than opening a connection each (undici's default pool has no bound).
 *
 * Through a proxy, a request to an `https:` origin goes through a `CONNECT` tunnel, one to an
 * `http:` origin is sent to the proxy in absolute form, as curl does.
 */
export function defaultDispatcher(
  undici: Undici,
  maxConnections: number,
  proxy: string | undefined,
): Dispatcher {
  if (proxy === undefined) {
    const installed = (globalThis as Record<symbol, Dispatcher | undefined>)[GLOBAL_DISPATCHER];
    if (installed !== undefined && installed.constructor?.name !== 'Agent') return installed;
  }
  return shared(`${maxConnections} ${proxy ?? ''}`, () =>
    proxy === undefined
      ? new undici.Agent({ connections: maxConnections })
      : new undici.ProxyAgent({
          uri: proxy,
          proxyTunnel: false,
          connections: maxConnections,
          // The pools to the proxy itself (absolute form) are bounded too: undici builds them
          // with no limit of their own.
          factory: (origin, options) => new undici.Pool(origin, { ...options, connections: maxConnections }),
        }),
  );
}

/**
 * The `Agent` of `fileFromURL` given no `dispatcher`: undici's defaults, built on first use and
 * held weakly beside the clients', so downloads close together share its connections and it goes
 * once none is under way and its idle connections have closed. Never the global dispatcher: once
 * Node's own fetch has run, that slot can hold the older undici bundled with Node 20 and 22.
 */
export function plainAgent(undici: Undici): Dispatcher {
  // '' is no client's key: theirs always hold a space.
  return shared('', () => new undici.Agent());
}

/**
 * Sends `request` through `dispatcher` with undici's request API, as `undici.request` calls it,
 * without that wrapper's URL parse and options copy (a few µs a request). Not `async`: the
 * answer is shaped in one `then`, with no async frame of its own per request.
 */
export function undiciRequest(
  undici: Undici,
  dispatcher: Dispatcher,
  request: OutgoingRequest,
): Promise<RawResponse> {
  const options: Dispatcher.RequestOptions = {
    origin: request.origin,
    path: request.path,
    method: request.method as Dispatcher.HttpMethod,
    headers: request.headers,
    // undici's types omit async iterables, which it sends as they come (its docs list them): it
    // asks for the next chunk only once the last one is written or has drained, so nothing is
    // read ahead of the socket.
    body: (request.body ?? null) as string | Readable | null,
    // undici's own 300 s defaults would cut a 600 s edit short: follow the operation's timeout.
    // The deadline is what ends a JSON call; for a download's body, streamed after the
    // deadline is released, the body timeout is the longest pause between chunks. None given
    // (null): the dispatcher's own.
    headersTimeout: request.timeout ?? null,
    bodyTimeout: request.timeout ?? null,
    // undici takes an EventEmitter as the signal (its docs say so): the deadline is one.
    signal: request.deadline as unknown as EventEmitter,
  };
  return undici.Dispatcher.prototype.request.call(dispatcher, options).then((response) => {
    const headers = flattenHeaders(response.headers);
    return {
      status: response.statusCode,
      headers,
      requestId: headers['x-service-request-id'],
      body: response.body as ResponseBody,
    };
  });
}

/** An answer's headers with one string each: a repeated header's values joined with `, `. */
export function flattenHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  // undici's request API lower-cases every header name (whatever the dispatcher); only a repeated
  // header comes as a list.
  let flat = true;
  for (const key in headers) {
    if (typeof headers[key] !== 'string') {
      flat = false;
      break;
    }
  }
  if (flat) return headers as Record<string, string>;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value !== undefined) out[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
