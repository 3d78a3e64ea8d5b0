/**
 * The one redactor of the SDK: everything an error, a log line or a kept failure carries passes
 * through it. It removes the API key wherever it appears, the values of the secret-bearing
 * fields of the gateway's API (a webhook endpoint's `signing_secret`, ...) in parsed bodies and
 * in raw text, and the signature and credential parameters of presigned media URLs; it shows a
 * URL without its query, fragment or credentials, and copies a failure so that it is safe to
 * keep. Pure text and value work, no I/O: it sits in core/ so that the wire (internal/, where
 * `fileFromURL` is too), the client and the mock gateway use the same one.
 */

/** What replaces a secret. */
export const REDACTED = '[redacted]';
/** What replaces a value nested deeper than the redactor walks. */
export const TOO_DEEP = '[redacted: too deep]';
/** Levels of nesting walked; a value below them is replaced whole, never printed. */
export const MAX_DEPTH = 20;

// The names whose values are secrets, as a field of a body, a query parameter or a header:
// spec: Webhook endpoints — `signing_secret` (and the secrets of a rotated pair); spec:
// Authentication — the `Authorization` header and API keys; presigned links — S3 and Google
// `X-Amz-Signature`, `X-Amz-Credential`, `X-Amz-Security-Token` (and `X-Goog-*` alike),
// CloudFront `Signature`, `Policy`, `Key-Pair-Id`, `Expires`, Azure `sig`, Akamai `__token__`,
// `hdnts` and `hdnea`, Alibaba and Tencent `auth_key` and `sign`, Google's API `key`, a generic
// `token`; session cookies (`Cookie`, `Set-Cookie`). A name ending in secret, token, password,
// credential, signature, authorization, cookie or an API, auth, access, private or secret key
// counts (`previous_secret`, `access_token`, `Proxy-Authorization`), one that merely contains it
// does not (`completion_tokens`, `expires_at`, `key_id`, `keyword`, `monkey`).
// Underscores around a name do not hide it (`__token__`). No name ends in `_`, so each run of
// underscores after a name is tried once: the pattern stays linear in the text.
const NAME =
  '(?:[\\w-]*(?:secret|token|password|passwd|credential|signature|authorization|cookie|(?:api|auth|access|private|secret)[_-]?key)|' +
  '_*(?:sig|sign|expires|policy|key-pair-id|key|hdnts|hdnea))_*';
const SECRET_NAME = new RegExp(`^${NAME}$`, 'i');
// In text: the name (quoted, quoted inside a JSON string, or bare), `:` or `=`, then the value:
// a JSON string (possibly cut short, as a quoted body is), the same escaped inside a JSON
// string, a single-quoted string, or a bare word up to the next separator. Each part consumes
// its characters in one pass (no two of its alternatives can take the same character), so the
// cost is linear in the text.
const VALUE =
  '"(?:[^"\\\\]|\\\\[^])*"?|\\\\"(?:[^"\\\\]|\\\\[^"])*(?:\\\\")?|' +
  "'(?:[^'\\\\]|\\\\[^])*'?|[^\\s\"',;&#<>{}\\[\\]\\\\]*";
const SECRET_IN_TEXT = new RegExp(
  `(?<![\\w-])(\\\\?["']?)(${NAME})\\1(\\s*[:=]\\s*)((?:bearer|basic)\\s+)?(${VALUE})`,
  'gi',
);

/** Whether a field or parameter of that name holds a secret: `signing_secret`, `X-Amz-Signature`, ... */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/**
 * Masks the values of secret-bearing fields in raw text: JSON (`"signing_secret":"whsec_..."`,
 * even cut short), form or query strings (`?X-Amz-Signature=...&`), headers (`authorization:
 * Bearer ...`). The names and everything else are kept. Linear in the text's length.
 */
export function redactText(text: string): string {
  return text.replace(SECRET_IN_TEXT, (match, quote: string, name: string, separator: string, ...rest) => {
    const scheme = (rest[0] as string | undefined) ?? '';
    const value = rest[1] as string;
    if (!value) return match;
    const open = /^\\?["']/.exec(value)?.[0] ?? '';
    const close = open && value.length > open.length && value.endsWith(open) ? open : '';
    return `${quote}${name}${quote}${separator}${scheme}${open}${REDACTED}${close}`;
  });
}

/**
 * Removes the API key and every other secret the redactor knows (see {@link redactText}) from
 * a value, in place: strings anywhere in it, the message and stack of errors and their causes,
 * and the values of secret-bearing fields. Anything nested deeper than {@link MAX_DEPTH} levels
 * is replaced by {@link TOO_DEEP}.
 */
export function createRedactor(secret: string): <T>(value: T) => T {
  const removeKey = keyRemover(secret);
  const scrub = (text: string) => redactText(secret && text.includes(secret) ? removeKey(text) : text);
  const walk = (value: unknown, seen: WeakSet<object>, depth: number): unknown => {
    if (typeof value === 'string') return depth > MAX_DEPTH ? TOO_DEEP : scrub(value);
    if (!value || typeof value !== 'object' || seen.has(value)) return value;
    if (depth > MAX_DEPTH) return TOO_DEEP;
    seen.add(value);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) value[i] = walk(value[i], seen, depth + 1);
      return value;
    }
    if (value instanceof Error) {
      const error = value as Error & { cause?: unknown };
      for (const key of ['message', 'stack'] as const) {
        const text = error[key];
        const clean = typeof text === 'string' ? scrub(text) : text;
        if (clean !== text) {
          Object.defineProperty(error, key, { value: clean, configurable: true, writable: true });
        }
      }
      if (error.cause !== undefined) walk(error.cause, seen, depth + 1);
    }
    // Own properties, hidden ones too (an APIError keeps its headers non-enumerable).
    for (const key of Object.getOwnPropertyNames(value)) {
      if (value instanceof Error && (key === 'message' || key === 'stack')) continue;
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      if (!descriptor || !('value' in descriptor)) continue;
      const current = descriptor.value;
      const next =
        current != null && typeof current !== 'object' && isSecretName(key)
          ? REDACTED
          : walk(current, seen, depth + 1);
      if (next !== current && (descriptor.writable || descriptor.configurable)) {
        Object.defineProperty(value, key, { ...descriptor, value: next });
      }
    }
    return value;
  };
  return <T>(value: T): T => walk(value, new WeakSet(), 0) as T;
}

/**
 * Keys at least this long are removed wherever they appear, even inside a longer word: such a
 * string does not occur by chance. A shorter one cannot be a real credential (`test`, `k`, the
 * dummy keys of tests), and is removed only where it stands as a token of its own.
 */
export const KEY_REDACTED_EVERYWHERE = 16;

// What may stand either side of a short key for it to count as a token: the start or end of the
// text, a space, a quote or a separator (`Bearer test`, `"test"`, `key=test&`), never a letter,
// digit or the characters of words, paths and names (`latest`, `cgt-test`, `test.ts`, `/test/`).
const TOKEN_EDGE = '\\s"\'`,;:=&?()\\[\\]{}<>';

/** A function that removes `secret` from a text: everywhere, or as a token when it is short. */
function keyRemover(secret: string): (text: string) => string {
  if (secret.length >= KEY_REDACTED_EVERYWHERE) return (text) => text.split(secret).join(REDACTED);
  const escaped = secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const token = new RegExp(`(?<![^${TOKEN_EDGE}])${escaped}(?![^${TOKEN_EDGE}])`, 'g');
  return (text) => text.replace(token, REDACTED);
}

/** Shows that a key is set without showing it: `mgw_…9f2c`. */
export function maskKey(key: string): string {
  return key.length <= 8 ? '…' : `${key.slice(0, 4)}…${key.slice(-4)}`;
}

// URLs as messages show them, and failures made safe to keep: a presigned URL's query is its
// signature, and a network error can carry the URL whole (Node's URL errors keep the text as
// `input` and the base as `base`; a fetch quotes the URL it refused).

/** A URL as messages show it: no query, fragment or credentials, at most 200 characters. */
export function showURL(url: URL): string {
  const shown = new URL(url.href);
  shown.search = '';
  shown.hash = '';
  shown.username = '';
  shown.password = '';
  return cap(shown.href);
}

/**
 * {@link showURL} for text that is not a URL: cut at `?` or `#`, credentials dropped (up to the
 * last `@` before the path, as a URL parser reads them: a password may hold an `@`).
 */
export function showUnparsedURL(url: unknown): string {
  if (typeof url !== 'string') return `(${url === null ? 'null' : typeof url})`;
  return cap(url.replace(/[?#][\s\S]*$/, '').replace(/^([a-z][a-z0-9+.-]*:\/*)[^/]*@/i, '$1'));
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
    for (const secret of urls.flatMap(secretsOf)) clean = clean.split(secret).join(REDACTED);
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
