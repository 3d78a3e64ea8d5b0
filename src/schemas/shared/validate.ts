import type { z } from 'zod';
import { describeArgument, isRecord } from '../../core/arguments.js';
import { RequestValidationError, type ValidationIssue } from '../../core/errors/validation.js';

/** Formats a zod path as the request's own notation: `image_with_roles[1].role`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

/** Turns zod issues into the SDK's `{ path, message }` issues. */
export function toValidationIssues(error: z.ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
}

/**
 * Validates `input` against `schema` and returns the parsed value, or throws a
 * `RequestValidationError` naming every broken rule. `operation` names the call in the message.
 */
export function parseParams<S extends z.ZodType>(schema: S, input: unknown, operation: string): z.output<S> {
  // Every schema here is an object's: anything else is named as what it is, not as zod's "Invalid input".
  if (!isRecord(input)) {
    const message =
      input === undefined
        ? 'is required: an object of the request parameters'
        : `must be an object of the request parameters; got ${describeArgument(input)}`;
    throw new RequestValidationError(operation, [{ path: '', message }]);
  }
  const result = schema.safeParse(input);
  if (!result.success) throw new RequestValidationError(operation, toValidationIssues(result.error));
  return result.data;
}

/** Validates without throwing: the issues, empty when the input is valid. Used by the mock gateway. */
export function checkParams(schema: z.ZodType, input: unknown): ValidationIssue[] {
  const result = schema.safeParse(input);
  return result.success ? [] : toValidationIssues(result.error);
}
