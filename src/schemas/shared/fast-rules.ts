/**
 * Rules shared by the zod schemas and the plain checks of valid requests, with no zod: the plain
 * checks run on a client's first request without loading it (see `plainVideoRequest`), and a rule
 * written once here cannot drift between the two.
 */
import { SUBSCRIBABLE_EVENTS } from './constants.js';

const utf8 = new TextEncoder();

/** A list as a message words it: `a, b or c`. */
export function spokenList(values: readonly string[]): string {
  return values.length < 2 ? values.join('') : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
}

/** "is required: <what>" when the field is missing, "must be <what>" when it has the wrong type. */
export const required =
  (what: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined ? `is required: ${what}` : `must be ${what}`;

/** Byte length of a string in UTF-8. */
export function utf8Length(value: string): number {
  return utf8.encode(value).byteLength;
}

/** Length of a string in Unicode code points (spec: Limits — limits are in characters). */
export function codePoints(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

/** Whether `value` is an `http(s)://` URL with a host. */
export function isHttpUrl(value: string): boolean {
  return /^https?:\/\/[^\s/]+/i.test(value);
}

/** Whether `value` is a media reference: an `http(s)://` URL or an `asset://` ID. */
export function isMediaRef(value: string): boolean {
  return isHttpUrl(value) || /^asset:\/\/\S+$/.test(value);
}

/** spec: Limits — `client_reference_id` is at most 128 bytes. */
export function isClientReferenceId(value: unknown): value is string {
  return typeof value === 'string' && utf8Length(value) <= 128;
}

/**
 * An object literal, a `JSON.parse` result or an `Object.create(null)` record: the only objects
 * the plain checks read (a class instance may hold getters or inherited fields).
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Whether every own key of `value` is in `allowed`. */
export function onlyKeys(value: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}

/** Whether `value` holds exactly `keys`, in any order, all set. */
function exactlyKeys(value: Record<string, unknown>, keys: readonly string[]): boolean {
  let count = 0;
  for (const key in value) {
    if (!keys.includes(key) || value[key] === undefined) return false;
    count++;
  }
  return count === keys.length;
}

/**
 * A copy of a list of at most `max` strings that each pass `test`; `undefined` for anything else
 * (not an array, a hole, another type, too long).
 */
export function plainStringList(
  value: unknown,
  max: number,
  test: (item: string) => boolean,
): string[] | undefined {
  if (!Array.isArray(value) || value.length > max) return undefined;
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    if (typeof item !== 'string' || !test(item)) return undefined;
  }
  return value.slice();
}

const EVENTS: readonly unknown[] = SUBSCRIBABLE_EVENTS;
const anyString = () => true;

/** A copy of a valid `notifications` (`{ webhook: { endpoint_id, events } }`); else `undefined`. */
export function plainNotifications(value: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(value) || !exactlyKeys(value, ['webhook'])) return undefined;
  const webhook = value.webhook;
  if (!isPlainObject(webhook) || !exactlyKeys(webhook, ['endpoint_id', 'events'])) return undefined;
  const { endpoint_id, events } = webhook;
  if (typeof endpoint_id !== 'string' || endpoint_id.length === 0) return undefined;
  const list = plainStringList(events, Number.POSITIVE_INFINITY, anyString);
  if (list === undefined || !list.every((event) => EVENTS.includes(event))) return undefined;
  return { webhook: { endpoint_id, events: list } };
}

/**
 * The fields every task submission takes, as the plain checks read them: `{ value }` holding a
 * valid `notifications` (a copy) or `client_reference_id`; `undefined` for anything else, which
 * is left to the schema.
 */
export function plainSubmissionField(key: string, value: unknown): { value: unknown } | undefined {
  if (key === 'notifications') {
    const copy = plainNotifications(value);
    return copy && { value: copy };
  }
  if (key === 'client_reference_id') return isClientReferenceId(value) ? { value } : undefined;
  return undefined;
}

/** A copy of a list of `{ ...keys }` objects each passing `test`, at most `max`; else `undefined`. */
export function plainObjectList(
  value: unknown,
  max: number,
  test: (item: Record<string, unknown>) => boolean,
): Array<Record<string, unknown>> | undefined {
  if (!Array.isArray(value) || value.length > max) return undefined;
  const out: Array<Record<string, unknown>> = [];
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    if (!isPlainObject(item) || !test(item)) return undefined;
    out.push({ ...item });
  }
  return out;
}

/** Whether `item` holds exactly the keys `keys` (all set) and nothing else. */
export function hasExactly(item: Record<string, unknown>, keys: readonly string[]): boolean {
  return exactlyKeys(item, keys);
}
