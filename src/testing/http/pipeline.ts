import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { MockHttpError, specErrorBody } from '../http-error.js';
import type { AccountTable } from '../state/accounts.js';
import type { MockClock } from '../state/clock.js';
import { codeForStatus, describeFault, type Fault, type FaultTable } from '../state/faults.js';
import type { MockRateLimits } from '../state/rate-limits.js';
import { recordHeaders, recordQuery } from '../state/request-log.js';
import type { MockAccount, Origin, RecordedRequest, RequestContext } from '../types.js';
import { modeForContentType, type ReadBody, readBody } from './body.js';
import { createContext } from './context.js';
import { type AnswerMode, type AnswerShape, sendAnswer } from './respond.js';
import type { Router } from './router.js';

/**
 * What the request pipeline of one listening origin works with. `G` is whatever composed the
 * pipeline (the running gateway): handlers get it as `ctx.gateway`, the pipeline never looks in.
 */
export interface PipelineDeps<G> {
  /** Which origin this pipeline serves: `api` or `media`. */
  origin: Origin;
  /** The origin's routes. */
  router: Router<RequestContext & { readonly gateway: G }>;
  /** The gateway, once it is built. */
  gateway: () => G;
  /** Resolves keys to accounts. */
  accounts: AccountTable;
  /** Injected faults. */
  faults: FaultTable;
  /** The request log every request is appended to. */
  requests: RecordedRequest[];
  /** The mock clock, for arrival times. */
  clock: MockClock;
  /** Issues the next `X-Service-Request-Id`. */
  nextRequestId: () => string;
  /** Aborted when the gateway closes: ends delays and hangs. */
  closing: AbortSignal;
  /**
   * The gateway's rate limits (testing/state/rate-limits.ts): on the API origin's pipeline only, not
   * the media origin's nor the dashboard's (which reuses the other inputs).
   */
  rateLimits?: MockRateLimits | undefined;
}

/**
 * The request pipeline: request ID, fault, body, request log, then route lookup,
 * authentication, body errors and the route itself. Errors a route throws become answers.
 */
export function createRequestHandler<G>(
  deps: PipelineDeps<G>,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(deps, req, res).catch((error: unknown) => {
      console.error('mock gateway: unexpected error', error);
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  };
}

async function handle<G>(deps: PipelineDeps<G>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const id = deps.nextRequestId();
  res.setHeader('X-Service-Request-Id', id);
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const method = (req.method ?? 'GET').toUpperCase();
  const record: RecordedRequest = {
    id,
    origin: deps.origin,
    method,
    path: url.pathname,
    query: recordQuery(url.searchParams),
    headers: recordHeaders(req.headers),
    at: deps.clock.now(),
  };
  const fault = deps.faults.take(method, url.pathname, deps.origin);
  if (fault) record.fault = describeFault(fault);
  if (fault && 'reset' in fault && fault.reset === 'before-body') {
    deps.requests.push(record);
    req.socket.destroy();
    return;
  }

  const match = deps.router.match(method, url.pathname);
  const route = match.kind === 'found' ? match.route : undefined;
  const read = await readBody(
    req,
    route?.options.body ?? modeForContentType(req.headers['content-type']),
    !route,
  );
  logBody(record, read);
  deps.requests.push(record);
  if (read.aborted) {
    record.error = 'the client went away before the body was complete';
    return;
  }

  let mode: AnswerMode = 'normal';
  if (fault) {
    const decided = await applyFault(deps, fault, res, record);
    if (decided === 'answered') return;
    mode = decided;
  }
  const answerError = (error: MockHttpError) =>
    sendAnswer(
      res,
      {
        status: error.status,
        headers: { 'Content-Type': 'application/json', ...error.headers },
        body: JSON.stringify(error.body),
      },
      { mode, ...(fault ? answerShape(fault) : {}), onStatus: (status) => (record.status = status) },
    );

  if (match.kind === 'not-found') {
    return answerError(MockHttpError.spec(404, 'not_found', `no route for ${method} ${url.pathname}`));
  }
  if (match.kind === 'method-not-allowed') {
    const error = MockHttpError.spec(
      405,
      'method_not_allowed',
      `${method} is not allowed on ${url.pathname}`,
    );
    error.headers.Allow = match.allowed.join(', ');
    return answerError(error);
  }
  const auth = authenticate(deps.accounts, req.headers.authorization);
  if (match.route.options.auth && auth instanceof MockHttpError) return answerError(auth);
  if (read.error) return answerError(read.error);
  // Rate limits: 429 with Retry-After before the route runs, so no task is created.
  const admitted = deps.rateLimits?.admit({
    method,
    path: url.pathname,
    authorization: req.headers.authorization,
    model: modelOf(read),
    ip: req.socket.remoteAddress,
  });
  if (admitted instanceof MockHttpError) return answerError(admitted);
  if (admitted) res.once('close', admitted.done);

  const account: MockAccount | undefined = auth instanceof MockHttpError ? undefined : auth.account;
  const ctx = createContext({
    gateway: deps.gateway(),
    req,
    res,
    record,
    params: match.params,
    query: url.searchParams,
    body: read.body,
    raw: read.raw,
    parts: read.parts ?? [],
    account,
    allowedModels: auth instanceof MockHttpError ? undefined : auth.models,
    mode,
    shape: fault ? answerShape(fault) : {},
  });
  try {
    await match.route.handler(ctx);
    if (!ctx.answered)
      throw new Error(`the route ${match.route.method} ${match.route.pattern} did not answer`);
  } catch (error) {
    if (error instanceof MockHttpError && !ctx.answered) return answerError(error);
    record.error = error instanceof Error ? error.message : String(error);
    if (ctx.answered) return void res.destroy();
    return answerError(MockHttpError.spec(500, 'internal_error', `mock gateway error: ${record.error}`));
  }
}

/** The model a JSON body or a form names. */
function modelOf(read: ReadBody): string | undefined {
  const model =
    (read.body as { model?: unknown } | undefined)?.model ??
    read.parts?.find((part) => part.name === 'model')?.value ??
    modelOfRaw(read.raw);
  return typeof model === 'string' ? model : undefined;
}

/**
 * The model of a JSON body a route reads raw (the image generations take JSON or a form), so the
 * per key and model limits hold for them too.
 */
function modelOfRaw(raw: Buffer | undefined): unknown {
  if (raw?.[0] !== 0x7b) return undefined;
  try {
    return (JSON.parse(raw.toString('utf8')) as { model?: unknown } | null)?.model;
  } catch {
    return undefined;
  }
}

function logBody(record: RecordedRequest, read: ReadBody): void {
  record.bodySize = read.size;
  if (read.body !== undefined) record.body = read.body;
  if (read.parts) record.parts = read.parts;
}

/**
 * Applies a fault after the body was read. Returns `'answered'` when the fault answered (or
 * chose never to), or the answer mode the route's own answer must go out in.
 */
async function applyFault<G>(
  deps: PipelineDeps<G>,
  fault: Fault,
  res: ServerResponse,
  record: RecordedRequest,
): Promise<AnswerMode | 'answered'> {
  const onStatus = (status: number) => {
    record.status = status;
  };
  if ('delayMs' in fault) {
    await delay(fault.delayMs, undefined, { signal: deps.closing }).catch(() => undefined);
    return deps.closing.aborted ? 'answered' : 'normal';
  }
  if ('status' in fault) {
    const { status } = fault;
    const isText = typeof fault.body === 'string';
    const body = isText
      ? (fault.body as string)
      : JSON.stringify(fault.body ?? specErrorBody(codeForStatus(status), `mock fault: HTTP ${status}`));
    const headers = { 'Content-Type': isText ? 'text/plain' : 'application/json', ...fault.headers };
    await sendAnswer(res, { status, headers, body }, { mode: 'normal', onStatus });
    return 'answered';
  }
  if ('hang' in fault) return 'answered'; // the socket is destroyed by close()
  if ('truncate' in fault) return 'truncate';
  if ('drip' in fault) return 'drip';
  if ('padBytes' in fault) return 'pad';
  if ('reset' in fault) {
    if (fault.reset === 'after-body' && fault.runHandler) return 'reset';
    res.destroy();
    return 'answered';
  }
  if (fault.runHandler) return 'malformed';
  await sendAnswer(res, { status: 200 }, { mode: 'malformed', onStatus });
  return 'answered';
}

/** The details a `truncate`, `drip` or `padBytes` fault gives the route's answer. */
function answerShape(fault: Fault): AnswerShape {
  if ('truncate' in fault) return { truncateBytes: fault.bytes };
  if ('drip' in fault) return { drip: fault.drip };
  if ('padBytes' in fault) return { padBytes: fault.padBytes };
  return {};
}

/** The caller's account and model limits, or the spec's 401. spec: Authentication. */
function authenticate(accounts: AccountTable, header: string | undefined) {
  if (!header)
    return MockHttpError.spec(401, 'unauthorized', 'missing API key: send Authorization: Bearer <API_KEY>');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1])
    return MockHttpError.spec(401, 'unauthorized', 'the Authorization header must be Bearer <API_KEY>');
  return accounts.resolve(match[1]) ?? MockHttpError.spec(401, 'invalid_api_key', 'the API key is not valid');
}
