import type { IncomingMessage, ServerResponse } from 'node:http';
import { toValidationIssues } from '../../schemas/shared/validate.js';
import {
  libraryErrorBody,
  MockHttpError,
  openAIErrorBody,
  specErrorBody,
  validationError,
} from '../http-error.js';
import type { MockAccount, ReceivedPart, RecordedRequest, RequestContext } from '../types.js';
import { type Answer, type AnswerMode, type AnswerShape, sendAnswer } from './respond.js';

/** What {@link createContext} is built from. */
export interface ContextInit<Params, G> {
  /** The gateway serving the request, given to handlers as `ctx.gateway`. */
  gateway: G;
  /** The node:http request. */
  req: IncomingMessage;
  /** The node:http response. */
  res: ServerResponse;
  /** The request's entry in the request log. */
  record: RecordedRequest;
  /** Path parameters, decoded. */
  params: Params;
  /** The query string, parsed. */
  query: URLSearchParams;
  /** Parsed JSON body, if any. */
  body: unknown;
  /** Raw body bytes, if read. */
  raw: Buffer | undefined;
  /** Multipart parts in order. */
  parts: ReceivedPart[];
  /** The caller's account; `undefined` without a valid key. */
  account: MockAccount | undefined;
  /** The models the caller's key may use; `undefined` for all. */
  allowedModels: readonly string[] | undefined;
  /** How an injected fault alters the answer. */
  mode: AnswerMode;
  /** What a `truncate`, `drip` or `pad` answer needs. */
  shape: AnswerShape;
}

/**
 * Builds the context a route handler gets. The edge does not know what serves it: `gateway` is
 * passed through as `ctx.gateway` for the handlers of whoever composed it.
 */
export function createContext<Params, G>(
  init: ContextInit<Params, G>,
): RequestContext<Params> & { readonly gateway: G } {
  let answered = false;
  const answer = (value: Answer): Promise<void> => {
    if (answered) throw new Error(`the route for ${init.record.method} ${init.record.path} answered twice`);
    answered = true;
    return sendAnswer(init.res, value, {
      mode: init.mode,
      ...init.shape,
      onStatus: (status) => {
        init.record.status = status;
      },
    });
  };
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    answer({
      status,
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  return {
    gateway: init.gateway,
    get account(): MockAccount {
      if (!init.account)
        throw MockHttpError.spec(
          401,
          'unauthorized',
          'missing API key: send Authorization: Bearer <API_KEY>',
        );
      return init.account;
    },
    allowedModels: init.allowedModels,
    params: init.params,
    query: init.query,
    body: init.body,
    raw: init.raw,
    parts: init.parts,
    record: init.record,
    requestId: init.record.id,
    req: init.req,
    res: init.res,
    get answered() {
      return answered;
    },
    field: (name) => init.parts.findLast((p) => p.name === name && p.filename === undefined)?.value,
    files: (name) =>
      init.parts.filter((p) => p.filename !== undefined && (name === undefined || p.name === name)),
    requireModel(model) {
      if (init.allowedModels && !(typeof model === 'string' && init.allowedModels.includes(model))) {
        throw MockHttpError.spec(403, 'model_not_allowed', `this API key may not use model ${String(model)}`);
      }
    },
    validate(schema, input = init.body) {
      const result = schema.safeParse(input);
      if (!result.success) {
        const issues = toValidationIssues(result.error);
        init.record.invalidFields = issues.map((issue) => issue.path);
        throw validationError(issues);
      }
      return result.data;
    },
    json,
    error: (status, code, message) => json(status, specErrorBody(code, message)),
    libraryError: (status, message) => json(status, libraryErrorBody(message)),
    openAIError: (status, message, type) => json(status, openAIErrorBody(message, type)),
    redirect: (url, status = 302) => answer({ status, headers: { Location: url } }),
    stream: (contentType, readable, length) =>
      answer({ status: 200, headers: { 'Content-Type': contentType }, stream: readable, length }),
    send: (status, contentType, body) => answer({ status, headers: { 'Content-Type': contentType }, body }),
  };
}
