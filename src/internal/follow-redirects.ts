// How the client's downloads follow redirects: the SDK's one loop (core/redirect-loop.ts) over
// the transport's answers.
import { followRedirects } from './redirect-loop.js';
import type { RawResponse } from './request-spec.js';

const ignore = () => undefined;

/**
 * Sends to `first` and follows the redirects of its answers (any 3xx with a `Location`), by the
 * loop and rules of core/: at most 5, never from https to http. `send` is told whether the URL
 * is still on the first one's origin, so that it keeps the caller's headers there alone.
 * @throws RedirectRefusedError naming `operation`, for a redirect refused or one too many.
 */
export function followDownloadRedirects(
  operation: string,
  first: URL,
  send: (url: URL, sameOrigin: boolean) => Promise<RawResponse>,
): Promise<{ answer: RawResponse; url: URL }> {
  return followRedirects(first, {
    operation,
    send,
    read: (response) => ({
      status: response.status,
      requestId: response.requestId,
      location: response.headers.location,
    }),
    isRedirect: ({ status, location }) => status >= 300 && status < 400 && !!location,
    // Not read to its end: a redirect's body that stalls would hold the download until its
    // deadline. A body already received leaves its connection to be reused.
    drop: (response) => void response.body.on('error', ignore).destroy(),
    tooMany: '; the link leads in a loop or too far',
  });
}
