import type { ValidationIssue } from '../core/errors.js';

/** The spec's parameter-validation body: `{code, message, data: null}`. spec: Errors — Body shapes. */
export function specErrorBody(code: string, message: string): { code: string; message: string; data: null } {
  return { code, message, data: null };
}

/** The spec's library input error body: `{error: {message, type: 'media_library_error'}}`. */
export function libraryErrorBody(message: string): { error: { message: string; type: string } } {
  return { error: { message, type: 'media_library_error' } };
}

/** An OpenAI-style error body `{error: {message, type}}`, as embeddings and media expiry use. */
export function openAIErrorBody(message: string, type: string): { error: { message: string; type: string } } {
  return { error: { message, type } };
}

/**
 * An answer a route gives by throwing: the router sends `status` with `body` as JSON. Lets
 * helpers deep inside a route (`ctx.requireModel`, `ctx.validate`) end the request.
 *
 * @example
 * throw MockHttpError.spec(409, 'conflict', 'the material is still pending review');
 */
export class MockHttpError extends Error {
  override readonly name = 'MockHttpError';

  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(`mock gateway answered ${status}`);
  }

  /** `{code, message, data: null}`. */
  static spec(status: number, code: string, message: string): MockHttpError {
    return new MockHttpError(status, specErrorBody(code, message));
  }

  /** `{error: {message, type: 'media_library_error'}}`. */
  static library(status: number, message: string): MockHttpError {
    return new MockHttpError(status, libraryErrorBody(message));
  }

  /** 404 `not_found` naming what was not found: `task cgt-1 not found`. */
  static notFound(what: string): MockHttpError {
    return MockHttpError.spec(404, 'not_found', `${what} not found`);
  }
}

/**
 * Turns validation issues (from `checkParams` in `src/internal/validate.ts`) into a 400
 * `invalid_request` with every issue in the message, `path: rule` joined by `; `.
 * spec: Errors — invalid field: HTTP 400, no task created, no reservation charged.
 *
 * @example
 * const issues = checkParams(videoRequestSchema, ctx.body);
 * if (issues.length) throw validationError(issues);
 */
export function validationError(issues: readonly ValidationIssue[]): MockHttpError {
  const parts = issues.map((issue) => {
    if (
      !issue.path ||
      issue.message.startsWith(`${issue.path}:`) ||
      issue.message.startsWith(`${issue.path} `)
    ) {
      return issue.message;
    }
    return `${issue.path}: ${issue.message}`;
  });
  return MockHttpError.spec(400, 'invalid_request', parts.join('; ') || 'the request is invalid');
}
