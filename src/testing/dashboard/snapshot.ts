/**
 * What the dashboard shows: a JSON view of the gateway's state (requests, tasks, the ledger,
 * webhook endpoints and deliveries, the media library), built fresh for each update. Secrets
 * never leave here: request headers and bodies are redacted, endpoints show their key ID only.
 */

import { createRedactor, isSecretName, REDACTED } from '../../core/redact.js';
import type { GatewayState } from '../state/gateway-state.js';
import { libraryStore } from '../state/library-store.js';
import { type MockWebhooks, mockWebhooks } from '../state/webhooks/index.js';
import type { RecordedRequest } from '../types.js';

/**
 * Where the page loads its previews of task outputs: the dashboard's own path on the gateway's
 * port, which no request log or fault sees, rather than the signed URL on the media origin, which
 * would add each preview to `gateway.requests`.
 */
export const PREVIEW_PATH = '/_dashboard/media';

/** The newest requests the dashboard lists; older ones stay in `gateway.requests`. */
export const DASHBOARD_REQUESTS = 100;

/**
 * The newest tasks, webhook events and ledger entries (per account) the dashboard lists, so that
 * a view, sent to every open page at each change, stays the same size however long the mock runs.
 */
export const DASHBOARD_ROWS = 200;

/** What the dashboard reads besides the state its routes get. */
export interface DashboardSource {
  /** The gateway's state. */
  gateway: GatewayState;
  /** The request log (`gateway.requests`). */
  requests: () => readonly RecordedRequest[];
  /** The account IDs, in order. */
  accounts: () => readonly string[];
  /** Every key of every account (restricted ones too): none is shown, wherever it stands. */
  keys: () => readonly string[];
}

/**
 * Copies a value with every field the SDK's redactor names a secret (`isSecretName`:
 * `signing_secret`, `authorization`, `cookie`, ...) replaced by `[redacted]`.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8) return '[…]';
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value))
      out[key] = isSecretName(key) ? REDACTED : redact(v, depth + 1);
    return out;
  }
  return value;
}

/** Cleans a copy made for the view, in place, and returns it. */
type Scrub = <T>(value: T) => T;

/**
 * Removes from a copy made for the view what no field name gives away: the accounts' API keys
 * wherever they stand (a header of another name, a prompt), and the signatures of signed links
 * (`X-Amz-Signature=…` in an image URL of a request, a library asset's source).
 */
function scrubberOf(keys: readonly string[]): Scrub {
  const redactors = keys.map((key) => createRedactor(key));
  return (value) => {
    let clean = value;
    for (const redactor of redactors) clean = redactor(clean);
    return clean;
  };
}

function requestView(record: RecordedRequest, scrub: Scrub) {
  const headers: Record<string, string> = {};
  // The log already masks Authorization; the dashboard shows no part of any credential.
  for (const [name, value] of Object.entries(record.headers))
    headers[name] = isSecretName(name) ? REDACTED : scrub(value);
  return {
    id: record.id,
    at: record.at,
    origin: record.origin,
    method: record.method,
    path: record.path,
    status: record.status ?? null,
    fault: record.fault ?? null,
    error: record.error ?? null,
    invalidFields: record.invalidFields ?? [],
    headers,
    body: record.body === undefined ? null : scrub(redact(record.body)),
    parts: record.parts?.map((p) => ({ name: p.name, filename: p.filename ?? null, size: p.size })) ?? [],
  };
}

function taskViews(gateway: GatewayState) {
  return gateway.tasks
    .list()
    .slice(-DASHBOARD_ROWS)
    .reverse()
    .map((task) => {
      const state = gateway.tasks.state(task);
      const entries = gateway.ledger.entriesFor(task.id);
      const reserve = entries.find((e) => e.kind === 'reserve');
      const closing = entries.find((e) => e.kind !== 'reserve');
      return {
        id: task.id,
        kind: task.kind,
        model: task.model,
        account: task.account,
        createdAt: task.createdAt,
        status: state.status,
        phase: state.phase,
        progress: state.progress,
        terminal: state.terminal,
        error: state.error ?? null,
        reservation: reserve ? { seconds: reserve.seconds, tier: reserve.tier } : null,
        settlement: closing ? { kind: closing.kind, seconds: closing.seconds } : null,
        outputs: gateway.media
          .forTask(task.id)
          .filter((m) => gateway.media.isAvailable(m))
          .map((m) => ({
            url: m.url,
            preview: `${PREVIEW_PATH}/${encodeURIComponent(m.token)}`,
            contentType: m.contentType,
          })),
      };
    });
}

function ledgerView(source: DashboardSource) {
  const { ledger } = source.gateway;
  return source.accounts().map((account) => ({
    account,
    reserved: ledger.reservedTotal(account),
    settled: ledger.settledTotal(account),
    entries: ledger
      .entriesOf(account)
      .slice(-DASHBOARD_ROWS)
      .map((e) => ({ ...e })),
  }));
}

/**
 * `paused`, `verified`, `forwarding` (a catch-all endpoint, as `mediagw mock --forward-to`
 * registers: sent every task's events without a challenge) or `unverified`.
 */
function endpointState(
  endpoint: { id: string; verified: boolean; enabled: boolean },
  catchAll: readonly string[],
) {
  if (!endpoint.enabled) return 'paused';
  if (endpoint.verified) return 'verified';
  return catchAll.includes(endpoint.id) ? 'forwarding' : 'unverified';
}

function webhookView(webhooks: MockWebhooks) {
  const catchAll = webhooks.options.catchAllEndpoints;
  return {
    endpoints: [...webhooks.endpoints.values()].map((e) => ({
      id: e.id,
      account: e.account,
      url: e.url,
      state: endpointState(e, catchAll),
      pausedBy: e.pausedBy ?? null,
      keyId: e.keyId,
    })),
    events: webhooks
      .events()
      .slice(-DASHBOARD_ROWS)
      .reverse()
      .map((e) => ({
        id: e.id,
        type: e.type,
        endpointId: e.endpointId,
        taskIds: e.taskIds,
        status: e.status,
        nextAttemptAt: e.nextAttemptAt ?? null,
        replays: e.replays.length,
        attempts: e.attempts.map((a) => ({
          id: a.id,
          attempt: a.attempt,
          startedAt: a.startedAt,
          durationMs: a.finishedAt === undefined ? null : a.finishedAt - a.startedAt,
          outcome: a.outcome,
          statusCode: a.statusCode ?? null,
          error: a.error ?? null,
          keyId: a.keyId,
          duplicate: a.duplicate,
        })),
      })),
  };
}

function libraryView(gateway: GatewayState, scrub: Scrub) {
  const store = libraryStore(gateway);
  const assets = [...store.assets.values()];
  for (const asset of assets) store.refresh(asset);
  return [...store.groups.values()].map((g) => ({
    id: g.id,
    account: g.account,
    name: g.name,
    model: g.model,
    assets: assets
      .filter((a) => a.group_id === g.id)
      .map((a) => ({
        id: a.id,
        name: a.name,
        type: a.asset_type,
        status: a.status,
        url: scrub(a.source_url),
      })),
  }));
}

/** The whole view the page renders. */
export function snapshot(source: DashboardSource) {
  const { gateway } = source;
  const requests = source.requests();
  const scrub = scrubberOf(source.keys());
  const webhooks = mockWebhooks(gateway);
  return {
    now: gateway.clock.now(),
    clockMode: gateway.clock.mode,
    requests: requests
      .slice(-DASHBOARD_REQUESTS)
      .reverse()
      .map((record) => requestView(record, scrub)),
    tasks: taskViews(gateway),
    // How many there are, where the lists above show the newest DASHBOARD_ROWS.
    totals: {
      requests: requests.length,
      tasks: gateway.tasks.list().length,
      events: webhooks.events().length,
    },
    ledger: ledgerView(source),
    webhooks: webhookView(webhooks),
    library: libraryView(gateway, scrub),
  };
}
