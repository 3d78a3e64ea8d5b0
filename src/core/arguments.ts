/**
 * Checks of the arguments of the public methods themselves, for callers without types (plain
 * JavaScript, `any`): a missing or wrong-typed argument is refused with a
 * `RequestValidationError` naming it, before anything is sent, never a `TypeError` from inside.
 */
import { RequestValidationError } from './errors/validation.js';

/** What a refused argument was, for a message: its type, with the value of a number or boolean. */
export function describeArgument(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'undefined':
      return 'nothing (undefined)';
    case 'number':
    case 'boolean':
    case 'bigint':
      return `${typeof value} ${String(value)}`;
    case 'string':
      return 'a string';
    default:
      return `a ${typeof value}`;
  }
}

/** Whether `value` is an object whose fields can be read by name: not null, not an array, not a function. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks an optional options argument: left out (`undefined`) or an object.
 * @param operation - the call, e.g. `videos.waitForTask`; starts the message.
 * @param name - the parameter as the documentation names it, `options` by default.
 * @throws RequestValidationError at `name`.
 */
export function checkOptionsArgument(operation: string, value: unknown, name = 'options'): void {
  if (value === undefined || isRecord(value)) return;
  throw new RequestValidationError(operation, [
    { path: name, message: `must be an object of options, or left out; got ${describeArgument(value)}` },
  ]);
}

/**
 * Checks a required object argument (a request's parameters, a wait's options).
 * @param what - what the argument holds, e.g. `an object { model }`.
 * @throws RequestValidationError at `name`.
 */
export function checkObjectArgument(operation: string, value: unknown, name: string, what: string): void {
  if (isRecord(value)) return;
  const message =
    value === undefined ? `is required: ${what}` : `must be ${what}; got ${describeArgument(value)}`;
  throw new RequestValidationError(operation, [{ path: name, message }]);
}
