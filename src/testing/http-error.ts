import type { ValidationIssue } from '../core/errors/validation.js';

/**
 * The spec's parameter-validation body: `{code, message, data: null}`. spec: Errors — Body shapes.
 *
 * @example
 * specErrorBody('invalid_request', 'duration: must be an integer from 4 to 15');
 */
export function specErrorBody(
  code: string,
  message: string,
): {
  /** The error code, e.g. `invalid_request`. */
  code: string;
  /** What was wrong. */
  message: string;
  /** Always `null`. */
  data: null;
} {
  return { code, message, data: null };
}

/** The spec's library input error body: `{error: {message, type: 'media_library_error'}}`. */
export function libraryErrorBody(message: string): {
  /** The error. */
  error: {
    /** Starts with `invalid_asset_material` for input errors; may name `assets[<index>]`. */
    message: string;
    /** `media_library_error`. */
    type: string;
  };
} {
  return { error: { message, type: 'media_library_error' } };
}

/** An OpenAI-style error body `{error: {message, type}}`, as embeddings and media expiry use. */
export function openAIErrorBody(
  message: string,
  type: string,
): {
  /** The error. */
  error: {
    /** What was wrong. */
    message: string;
    /** The error type, e.g. `invalid_request_error`. */
    type: string;
  };
} {
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
  /** Always `'MockHttpError'`. */
  override readonly name = 'MockHttpError';

  /**
   * @param status - the HTTP status to answer with.
   * @param body - the answer's body, sent as JSON.
   * @param headers - extra answer headers.
   */
  constructor(
    /** The HTTP status to answer with. */
    readonly status: number,
    /** The answer's body, sent as JSON. */
    readonly body: unknown,
    /** Extra answer headers, e.g. `Retry-After`. */
    readonly headers: Record<string, string> = {},
  ) {
    super(`mock gateway answered ${status}`);
  }

  /** `{code, message, data: null}`. */
  static spec(status: number, code: string, message: string): MockHttpError {
    return mockHttpError(status, specErrorBody(code, message));
  }

  /** `{error: {message, type: 'media_library_error'}}`. */
  static library(status: number, message: string): MockHttpError {
    return mockHttpError(status, libraryErrorBody(message));
  }

  /** 404 `not_found` naming what was not found: `task cgt-1 not found`. */
  static notFound(what: string): MockHttpError {
    return mockHttpError(404, specErrorBody('not_found', `${what} not found`));
  }
}

// Outside the class: a class that names itself in its body is built as `class _MockHttpError`,
// and its `name` would be that.
const mockHttpError = (status: number, body: unknown) => new MockHttpError(status, body);

/**
 * Turns validation issues (`{ path, message }`, as `RequestValidationError.issues` holds them)
 * into a 400 `invalid_request` with every issue in the message, `path: rule` joined by `; `.
 * The built-in routes check bodies with the SDK's own schemas this way.
 * spec: Errors — invalid field: HTTP 400, no task created, no reservation charged.
 *
 * @example
 * gateway.router.add('POST', '/v1/custom', (ctx) => {
 *   if (typeof (ctx.body as { name?: unknown }).name !== 'string') {
 *     throw validationError([{ path: 'name', message: 'is required' }]);
 *   }
 *   return ctx.json(200, { ok: true });
 * });
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

/** Whether a Content-Type names JSON: `application/json` or `application/<x>+json`, any parameters. */
export function isJsonContentType(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/**
 * The spec's 400 for a body sent without a JSON content type, or `undefined` when the type is
 * JSON. spec: Endpoints — "JSON bodies use `Content-Type: application/json`".
 */
export function contentTypeError(contentType: string | undefined): MockHttpError | undefined {
  if (isJsonContentType(contentType)) return undefined;
  const sent = contentType ? `Content-Type ${contentType.split(';')[0]?.trim()}` : 'no Content-Type';
  return MockHttpError.spec(
    400,
    'invalid_request',
    `a JSON body must be sent with Content-Type: application/json, not ${sent}`,
  );
}
