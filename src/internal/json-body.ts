import { RequestValidationError } from '../core/errors/validation.js';
import { messageOf } from '../core/errors/wait.js';

/** How deep and how wide the search for the field that cannot be written goes. */
const MAX_DEPTH = 64;
const MAX_VISITS = 10_000;

/**
 * The dotted path of the first BigInt or circular reference in `value` (`metadata.loop`), for
 * the message; `undefined` when not found within the bounds (or a getter throws).
 */
function unwritableAt(value: unknown): string | undefined {
  const ancestors = new Set<object>();
  let visits = 0;
  const walk = (node: unknown, at: string, depth: number): string | undefined => {
    if (typeof node === 'bigint') return at;
    if (node === null || typeof node !== 'object' || depth > MAX_DEPTH || ++visits > MAX_VISITS)
      return undefined;
    if (ancestors.has(node)) return at;
    ancestors.add(node);
    for (const key of Object.keys(node)) {
      const found = walk((node as Record<string, unknown>)[key], at ? `${at}.${key}` : key, depth + 1);
      if (found !== undefined) return found;
    }
    ancestors.delete(node);
    return undefined;
  };
  try {
    return walk(value, '', 0);
  } catch {
    return undefined;
  }
}

/**
 * A request body as JSON text. A body JSON cannot hold (a circular reference, a BigInt, a
 * `toJSON` or getter that throws, nesting past the stack) is the caller's to fix: it is refused
 * as such, before anything is sent, never thrown as the `TypeError` of `JSON.stringify`.
 *
 * @param operation - `METHOD /v1/path`; starts the message.
 * @throws RequestValidationError at the field found to be at fault (else the whole request).
 */
export function jsonBody(operation: string, body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (cause) {
    const text = messageOf(cause);
    const reason = /circular/i.test(text)
      ? 'cannot be written as JSON: it refers back to itself (a circular reference); pass a copy without the loop'
      : /bigint/i.test(text)
        ? 'cannot be written as JSON: it is a BigInt; pass a number or a string'
        : `cannot be written as JSON: ${text.split('\n')[0]?.slice(0, 200)}`;
    throw new RequestValidationError(operation, [{ path: unwritableAt(body) ?? '', message: reason }], {
      cause,
    });
  }
}
