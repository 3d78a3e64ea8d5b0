import { APIConnectionTimeoutError, APIUserAbortError, abortedBy, type MediaGatewayError } from './errors.js';
import { type AbortSubscriber, subscribe, unsubscribe } from './signal-fanout.js';

type Listener = () => void;

/**
 * The deadline of one attempt: a timer started with it, and the caller's signal. It is also
 * the `signal` given to undici's request API (a `fetch` gets {@link Deadline.abortSignal}), whose documentation takes an EventEmitter there:
 * undici reads `aborted` and `reason` and listens with `once('abort')`. That is all an attempt
 * needs, without an AbortController and its EventTarget for every request.
 *
 * undici's own `headersTimeout` and `bodyTimeout` restart with every chunk and fire about a
 * second late; this timer bounds the whole attempt (connect, headers, body) to the millisecond.
 */
export class Deadline implements AbortSubscriber {
  /** Whether the attempt was ended, by the timer or the caller's signal. */
  declare aborted: boolean;
  /** Why: an {@link APIConnectionTimeoutError}, or an {@link APIUserAbortError} with the signal's reason as `cause`. */
  declare reason: MediaGatewayError | undefined;
  #listener: Listener | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** Made only for a fetch, which needs a real AbortSignal: undici's path never builds one. */
  #controller: AbortController | undefined;
  readonly #signal: AbortSignal | undefined;
  /** `METHOD /v1/path`, for the timeout's message. */
  declare readonly operation: string;
  /** The attempt's timeout, in ms. */
  declare readonly ms: number;

  /**
   * @param operation - `METHOD /v1/path`, for the timeout's message.
   * @param ms - the attempt's timeout.
   * @param signal - the caller's signal, if any.
   */
  constructor(operation: string, ms: number, signal: AbortSignal | undefined) {
    this.operation = operation;
    this.ms = ms;
    this.aborted = false;
    this.reason = undefined;
    this.#signal = signal;
    this.#timer = setTimeout(expire, ms, this);
    if (signal === undefined) return;
    if (signal.aborted) this.onSignalAbort(signal.reason);
    else subscribe(signal, this);
  }

  /** undici's listener; one request listens to one deadline. */
  on(_event: 'abort', listener: Listener): this {
    this.#listener = listener;
    return this;
  }

  /** As {@link Deadline.on}: the deadline ends once. */
  once(_event: 'abort', listener: Listener): this {
    this.#listener = listener;
    return this;
  }

  /** undici removes its listener once the answer's body is closed. */
  removeListener(_event: 'abort', listener: Listener): this {
    if (this.#listener === listener) this.#listener = undefined;
    return this;
  }

  /**
   * The deadline as an `AbortSignal`, for a `fetch` (which takes nothing else): it aborts with
   * {@link Deadline.reason} when the deadline ends. Built on first use, so requests through
   * undici, which listens to the deadline itself, pay nothing for it.
   */
  get abortSignal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.aborted) this.#controller.abort(this.reason);
    }
    return this.#controller.signal;
  }

  /** The caller's signal aborted: its reason becomes the `cause`, and the message says it. */
  onSignalAbort(reason: unknown): void {
    this.abort(
      new APIUserAbortError(`${this.operation} was aborted ${abortedBy(reason)}.`, { cause: reason }),
    );
  }

  /** Ends the attempt with `reason`: undici rejects the request, or destroys the body being read. */
  abort(reason: MediaGatewayError): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.release();
    const listener = this.#listener;
    this.#listener = undefined;
    listener?.();
    this.#controller?.abort(reason);
  }

  /** The attempt is over (or, for a download, its headers arrived): stops the timer and the watch. */
  release(): void {
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#signal) unsubscribe(this.#signal, this);
  }
}

function expire(deadline: Deadline): void {
  deadline.abort(
    new APIConnectionTimeoutError(`${deadline.operation}: no complete answer within ${deadline.ms} ms`),
  );
}
