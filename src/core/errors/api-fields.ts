// Reading an error answer: the fields of its body, the categories of a moderation message and
// the wait `Retry-After` asks for.

/**
 * The parts of an error body that the spec's three body shapes carry.
 *
 * @inline
 */
export interface ErrorFields {
  /** `code`, or `error.code` (falling back to `error.type`) of a wrapped body. */
  code: string | undefined;
  /** `message` or `error.message`; the text itself for a non-JSON body. */
  message: string | undefined;
  /** `error.type` of a wrapped body, e.g. `media_library_error`. */
  type: string | undefined;
}

// spec: Errors, Body shapes — `{code, message, data:null}`, `{error:{message,type}}`, or anything else.
export function readErrorFields(body: unknown): ErrorFields {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    if (b.error && typeof b.error === 'object') {
      const e = b.error as Record<string, unknown>;
      return {
        code: typeof e.code === 'string' ? e.code : typeof e.type === 'string' ? e.type : undefined,
        message: typeof e.message === 'string' ? e.message : undefined,
        type: typeof e.type === 'string' ? e.type : undefined,
      };
    }
    return {
      code: typeof b.code === 'string' ? b.code : undefined,
      message: typeof b.message === 'string' ? b.message : undefined,
      type: undefined,
    };
  }
  if (typeof body === 'string' && body.trim()) {
    return { code: undefined, message: body.trim().slice(0, 500), type: undefined };
  }
  return { code: undefined, message: undefined, type: undefined };
}

/** Characters of a moderation message read for its categories; the list comes first in it. */
const CATEGORY_SCAN_LIMIT = 4096;
/** Categories kept from one message; a longer list is cut here. */
const CATEGORY_LIMIT = 64;

// One pass per character, no regular expression: a trimming pattern anchored at the end of
// the text (`[...]+$`) is retried from every position of a long run of dots, and a 100 KB
// message took seconds to parse.
export function parseCategories(message: string): string[] {
  // spec: Errors — the message is text listing the flagged categories; only its start is read,
  // so a hostile body costs at most CATEGORY_SCAN_LIMIT characters of work here.
  const text = message.length > CATEGORY_SCAN_LIMIT ? message.slice(0, CATEGORY_SCAN_LIMIT) : message;
  // The categories follow a colon, separated by commas, "and" or "|".
  const colon = text.indexOf(':');
  const list = colon >= 0 ? text.slice(colon + 1) : text;
  const categories: string[] = [];
  for (const part of list.split(/,|\band\b|\|/)) {
    const category = trimCategory(part);
    if (category.length > 0 && category.length < 64) categories.push(category);
    if (categories.length === CATEGORY_LIMIT) break;
  }
  return categories;
}

const isSpace = (c: string) => c.trim() === '';
// Quotes and brackets around a category, and a sentence's closing dot after the last one.
const isLeading = (c: string) => '[]"\'`'.includes(c) || isSpace(c);
const isTrailing = (c: string) => '[]"\'`.'.includes(c) || isSpace(c);

/** `part` without the spaces, quotes, brackets (and trailing dots) around it. */
function trimCategory(part: string): string {
  let start = 0;
  let end = part.length;
  while (start < end && isLeading(part.charAt(start))) start++;
  while (end > start && isTrailing(part.charAt(end - 1))) end--;
  return part.slice(start, end);
}

/**
 * Parses `Retry-After` (seconds or an HTTP date) into milliseconds to wait. A date is counted
 * from the answer's own `Date` header when it has a readable one, as browsers and curl do: both
 * come from the server's clock, so a clock here that is ahead or behind changes nothing. Without
 * `Date`, a date is counted from `now`.
 *
 * @param value - the `Retry-After` header.
 * @param now - this clock's time, in ms since the epoch; used only without a readable `serverDate`.
 * @param serverDate - the answer's `Date` header, if any.
 * @returns the delay in milliseconds (0 for a date in the past), or `undefined` when the value
 * is absent or unreadable.
 * @example
 * parseRetryAfter('2'); // 2000
 * parseRetryAfter('Sun, 22 Nov 2026 10:00:05 GMT', Date.now(), 'Sun, 22 Nov 2026 10:00:00 GMT'); // 5000
 */
export function parseRetryAfter(
  value: string | undefined,
  now = Date.now(),
  serverDate?: string | undefined,
): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = httpDate(trimmed);
  if (date === undefined) return undefined;
  const from = serverDate === undefined ? undefined : httpDate(serverDate.trim());
  return Math.max(0, date - (from ?? now));
}

/** An HTTP-date in ms since the epoch; `undefined` when it is not one. */
function httpDate(text: string): number | undefined {
  // An HTTP-date names a month and a time of day in each of its three forms; Date.parse alone
  // reads `-5` or `1 5` as a date long past, which would retry at once.
  if (!/[a-z]{3}/i.test(text) || !/\d\d:\d\d:\d\d/.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : date;
}
