// The GET behind `fileFromURL`: through undici, or through a fetch, following redirects by the
// SDK's own rules (`redirectTarget`) on both, hop by hop.
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { FetchInit, FetchLike } from '../core/fetch-like.js';
import { untilAborted } from '../core/until-aborted.js';
import { followRedirects } from './redirect-loop.js';
import { MAX_REDIRECTS, RedirectRefusedError } from './redirect-policy.js';

/** A download's answer, whichever way it was fetched; the body is a stream or an async iterable. */
export interface Downloaded {
  status: number;
  contentType: string | undefined;
  body: AsyncIterable<Uint8Array> | NodeJS.ReadableStream;
  /** Reads out the rest of an answer not wanted (a refusal), so its connection can be reused. */
  discard(): Promise<void>;
  /** Drops the body at once, after a failure. */
  destroy(): void;
}

/** How to send a download, and where to note each URL it goes to. */
export interface DownloadRequest {
  /** undici dispatcher; undici's path only. */
  dispatcher?: Dispatcher | undefined;
  /** A fetch to send with in place of undici. */
  fetch?: FetchLike | undefined;
  /** Ends the download: the caller's signal and the deadline together. */
  signal: AbortSignal;
  /** Each URL the download is sent to, the first included, so failures can be cleaned of them. */
  visited: URL[];
}

/** Named in the messages of refused redirects. */
const OPERATION = 'fileFromURL';

/** The statuses a redirect is followed from: the others of 3xx are answers (304, 300). */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The agent of `fileFromURL`, made on first use. */
let downloadAgent: import('undici').Agent | undefined;

/**
 * GETs the URL last in `request.visited` through undici, or through a fetch where one is given
 * or undici cannot run, and follows its redirects: at most {@link MAX_REDIRECTS}, http(s) only,
 * never from https to http, never to a URL with credentials. The request carries no header of
 * the caller's, so nothing is kept back from another origin.
 *
 * @throws RedirectRefusedError for a redirect not followed; the transport's own failures as
 * they are (the caller cleans them).
 */
export async function download(request: DownloadRequest): Promise<Downloaded> {
  const undici = request.fetch ? undefined : await import('undici');
  // Bun answers `import('undici')` with a stand-in whose Agent cannot compose: its fetch serves.
  const send =
    undici && typeof undici.Agent?.prototype?.compose === 'function'
      ? undiciSender(undici, request)
      : fetchSender(request.fetch ?? (globalThis.fetch as unknown as FetchLike), request.signal);
  const { answer } = await followRedirects(request.visited[0] as URL, {
    operation: OPERATION,
    send,
    read: ({ response, location }) => ({ status: response.status, requestId: undefined, location }),
    isRedirect: ({ status, location }) => REDIRECTS.has(status) && location !== undefined,
    drop: ({ response }) => response.discard(),
    tooMany: '',
    onTarget: (next, hop) => {
      // Noted before it is refused, so that a failure quoting it is cleaned of it.
      request.visited.push(next);
      if (next.username || next.password) {
        throw new RedirectRefusedError(
          `${OPERATION}: refused a redirect to a URL with credentials (user:password@), which are never sent`,
          hop.status,
          undefined,
        );
      }
    },
  });
  return answer.response;
}

type Sender = (url: URL) => Promise<{ response: Downloaded; location: string | undefined }>;

function undiciSender(undici: typeof import('undici'), request: DownloadRequest): Sender {
  // Not the global dispatcher: once Node's own fetch has run, that slot can hold the older
  // undici bundled with Node 20 and 22.
  downloadAgent ??= new undici.Agent();
  const dispatcher = request.dispatcher ?? downloadAgent;
  return async (url) => {
    // No redirect interceptor: each hop comes back here, to be checked by the SDK's rules.
    const answer = await undici.request(url, { method: 'GET', dispatcher, signal: request.signal });
    const response: Downloaded = {
      status: answer.statusCode,
      contentType: headerValue(answer.headers['content-type']),
      body: answer.body,
      discard: () => answer.body.dump().catch(() => undefined),
      destroy: () => answer.body.destroy(),
    };
    return { response, location: headerValue(answer.headers.location) };
  };
}

function fetchSender(fetch: FetchLike, signal: AbortSignal): Sender {
  return async (url) => {
    const init: FetchInit = { method: 'GET', headers: {}, redirect: 'manual', signal };
    // Raced: a fetch given that does not heed the signal still ends with the timeout.
    const answer = await untilAborted(() => fetch(url.href, init), signal);
    const body = answer.body;
    const discard = async () => {
      const cancel = (body as { cancel?: () => Promise<void> } | null)?.cancel;
      await cancel?.call(body).catch(() => undefined);
    };
    let location: string | undefined;
    let contentType: string | undefined;
    answer.headers.forEach((value, key) => {
      if (key.toLowerCase() === 'location') location = value;
      if (key.toLowerCase() === 'content-type') contentType = value;
    });
    // A web ReadableStream is async-iterable in every runtime the SDK supports (Node 20+, Bun).
    const chunks = (body ?? Readable.from([])) as AsyncIterable<Uint8Array>;
    const response: Downloaded = {
      status: answer.status,
      contentType,
      body: chunks,
      discard,
      destroy: () => void discard(),
    };
    return { response, location };
  };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
