// The rules themselves live in core/, where `fileFromURL` follows them too.
export { MAX_REDIRECTS, RedirectRefusedError, redirectTarget } from './redirect-policy.js';

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
