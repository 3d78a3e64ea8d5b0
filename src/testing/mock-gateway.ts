/**
 * The public face of a running mock gateway: its options, the `MockGateway` it resolves to, and
 * what routes added by users get (`Router`, `RouteContext`, `RouteHandler`). Types only; the
 * gateway is composed in `gateway.ts`.
 */
import type { Server } from 'node:http';
import type { ClockMode } from './state/clock.js';
import type { FaultHandle, FaultInit } from './state/faults.js';
import type { GatewayState } from './state/gateway-state.js';
import type { MockRateLimitOptions, MockRateLimits } from './state/rate-limits.js';
import type { TaskDurations } from './state/task-kinds.js';
import type { MockAccount, RecordedRequest, RequestContext, RouteOptions, RouteParams } from './types.js';

/**
 * What a route handler gets: the request, its caller, helpers to answer, and the gateway
 * serving it. Every answer carries `X-Service-Request-Id`. A handler may also answer by
 * throwing a `MockHttpError`.
 */
export interface RouteContext<Params = Record<string, string>> extends RequestContext<Params> {
  /** The gateway serving the request: its tasks, ledger, clock and media. */
  readonly gateway: MockGateway;
}

/** A route's handler. It answers through the `ctx` helpers, or by throwing a `MockHttpError`. */
export type RouteHandler<Params = Record<string, string>> = (
  ctx: RouteContext<Params>,
) => void | Promise<void>;

/**
 * Routes of the mock gateway. Patterns are paths with `:name` segments; a literal segment wins
 * over a parameter at the same place, and among equals the first added wins.
 *
 * @example
 * router.add('GET', '/v1/videos/:id', (ctx) => ctx.json(200, { id: ctx.params.id }));
 */
export interface Router {
  /**
   * Adds a route.
   *
   * @throws Error when the same method and pattern are already registered.
   */
  add<P extends string>(
    method: string,
    pattern: P,
    handler: RouteHandler<RouteParams<P>>,
    options?: RouteOptions,
  ): this;
  /** `METHOD pattern` of every route, in order of registration. */
  list(): string[];
}

/** An account to create; a missing key is generated. */
export interface MockAccountInit {
  /** Account ID, e.g. `acct_1`; unique. */
  id: string;
  /** The full-access key. @default a random `mgw_test_...` key */
  apiKey?: string | undefined;
  /** A key limited to `restrictedModels`. @default a random key when `restrictedModels` is set, else none */
  restrictedKey?: string | undefined;
  /** The models the restricted key may use; others answer 403 `model_not_allowed`. */
  restrictedModels?: readonly string[] | undefined;
}

/** Options of `startMockGateway`. */
export interface MockGatewayOptions {
  /** Port of the gateway on 127.0.0.1. @default 0 (a free port) */
  port?: number | undefined;
  /** Port of the media origin on 127.0.0.1. @default 0 (a free port) */
  mediaPort?: number | undefined;
  /** `manual`: time moves only with `clock.advance()`; `real`: wall time times `speed`. @default 'real' */
  clock?: ClockMode | undefined;
  /** Mock seconds per real second in `real` mode. @default 1 */
  speed?: number | undefined;
  /** @default `acct_1` (full key, and a key restricted to `vidmodel-2.0-mini` and `imgmodel-2`) and `acct_2` */
  accounts?: readonly MockAccountInit[] | undefined;
  /** Content routes answer 302 to the media origin; `false` serves the bytes directly. @default true */
  redirectContent?: boolean | undefined;
  /**
   * Mock durations per task kind.
   * @default video 2 s queued + 8 s running; image 1 s + 4 s; review 0 s + 5 s
   */
  taskDurations?: Readonly<Record<string, TaskDurations>> | undefined;
  /** Video results become a generated body of this many bytes (streamed, never held in memory). */
  largeMediaBytes?: number | undefined;
  /** Mock ms after which published media expires (410). @default never */
  mediaTtlMs?: number | undefined;
  /**
   * How many requests `gateway.requests` keeps: the newest, oldest first; older ones are dropped
   * as new ones arrive, so a long run holds bounded memory. A whole number of 0 or more.
   * @default 1000
   */
  requestLogLimit?: number | undefined;
  /**
   * Rate limits per key and model, and per IP on creation and upload routes: past them the
   * gateway answers 429 `rate_limit_exceeded` with `Retry-After`. The dashboard is never limited.
   * @default none
   */
  rateLimits?: MockRateLimitOptions | undefined;
  /** Adds routes after the built-in ones. */
  routes?: ((router: Router, gateway: MockGateway) => void) | undefined;
  /** Told about errors thrown by timers and task listeners. @default prints to stderr */
  onError?: ((error: unknown) => void) | undefined;
}

/**
 * What a `MediaGateway` needs to talk to a mock gateway: spread it into the client's options
 * (`new MediaGateway({ ...gateway.clientOptions(), maxRetries: 0 })`). See
 * {@link MockGateway.clientOptions}.
 */
export interface MockClientOptions {
  /** The gateway's base URL, `gateway.url`. */
  baseURL: string;
  /** The first account's full-access key, `gateway.apiKey`. */
  apiKey: string;
  /**
   * Milliseconds between the polls of the client's waits, `[min, max]`: the spec's 3-5 s in
   * mock time, divided by the clock's `speed` (at least 1 ms); 10 ms with a `manual` clock.
   */
  pollInterval: readonly [number, number];
}

/** Settings the gateway runs with, after defaults. */
export interface MockGatewayConfig {
  /** Whether content routes answer 302 to the media origin (else they serve the bytes). */
  redirectContent: boolean;
  /** Size of generated video bodies, when set. */
  largeMediaBytes: number | undefined;
  /** Mock ms after which published media expires, when set. */
  mediaTtlMs: number | undefined;
}

/**
 * A running mock gateway. See `startMockGateway`. Its state (`url`, `clock`, `ledger`,
 * `tasks`, `media`, `store`, `onClose`) is declared by `GatewayState`, the view its routes get.
 */
export interface MockGateway extends GatewayState {
  /**
   * URL of the dashboard, `<url>/_dashboard`: a page that shows requests, tasks, the ledger,
   * webhook deliveries and the library live, and acts on them (advance the clock, finish or fail
   * a task, replay a delivery, ...). Served on the same loopback port without an API key; its
   * own requests are not recorded in `requests`. See docs/mock-gateway.md.
   */
  readonly dashboardUrl: string;
  /** Base URL of the media origin that serves signed download URLs. */
  readonly mediaUrl: string;
  /** The first account's full-access key. */
  readonly apiKey: string;
  /**
   * Options for a `MediaGateway` of the first account whose waits keep pace with this gateway's
   * clock: its URL, its key, and a `pollInterval` of the spec's 3-5 s in mock time, so a wait
   * takes about the task's mock time divided by `speed` in real time, in about as many polls as
   * against the gateway. With a `manual` clock, waits poll every 10 ms, so they see each
   * `clock.advance()` soon after it. A wait's own `interval` still wins. A new object each call.
   *
   * @example
   * const gateway = await startMockGateway({ speed: 100 });
   * const client = new MediaGateway({ ...gateway.clientOptions(), maxRetries: 0 });
   * await client.videos.createAndWait({ model: 'vidmodel-2.0-mini', prompt: 'a kite' }); // ~0.1 s, not 10 s
   */
  clientOptions(): MockClientOptions;
  /** Every account, in the order given (`acct_1`, `acct_2` by default). */
  readonly accounts: readonly MockAccount[];
  /** The account with this ID. @throws Error for an unknown ID */
  account(id: string): MockAccount;
  /** The requests received by either origin, oldest first: the newest `requestLogLimit` (1000 by default). */
  readonly requests: RecordedRequest[];
  /** Empties `requests` (in place). */
  resetRequests(): void;
  /** The gateway's routes; add more at any time. */
  readonly router: Router;
  /** The settings it runs with, after defaults. */
  readonly config: Readonly<MockGatewayConfig>;
  /** The listening servers, e.g. to check their address. */
  readonly servers: {
    /** The gateway's server (`url`). */
    readonly api: Server;
    /** The media origin's server (`mediaUrl`). */
    readonly media: Server;
  };
  /** The rate limits and what they saw (`stats`): requests checked, 429s, peaks in flight. */
  readonly rateLimits: MockRateLimits;
  /** Injects a fault. See `Fault` for the kinds. */
  inject(init: FaultInit): FaultHandle;
  /** Removes every injected fault. */
  clearFaults(): void;
  /** Stops both servers, destroys every connection, stops the clock. Resolves once all is closed. */
  close(): Promise<void>;
}
