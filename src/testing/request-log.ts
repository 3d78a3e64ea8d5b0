import type { IncomingHttpHeaders } from 'node:http';
import { maskKey } from '../internal/redact.js';

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

/** How many requests the log keeps when `requestLogLimit` is not given. */
export const DEFAULT_REQUEST_LOG_LIMIT = 1000;

/**
 * The request log: an array of the newest requests, oldest first. `push` drops the oldest
 * entries once more than `limit` are held, so a long run (a soak test, a benchmark) does not
 * grow the mock's memory without bound. Array methods (`filter`, `map`, `slice`) return plain
 * arrays.
 */
export class RequestLog extends Array<RecordedRequest> {
  static override get [Symbol.species](): ArrayConstructor {
    return Array;
  }

  // Private, so the log compares and prints as the plain array it holds.
  readonly #limit: number;

  /** @param limit - the most requests kept; 0 keeps none. */
  constructor(limit: number) {
    super();
    this.#limit = limit;
  }

  /** Appends requests, then drops the oldest beyond the limit. @returns the new length */
  override push(...requests: RecordedRequest[]): number {
    super.push(...requests);
    if (this.length > this.#limit) this.splice(0, this.length - this.#limit);
    return this.length;
  }
}

/** Masks the credential of an `Authorization` value: `Bearer mgw_…abcd`. */
export function maskAuthorization(value: string): string {
  const match = /^(\S+)\s+(.+)$/.exec(value.trim());
  return match ? `${match[1]} ${maskKey(match[2] ?? '')}` : maskKey(value);
}

/** Copies headers into a plain lowercased record with credentials masked. */
export function recordHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    out[name] = name === 'authorization' || name === 'proxy-authorization' ? maskAuthorization(text) : text;
  }
  return out;
}

/** Query parameters as a plain record. */
export function recordQuery(query: URLSearchParams): Record<string, string> {
  return Object.fromEntries(query.entries());
}
