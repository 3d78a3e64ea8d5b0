import { hasSubscribers } from 'node:diagnostics_channel';
import type { Dispatcher } from 'undici';

/**
 * An undici dispatcher's own fields, found by their symbols' descriptions: undici does not export
 * the symbols. When a later undici renames them, the lookup finds nothing and the answer is "no".
 */
function ownField(dispatcher: object, description: string): unknown {
  const symbol = Object.getOwnPropertySymbols(dispatcher).find((s) => s.description === description);
  return symbol === undefined ? undefined : (dispatcher as Record<symbol, unknown>)[symbol];
}

/**
 * Whether a request sent through `dispatcher` hands its body chunks to nothing but undici's own
 * socket writer, so that an upload may read its file into a few reused buffers.
 *
 * undici writes an async iterable's chunk with `socket.write` and asks for the next one only when
 * that write returned `true` (the socket holds less than its high-water mark: 16 KiB on Node 20,
 * 64 KiB later) or once the socket drained, when every earlier chunk has left the process. A full
 * 64 KiB chunk never fits under such a mark, so after each one the socket drains; a ring of four
 * buffers comes round to a buffer long after its bytes were written (for any mark below 192 KiB).
 *
 * Anything else could keep a chunk: a mock or composed dispatcher, a custom `connect` or `factory`
 * (which may hand out an in-memory stream), a subscriber to `undici:request:bodyChunkSent`. So the
 * answer is yes only for an undici `Agent` built with undici's own connector and factory, and while
 * nobody listens to the chunks. The Agent may be of the undici the SDK loaded or of another copy:
 * the one bundled with Node installs its own Agent as the global dispatcher as soon as an
 * application touches `fetch`, `Headers` or `Response` before the SDK's first request, and its
 * socket writer is the same code (undici 5 to 7 write an iterable this way).
 */
export function writesOnlyToSockets(undici: typeof import('undici'), dispatcher: Dispatcher): boolean {
  if (hasSubscribers('undici:request:bodyChunkSent')) return false;
  const Class = dispatcher.constructor as { name?: unknown; prototype?: Dispatcher } | undefined;
  const prototype = Class?.prototype;
  if (prototype === undefined) return false;
  const agent =
    Class === undici.Agent ||
    (Class?.name === 'Agent' && Object.getPrototypeOf(prototype)?.constructor?.name === 'DispatcherBase');
  // Not a subclass, and not composed: a composed dispatcher is a Proxy of the Agent whose
  // `dispatch` runs the interceptors first.
  if (
    !agent ||
    Object.getPrototypeOf(dispatcher) !== prototype ||
    dispatcher.dispatch !== prototype.dispatch
  ) {
    return false;
  }
  const options = ownField(dispatcher, 'options') as Record<string, unknown> | undefined;
  const factory = ownField(dispatcher, 'factory') as { name?: string } | undefined;
  return (
    options !== undefined &&
    typeof options.connect !== 'function' &&
    typeof options.tls !== 'function' &&
    options.interceptors === undefined &&
    factory?.name === 'defaultFactory'
  );
}
