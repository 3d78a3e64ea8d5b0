// Which redirects the SDK follows. Here, below internal/, so that `fileFromURL` (a core helper)
// keeps the same rules as the client's downloads; internal/redirects.ts hands them on.
import { RedirectRefusedError } from '../core/errors/transport.js';

/** The most redirects a download follows. */
export const MAX_REDIRECTS = 5;

// The error of a refused redirect, declared with the other errors.
export { RedirectRefusedError };

/**
 * Where a redirect leads, if the SDK follows it: http(s) only, and never from https to http.
 * @throws RedirectRefusedError naming `operation`, with the redirect's status and request ID.
 */
export function redirectTarget(
  operation: string,
  answer: { status: number; requestId: string | undefined },
  from: URL,
  location: string,
): URL {
  let to: URL | undefined;
  try {
    to = new URL(location, from);
  } catch {
    // An unparsable Location is refused below.
  }
  const allowed =
    to !== undefined && (to.protocol === 'https:' || (to.protocol === 'http:' && from.protocol === 'http:'));
  if (allowed) return to as URL;
  const why =
    to === undefined
      ? 'whose Location is not a valid URL'
      : to.protocol === 'http:'
        ? 'from https to http, which would send the request unencrypted'
        : 'to a URL that is not http(s)';
  throw new RedirectRefusedError(`${operation}: refused a redirect ${why}`, answer.status, answer.requestId);
}
