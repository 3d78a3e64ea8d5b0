// What a request looks like before it is sent: its name in messages, and its headers.
import { crossOriginHeaders } from './redirects.js';
import type { RequestSpec } from './request-spec.js';

/**
 * `METHOD /v1/path` for the messages; for a full URL (a result link), its origin and path:
 * never its query, which may hold a presigned signature, nor a user name or password.
 */
export function describeRequest(spec: RequestSpec): string {
  const url = (spec as { url?: string | undefined }).url;
  if (url !== undefined) {
    try {
      const parsed = new URL(url);
      return `${spec.method} ${parsed.origin}${parsed.pathname}`;
    } catch {
      return `${spec.method} (a URL that cannot be parsed)`;
    }
  }
  return `${spec.method} /v1${spec.path}`;
}

/** What the headers of one request are built from, besides the spec. */
export interface HeaderSources {
  userAgent: string;
  /** The client's `defaultHeaders`, with lower-cased names. */
  defaultHeaders: Record<string, string> | undefined;
  /** The headers of the body the SDK built (its content type and any of its own). */
  extra: Record<string, string> | undefined;
  /** `Bearer <key>` when the key goes to this URL, else `undefined`: none is sent. */
  authorization: string | undefined;
  /** Whether the URL is on the first URL's origin; off it, only the cross-origin headers go. */
  sameOrigin: boolean;
}

/** The headers of a request, with lower-cased names, as undici sends them and redirects filter them. */
export function requestHeaders(spec: RequestSpec, sources: HeaderSources): Record<string, string> {
  // identity: with no Accept-Encoding a server may compress (RFC 9110), and undici's path reads
  // bytes as they come. A caller whose dispatcher decompresses can ask otherwise (defaultHeaders).
  const headers: Record<string, string> = {
    accept: 'application/json',
    'accept-encoding': 'identity',
    'user-agent': sources.userAgent,
  };
  if (sources.defaultHeaders) Object.assign(headers, sources.defaultHeaders);
  const perCall = spec.options?.headers;
  if (perCall) {
    for (const [key, value] of Object.entries(perCall)) {
      if (value === null) delete headers[key.toLowerCase()];
      else if (value !== undefined) headers[key.toLowerCase()] = value;
    }
  }
  // The SDK builds every body it sends, and it alone says what that body is: a caller's
  // `content-type` or `content-length` (in `defaultHeaders` or a call's `headers`) would
  // describe another one (a multipart body without its boundary, JSON as `text/plain`), so
  // both are dropped, and a request without a body has neither.
  delete headers['content-type'];
  delete headers['content-length'];
  if (sources.extra) Object.assign(headers, sources.extra);
  if (!sources.sameOrigin) return crossOriginHeaders(headers);
  if (sources.authorization !== undefined) headers.authorization = sources.authorization;
  else delete headers.authorization;
  return headers;
}
