// Which redirects the SDK follows and which headers may go along: one rule set for the client's
// downloads and `fileFromURL`, followed by the one loop in follow-redirects.ts.
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

/**
 * Headers that may follow a download's redirect to another origin. Everything else (the key,
 * `defaultHeaders`, cookies, a call's own headers) is meant for the origin it was sent to.
 */
export const CROSS_ORIGIN_HEADERS = ['accept', 'accept-encoding', 'range', 'if-range', 'user-agent'] as const;

/** Of a request's headers, those that may go to another origin ({@link CROSS_ORIGIN_HEADERS}). */
export function crossOriginHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const allowed: Record<string, string> = {};
  for (const name of CROSS_ORIGIN_HEADERS) {
    const value = headers[name];
    if (value !== undefined) allowed[name] = value;
  }
  return allowed;
}
