/**
 * How `RedisRateLimiter` makes a request wait: in arrival order behind the earlier requests of
 * its model (or family) in this process, and never past its deadline or its caller's abort.
 */
import { QueueTimeoutError } from '../core/limits.js';
import { MAX_TIMER_MS } from '../core/options.js';
import { untilAborted } from '../core/signal-fanout.js';

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
  const left = deadline - Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const due =
    left === Number.POSITIVE_INFINITY
      ? promise
      : Promise.race([
          promise,
          new Promise<never>((_, reject) => {
            // A deadline already past (a negative delay) fires at once, as a delay of 0 does.
            timer = setTimeout(() => reject(new QueueTimeoutError(maxWait as number)), left);
          }),
        ]);
  try {
    await untilAborted(() => due, signal);
  } finally {
    clearTimeout(timer);
  }
}
