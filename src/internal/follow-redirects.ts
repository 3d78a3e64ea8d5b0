// The redirect loop of the client's downloads, by the rules of redirects.ts.
import { MAX_REDIRECTS, RedirectRefusedError, redirectTarget } from './redirects.js';
import type { RawResponse } from './request-spec.js';

const ignore = () => undefined;

/**
 * Sends to `first` and follows the redirects of its answers: at most {@link MAX_REDIRECTS}, and
 * only where {@link redirectTarget} allows (http(s), never from https to http). `send` is told
 * whether the URL is still on the first one's origin, so that it keeps the caller's headers there
 * alone. Gives the first answer that is not a redirect, with the URL that gave it.
 * @throws RedirectRefusedError naming `operation`, for a redirect refused or one too many.
 */
export async function followRedirects(
  operation: string,
  first: URL,
  send: (url: URL, sameOrigin: boolean) => Promise<RawResponse>,
): Promise<{ response: RawResponse; url: URL }> {
  let url = first;
  for (let hop = 0; ; hop++) {
    const response = await send(url, url.origin === first.origin);
    const location = response.headers.location;
    if (response.status < 300 || response.status >= 400 || !location) return { response, url };
    // Not read to its end: a redirect's body that stalls would hold the download until its
    // deadline. A body already received leaves its connection to be reused.
    response.body.on('error', ignore).destroy();
    // A loop answers the same each time: refused, not retried (as fileFromURL does).
    if (hop >= MAX_REDIRECTS) {
      throw new RedirectRefusedError(
        `${operation}: more than ${MAX_REDIRECTS} redirects; the link leads in a loop or too far`,
        response.status,
        response.requestId,
      );
    }
    url = redirectTarget(operation, response, url, location);
  }
}
