// `fileFromURL`: a download streamed to a temporary file, under a deadline, made into a File. Its
// GET goes out on the client's wire: the same undici or fetch sender, the same redirect loop.
import { constants, openAsBlob, rmSync } from 'node:fs';
import { open, stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Dispatcher } from 'undici';
import { Deadline } from '../core/deadline.js';
import { APIUserAbortError, FileInputError } from '../core/errors.js';
import type { FetchLike } from '../core/fetch-like.js';
import { defaultNameForType, OCTET_STREAM, sniffType } from '../core/file-type.js';
import { blobReader } from '../core/image-header.js';
import { checkOptions, count, duration, InvalidOptionError } from '../core/options.js';
import { scrubbedError, showUnparsedURL, showURL, urlScrubber } from '../core/redact.js';
import { rememberFileOnDisk, whyUnreadable } from './disk-file.js';
import { fetchRequest } from './fetch-send.js';
import { checkFileOptions, type FileOptions } from './file-options.js';
import { followRedirects } from './follow-redirects.js';
import { RedirectRefusedError } from './redirects.js';
import type { OutgoingRequest, RawResponse } from './request-spec.js';
import { loadUndici, plainAgent, undiciRequest } from './undici.js';

/** Options of {@link fileFromURL}. */
export interface FileFromURLOptions extends FileOptions {
  /** undici dispatcher for the download (proxy, pool, MockAgent). Not with `fetch`. @default an undici Agent of its own */
  dispatcher?: Dispatcher | undefined;
  /**
   * A WHATWG `fetch` to download with, in place of undici (redirects still followed by the same
   * rules).
   * @default undici; the runtime's `fetch` where `import('undici')` gives a stand-in (Bun's)
   */
  fetch?: FetchLike | undefined;
  /**
   * The most bytes to download: a larger body is cut off there, nothing of it is kept, and the
   * call fails. The default is above the largest image the gateway takes (library images below
   * 30 MB; uploads 20 MiB), so that a URL cannot fill the disk.
   * @default 33554432 (32 MiB)
   */
  maxBytes?: number | undefined;
  /** Aborts the download. */
  signal?: AbortSignal | undefined;
  /** Directory that holds the download until it is no longer used. @default os.tmpdir() */
  tempDir?: string | undefined;
  /**
   * Milliseconds the whole download may take: connecting, every redirect and the entire body.
   * A server that sends a byte now and then is stopped here, where a limit on the pause between
   * chunks would wait for good. A whole number from 1 to 2147483647.
   * @default 300000 (5 minutes)
   */
  timeout?: number | undefined;
}

/**
 * `fileFromURL`'s default `timeout`: five minutes, enough for the default `maxBytes` at about
 * 1 Mbit/s, and as long as undici alone would wait for the next chunk.
 */
const DEFAULT_DOWNLOAD_TIMEOUT = 300_000;

/**
 * Downloads `url` and returns a file of its bytes, for uploading them (the gateway takes uploaded
 * bytes, not URLs, as edit inputs). The download is streamed into a temporary file, never held in
 * memory; the temporary file is deleted when the returned `File` is garbage-collected, or at the
 * latest when the process exits. Keep a reference to the returned `File` while you use it.
 * Only `http:` and `https:` URLs are taken: a `file:` URL is refused (use `fileFromPath`),
 * and so is a `data:` URL (use `fileFromBase64`). A URL with credentials
 * (`https://user:password@host/…`) is refused too: they are never sent, nor carried to where a
 * redirect leads. Redirects are followed by the client's own rules: at most 5, to `http:` or
 * `https:` only, and never from `https:` to `http:`, where the request would go unencrypted.
 *
 * The temporary file is created exclusively under a random name, readable by this user only
 * (mode 0o600), and removed on any failure. Messages name the URL without its query, fragment or
 * credentials, so a presigned URL's signature stays out of errors and logs; a network error kept
 * as `cause` is a copy cleaned the same way (its name, message, stack and system code), since the
 * original can hold the URL whole.
 *
 * @throws InvalidOptionError, before any request, when `options` is not an object, `filename`,
 * `contentType` or `tempDir` is not text, `fetch` is not a function or is given with
 * `dispatcher`, `dispatcher` is not an undici Dispatcher, `signal` is not an AbortSignal, or
 * `maxBytes` or `timeout` is not a whole number in its range; FileInputError when the URL is
 * malformed (or its path's percent-encoding is), not `http(s):`, holds credentials, cannot be
 * downloaded (refused connection, reset, too many redirects, a redirect refused), answers other
 * than 2xx, with an empty body or with more than `maxBytes`, is not downloaded within `timeout`,
 * or the temporary file cannot be written; APIUserAbortError when `signal` aborts it (`cause`
 * holds the signal's reason).
 * @example
 * const image = await fileFromURL('https://example.com/photo.jpg');
 */
export async function fileFromURL(url: string | URL, options?: FileFromURLOptions): Promise<File> {
  const settings = checkURLOptions(options);
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    // Not the parse error as cause: it holds the whole text, query and all.
    throw new FileInputError('fileFromURL', showUnparsedURL(url), 'is not a valid absolute URL');
  }
  const shown = showURL(target);
  const refuse = (reason: string, cause?: unknown) =>
    new FileInputError('fileFromURL', shown, reason, cause === undefined ? undefined : { cause });
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    const instead =
      target.protocol === 'file:'
        ? '; for a file on disk use fileFromPath'
        : target.protocol === 'data:'
          ? '; for a data: URL use fileFromBase64'
          : '';
    throw refuse(`is not an http: or https: URL${instead}`);
  }
  if (target.username || target.password) {
    throw refuse(
      'has credentials (user:password@) in it, which fileFromURL never sends: remove them, ' +
        'or download the file yourself and pass its bytes',
    );
  }
  let lastSegment: string;
  try {
    lastSegment = decodeURIComponent(target.pathname.split('/').pop() ?? '');
  } catch (error) {
    throw refuse('has malformed percent-encoding in its path', error);
  }
  const visited = [target];
  const scrub = urlScrubber(visited);
  // The whole download's limit with the caller's signal, as one AbortSignal for the request,
  // its redirects and the body: undici's own timeouts restart with every chunk, so a server
  // sending a byte now and then would hold the call for good.
  const deadline = new Deadline(`fileFromURL: the download of ${shown}`, settings.timeout, settings.signal);
  const failed = (error: unknown) => {
    if (deadline.reason instanceof APIUserAbortError) return deadline.reason;
    if (deadline.aborted) {
      return refuse(
        `was not downloaded within the timeout (${settings.timeout} ms): the server answered too ` +
          'slowly or stopped sending; nothing was kept. Pass a larger timeout to wait longer',
      );
    }
    if (error instanceof FileInputError) return error;
    if (error instanceof RedirectRefusedError) {
      return refuse(`could not be downloaded: ${error.message.replace(/^fileFromURL: /, '')}`, error);
    }
    // The failure's own text and fields can hold the URL, query and all: both are cleaned.
    const cause = scrubbedError(error, scrub) as { message?: unknown; code?: unknown } | undefined;
    const said = typeof cause === 'string' ? cause : cause?.message || cause?.code || 'the download failed';
    // The wire's own errors name the operation, which the message has already said.
    return refuse(`could not be downloaded: ${String(said).replace(/^fileFromURL: /, '')}`, cause);
  };
  try {
    const response = await download(settings, deadline, visited);
    // The body's failures reach the call through the copy (keep); one that comes after it settled,
    // the deadline destroying the body as it ends, has no one left to tell.
    response.body.on('error', ignore);
    try {
      return await keep(response, settings, refuse, lastSegment, deadline.abortSignal);
    } catch (error) {
      response.body.destroy();
      throw error;
    }
  } catch (error) {
    throw failed(error);
  } finally {
    deadline.release();
  }
}

const ignore = () => undefined;

/** Named in the messages of refused redirects. */
const OPERATION = 'fileFromURL';

/** The statuses a redirect is followed from: the others of 3xx are answers (304, 300). */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * GETs the URL last in `visited` through undici, or through a fetch where one is given or undici
 * cannot run (`loadUndici`), and follows its redirects: at most `MAX_REDIRECTS`, http(s) only,
 * never from https to http, never to a URL with credentials. Each URL gone to is noted in
 * `visited`, so that a failure can be cleaned of it. The request carries no header of the
 * caller's, so nothing is kept back from another origin.
 *
 * @throws RedirectRefusedError for a redirect not followed; the transport's own failures as
 * they are (the caller cleans them).
 */
async function download(settings: URLSettings, deadline: Deadline, visited: URL[]): Promise<RawResponse> {
  const undici = settings.fetch ? undefined : await loadUndici();
  const dispatcher = undici && (settings.dispatcher ?? plainAgent(undici));
  const fetch = settings.fetch ?? (globalThis.fetch as unknown as FetchLike);
  const { answer } = await followRedirects(visited[0] as URL, {
    operation: OPERATION,
    // No redirect interceptor, no `redirect: 'follow'`: each hop comes back here, to be checked
    // by the SDK's rules. No timeout of the request's own: the deadline bounds the whole download.
    send: (url) => {
      const request: OutgoingRequest = {
        origin: url.origin,
        path: url.pathname + url.search,
        method: 'GET',
        headers: {},
        body: undefined,
        timeout: undefined,
        deadline,
      };
      return undici && dispatcher
        ? undiciRequest(undici, dispatcher, request)
        : fetchRequest(fetch, request, url.href, OPERATION);
    },
    read: (response) => ({
      status: response.status,
      requestId: undefined,
      location: response.headers.location,
    }),
    isRedirect: ({ status, location }) => REDIRECTS.has(status) && location !== undefined,
    // Read out, so that the connection can be reused.
    drop: (response) => response.body.dump().catch(() => undefined),
    tooMany: '',
    onTarget: (next, hop) => {
      // Noted before it is refused, so that a failure quoting it is cleaned of it.
      visited.push(next);
      if (next.username || next.password) {
        throw new RedirectRefusedError(
          `${OPERATION}: refused a redirect to a URL with credentials (user:password@), which are never sent`,
          hop.status,
          undefined,
        );
      }
    },
  });
  return answer;
}

/** The options of {@link fileFromURL}, checked, with their defaults. */
interface URLSettings extends FileFromURLOptions {
  maxBytes: number;
  timeout: number;
  tempDir: string;
}

/**
 * Checks every option of `fileFromURL` before anything is sent.
 *
 * @throws InvalidOptionError naming the option.
 */
function checkURLOptions(options: FileFromURLOptions | undefined): URLSettings {
  const given = checkFileOptions(options);
  const { dispatcher, fetch, signal, tempDir } = given;
  if (fetch !== undefined && (typeof fetch !== 'function' || dispatcher !== undefined)) {
    throw new InvalidOptionError('fetch', fetch, 'a function, and given without `dispatcher`');
  }
  if (
    dispatcher !== undefined &&
    (dispatcher === null || typeof (dispatcher as { dispatch?: unknown }).dispatch !== 'function')
  ) {
    throw new InvalidOptionError(
      'dispatcher',
      dispatcher,
      'an undici Dispatcher (an Agent, Pool or MockAgent)',
    );
  }
  if (signal !== undefined && !isAbortSignal(signal)) {
    throw new InvalidOptionError('signal', signal, 'an AbortSignal');
  }
  if (tempDir !== undefined && (typeof tempDir !== 'string' || tempDir === '')) {
    throw new InvalidOptionError('tempDir', tempDir, 'the path of a folder');
  }
  return {
    ...checkOptions(
      { maxBytes: count(1, DEFAULT_MAX_DOWNLOAD_BYTES), timeout: duration(DEFAULT_DOWNLOAD_TIMEOUT) },
      given,
    ),
    tempDir: tempDir ?? tmpdir(),
  };
}

function isAbortSignal(value: unknown): value is AbortSignal {
  const signal = value as Partial<AbortSignal> | null;
  return (
    typeof signal === 'object' &&
    signal !== null &&
    typeof signal.aborted === 'boolean' &&
    typeof signal.addEventListener === 'function' &&
    typeof signal.removeEventListener === 'function'
  );
}

/** Writes a 2xx answer's body to a new temporary file, capped, and makes the `File` of it. */
async function keep(
  response: RawResponse,
  settings: URLSettings,
  refuse: (reason: string, cause?: unknown) => FileInputError,
  lastSegment: string,
  signal: AbortSignal,
): Promise<File> {
  if (response.status < 200 || response.status >= 300) {
    await response.body.dump().catch(() => undefined);
    throw refuse(`answered HTTP ${response.status}`);
  }
  const { maxBytes, tempDir } = settings;
  const tempPath = newTempPath(tempDir);
  try {
    const handle = await open(tempPath, CREATE_EXCLUSIVE, 0o600).catch((error: unknown) => {
      throw refuse(`could not be kept: the temporary folder ${tempDir} ${whyUnreadable(error)}`, error);
    });
    let received = 0;
    const capped = async function* (source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
      for await (const chunk of source) {
        received += chunk.byteLength;
        if (received > maxBytes) {
          throw refuse(
            `is larger than maxBytes (${maxBytes} bytes): the download was stopped and nothing was kept; ` +
              'pass a larger maxBytes to take it',
          );
        }
        yield chunk;
      }
    };
    // The signal here too: whatever the body's source, the deadline ends the copy.
    await pipeline(response.body as AsyncIterable<Uint8Array>, capped, handle.createWriteStream(), {
      signal,
    });
    const { mtimeMs, size } = await stat(tempPath);
    if (size === 0) throw refuse('answered with an empty body: there is nothing to upload');
    const blob = (await openAsBlob(tempPath)) as Blob;
    const header = response.headers['content-type']?.split(';')[0]?.trim();
    const sniffed = await sniffType(blobReader(blob));
    const type =
      settings.contentType ?? (header && header !== OCTET_STREAM ? header : (sniffed ?? header ?? ''));
    const file = new File([blob], settings.filename ?? (lastSegment || defaultNameForType(type)), { type });
    tempFiles.register(file, tempPath);
    rememberFileOnDisk(file, { path: tempPath, start: 0, size: file.size, mtimeMs });
    return file;
  } catch (error) {
    await discardTemp(tempPath);
    throw error;
  }
}

/** `fileFromURL`'s default `maxBytes`: above the largest image the gateway takes. */
const DEFAULT_MAX_DOWNLOAD_BYTES = 32 * 1024 * 1024;

/** Created here or not at all, and never through a link at the path. */
const CREATE_EXCLUSIVE =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

// Temporary downloads: each is removed when its File is collected, and any left at exit.
const liveTemps = new Set<string>();
const tempFiles = new FinalizationRegistry<string>(removeTemp);

function newTempPath(dir: string): string {
  if (liveTemps.size === 0) process.once('exit', removeAllTemps);
  // The global Web Crypto loads `node:crypto` on first use; a top-level import would cost every
  // import of the SDK about 1.5 ms.
  const path = join(dir, `mediagw-download-${globalThis.crypto.randomUUID()}`);
  liveTemps.add(path);
  return path;
}

/** Removes a temporary download now, and waits until it is gone. */
async function discardTemp(path: string): Promise<void> {
  if (!liveTemps.delete(path)) return;
  if (liveTemps.size === 0) process.removeListener('exit', removeAllTemps);
  await unlink(path).catch(() => undefined);
}

function removeTemp(path: string): void {
  if (!liveTemps.delete(path)) return;
  unlink(path).catch(() => undefined);
  if (liveTemps.size === 0) process.removeListener('exit', removeAllTemps);
}

function removeAllTemps(): void {
  for (const path of liveTemps) rmSync(path, { force: true });
  liveTemps.clear();
}
