import { Readable } from 'node:stream';
import { APIConnectionTimeoutError } from '../core/errors.js';
import type { ResponseBody } from './request-spec.js';

type ChunkReader = { read(): Promise<{ done?: boolean | undefined; value?: Uint8Array | undefined }> };
type WebBody = { getReader(): ChunkReader & { cancel(reason?: unknown): Promise<void> } };

/** Why an answer's body stopped: the longest pause between two chunks passed. */
function idleError(operation: string, ms: number): APIConnectionTimeoutError {
  return new APIConnectionTimeoutError(`${operation}: the answer's body sent nothing for ${ms} ms`);
}

/**
 * The body of a fetch's answer as the {@link ResponseBody} the rest of the SDK reads: a Node
 * `Readable` that pulls one chunk from the web stream (or async iterable) each time it is asked
 * for more, so nothing is read ahead of the consumer, with `text()` and `dump()` as undici's
 * body has them. A pause between chunks longer than `idleMs` (when given) ends it with
 * {@link APIConnectionTimeoutError}, as undici's `bodyTimeout` does on the other path.
 */
export class FetchBody extends Readable implements ResponseBody {
  readonly #reader: ChunkReader | undefined;
  readonly #cancel: (reason: unknown) => unknown;
  #timer: NodeJS.Timeout | undefined = undefined;
  readonly #operation: string;
  readonly #idleMs: number | undefined;

  constructor(
    source: WebBody | AsyncIterable<Uint8Array> | null,
    operation: string,
    idleMs: number | undefined,
  ) {
    super({ highWaterMark: 0 });
    this.#operation = operation;
    this.#idleMs = idleMs;
    if (source === null) {
      this.#reader = undefined;
      this.#cancel = () => undefined;
    } else if (typeof (source as Partial<WebBody>).getReader === 'function') {
      const reader = (source as WebBody).getReader();
      this.#reader = reader;
      this.#cancel = (reason) => reader.cancel(reason);
    } else {
      const iterator = (source as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
      this.#reader = { read: () => iterator.next() };
      this.#cancel = () => iterator.return?.();
    }
  }

  override _read(): void {
    const reader = this.#reader;
    if (reader === undefined) return void this.push(null);
    const idleMs = this.#idleMs;
    if (idleMs !== undefined) {
      this.#timer ??= setTimeout(() => this.destroy(idleError(this.#operation, idleMs)), idleMs);
    }
    reader.read().then(
      ({ done, value }) => {
        if (this.destroyed) return;
        if (done) {
          this.#stopTimer();
          return void this.push(null);
        }
        // An empty chunk is no data: ask again, under the same pause.
        if (!value?.byteLength) return this._read();
        this.#stopTimer();
        // A chunk as Node streams carry it: a Buffer over the same memory, not a copy.
        this.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
      },
      (error: unknown) => {
        this.#stopTimer();
        this.destroy(error instanceof Error ? error : new Error(String(error)));
      },
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#stopTimer();
    // Tells the fetch that nothing more is wanted, so its connection is closed or reused.
    Promise.resolve()
      .then(() => this.#cancel(error ?? undefined))
      .catch(() => undefined);
    callback(error);
  }

  #stopTimer(): void {
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Drops the rest of the body: the fetch is told to stop reading it. */
  dump(): Promise<void> {
    this.destroy();
    return Promise.resolve();
  }
}
