/**
 * The gateway's state as its routes and its webhook engine see it: the clock, tasks, ledger and
 * media, plus per-gateway stores. The running `MockGateway` is one of these with the HTTP edge
 * around it; typing the routes and the state by this interface keeps them below the edge.
 */
import type { MockClock } from './clock.js';
import type { Ledger } from './ledger.js';
import type { MediaRecord, MediaStore } from './media-origin.js';
import type { TaskEngine } from './tasks.js';

/** What the gateway holds, apart from the servers and routes that expose it. */
export interface GatewayState {
  /** Base URL as the spec's `{base_url}`: `http://127.0.0.1:<port>`, without `/v1`. */
  readonly url: string;
  /** The clock tasks, media expiry and webhook retries run on; `clock.advance(ms)` in `manual` mode. */
  readonly clock: MockClock;
  /** The billing ledger: reservations, settlements and refunds per task. */
  readonly ledger: Ledger;
  /** Every task the gateway holds, and the outcome triggers. */
  readonly tasks: TaskEngine;
  /** Published media (results, uploads, last frames) and their expiry. */
  readonly media: MediaStore;
  /** Per-gateway state of a resource: created by `init` on first use, then the same object. */
  store<T>(key: string, init: () => T): T;
  /** Runs `fn` when the gateway closes (stop timers, close clients). */
  onClose(fn: () => void | Promise<void>): void;
}

/** The authenticated URL of a published image on the gateway's own origin (key required). */
export function imageResultUrl(gateway: GatewayState, record: MediaRecord): string {
  return `${gateway.url}/v1/images/results/${record.token}`;
}
