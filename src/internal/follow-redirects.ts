// The one redirect loop of the SDK: the client's downloads (`followDownloadRedirects`, for the
// transport) and `fileFromURL` (file-from-url.ts) both follow their redirects here, by the rules
// of redirects.ts. How a hop is sent, read and let go of is the caller's.
import { MAX_REDIRECTS, RedirectRefusedError, redirectTarget } from './redirects.js';
import type { RawResponse } from './request-spec.js';

/** What the loop reads of one answer. */
export interface HopAnswer {
  status: number;
  requestId: string | undefined;
  location: string | undefined;
}

/** How one caller's hops are sent, read and let go of. */
export interface RedirectHops<A> {
  /** Named in the messages of refused redirects. */
  operation: string;
  /** Sends to `url`; `sameOrigin` says whether it is still on the first URL's origin. */
  send(url: URL, sameOrigin: boolean): Promise<A>;
  /** The status, request ID and `Location` of an answer. */
  read(answer: A): HopAnswer;
  /** Whether an answer is a redirect to follow (else it is the answer). */
  isRedirect(hop: HopAnswer): boolean;
  /** Lets go of a redirect's answer, before the next hop or the refusal. */
  drop(answer: A): void | Promise<void>;
  /** Said after `more than 5 redirects` in the refusal of one too many. */
  tooMany: string;
  /** Called with each target before it is sent to; throws to refuse it. */
  onTarget?(to: URL, hop: HopAnswer): void;
}

/**
 * Sends to `first` and follows the redirects of its answers: at most {@link MAX_REDIRECTS}, and
 * only where {@link redirectTarget} allows (http(s), never from https to http). Gives the first
 * answer that is not a redirect, with the URL that gave it.
 * @throws RedirectRefusedError naming the operation, for a redirect refused or one too many.
 */
export async function followRedirects<A>(
  first: URL,
  hops: RedirectHops<A>,
): Promise<{ answer: A; url: URL }> {
  let url = first;
  for (let hop = 0; ; hop++) {
    const answer = await hops.send(url, url.origin === first.origin);
    const read = hops.read(answer);
    if (!hops.isRedirect(read)) return { answer, url };
    await hops.drop(answer);
    // A loop answers the same each time: refused, not retried.
    if (hop >= MAX_REDIRECTS) {
      throw new RedirectRefusedError(
        `${hops.operation}: more than ${MAX_REDIRECTS} redirects${hops.tooMany}`,
        read.status,
        read.requestId,
      );
    }
    url = redirectTarget(hops.operation, read, url, read.location as string);
    hops.onTarget?.(url, read);
  }
}

const ignore = () => undefined;

/**
 * Sends to `first` and follows the redirects of its answers (any 3xx with a `Location`), by the
 * loop above and the rules of redirects.ts: at most 5, never from https to http. `send` is told whether the URL
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
