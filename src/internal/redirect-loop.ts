// The one redirect loop of the SDK: the client's downloads (internal/transport.ts) and
// `fileFromURL` (url-download.ts) both follow their redirects here, by the rules of
// redirect-policy.ts. Pure: how a hop is sent, read and let go of is the caller's.
import { MAX_REDIRECTS, RedirectRefusedError, redirectTarget } from './redirect-policy.js';

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
