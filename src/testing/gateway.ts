/**
 * The composition of the mock gateway: builds its state (accounts, clock, ledger, tasks,
 * media, faults, request log), registers the routes over that state, and puts the HTTP edge in
 * front of it on two loopback ports. Nothing else in testing/ imports this file.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkCount, MAX_TIMER_MS } from '../core/options.js';
import { DASHBOARD_PATH, isDashboardPath, registerDashboardRoutes } from './dashboard/index.js';
import { createRequestHandler } from './http/pipeline.js';
import { Router } from './http/router.js';
import { type LoopbackServer, listenOnLoopback } from './http/server.js';
import type {
  MockAccountInit,
  MockClientOptions,
  MockGateway,
  MockGatewayConfig,
  MockGatewayOptions,
  RouteContext,
} from './mock-gateway.js';
import { registerRoutes } from './routes/index.js';
import { AccountTable, defaultAccounts, newApiKey } from './state/accounts.js';
import { MockClock } from './state/clock.js';
import { FaultTable } from './state/faults.js';
import { Ledger } from './state/ledger.js';
import { MediaStore } from './state/media-origin.js';
import { MockRateLimits } from './state/rate-limits.js';
import { DEFAULT_REQUEST_LOG_LIMIT, RequestLog } from './state/request-log.js';
import { TaskEngine } from './state/tasks.js';
import type { MockAccount, RecordedRequest } from './types.js';

/**
 * Starts a stateful mock of the Media Generation Gateway on 127.0.0.1: the gateway itself and a
 * second origin that serves media by signed URLs. Tasks move on `clock`; faults can be injected.
 *
 * @throws Error when a port cannot be bound or the accounts are invalid; InvalidOptionError for a
 * `requestLogLimit` that is not a whole number of 0 or more, or a rate limit that is not 1 or more.
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
  const rateLimits = new MockRateLimits(options.rateLimits);
  const requests = new RequestLog(requestLogLimit);
  const closing = new AbortController();
  const router = new Router<RouteContext>();
  const mediaRouter = new Router<RouteContext>();
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
  // The dashboard shares the gateway's port but not its pipeline's log, faults or rate limits:
  // watching the gateway must not change what a test reads in `gateway.requests`, which request a
  // fault hits, or which request is answered 429 (nor count in `rateLimits.stats`).
  const dashboardRouter = new Router<RouteContext>();
  let dashboardCount = 0;
  const dashboard = createRequestHandler({
    ...deps,
    origin: 'api',
    router: dashboardRouter,
    faults: new FaultTable(),
    requests: new RequestLog(0),
    nextRequestId: () => `dash_${++dashboardCount}`,
  });
  const apiHandler = createRequestHandler({ ...deps, origin: 'api', router, rateLimits });
  const api = await listenOnLoopback(
    (req: IncomingMessage, res: ServerResponse) =>
      isDashboardPath(req.url) ? dashboard(req, res) : apiHandler(req, res),
    options.port,
  );
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
    rateLimits,
    closing,
    onError,
  });
  registerRoutes(router, gateway);
  const built = gateway;
  registerDashboardRoutes(dashboardRouter, built, {
    gateway: built,
    requests: () => built.requests,
    accounts: () => built.accounts.map((a) => a.id),
    keys: () => built.accounts.flatMap((a) => (a.restrictedKey ? [a.apiKey, a.restrictedKey] : [a.apiKey])),
    faults,
  });
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
  router: Router<RouteContext>;
  config: MockGatewayConfig;
  faults: FaultTable;
  rateLimits: MockRateLimits;
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
    dashboardUrl: `${parts.api.url}${DASHBOARD_PATH}`,
    mediaUrl: parts.mediaServer.url,
    apiKey: first.apiKey,
    clientOptions: () => ({
      baseURL: parts.api.url,
      apiKey: first.apiKey,
      pollInterval: pollIntervalFor(parts.clock),
    }),
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
    rateLimits: parts.rateLimits,
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

/** spec: Limits — images and `vidmodel-2.0-mini` are polled every 3-5 s. */
const SPEC_POLL_INTERVAL = [3_000, 5_000] as const;
/** With a manual clock: often enough to see an `advance()` soon, seldom enough not to spin. */
const MANUAL_POLL_INTERVAL = 10;

/**
 * The real milliseconds between polls that make a client poll this clock's tasks every 3-5 s of
 * mock time. A manual clock moves only when told: real time says nothing of it, so waits poll
 * at a short, fixed pace instead.
 */
function pollIntervalFor(clock: MockClock): MockClientOptions['pollInterval'] {
  if (clock.mode === 'manual') return [MANUAL_POLL_INTERVAL, MANUAL_POLL_INTERVAL];
  const scale = (ms: number) => Math.min(MAX_TIMER_MS, Math.max(1, Math.round(ms / clock.speed)));
  return [scale(SPEC_POLL_INTERVAL[0]), scale(SPEC_POLL_INTERVAL[1])];
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
