/** An answer as the SDK read it: status, headers, request ID and the body's text. */
export interface RawAnswer {
  /** HTTP status (2xx: any other status is thrown as an `APIError`). */
  status: number;
  /** Headers, lower-cased names. */
  headers: Record<string, string>;
  /** `X-Service-Request-Id`, when present. */
  requestId: string | undefined;
  /** The body as read (at most `maxResponseBytes`). */
  text: string;
}

/** A JSON answer: the parsed object beside what was read. */
export interface ParsedAnswer<B> extends RawAnswer {
  /** The parsed JSON object. */
  body: B;
}

/** What {@link APIPromise.withResponse} resolves to. */
export interface WithResponse<T> {
  /** What awaiting the call gives. */
  data: T;
  /** The answer: `status`, `headers`; its body is the text the SDK read, unread again. */
  response: Response;
  /** `X-Service-Request-Id` of the answer, when present. */
  requestId: string | undefined;
}

// Statuses whose Response may not carry a body.
const NULL_BODY = new Set([101, 204, 205, 304]);

function toResponse(answer: RawAnswer): Response {
  const body = NULL_BODY.has(answer.status) ? null : answer.text;
  return new Response(body, { status: answer.status, headers: answer.headers });
}

// The executor of the promise an APIPromise is: settled at once, never looked at (every
// reader goes through `then`). Module-level, so constructing one builds no closure.
function settleNow(resolve: (value: never) => void): void {
  resolve(undefined as never);
}

/**
 * What every single-request call returns: a `Promise` of its result that also gives the
 * answer itself. Awaiting it, `.withResponse()` and `.asResponse()` share one request, sent
 * when the call is made.
 *
 * - `.withResponse()` resolves to `{ data, response, requestId }`: the result as awaiting gives
 *   it, and the answer (`response.status`, `response.headers`).
 * - `.asResponse()` resolves to the answer alone, as a WHATWG `Response`. The SDK has already
 *   read its body (under the call's timeout and `maxResponseBytes`), so `response.text()` or
 *   `response.json()` gives that text once more; it is not parsed into a result.
 *
 * Both reject as awaiting the call does: a non-2xx answer is an `APIError`, never a response.
 * `then`, `catch` and `finally` give plain `Promise`s (`Symbol.species` is `Promise`).
 *
 * @example
 * const { data: task, response } = await client.videos.retrieve(taskId).withResponse();
 * console.log(response.status, response.headers.get('x-ratelimit-remaining'), task.status);
 */
export class APIPromise<T> extends Promise<T> {
  /** Chained promises (`then`, `catch`, `finally`) are plain Promises that hold no request. */
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  readonly #answer: Promise<ParsedAnswer<unknown>>;
  readonly #map: (answer: ParsedAnswer<unknown>) => T;
  #parsed: Promise<T> | undefined;

  /**
   * @internal
   * @param answer - the request's answer, sent already.
   * @param map - turns the answer into the call's result; a module-level function where it can be.
   */
  constructor(answer: Promise<ParsedAnswer<unknown>>, map: (answer: ParsedAnswer<unknown>) => T) {
    super(settleNow);
    this.#answer = answer;
    this.#map = map;
  }

  /** @internal A promise of `transform(result)` over the same request. */
  _thenUnwrap<U>(transform: (data: T) => U): APIPromise<U> {
    const map = this.#map;
    return apiPromise(this.#answer, (answer) => transform(map(answer)));
  }

  #parse(): Promise<T> {
    this.#parsed ??= this.#answer.then(this.#map);
    return this.#parsed;
  }

  /** The answer as a `Response`, its body the text the SDK read. Rejects as the call does. */
  asResponse(): Promise<Response> {
    return this.#answer.then(toResponse);
  }

  /** The result and the answer it came from. Rejects as the call does. */
  async withResponse(): Promise<WithResponse<T>> {
    const data = await this.#parse();
    const answer = await this.#answer;
    return { data, response: toResponse(answer), requestId: answer.requestId };
  }

  // biome-ignore lint/suspicious/noThenProperty: a Promise subclass; reading the result is what parses it.
  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#parse().then(onfulfilled, onrejected);
  }

  override catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.#parse().catch(onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#parse().finally(onfinally);
  }
}

/**
 * Builds an {@link APIPromise} from outside its class: a class that names itself in its own body
 * is emitted as `class _APIPromise`, and its `name` would be that.
 */
function apiPromise<T>(
  answer: Promise<ParsedAnswer<unknown>>,
  map: (answer: ParsedAnswer<unknown>) => T,
): APIPromise<T> {
  return new APIPromise(answer, map);
}
