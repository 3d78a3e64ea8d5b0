import { MediaGatewayError } from '../core/base-error.js';

/**
 * Normalises a base URL to its scheme-and-host root (plus any path prefix other than `/v1`),
 * without a trailing slash. `https://h`, `https://h/`, `https://h/v1` and `https://h/v1/` all
 * give `https://h`, so `/v1` is never sent twice (spec: Versioning 1).
 */
export function normalizeBaseURL(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new MediaGatewayError(
      `baseURL ${JSON.stringify(raw)} is not a URL; expected e.g. https://gateway.example.com`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new MediaGatewayError(`baseURL must use http or https, not ${url.protocol.replace(':', '')}`);
  }
  if (url.username || url.password) {
    throw new MediaGatewayError('baseURL must not carry credentials; pass the key as apiKey');
  }
  const path = url.pathname
    .replace(/\/{2,}/g, '/')
    .replace(/\/+$/, '')
    .replace(/\/v1$/, '');
  return `${url.origin}${path}`;
}

/**
 * Tagged template for API paths: every interpolated value is percent-encoded as one segment.
 * An empty value, `.` or `..` is refused: it would not be a segment of its own (a URL parser
 * folds `..`, even as `%2E%2E`, into the segment before it).
 *
 * @example path`/videos/${id}/content` // '/videos/abc%2F..%2Fx/content' for a hostile id
 */
export function path(strings: TemplateStringsArray, ...values: Array<string | number>): string {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    const text = String(value);
    if (text === '') throw new MediaGatewayError('An ID in the request path is empty');
    if (text === '.' || text === '..') {
      throw new MediaGatewayError(`An ID in the request path is ${JSON.stringify(text)}, which is not an ID`);
    }
    out += encodeURIComponent(text) + (strings[i + 1] ?? '');
  });
  return out;
}

/** Query values the SDK sends; undefined entries are left out. */
export type QueryValue = string | number | boolean | undefined;

/**
 * Joins a base path (the base URL's path prefix, usually empty), `/v1`, the path and the query:
 * the request target below the origin. Every part is already encoded, and `path` leaves no dot
 * segment, so the target needs no URL parser.
 */
export function buildPath(basePath: string, apiPath: string, query?: Record<string, QueryValue>): string {
  let url = `${basePath}/v1${apiPath}`;
  if (query) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) params.append(key, String(value));
    }
    const text = params.toString();
    if (text) url += `?${text}`;
  }
  return url;
}
