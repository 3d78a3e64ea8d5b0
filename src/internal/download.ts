import { APIUserAbortError, abortedBy } from '../core/errors.js';
import { MediaDownload } from './media-download.js';
import type { RequestOptions } from './request-spec.js';
import { TIMEOUTS } from './timeouts.js';
import type { Transport } from './transport.js';

/** Where a download is fetched from: `url` when absolute (a result URL), else `path` on the gateway. */
export interface DownloadTarget {
  path: string;
  url?: string | undefined;
}

/**
 * Opens a streamed GET as a {@link MediaDownload}. `url` is absolute (a result URL) or the
 * request goes to `path` on the gateway; the key is sent only to the gateway's origin. A function
 * in place of the target is called here, so a target refused while being built (a bad ID) rejects.
 */
export async function openDownload(
  transport: Transport,
  target: DownloadTarget | (() => DownloadTarget),
  options?: RequestOptions,
): Promise<MediaDownload> {
  const { path, url } = typeof target === 'function' ? target() : target;
  const response = await transport.stream({
    method: 'GET',
    path,
    url,
    retry: 'safe',
    timeout: TIMEOUTS.default,
    options,
  });
  const signal = options?.signal;
  if (signal) {
    // The caller's signal keeps its meaning while the body streams: an APIUserAbortError with
    // the reason as cause, whatever the reason is (an Error, a string, AbortSignal.timeout()'s).
    const onAbort = () =>
      response.body.destroy(
        new APIUserAbortError(`The download was aborted ${abortedBy(signal.reason)}.`, {
          cause: signal.reason,
        }),
      );
    signal.addEventListener('abort', onAbort, { once: true });
    response.body.once('close', () => signal.removeEventListener('abort', onAbort));
  }
  const length = Number(response.headers['content-length']);
  return new MediaDownload(response.body, {
    contentType: response.headers['content-type'],
    contentLength: Number.isFinite(length) && response.headers['content-length'] ? length : undefined,
    requestId: response.requestId,
  });
}
