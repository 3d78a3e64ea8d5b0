/**
 * The mock gateway's dashboard: a page at `/_dashboard` on the gateway's own loopback origin
 * that shows its state live and acts on it. One more route group over the same state; it needs
 * no API key, and the composition serves it apart from the API (no request log, no faults).
 *
 * Requests must name the gateway's own loopback host (a page on another site cannot reach it
 * through DNS rebinding), and actions are POSTs that carry `X-Mediagw-Dashboard: 1` and, when
 * the browser sends one, a same-origin `Origin`: another site's page cannot send that header
 * without a CORS preflight, which the dashboard never grants.
 */

import { MockHttpError } from '../http-error.js';
import type { FaultTable } from '../state/faults.js';
import type { GatewayState } from '../state/gateway-state.js';
import type { RequestContext, RouteRegistry } from '../types.js';
import { ACTIONS } from './actions.js';
import { LiveViews, MAX_LIVE_VIEWERS } from './live.js';
import { type DashboardSource, PREVIEW_PATH, snapshot } from './snapshot.js';

/** Path of the dashboard on the gateway's origin. */
export const DASHBOARD_PATH = '/_dashboard';

/** The header every action must carry. */
export const DASHBOARD_ACTION_HEADER = 'x-mediagw-dashboard';

/** Whether a request path belongs to the dashboard. */
export function isDashboardPath(url: string | undefined): boolean {
  const path = (url ?? '/').split('?')[0] ?? '/';
  return path === DASHBOARD_PATH || path.startsWith(`${DASHBOARD_PATH}/`);
}

/** What the dashboard needs besides the gateway's state. */
export interface DashboardDeps extends DashboardSource {
  /** Adds a fault to the gateway's fault table. */
  faults: Pick<FaultTable, 'add'>;
}

const refuse = (message: string) => MockHttpError.spec(403, 'forbidden', message);

/** The gateway's loopback origins: `http://127.0.0.1:<port>` and `http://localhost:<port>`. */
function ownHosts(gateway: GatewayState): string[] {
  const { port } = new URL(gateway.url);
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

function checkHost(ctx: RequestContext<unknown>, gateway: GatewayState): void {
  if (!ownHosts(gateway).includes(ctx.req.headers.host ?? ''))
    throw refuse('the dashboard answers only on its loopback address');
}

function checkAction(ctx: RequestContext<unknown>, gateway: GatewayState): void {
  checkHost(ctx, gateway);
  if (ctx.req.headers[DASHBOARD_ACTION_HEADER] !== '1')
    throw refuse(`dashboard actions need the ${DASHBOARD_ACTION_HEADER}: 1 header`);
  const origin = ctx.req.headers.origin;
  if (origin !== undefined && !ownHosts(gateway).some((host) => origin === `http://${host}`))
    throw refuse('dashboard actions are accepted from the dashboard page only');
  const site = ctx.req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') throw refuse('dashboard actions must be same-origin');
}

const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * Registers the dashboard: the page, its script, the current view as JSON, the live event
 * stream, and the actions.
 */
export function registerDashboardRoutes(
  router: RouteRegistry,
  gateway: GatewayState,
  deps: DashboardDeps,
): void {
  const view = () => snapshot(deps);
  let live: LiveViews | undefined;
  const open = { auth: false, body: 'none' } as const;

  router.add(
    'GET',
    DASHBOARD_PATH,
    async (ctx) => {
      checkHost(ctx, gateway);
      // Loaded on first visit: importing the mock does not build the page.
      const { DASHBOARD_HTML } = await import('./page.js');
      ctx.res.setHeader('Content-Security-Policy', PAGE_POLICY);
      return ctx.send(200, 'text/html; charset=utf-8', DASHBOARD_HTML);
    },
    open,
  );
  router.add(
    'GET',
    `${DASHBOARD_PATH}/app.js`,
    async (ctx) => {
      checkHost(ctx, gateway);
      const { DASHBOARD_SCRIPT } = await import('./script.js');
      return ctx.send(200, 'text/javascript; charset=utf-8', DASHBOARD_SCRIPT);
    },
    open,
  );
  router.add(
    'GET',
    `${DASHBOARD_PATH}/favicon.svg`,
    (ctx) => {
      checkHost(ctx, gateway);
      return ctx.send(200, 'image/svg+xml', FAVICON);
    },
    open,
  );
  router.add(
    'GET',
    `${PREVIEW_PATH}/:token`,
    (ctx) => {
      checkHost(ctx, gateway);
      // The page's previews: served here, apart from the request log, so watching a test does
      // not add its outputs' downloads to `gateway.requests` (the links still open the signed URL).
      const record = gateway.media.get(ctx.params.token);
      if (!record?.taskId) throw MockHttpError.notFound(`media ${ctx.params.token}`);
      if (!gateway.media.isAvailable(record))
        throw MockHttpError.spec(410, 'media_expired', 'the output has expired');
      return ctx.stream(record.contentType, gateway.media.open(record), record.size);
    },
    open,
  );
  router.add(
    'GET',
    `${DASHBOARD_PATH}/state`,
    (ctx) => {
      checkHost(ctx, gateway);
      return ctx.json(200, view(), NO_STORE);
    },
    open,
  );
  router.add(
    'GET',
    `${DASHBOARD_PATH}/events`,
    (ctx) => {
      checkHost(ctx, gateway);
      live ??= new LiveViews(gateway, view);
      if (live.full) {
        const error = MockHttpError.spec(
          503,
          'too_many_viewers',
          `the dashboard streams to at most ${MAX_LIVE_VIEWERS} pages at once; close another dashboard page, then reload this one`,
        );
        error.headers['Retry-After'] = '5';
        throw error;
      }
      ctx.res.setHeader('Cache-Control', 'no-store');
      // Not awaited: the stream stays open until the page leaves or the gateway closes.
      void ctx.stream('text/event-stream; charset=utf-8', live.open(ctx.res));
    },
    open,
  );
  router.add(
    'POST',
    `${DASHBOARD_PATH}/actions/:name`,
    async (ctx) => {
      checkAction(ctx, gateway);
      const action = Object.hasOwn(ACTIONS, ctx.params.name) ? ACTIONS[ctx.params.name] : undefined;
      if (!action) throw MockHttpError.notFound(`dashboard action ${ctx.params.name}`);
      const body = ctx.body;
      if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body)))
        throw MockHttpError.spec(400, 'invalid_request', 'the body must be a JSON object');
      const result = await action(gateway, (body ?? {}) as Record<string, unknown>, deps.faults);
      live?.changed();
      return ctx.json(200, result, NO_STORE);
    },
    { auth: false, body: 'json' },
  );
}

/** The page's icon, served from its own origin (a `data:` icon would break the policy below). */
const FAVICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0550ae"/><path d="M4 11V5l4 4 4-4v6" stroke="#fff" stroke-width="1.6" fill="none"/></svg>';

/**
 * The page runs only its own script and loads everything from its own origin, previews included.
 */
const PAGE_POLICY =
  "default-src 'self'; img-src 'self'; media-src 'self'; " +
  "style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; form-action 'self'";
