import type { Server } from 'node:http';
import { checkCount } from '../core/options.js';
import { AccountTable, defaultAccounts, newApiKey } from './accounts.js';
import { type ClockMode, MockClock } from './clock.js';
import { type FaultHandle, type FaultInit, FaultTable } from './faults.js';
import { Ledger } from './ledger.js';
import { MediaStore } from './media-origin.js';
import { createRequestHandler } from './pipeline.js';
import { DEFAULT_REQUEST_LOG_LIMIT, RequestLog } from './request-log.js';
import { Router } from './router.js';
import { registerRoutes } from './routes/index.js';
import { type LoopbackServer, listenOnLoopback } from './server.js';
import type { TaskDurations } from './task-kinds.js';
import { TaskEngine } from './tasks.js';
import type { MockAccount, RecordedRequest } from './types.js';

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

/** Options of {@link startMockGateway}. */
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
  /** Adds routes after the built-in ones. */
  routes?: ((router: Router, gateway: MockGateway) => void) | undefined;
  /** Told about errors thrown by timers and task listeners. @default prints to stderr */
  onError?: ((error: unknown) => void) | undefined;
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

/** A running mock gateway. See {@link startMockGateway}. */
export interface MockGateway {
  /** Base URL as the spec's `{base_url}`: `http://127.0.0.1:<port>`, without `/v1`. */
  readonly url: string;
  /** Base URL of the media origin that serves signed download URLs. */
  readonly mediaUrl: string;
  /** The first account's full-access key. */
  readonly apiKey: string;
  /** Every account, in the order given (`acct_1`, `acct_2` by default). */
  readonly accounts: readonly MockAccount[];
  /** The account with this ID. @throws Error for an unknown ID */
  account(id: string): MockAccount;
  /** The clock tasks, media expiry and webhook retries run on; `clock.advance(ms)` in `manual` mode. */
  readonly clock: MockClock;
  /** The requests received by either origin, oldest first: the newest `requestLogLimit` (1000 by default). */
  readonly requests: RecordedRequest[];
  /** Empties `requests` (in place). */
  resetRequests(): void;
  /** The billing ledger: reservations, settlements and refunds per task. */
  readonly ledger: Ledger;
  /** Every task the gateway holds, and the outcome triggers. */
  readonly tasks: TaskEngine;
  /** Published media (results, uploads, last frames) and their expiry. */
  readonly media: MediaStore;
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
  /** Injects a fault. See `Fault` for the kinds. */
  inject(init: FaultInit): FaultHandle;
  /** Removes every injected fault. */
  clearFaults(): void;
  /** Per-gateway state of a resource: created by `init` on first use, then the same object. */
  store<T>(key: string, init: () => T): T;
  /** Runs `fn` when the gateway closes (stop timers, close clients). */
  onClose(fn: () => void | Promise<void>): void;
  /** Stops both servers, destroys every connection, stops the clock. Resolves once all is closed. */
  close(): Promise<void>;
}

/**
 * Starts a stateful mock of the Media Generation Gateway on 127.0.0.1: the gateway itself and a
 * second origin that serves media by signed URLs. Tasks move on `clock`; faults can be injected.
 *
 * @throws Error when a port cannot be bound or the accounts are invalid; InvalidOptionError for a
 * `requestLogLimit` that is not a whole number of 0 or more.
 * @example
 * const gateway = await startMockGateway({ clock: 'manual' });
 * const client = new MediaGateway({ baseURL: gateway.url, apiKey: gateway.apiKey });
 * // ...
 * await gateway.close();
 */
export async function startMockGateway(options: MockGatewayOptions = {}): Promise<MockGateway> {
  const requestLogLimit =
    checkCount('requestLogLimit', options.requestLogLimit, 0) ?? DEFAULT_REQUEST_LOG_LIMIT;
  const onError = options.onError ?? ((error: unknown) => console.error('mock gateway:', error));
  const clock = new MockClock({ mode: options.clock ?? 'real', speed: options.speed ?? 1, onError });
  const accounts = new AccountTable(resolveAccounts(options.accounts));
  const ledger = new Ledger(() => clock.now());
  const tasks = new TaskEngine(clock, ledger, options.taskDurations, onError);
  const config: MockGatewayConfig = {
    redirectContent: options.redirectContent ?? true,
    largeMediaBytes: options.largeMediaBytes,
    mediaTtlMs: options.mediaTtlMs,
  };
  const media = new MediaStore(clock, {
    ttlMs: config.mediaTtlMs,
    redirect: config.redirectContent,
    largeMediaBytes: config.largeMediaBytes,
  });
  const faults = new FaultTable();
  const requests = new RequestLog(requestLogLimit);
  const closing = new AbortController();
  const router = new Router();
  const mediaRouter = new Router();
  media.registerRoutes(mediaRouter);
  let requestCount = 0;
  let gateway: MockGateway | undefined;
  const deps = {
    accounts,
    faults,
    requests,
    clock,
    closing: closing.signal,
    gateway: () => gateway!,
    nextRequestId: () => `req_${++requestCount}`,
  };
  const api = await listenOnLoopback(createRequestHandler({ ...deps, origin: 'api', router }), options.port);
  let mediaServer: LoopbackServer;
  try {
    mediaServer = await listenOnLoopback(
      createRequestHandler({ ...deps, origin: 'media', router: mediaRouter }),
      options.mediaPort,
    );
  } catch (error) {
    await api.close();
    throw error;
  }
  media.setOrigin(mediaServer.url);
  gateway = buildGateway({
    api,
    mediaServer,
    accounts,
    clock,
    requests,
    ledger,
    tasks,
    media,
    router,
    config,
    faults,
    closing,
    onError,
  });
  registerRoutes(router, gateway);
  options.routes?.(router, gateway);
  return gateway;
}

interface Parts {
  api: LoopbackServer;
  mediaServer: LoopbackServer;
  accounts: AccountTable;
  clock: MockClock;
  requests: RecordedRequest[];
  ledger: Ledger;
  tasks: TaskEngine;
  media: MediaStore;
  router: Router;
  config: MockGatewayConfig;
  faults: FaultTable;
  closing: AbortController;
  onError: (error: unknown) => void;
}

function buildGateway(parts: Parts): MockGateway {
  const stores = new Map<string, unknown>();
  const closeHooks: Array<() => void | Promise<void>> = [];
  let closed: Promise<void> | undefined;
  const first = parts.accounts.list[0]!;
  return {
    url: parts.api.url,
    mediaUrl: parts.mediaServer.url,
    apiKey: first.apiKey,
    accounts: parts.accounts.list,
    account: (id) => parts.accounts.get(id),
    clock: parts.clock,
    requests: parts.requests,
    resetRequests: () => {
      parts.requests.length = 0;
    },
    ledger: parts.ledger,
    tasks: parts.tasks,
    media: parts.media,
    router: parts.router,
    config: Object.freeze({ ...parts.config }),
    servers: { api: parts.api.server, media: parts.mediaServer.server },
    inject: (init) => parts.faults.add(init),
    clearFaults: () => parts.faults.clear(),
    store<T>(key: string, init: () => T): T {
      if (!stores.has(key)) stores.set(key, init());
      return stores.get(key) as T;
    },
    onClose: (fn) => {
      closeHooks.push(fn);
    },
    close() {
      closed ??= (async () => {
        parts.closing.abort();
        parts.faults.clear();
        for (const hook of closeHooks.splice(0)) {
          try {
            await hook();
          } catch (error) {
            parts.onError(error);
          }
        }
        parts.clock.stop();
        await Promise.all([parts.api.close(), parts.mediaServer.close()]);
      })();
      return closed;
    },
  };
}

function resolveAccounts(init: readonly MockAccountInit[] | undefined): MockAccount[] {
  if (!init) return defaultAccounts();
  return init.map((a) => ({
    id: a.id,
    apiKey: a.apiKey ?? newApiKey(),
    restrictedKey: a.restrictedKey ?? (a.restrictedModels ? newApiKey() : undefined),
    restrictedModels: a.restrictedModels,
  }));
}
