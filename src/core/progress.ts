/**
 * The throttle of every `onProgress` callback: an upload's body being sent and `saveTo`'s
 * download being written count their bytes through it, and the callback is called at most
 * every {@link PROGRESS_INTERVAL_MS} (a 200 MB file comes in thousands of chunks: a progress bar
 * wants a few updates a second), and once more with the final count.
 */
import { callDetached } from './detached-call.js';

/** The shortest time between two `onProgress` calls, in milliseconds. */
export const PROGRESS_INTERVAL_MS = 100;

/** How a {@link ProgressThrottle} calls back, and what it does with the callback's failures. */
export interface ProgressThrottleOptions {
  /**
   * Told the callback's first failure: what a promise it returned rejected with, and what it
   * threw unless `throwStops`. The callback is not called again after it. It must not throw.
   */
  failed: (error: unknown) => void;
  /**
   * Whether what the callback throws is thrown on from {@link ProgressThrottle.add} and
   * {@link ProgressThrottle.end}, to stop the transfer (`saveTo`: nothing is lost, the file can be
   * downloaded again), rather than told to `failed` while the transfer goes on (an upload: a
   * billable submission half sent must not be cut off).
   */
  throwStops: boolean;
  /** The clock, in milliseconds. @default performance.now */
  now?: (() => number) | undefined;
}

/** Counts the bytes of one transfer and calls `onProgress` with them, throttled. */
export class ProgressThrottle {
  readonly #onProgress: (progress: { bytes: number; total: number | undefined }) => void;
  readonly #total: number | undefined;
  readonly #failed: (error: unknown) => void;
  readonly #throwStops: boolean;
  readonly #now: () => number;
  #bytes = 0;
  #reported = -1;
  #reportedAt = Number.NEGATIVE_INFINITY;
  #broken = false;

  constructor(
    onProgress: (progress: { bytes: number; total: number | undefined }) => void,
    total: number | undefined,
    options: ProgressThrottleOptions,
  ) {
    this.#onProgress = onProgress;
    this.#total = total;
    this.#failed = options.failed;
    this.#throwStops = options.throwStops;
    this.#now = options.now ?? (() => performance.now());
  }

  /**
   * Counts `size` more bytes, calling back when the last call is at least
   * {@link PROGRESS_INTERVAL_MS} old.
   * @throws what the callback throws, when `throwStops`.
   */
  add(size: number): void {
    this.#bytes += size;
    if (this.#broken) return;
    const at = this.#now();
    if (at - this.#reportedAt >= PROGRESS_INTERVAL_MS) {
      this.#reportedAt = at;
      this.#report();
    }
  }

  /**
   * The transfer is complete: the last call always gives the final count (unless the last call
   * already did, or the callback has failed).
   * @throws what the callback throws, when `throwStops`.
   */
  end(): void {
    if (!this.#broken && this.#reported !== this.#bytes) this.#report();
  }

  #report(): void {
    this.#reported = this.#bytes;
    const progress = { bytes: this.#bytes, total: this.#total };
    // A promise the callback returns is not awaited, and may reject after later calls were made:
    // the first failure is told and ends the calls.
    const fail = (error: unknown) => {
      if (this.#broken) return;
      this.#broken = true;
      this.#failed(error);
    };
    if (this.#throwStops) {
      const result = this.#onProgress(progress);
      callDetached(() => result, fail);
    } else {
      callDetached(() => this.#onProgress(progress), fail);
    }
  }
}
