/**
 * Types every part of the mock gateway shares: accounts, recorded requests, and the contract
 * between the HTTP edge and the route handlers (the request context and the route table). A
 * leaf: it imports nothing from the mock, so the edge, the routes and the gateway's state can
 * all depend on it without depending on each other.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { z } from 'zod';

/** An account of the mock gateway and the keys that act for it. */
export interface MockAccount {
  /** Account ID, e.g. `acct_1`. Every task, file, group and endpoint belongs to one account. */
  readonly id: string;
  /** A key with access to every model. */
  readonly apiKey: string;
  /** A key of the same account limited to {@link MockAccount.restrictedModels}; absent if none. */
  readonly restrictedKey?: string | undefined;
  /** The models the restricted key may use. */
  readonly restrictedModels?: readonly string[] | undefined;
}

/** Bytes of each multipart file part kept in memory (the rest is only counted and hashed). */
export const PART_HEAD_BYTES = 64 * 1024;

/** One part of a multipart body as the mock received it. Files are never kept whole. */
export interface ReceivedPart {
  /** Form field name, e.g. `image[]`. */
  name: string;
  /** Declared filename; file parts only. */
  filename?: string | undefined;
  /** Declared content type of the part. */
  contentType?: string | undefined;
  /** Byte length. */
  size: number;
  /** Text value; text fields only. */
  value?: string | undefined;
  /** Hex SHA-256 of the bytes; file parts only. */
  sha256?: string | undefined;
  /** The first 64 KiB; file parts only. */
  head?: Buffer | undefined;
  /** Whether busboy cut the value at its field size limit. */
  truncated?: boolean | undefined;
}

/** Which listening origin answered. */
export type Origin = 'api' | 'media';

/** A request as the mock gateway received it. */
export interface RecordedRequest {
  /** The `X-Service-Request-Id` it was answered with, `req_<n>`. */
  id: string;
  /** `api` (the gateway) or `media` (the media origin). */
  origin: Origin;
  /** HTTP method, upper case. */
  method: string;
  /** Path without the query, e.g. `/v1/videos/cgt-1/content`. */
  path: string;
  /** Query parameters (the last value of a repeated name). */
  query: Record<string, string>;
  /** Lowercased headers; `authorization` is masked (`Bearer mgw_…abcd`), never whole. */
  headers: Record<string, string>;
  /** Parsed JSON body; `undefined` when absent or not JSON. */
  body?: unknown;
  /** Parts of a multipart body. */
  parts?: ReceivedPart[];
  /** Byte length of the body read. */
  bodySize?: number;
  /** The fault that answered it, when one did: `status`, `delay`, `hang`, `reset-before-body`, ... */
  fault?: string;
  /** Status sent, once the answer's headers went out. */
  status?: number;
  /** Message of an error the route threw. */
  error?: string;
  /** The paths of the fields a 400 `invalid_request` named (e.g. `['duration']`), when the route checked its body with `ctx.validate`. */
  invalidFields?: string[];
  /** Mock time of arrival (ms). */
  at: number;
}

/**
 * How a route wants its body: parsed JSON, multipart parts, the raw bytes, or not read.
 *
 * @inline
 */
export type BodyMode = 'json' | 'multipart' | 'raw' | 'none';

/** The `:name` segments of a route pattern, as a union of names. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The `params` of a route, typed from its pattern: `'/v1/videos/:id/content'` gives `{ id: string }`. */
export type RouteParams<P extends string> = { [K in ParamNames<P>]: string };

/** How a route reads its request. */
export interface RouteOptions {
  /** Require a valid API key (`Authorization: Bearer <key>`); 401 otherwise. @default true */
  auth?: boolean | undefined;
  /**
   * How to read the body: `json` (invalid JSON, or a body whose Content-Type is not
   * `application/json`: 400; empty: `undefined`), `multipart` (streamed,
   * see `ctx.parts`), `raw` (`ctx.raw`), `none`. @default 'json'
   */
  body?: BodyMode | undefined;
}

/**
 * What a route handler gets from the HTTP edge: the request, its caller, and helpers to answer.
 * Every answer carries `X-Service-Request-Id`. A handler may also answer by throwing a
 * `MockHttpError`. The gateway's own routes reach its state through their registration, not
 * through the context; `RouteContext` adds the running gateway for routes added by users.
 */
export interface RequestContext<Params = Record<string, string>> {
  /**
   * The caller's account. On a route with `auth: false` and no valid key, reading it throws
   * a 401 `MockHttpError`.
   */
  readonly account: MockAccount;
  /** The models the caller's key may use; `undefined` when it may use every model. */
  readonly allowedModels: readonly string[] | undefined;
  /** Path parameters, decoded. */
  readonly params: Params;
  /** The query string, parsed. */
  readonly query: URLSearchParams;
  /** Parsed JSON body (`json` routes); `undefined` when the body was empty. */
  readonly body: unknown;
  /** Raw body bytes (`raw` and `json` routes). */
  readonly raw: Buffer | undefined;
  /** Multipart parts in order (`multipart` routes). */
  readonly parts: readonly ReceivedPart[];
  /** This request's entry in `gateway.requests`. */
  readonly record: RecordedRequest;
  /** The `X-Service-Request-Id` every answer to this request carries. */
  readonly requestId: string;
  /** The node:http request, for what the context does not expose. */
  readonly req: IncomingMessage;
  /** The node:http response; prefer the answer helpers, which add the request ID. */
  readonly res: ServerResponse;
  /** Whether an answer has been started. */
  readonly answered: boolean;

  /** The value of the last text part named `name`. */
  field(name: string): string | undefined;
  /** File parts, all or those named `name`, in order. */
  files(name?: string): ReceivedPart[];
  /**
   * Ends the request with 403 `model_not_allowed` when the caller's key may not use `model`.
   * spec: Authentication — a key may be restricted to certain models.
   */
  requireModel(model: unknown): void;
  /** Parses `input` (default: the body) with a zod schema, or ends the request with 400 `invalid_request`. */
  validate<S extends z.ZodType>(schema: S, input?: unknown): z.output<S>;

  /** Answers with a JSON body. */
  json(status: number, body: unknown, headers?: Record<string, string>): Promise<void>;
  /** Answers `{code, message, data: null}`. */
  error(status: number, code: string, message: string): Promise<void>;
  /** Answers `{error: {message, type: 'media_library_error'}}`. */
  libraryError(status: number, message: string): Promise<void>;
  /** Answers `{error: {message, type}}`. */
  openAIError(status: number, message: string, type: string): Promise<void>;
  /** Answers a redirect (302 unless told otherwise) to `url`. */
  redirect(url: string, status?: number): Promise<void>;
  /** Streams `readable` with this content type, with a Content-Length when `length` is given. */
  stream(contentType: string, readable: Readable, length?: number): Promise<void>;
  /** Answers a buffered body. */
  send(status: number, contentType: string, body: Buffer | string): Promise<void>;
}

/** A handler of the gateway's own routes: it needs only the request context. */
export type RequestHandler<Params = Record<string, string>> = (
  ctx: RequestContext<Params>,
) => void | Promise<void>;

/**
 * Where routes are registered: the part of the gateway's router that route files see, so they
 * depend on this contract rather than on the HTTP edge that serves them.
 */
export interface RouteRegistry {
  /**
   * Adds a route.
   *
   * @throws Error when the same method and pattern are already registered.
   */
  add<P extends string>(
    method: string,
    pattern: P,
    handler: RequestHandler<RouteParams<P>>,
    options?: RouteOptions,
  ): unknown;
}
