import { MediaGatewayError } from '../core/base-error.js';
import { RequestValidationError } from '../core/errors/validation.js';

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
 * An ID named for the error that would refuse it: `path\`/videos/${{ taskId }}\`` refuses a bad
 * `taskId` by that name. A bare string is named `id`.
 */
export type PathParam = string | Readonly<Record<string, unknown>>;

/** A lone UTF-16 surrogate: it has no UTF-8 form, so no percent-encoding. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** The rule an ID breaks, in words; `undefined` for a good ID. */
function idProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `must be a string ID, not ${value === null ? 'null' : typeof value}`;
  if (value === '') return 'must be a non-empty string ID, not an empty string';
  if (value === '.' || value === '..') {
    return `must be an ID: ${JSON.stringify(value)} is not one, a URL would fold it into the path`;
  }
  const lone = LONE_SURROGATE.exec(value);
  if (lone) {
    const unit = lone[0].charCodeAt(0).toString(16).toUpperCase();
    return `must be well-formed Unicode: it holds a lone surrogate (U+${unit} at index ${lone.index}), which no URL can carry; check how the ID was read or cut`;
  }
  return undefined;
}

/**
 * Checks one ID of a request path, for a caller that hands it to {@link path} later: an ID is a
 * non-empty string of well-formed Unicode other than `.` and `..`. `encodeURIComponent` throws
 * on a lone surrogate, and a URL parser folds `..` (even as `%2E%2E`) into the segment before it.
 *
 * @param route - the path with the ID as `{name}`, e.g. `/v1/videos/{taskId}`; starts the message.
 * @returns the ID, unchanged.
 * @throws RequestValidationError naming `name` and the rule it breaks.
 */
export function checkPathId(route: string, name: string, value: unknown): string {
  const problem = idProblem(value);
  if (problem !== undefined) throw new RequestValidationError(route, [{ path: name, message: problem }]);
  return value as string;
}

/** The name and value of an interpolated ID: `{ taskId }` is named `taskId`, a bare string `id`. */
function entryOf(param: PathParam): [string, unknown] {
  if (typeof param === 'string') return ['id', param];
  return Object.entries(param)[0] ?? ['id', undefined];
}

/**
 * Tagged template for API paths: every interpolated ID is checked and percent-encoded as one
 * segment (the rules of {@link checkPathId}). Interpolate `{ taskId }` rather than `taskId`, so that a
 * refusal names the parameter.
 *
 * @throws RequestValidationError for an ID that is not a non-empty, well-formed string, or is
 * `.` or `..`. Build the path inside the function handed to the transport, so the call rejects.
 * @example path`/videos/${{ id }}/content` // '/videos/abc%2F..%2Fx/content' for a hostile id
 */
export function path(strings: TemplateStringsArray, ...values: PathParam[]): string {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) {
    const [name, value] = entryOf(values[i] as PathParam);
    const problem = idProblem(value);
    if (problem !== undefined) {
      // The route, with each ID as `{name}`, says which call was refused; built only then.
      let route = `/v1${strings[0] ?? ''}`;
      values.forEach((param, j) => {
        route += `{${entryOf(param)[0]}}${strings[j + 1] ?? ''}`;
      });
      throw new RequestValidationError(route, [{ path: name, message: problem }]);
    }
    out += encodeURIComponent(value as string) + (strings[i + 1] ?? '');
  }
  return out;
}

/**
 * Checks a media URL the caller hands over (a result's temporary link): absolute, `http` or
 * `https`. The message names the argument and the scheme, never the URL: its query may hold a
 * presigned signature.
 *
 * @param operation - the method, e.g. `images.download`; starts the message.
 * @param name - the argument, e.g. `entry.url`.
 * @throws RequestValidationError naming `name` when the URL cannot be sent.
 */
export function checkMediaURL(operation: string, name: string, raw: string): string {
  const refuse = (message: string) => new RequestValidationError(operation, [{ path: name, message }]);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse(
      'must be an absolute http or https URL (a result URL as the gateway gave it); this one cannot be parsed',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw refuse(
      `must be an http or https URL, not ${url.protocol.slice(0, 20)}; pass the result URL as the gateway gave it`,
    );
  }
  return raw;
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
