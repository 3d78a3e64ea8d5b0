import type { Origin } from '../types.js';

/**
 * What an injected fault does to a matching request. Every request a fault consumes is still
 * recorded in `gateway.requests`, with a `fault` field.
 *
 * - `{ status, body?, headers? }`: answers at once with this status (the body defaults to the
 *   spec's `{code, message, data:null}`; a string body is sent as is). The route does not run.
 * - `{ delayMs }`: waits this many real milliseconds before the headers, then answers normally.
 * - `{ hang: true }`: reads the request and never answers (until `close()`).
 * - `{ reset: 'before-body' }`: destroys the connection before reading the body.
 * - `{ reset: 'after-body' }`: reads the whole body (the request counts as received), then
 *   destroys the connection. With `runHandler: true` the route runs first (a task may be created)
 *   and its answer is replaced by the reset.
 * - `{ truncate: true, bytes? }`: the route runs; its answer announces the full Content-Length
 *   but only `bytes` of the body (default: half) are sent before the connection is destroyed.
 * - `{ malformedJson: true }`: answers 200 with a body that is not valid JSON. With
 *   `runHandler: true` the route runs first and its answer is replaced.
 * - `{ drip: { everyMs, bytes? } }`: the route runs; its headers go out at once, then `bytes`
 *   of the body (default 1) every `everyMs` real milliseconds: an answer that keeps coming but
 *   never in time.
 * - `{ padBytes }`: the route runs; its answer is sent without Content-Length and with
 *   `padBytes` spaces after the body (a JSON answer stays the same JSON): an answer too large.
 */
export type Fault =
  | {
      /** The HTTP status to answer with. */
      status: number;
      /** The body; a string is sent as is. @default the spec's `{code, message, data: null}` */
      body?: unknown;
      /** Extra answer headers, e.g. `Retry-After`. */
      headers?: Record<string, string> | undefined;
    }
  | {
      /** Real milliseconds to wait before the headers; then the route answers normally. */
      delayMs: number;
    }
  | {
      /** Read the request and never answer (until `close()`). */
      hang: true;
    }
  | {
      /** Destroy the connection before reading the body. */
      reset: 'before-body';
    }
  | {
      /** Read the whole body, then destroy the connection. */
      reset: 'after-body';
      /** Run the route first (a task may be created), then reset instead of its answer. @default false */
      runHandler?: boolean | undefined;
    }
  | {
      /** Announce the full Content-Length but send only `bytes` of the body, then destroy the connection. */
      truncate: true;
      /** Body bytes sent before the connection is destroyed. @default half the body */
      bytes?: number | undefined;
    }
  | {
      /** Answer 200 with a body that is not valid JSON. */
      malformedJson: true;
      /** Run the route first, then replace its answer. @default false */
      runHandler?: boolean | undefined;
    }
  | {
      /** Send the route's answer slowly: `bytes` of the body every `everyMs` real milliseconds. */
      drip: {
        /** Real milliseconds between two pieces of the body. */
        everyMs: number;
        /** Body bytes per piece. @default 1 */
        bytes?: number | undefined;
      };
    }
  | {
      /** Spaces sent after the route's body, which goes out without Content-Length. */
      padBytes: number;
    };

/** Which requests a fault applies to. Every field left out matches everything. */
export interface FaultMatch {
  /** HTTP method, any case. */
  method?: string | undefined;
  /** A path prefix (`'/v1/videos'`), or a RegExp tested against the path without the query. */
  path?: string | RegExp | undefined;
  /** `api` (the gateway) or `media` (the media origin). @default both */
  origin?: Origin | undefined;
}

/** What `gateway.inject()` takes. */
export interface FaultInit {
  /** Which requests it applies to. @default every request */
  match?: FaultMatch | undefined;
  /** How many matching requests it consumes; `Infinity` for all. @default 1 */
  times?: number | undefined;
  /** What it does to them. */
  fault: Fault;
}

/** An injected fault: how often it still applies, how often it did, and how to remove it. */
export interface FaultHandle {
  /** Matching requests it will still consume. */
  readonly remaining: number;
  /** Requests it has consumed so far. */
  readonly hits: number;
  /** Removes the fault; later requests are served normally. */
  cancel(): void;
}

interface Entry {
  match: FaultMatch;
  fault: Fault;
  remaining: number;
  hits: number;
}

/** The name a fault is recorded under in the request log. */
export function describeFault(fault: Fault): string {
  if ('status' in fault) return `status ${fault.status}`;
  if ('delayMs' in fault) return 'delay';
  if ('hang' in fault) return 'hang';
  if ('reset' in fault) return `reset-${fault.reset}`;
  if ('truncate' in fault) return 'truncate';
  if ('drip' in fault) return 'drip';
  if ('padBytes' in fault) return 'pad';
  return 'malformed-json';
}

/** Spec-shaped error code for a status a fault answers with. */
export function codeForStatus(status: number): string {
  const codes: Record<number, string> = {
    400: 'invalid_request',
    401: 'unauthorized',
    403: 'forbidden',
    404: 'not_found',
    408: 'request_timeout',
    409: 'conflict',
    413: 'payload_too_large',
    429: 'rate_limit_exceeded',
    500: 'internal_error',
    502: 'bad_gateway',
    503: 'service_unavailable',
    504: 'gateway_timeout',
  };
  return codes[status] ?? (status >= 500 ? 'internal_error' : 'error');
}

/** The injected faults, consumed first-in first-out among those that match. */
export class FaultTable {
  private entries: Entry[] = [];

  /**
   * Adds a fault.
   *
   * @throws RangeError when `times` is not a positive number.
   */
  add(init: FaultInit): FaultHandle {
    const times = init.times ?? 1;
    if (!(times > 0)) throw new RangeError('inject(): times must be a positive number or Infinity');
    const entry: Entry = { match: init.match ?? {}, fault: init.fault, remaining: times, hits: 0 };
    this.entries.push(entry);
    return {
      get remaining() {
        return entry.remaining;
      },
      get hits() {
        return entry.hits;
      },
      cancel: () => {
        entry.remaining = 0;
        this.prune();
      },
    };
  }

  /** Consumes and returns the first fault matching this request, if any. */
  take(method: string, path: string, origin: Origin): Fault | undefined {
    const entry = this.entries.find((e) => e.remaining > 0 && matches(e.match, method, path, origin));
    if (!entry) return undefined;
    entry.remaining -= 1;
    entry.hits += 1;
    this.prune();
    return entry.fault;
  }

  /** Removes every fault. */
  clear(): void {
    for (const entry of this.entries) entry.remaining = 0;
    this.entries = [];
  }

  private prune(): void {
    this.entries = this.entries.filter((e) => e.remaining > 0);
  }
}

function matches(match: FaultMatch, method: string, path: string, origin: Origin): boolean {
  if (match.method && match.method.toUpperCase() !== method.toUpperCase()) return false;
  if (match.origin && match.origin !== origin) return false;
  if (typeof match.path === 'string' && !path.startsWith(match.path)) return false;
  if (match.path instanceof RegExp) {
    match.path.lastIndex = 0;
    if (!match.path.test(path)) return false;
  }
  return true;
}
