import { inspect } from 'node:util';
import type { MediaGatewayError } from '../../src/core/errors.js';
import { InvalidOptionError } from '../../src/core/options.js';
/** The fields tests read from an SDK error. */
export type CaughtError = Error & {
  status?: number;
  code?: string;
  body?: unknown;
  requestId?: string;
  taskId?: string;
  headers: Record<string, string>;
  cause?: unknown;
  issues?: Array<{ path: string; message: string }>;
};

/** Awaits a promise that must reject, and returns what it rejected with. */
export async function rejection(promise: PromiseLike<unknown>): Promise<CaughtError> {
  try {
    await promise;
  } catch (error) {
    return error as CaughtError;
  }
  throw new Error('expected the promise to reject, but it resolved');
}

/** Runs a check that must refuse an option, and returns its InvalidOptionError. */
export function optionRefusal(check: () => unknown): InvalidOptionError {
  try {
    check();
  } catch (error) {
    if (error instanceof InvalidOptionError) return error;
    throw error;
  }
  throw new Error('expected an InvalidOptionError, but nothing was thrown');
}

/** Every form an error reaches a log in: message, stack, causes (inspected), JSON. */
export function everyForm(error: unknown): string {
  const caught = error as MediaGatewayError;
  return [
    caught.message,
    caught.stack,
    inspect(caught, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
    JSON.stringify(caught),
    JSON.stringify(caught.toJSON()),
  ].join('\n');
}
