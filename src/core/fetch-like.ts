/**
 * The shape of a WHATWG `fetch` as the SDK calls it: the client's `fetch` option, and
 * `fileFromURL`'s. Structural, so that the runtime's own fetch (Node's, Bun's, Deno's), a wrapper
 * around it or a test double fits without a cast.
 */

/**
 * What the SDK gives a `fetch` as its second argument. The first is the URL, as a string. The
 * body is JSON text or, for uploads, a `ReadableStream` pulled chunk by chunk (so `duplex` is
 * `'half'`); redirects are `'manual'` because the SDK follows them itself, with its own rules
 * for which headers go to another origin.
 */
export interface FetchInit {
  /** HTTP method. */
  method: string;
  /** Every header, lower-cased names. */
  headers: Record<string, string>;
  /** JSON text, a streamed (multipart) body, or none. */
  body?: string | ReadableStream<Uint8Array>;
  /** Always `'manual'`: a 3xx must come back as it is. */
  redirect: 'manual';
  /** Aborts with the attempt's timeout or the caller's signal (for the client, always given). */
  signal?: AbortSignal;
  /** `'half'`, for a streamed body (Node's fetch requires it). */
  duplex?: 'half';
}

/**
 * The part of a WHATWG `Response` the SDK reads. `body` may also be an async iterable of byte
 * chunks (a Node stream, as node-fetch answers).
 */
export interface FetchResponseLike {
  /** HTTP status. */
  status: number;
  /** `'opaqueredirect'` from a fetch that hides a redirect (a browser's): refused. */
  type?: string | undefined;
  /** The headers; a repeated header's values are joined with `, `. */
  headers: {
    /** Calls `callback` with each header's value and name. */
    forEach(callback: (value: string, key: string) => void): void;
  };
  /** The body, not yet read. */
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | null;
}

/**
 * A WHATWG `fetch`: the runtime's `globalThis.fetch` (Node, Bun, Deno), a wrapper around it, or
 * a test double. Called with a URL string and a {@link FetchInit}; must answer a 3xx as it is
 * under `redirect: 'manual'` (a server-side fetch does) and take a `ReadableStream` body.
 */
export type FetchLike = (url: string, init: FetchInit) => Promise<FetchResponseLike>;
