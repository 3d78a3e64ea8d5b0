import type { IncomingHttpHeaders } from 'node:http';
import { maskKey } from '../../core/redact.js';
import type { RecordedRequest } from '../types.js';

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
