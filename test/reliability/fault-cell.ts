import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Agent, type Dispatcher } from 'undici';
import type { MediaGateway } from '../../src/client.js';
import type { RequestOptions } from '../../src/index.js';
import {
  type Fault,
  type FaultMatch,
  type MockGateway,
  mp4Video,
  startMockGateway,
} from '../../src/testing/index.js';
import { testClient } from '../helpers/client.js';
import {
  CROSS_ORIGIN_ALLOWED,
  FAULTS,
  type FaultId,
  MATRIX_SETTINGS,
  type OperationId,
} from './fault-matrix.js';

/** What one cell observed. */
export interface Observed {
  /** `value`, or the name of the error's class. */
  outcome: string;
  error: unknown;
  /** Requests the mock received during the call (setup excluded). */
  requests: number;
  /** Attempts the client made: 1 + the retries it logged. */
  attempts: number;
  /** The waits the client logged before each retry, ms. */
  delays: number[];
  /** Submissions to a billable path the gateway received and did not refuse with 429. */
  billableTaken: number;
  /** Tasks the gateway created during the call. */
  tasksCreated: number;
  /** Ledger reservations made during the call. */
  reservations: number;
  /** Why the value is wrong, when the call resolved with one that is not what was asked for. */
  valueProblem: string | undefined;
  /** Files left in the download folder (a failed download must leave none). */
  leftoverFiles: string[];
  /** How long the call took, ms. */
  elapsedMs: number;
  /** Header names the media origin received beyond {@link CROSS_ORIGIN_ALLOWED}. */
  mediaExtraHeaders: string[];
  /** Requests the media origin received. */
  mediaRequests: number;
  /** Whether the gateway's own origin received the client's `defaultHeaders` and key. */
  apiGotHeaders: boolean;
}

/** The reason the abort row aborts with: it must come back as the `cause` of `APIUserAbortError`. */
export const ABORT_REASON = new Error('the caller went away');

/** The https origin the https-to-http row's client is configured with. */
const HTTPS_ORIGIN = 'https://gateway.test';

/**
 * Where connections are refused: port 1 on loopback. A port freed by a closed server could be
 * taken by the gateway of a cell running beside this one; nothing binds port 1.
 */
export const REFUSED_URL = 'http://127.0.0.1:1';

const BILLABLE_PATHS = new Set(['/v1/images/generations', '/v1/videos/generations', '/v1/video/generations']);
const GROUPS = '/v1/vidmodel2/private-avatar/groups';

interface Prepared {
  run: (client: MediaGateway, options: RequestOptions) => Promise<unknown>;
  /** Where the fault applies. */
  match: FaultMatch;
  /** Returns a description of what is wrong with the value, or undefined. */
  check: (value: unknown) => Promise<string | undefined> | string | undefined;
}

const exact = (path: string) => new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

/** Sets up what the call needs (a finished video task, a group) and describes the call. */
async function prepare(operation: OperationId, gateway: MockGateway, folder: string): Promise<Prepared> {
  const setup = testClient({ gateway });
  switch (operation) {
    case 'query':
    case 'download': {
      const { task_id } = await setup.videos.create({
        model: 'vidmodel-2.0-mini',
        prompt: 'a kite',
        duration: 5,
      });
      await gateway.clock.advance(20_000);
      if (operation === 'query') {
        return {
          run: (client, options) => client.videos.retrieve(task_id, options),
          match: { method: 'GET', path: exact(`/v1/videos/${task_id}`), origin: 'api' },
          check: (v) => {
            const task = v as { id?: string; status?: string };
            return task.id === task_id && task.status === 'completed'
              ? undefined
              : `got ${JSON.stringify(v)}`;
          },
        };
      }
      const target = join(folder, 'video.mp4');
      return {
        run: async (client, options) =>
          (await client.videos.downloadContent(task_id, options)).saveTo(target),
        match: { method: 'GET', path: exact(`/v1/videos/${task_id}/content`), origin: 'api' },
        check: async (v) => {
          const saved = v as { bytes: number };
          const bytes = await readFile(target);
          if (saved.bytes !== bytes.length)
            return `saveTo said ${saved.bytes} bytes, the file has ${bytes.length}`;
          if (!bytes.equals(mp4Video())) return `saved ${bytes.length} bytes that are not the video`;
          return undefined;
        },
      };
    }
    case 'patch':
    case 'delete': {
      const group = await setup.library.groups.create({ name: 'cast' });
      const match = {
        method: operation === 'patch' ? 'PATCH' : 'DELETE',
        path: exact(`${GROUPS}/${group.id}`),
      };
      if (operation === 'patch') {
        return {
          run: (client, options) => client.library.groups.update(group.id, { name: 'renamed' }, options),
          match,
          check: (v) =>
            (v as { name?: string }).name === 'renamed' ? undefined : `got ${JSON.stringify(v)}`,
        };
      }
      return {
        run: (client, options) => client.library.groups.delete(group.id, options),
        match,
        check: (v) => ((v as { id?: string }).id === group.id ? undefined : `got ${JSON.stringify(v)}`),
      };
    }
    case 'billable-sync':
      return {
        run: (client, options) =>
          client.images.generate({ model: 'imgmodel-2', prompt: 'a paper crane' }, options),
        match: { method: 'POST', path: exact('/v1/images/generations') },
        check: (v) =>
          (v as { data?: unknown[] }).data?.length === 1 ? undefined : `got ${JSON.stringify(v)}`,
      };
    case 'billable-async':
      return {
        run: (client, options) =>
          client.videos.create({ model: 'vidmodel-2.0-mini', prompt: 'a kite', duration: 5 }, options),
        match: { method: 'POST', path: exact('/v1/videos/generations') },
        check: (v) => {
          const id = (v as { task_id?: string }).task_id;
          return id && gateway.tasks.list().some((t) => t.id === id) ? undefined : `got ${JSON.stringify(v)}`;
        },
      };
    case 'create':
      return {
        run: (client, options) => client.library.groups.create({ name: 'cast' }, options),
        match: { method: 'POST', path: exact(GROUPS) },
        check: (v) =>
          typeof (v as { id?: unknown }).id === 'string' ? undefined : `got ${JSON.stringify(v)}`,
      };
    case 'embeddings':
      return {
        run: (client, options) =>
          client.embeddings.create({ model: 'bge-m3', input: 'a paper crane' }, options),
        match: { method: 'POST', path: exact('/v1/embeddings') },
        check: (v) => {
          const first = (v as { data?: Array<{ embedding?: unknown[] }> }).data?.[0];
          return first?.embedding?.length === 1024 ? undefined : `got ${JSON.stringify(v).slice(0, 200)}`;
        },
      };
  }
}

/** The fault to inject for a cell, and where; `null` for none, `undefined` for a refused connection. */
function faultFor(
  fault: FaultId,
  operation: OperationId,
  match: FaultMatch,
): { match: FaultMatch; fault: Fault } | null | undefined {
  const retryAfter = { 'Retry-After': String(MATRIX_SETTINGS.retryAfterSeconds) };
  switch (fault) {
    case 'refused':
      return undefined;
    case 'redirect-cross-origin':
    case 'redirect-https-to-http':
      return null;
    case 'drip':
      // A download's answer on the gateway is a redirect with no body: the video drips instead.
      return operation === 'download'
        ? {
            match: { method: 'GET', origin: 'media' },
            fault: { drip: { everyMs: MATRIX_SETTINGS.dripEveryMs, bytes: MATRIX_SETTINGS.dripVideoBytes } },
          }
        : { match, fault: { drip: { everyMs: MATRIX_SETTINGS.dripEveryMs } } };
    case 'oversize':
      return { match, fault: { padBytes: MATRIX_SETTINGS.padBytes } };
    case 'abort':
      return { match, fault: { hang: true } };
    case 'redirect-other-scheme':
      return { match, fault: { status: 302, headers: { Location: 'file:///etc/passwd' } } };
    case 'reset-before-body':
      return { match, fault: { reset: 'before-body' } };
    case 'reset-after-body':
      return { match, fault: { reset: 'after-body', runHandler: true } };
    case 'hang':
      return { match, fault: { hang: true } };
    case 'delay':
      return { match, fault: { delayMs: MATRIX_SETTINGS.delayMs } };
    case 'status-408':
      return { match, fault: { status: 408 } };
    case 'status-429-seconds':
      return { match, fault: { status: 429, headers: retryAfter } };
    case 'status-429-date': {
      const date = new Date(Date.now() + MATRIX_SETTINGS.retryAfterDateAheadMs).toUTCString();
      return { match, fault: { status: 429, headers: { 'Retry-After': date } } };
    }
    case 'status-500':
      return { match, fault: { status: 500 } };
    case 'status-502':
      return { match, fault: { status: 502 } };
    case 'status-503':
      return { match, fault: { status: 503, headers: retryAfter } };
    case 'malformed-json':
      return { match, fault: { malformedJson: true, runHandler: true } };
    case 'truncated-body':
      return { match, fault: { truncate: true } };
    case 'truncated-download':
      return { match: { method: 'GET', origin: 'media' }, fault: { truncate: true } };
  }
}

/**
 * A dispatcher that carries requests for {@link HTTPS_ORIGIN} to the mock over plain http, so
 * the client believes it talks to an https gateway (and treats the mock's redirect to its http
 * media origin as a downgrade).
 */
function httpsFront(mockURL: string): Dispatcher {
  return new Agent().compose(
    (dispatch) => (options, handler) =>
      dispatch(
        String(options.origin) === HTTPS_ORIGIN ? { ...options, origin: new URL(mockURL).origin } : options,
        handler,
      ),
  );
}

/**
 * Aborts `controller` once the gateway holds the whole request the hang fault never answers;
 * gives up if the call settles first (the cell then fails on its outcome).
 */
async function abortOnceReceived(
  gateway: MockGateway,
  controller: AbortController,
  settled: () => boolean,
): Promise<void> {
  while (!gateway.requests.some((r) => r.fault === 'hang')) {
    if (settled()) return;
    await delay(5);
  }
  controller.abort(ABORT_REASON);
}

/**
 * Runs one cell on a gateway of its own: sets up, injects the fault (once, unless the row says
 * otherwise), makes the call with a client of `maxRetries: 2` and a short timeout, and records
 * what came back and what reached the wire.
 */
export async function runCell(operation: OperationId, fault: FaultId): Promise<Observed> {
  const gateway = await startMockGateway({ clock: 'manual' });
  const folder = await mkdtemp(join(tmpdir(), 'mediagw-faults-'));
  const kind = FAULTS.find((f) => f.id === fault);
  const dispatcher = fault === 'redirect-https-to-http' ? httpsFront(gateway.url) : undefined;
  try {
    const prepared = await prepare(operation, gateway, folder);
    const injected = faultFor(fault, operation, prepared.match);
    const baseURL = injected === undefined ? REFUSED_URL : dispatcher ? HTTPS_ORIGIN : gateway.url;
    const warnings: string[] = [];
    const client = testClient({
      apiKey: gateway.apiKey,
      baseURL,
      maxRetries: MATRIX_SETTINGS.maxRetries,
      timeout: kind?.timeoutMs ?? MATRIX_SETTINGS.timeoutMs,
      defaultHeaders: { ...MATRIX_SETTINGS.defaultHeaders },
      ...(kind?.maxResponseBytes ? { maxResponseBytes: kind.maxResponseBytes } : {}),
      ...(dispatcher ? { dispatcher } : {}),
      logger: { warn: (message) => warnings.push(message) },
    });
    const tasksBefore = gateway.tasks.list().length;
    const reservationsBefore = gateway.ledger.entries.filter((e) => e.kind === 'reserve').length;
    gateway.resetRequests();
    if (injected) gateway.inject({ ...injected, times: kind?.times ?? 1 });
    const controller = new AbortController();
    let settled = false;
    const aborting = fault === 'abort' ? abortOnceReceived(gateway, controller, () => settled) : undefined;

    let outcome = 'value';
    let caught: unknown;
    let valueProblem: string | undefined;
    const started = performance.now();
    try {
      const value = await prepared.run(client, { signal: controller.signal });
      valueProblem = await prepared.check(value);
    } catch (error) {
      caught = error;
      outcome = error instanceof Error ? error.name : typeof error;
    }
    const elapsedMs = performance.now() - started;
    settled = true;
    await aborting;
    const received = [...gateway.requests];
    const media = received.filter((r) => r.origin === 'media');
    const allowed = new Set<string>(CROSS_ORIGIN_ALLOWED);
    const api = received.find((r) => r.origin === 'api');
    return {
      outcome,
      error: caught,
      requests: received.length,
      attempts: warnings.length + 1,
      delays: warnings.map((w) => Number(/retry \d+ in (\d+) ms/.exec(w)?.[1] ?? Number.NaN)),
      billableTaken: received.filter(
        (r) => r.method === 'POST' && BILLABLE_PATHS.has(r.path) && r.fault !== 'status 429',
      ).length,
      tasksCreated: gateway.tasks.list().length - tasksBefore,
      reservations: gateway.ledger.entries.filter((e) => e.kind === 'reserve').length - reservationsBefore,
      valueProblem,
      leftoverFiles: caught && existsSync(folder) ? readdirSync(folder) : [],
      elapsedMs,
      mediaExtraHeaders: [
        ...new Set(media.flatMap((r) => Object.keys(r.headers).filter((name) => !allowed.has(name)))),
      ],
      mediaRequests: media.length,
      apiGotHeaders:
        api !== undefined &&
        api.headers['x-tenant'] === 'acme' &&
        api.headers.cookie === 'session=s3cr3t' &&
        typeof api.headers.authorization === 'string',
    };
  } finally {
    await dispatcher?.close();
    await gateway.close();
    await rm(folder, { recursive: true, force: true });
  }
}
