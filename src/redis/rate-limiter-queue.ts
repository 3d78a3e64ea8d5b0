/**
 * How `RedisRateLimiter` makes a request wait: in arrival order behind the earlier requests of
 * its model (or family) in this process, and never past its deadline or its caller's abort.
 */
import { QueueTimeoutError } from '../core/limits.js';
import { MAX_TIMER_MS } from '../core/options.js';
import { sleep } from '../core/sleep.js';

/** One line per model (or family): each request waits for the one before it to be granted. */
export class ArrivalLines {
  private readonly tails = new Map<string, Promise<void>>();

  /** Joins the end of `line`: `before` settles when it is this request's turn; call `leave` once granted or given up. */
  join(line: string): { before: Promise<void>; leave: () => void } {
    const before = this.tails.get(line) ?? Promise.resolve();
    let done!: () => void;
    const mine = new Promise<void>((resolve) => {
      done = resolve;
    });
    const tail = before.then(() => mine);
    this.tails.set(line, tail);
    return {
      before,
      leave: () => {
        done();
        if (this.tails.get(line) === tail) this.tails.delete(line);
      },
    };
  }
}

/**
 * Resolves after `ms`, or after about 24.8 days when `ms` is longer (a longer delay makes
 * setTimeout fire at once); never aborted, only raced.
 */
export function sleepFor(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.min(ms, MAX_TIMER_MS)));
}

/**
 * Waits for `promise`, or rejects with a {@link QueueTimeoutError} at `deadline` (a Date.now()
 * time; Infinity for none) or with the signal's reason on abort.
 */
export async function waitUntilDue(
  promise: Promise<unknown>,
  deadline: number,
  maxWait: number | undefined,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (signal?.aborted) throw signal.reason;
  const left = deadline - Date.now();
  if (left === Number.POSITIVE_INFINITY && !signal) {
    await promise;
    return;
  }
  const controller = new AbortController();
  const stops: Array<Promise<never>> = [];
  if (left !== Number.POSITIVE_INFINITY) {
    stops.push(
      sleep(Math.max(0, left), controller.signal).then(() =>
        Promise.reject(new QueueTimeoutError(maxWait as number)),
      ),
    );
  }
  if (signal) {
    stops.push(
      sleep(MAX_TIMER_MS, AbortSignal.any([signal, controller.signal])).then(
        () => Promise.reject(new Error('unreachable')),
        (reason) => Promise.reject(signal.aborted ? signal.reason : reason),
      ),
    );
  }
  try {
    await Promise.race([promise, ...stops]);
  } finally {
    controller.abort();
    for (const stop of stops) stop.catch(() => undefined);
  }
}
