import { describeCause } from '../core/errors.js';
import { checkCallback } from '../core/options.js';
import { ProgressThrottle } from '../core/progress.js';
import type { RequestOptions, StreamBody } from './request-spec.js';
import type { Transport } from './transport.js';
import type { StreamOptions } from './upload-file.js';

/** Progress of a request body being sent. */
export interface UploadProgress {
  /** Bytes of the body handed to the connection so far, multipart framing included. */
  bytes: number;
  /** The body's length in bytes (its `Content-Length`); `undefined` for a stream of unknown length. */
  total: number | undefined;
}

/** Options of a call that sends files: the options of every call, and `onProgress`. */
export interface UploadOptions extends RequestOptions {
  /**
   * Called as the body is sent: at most every 100 ms (about 10 times a second however small
   * the chunks), and once more when its last byte is handed over, with `bytes === total`. A
   * retried request sends its body again, and its progress starts again from 0. Not awaited;
   * what it throws, or a promise it returns rejects with, never changes the call (the request
   * may be a billable submission half sent): it is logged at `warn` (or emitted as a process
   * warning without a logger) and the callback is not called again for that attempt.
   * @throws InvalidOptionError (rejected, before anything is sent) when it is not a function.
   */
  onProgress?: ((progress: UploadProgress) => void) | undefined;
}

/** Builds a streamed body for one attempt, as `RequestSpec.stream` does. */
type StreamFactory = (options: StreamOptions) => Promise<StreamBody>;

/**
 * Splits the upload's own option from the request's, checking it: so that a misspelt callback
 * refuses the call before anything is read or sent.
 *
 * @throws InvalidOptionError when `onProgress` is given and is not a function.
 */
export function splitUploadOptions(options: UploadOptions | undefined): {
  onProgress: UploadOptions['onProgress'];
  request: RequestOptions | undefined;
} {
  if (!options) return { onProgress: undefined, request: undefined };
  const { onProgress, ...request } = options;
  checkCallback('onProgress', onProgress);
  return { onProgress, request };
}

/**
 * Wraps a body factory so that every attempt's body reports its bytes to `onProgress`. Without
 * a callback the factory is returned as it is: no layer is added to the chunks of an upload
 * nobody watches.
 *
 * @param failed - told what the callback threw or its promise rejected with, once per attempt.
 * @param now - the clock of the throttle, in milliseconds.
 */
export function reportingProgress(
  factory: StreamFactory,
  onProgress: UploadOptions['onProgress'],
  failed: (error: unknown) => void,
  now: () => number = () => performance.now(),
): StreamFactory {
  if (!onProgress) return factory;
  return async (options) => {
    const built = await factory(options);
    const length = Number(built.headers['content-length']);
    const total = Number.isSafeInteger(length) && length >= 0 ? length : undefined;
    return { ...built, body: counted(built.body, total, onProgress, failed, now) };
  };
}

/**
 * The body's chunks as they come, counted: a chunk counts once the consumer asks for the next
 * one, which undici does only after writing it. Nothing is read ahead or held.
 */
async function* counted(
  source: AsyncIterable<Uint8Array>,
  total: number | undefined,
  onProgress: (progress: UploadProgress) => void,
  failed: (error: unknown) => void,
  now: () => number,
): AsyncGenerator<Uint8Array, void, undefined> {
  // The request goes on whatever the callback does: stopping a submission half sent would leave
  // its outcome unclear.
  const progress = new ProgressThrottle(onProgress, total, { failed, throwStops: false, now });
  for await (const chunk of source) {
    // Read before yielding: with reused buffers the chunk may be refilled once written.
    const size = chunk.byteLength;
    yield chunk;
    progress.add(size);
  }
  progress.end();
}

/**
 * What a resource hands {@link reportingProgress} as `failed`: the callback's error, reported
 * through the client (its logger at `warn`, else a process warning), naming the operation.
 */
export function progressFailed(
  transport: Pick<Transport, 'warn'>,
  operation: string,
): (error: unknown) => void {
  return (error) =>
    transport.warn(
      `${operation}: onProgress threw (${describeCause(error)}); the request went on, and onProgress is ` +
        'not called again for this attempt',
      'MEDIAGW_PROGRESS_CALLBACK_FAILED',
    );
}
