/**
 * Types every part of the mock gateway shares: accounts, recorded requests and route options.
 * A leaf: it imports nothing from the mock, so the edge, the routes and the gateway's state can
 * all depend on it without depending on each other.
 */

/** An account of the mock gateway and the keys that act for it. */
export interface MockAccount {
  /** Account ID, e.g. `acct_1`. Every task, file, group and endpoint belongs to one account. */
  readonly id: string;
  /** A key with access to every model. */
  readonly apiKey: string;
  /** A key of the same account limited to {@link MockAccount.restrictedModels}; absent if none. */
  readonly restrictedKey?: string | undefined;
  /** The models the restricted key may use. */
  readonly restrictedModels?: readonly string[] | undefined;
}

/** Bytes of each multipart file part kept in memory (the rest is only counted and hashed). */
export const PART_HEAD_BYTES = 64 * 1024;

/** One part of a multipart body as the mock received it. Files are never kept whole. */
export interface ReceivedPart {
  /** Form field name, e.g. `image[]`. */
  name: string;
  /** Declared filename; file parts only. */
  filename?: string | undefined;
  /** Declared content type of the part. */
  contentType?: string | undefined;
  /** Byte length. */
  size: number;
  /** Text value; text fields only. */
  value?: string | undefined;
  /** Hex SHA-256 of the bytes; file parts only. */
  sha256?: string | undefined;
  /** The first 64 KiB; file parts only. */
  head?: Buffer | undefined;
  /** Whether busboy cut the value at its field size limit. */
  truncated?: boolean | undefined;
}

/** Which listening origin answered. */
export type Origin = 'api' | 'media';

/** A request as the mock gateway received it. */
export interface RecordedRequest {
  /** The `X-Service-Request-Id` it was answered with, `req_<n>`. */
  id: string;
  /** `api` (the gateway) or `media` (the media origin). */
  origin: Origin;
  /** HTTP method, upper case. */
  method: string;
  /** Path without the query, e.g. `/v1/videos/cgt-1/content`. */
  path: string;
  /** Query parameters (the last value of a repeated name). */
  query: Record<string, string>;
  /** Lowercased headers; `authorization` is masked (`Bearer mgw_…abcd`), never whole. */
  headers: Record<string, string>;
  /** Parsed JSON body; `undefined` when absent or not JSON. */
  body?: unknown;
  /** Parts of a multipart body. */
  parts?: ReceivedPart[];
  /** Byte length of the body read. */
  bodySize?: number;
  /** The fault that answered it, when one did: `status`, `delay`, `hang`, `reset-before-body`, ... */
  fault?: string;
  /** Status sent, once the answer's headers went out. */
  status?: number;
  /** Message of an error the route threw. */
  error?: string;
  /** Mock time of arrival (ms). */
  at: number;
}

/**
 * How a route wants its body: parsed JSON, multipart parts, the raw bytes, or not read.
 *
 * @inline
 */
export type BodyMode = 'json' | 'multipart' | 'raw' | 'none';

/** The `:name` segments of a route pattern, as a union of names. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The `params` of a route, typed from its pattern: `'/v1/videos/:id/content'` gives `{ id: string }`. */
export type RouteParams<P extends string> = { [K in ParamNames<P>]: string };

/** How a route reads its request. */
export interface RouteOptions {
  /** Require a valid API key (`Authorization: Bearer <key>`); 401 otherwise. @default true */
  auth?: boolean | undefined;
  /**
   * How to read the body: `json` (invalid JSON: 400; empty: `undefined`), `multipart` (streamed,
   * see `ctx.parts`), `raw` (`ctx.raw`), `none`. @default 'json'
   */
  body?: BodyMode | undefined;
}
