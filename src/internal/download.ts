import { MediaDownload } from '../core/download.js';
import type { RequestOptions } from './request-spec.js';
import { TIMEOUTS } from './timeouts.js';
import type { Transport } from './transport.js';

/**
 * Opens a streamed GET as a {@link MediaDownload}. `url` is absolute (a result URL) or the
 * request goes to `path` on the gateway; the key is sent only to the gateway's origin.
 */
export async function openDownload(
  transport: Transport,
  target: { path: string; url?: string | undefined },
  options?: RequestOptions,
): Promise<MediaDownload> {
  const response = await transport.stream({
    method: 'GET',
    path: target.path,
    url: target.url,
    retry: 'safe',
    timeout: TIMEOUTS.default,
    options,
  });
  const signal = options?.signal;
  if (signal) {
    // The caller's signal keeps its meaning while the body streams.
    const onAbort = () => response.body.destroy(signal.reason);
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
