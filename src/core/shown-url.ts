// URLs as `fileFromURL` may show them, and the failures behind a download made safe to keep: a
// presigned URL's query is its signature, and a network error can carry the URL whole (Node's
// URL errors keep the text as `input` and the base as `base`; a fetch quotes the URL it refused).

/** A URL as messages show it: no query, fragment or credentials, at most 200 characters. */
export function showURL(url: URL): string {
  const shown = new URL(url.href);
  shown.search = '';
  shown.hash = '';
  shown.username = '';
  shown.password = '';
  return cap(shown.href);
}

/** {@link showURL} for text that is not a URL: cut at `?` or `#`, credentials dropped. */
export function showUnparsedURL(url: unknown): string {
  if (typeof url !== 'string') return `(${url === null ? 'null' : typeof url})`;
  return cap(url.replace(/[?#][\s\S]*$/, '').replace(/^([a-z][a-z0-9+.-]*:\/*)[^/@]*@/i, '$1'));
}

function cap(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}… (${text.length} characters)` : text;
}

/** Anything written as `scheme://…` in a message: each is shown as {@link showUnparsedURL} shows it. */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;

/** Parts of a URL shorter than this are not searched for on their own: they would match anywhere. */
const SHORTEST_SECRET = 6;

/**
 * A function that takes out of a text what the given URLs hold that is not shown: every URL
 * written in it loses its query, fragment and credentials, and each URL's query, fragment,
 * credentials and longer query values are masked wherever they stand alone (encoded or not).
 * `urls` is read at each call, so URLs added later (redirect targets) are covered too.
 */
export function urlScrubber(urls: readonly URL[]): (text: string) => string {
  return (text) => {
    let clean = text.replace(URL_IN_TEXT, (found) => showUnparsedURL(found));
    for (const secret of urls.flatMap(secretsOf)) clean = clean.split(secret).join('[redacted]');
    return clean;
  };
}

/** The parts of a URL that must not be shown, longest first (a part can hold a shorter one). */
function secretsOf(url: URL): string[] {
  const parts = [url.search.slice(1), url.hash.slice(1), url.username, url.password];
  for (const pair of url.search.slice(1).split('&')) parts.push(pair.slice(pair.indexOf('=') + 1));
  const found = new Set<string>();
  for (const part of parts) {
    for (const form of [part, decoded(part)]) if (form.length >= SHORTEST_SECRET) found.add(form);
  }
  return [...found].sort((a, b) => b.length - a.length);
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** How deep a chain of causes is copied; below it, causes are dropped. */
const MAX_CAUSE_DEPTH = 5;
/** How many of an AggregateError's `errors` are copied. */
const MAX_ERRORS = 10;

/**
 * A copy of a failure that is safe to keep as a `cause`: an `Error` with the same `name`,
 * `message`, `stack`, system fields (`code`, `errno`, `syscall`), `cause` and `errors` (those
 * copied the same way), each text passed through `scrub`. Nothing else is kept: a property can
 * hold the URL (`input`, `base`, a request). A string is scrubbed; other values that are not
 * errors are dropped (`undefined`), since nothing says what they hold.
 */
export function scrubbedError(error: unknown, scrub: (text: string) => string, depth = 0): unknown {
  if (typeof error === 'string') return scrub(error);
  if (error === null || typeof error !== 'object') return typeof error === 'function' ? undefined : error;
  if (!(error instanceof Error) || depth > MAX_CAUSE_DEPTH) return undefined;
  try {
    const source = error as Error & Record<string, unknown>;
    const copy = new Error(scrub(String(source.message ?? ''))) as Error & Record<string, unknown>;
    Object.defineProperty(copy, 'name', {
      value: scrub(String(source.name)),
      configurable: true,
      writable: true,
    });
    copy.stack = typeof source.stack === 'string' ? scrub(source.stack) : `${copy.name}: ${copy.message}`;
    for (const key of ['code', 'errno', 'syscall'] as const) {
      const value = source[key];
      if (typeof value === 'string') copy[key] = scrub(value);
      else if (typeof value === 'number') copy[key] = value;
    }
    if (source.cause !== undefined) copy.cause = scrubbedError(source.cause, scrub, depth + 1);
    if (Array.isArray(source.errors)) {
      copy.errors = source.errors.slice(0, MAX_ERRORS).map((each) => scrubbedError(each, scrub, depth + 1));
    }
    return copy;
  } catch {
    // A getter or Proxy that throws: nothing of it is kept.
    return undefined;
  }
}
