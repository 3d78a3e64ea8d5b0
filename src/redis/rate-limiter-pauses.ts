/**
 * The pauses of `RedisRateLimiter`: a 429's `Retry-After` kept in this process, written to a
 * pause key every replica's acquisition script checks, and published so that replicas listening
 * on the pause channel keep it too, with no Redis round trip while it lasts.
 */
import { pauseMs, type RouteFamily } from '../core/limits.js';
import type { LocalLimiter } from '../core/local-limiter.js';
import { type RedisCommandClient, type RedisSubscriberClient, subscription } from './client.js';
import { PAUSE } from './rate-limiter-scripts.js';

/** The scope a pause holds back: `m:<model>`, or `f:<family>` for a request that names no model. */
export function pauseName(model: string | undefined, family: RouteFamily): string {
  return model === undefined ? `f:${family}` : `m:${model}`;
}

/** What {@link Pauses} works with. */
export interface PausesInit {
  client: RedisCommandClient;
  /** A connection in subscriber mode, or none: the pause key alone is then checked. */
  subscriber: RedisSubscriberClient | undefined;
  /** `<prefix>rl:{<key hash>}:`. */
  base: Promise<string>;
  timeoutMs: number;
  /** How long to wait after a failed `SUBSCRIBE` before trying again. */
  retryMs: number;
  /** The local share, which keeps every pause too, for while Redis is unreachable. */
  fallback: LocalLimiter;
}

/**
 * The pauses this process knows of, by scope, and the pause channel `<base>pauses`. A message
 * is `<scope> <ms left>`; a foreign or malformed one is ignored.
 */
export class Pauses {
  private readonly until = new Map<string, number>();
  /** Resolves true once subscribed, false when the attempt failed. */
  private subscribed: Promise<boolean> | undefined;
  private retryAt = 0;
  private closed = false;

  constructor(private readonly init: PausesInit) {}

  /** Milliseconds left of a pause of `name` this process knows of; 0 for none. */
  left(name: string): number {
    const until = this.until.get(name);
    if (until === undefined) return 0;
    const left = until - Date.now();
    if (left > 0) return left;
    this.until.delete(name);
    return 0;
  }

  /**
   * Keeps a pause of `name` for `ms` in this process (the longest asked for wins), at most
   * `MAX_RETRY_AFTER_MS` (60 s): neither a 429, a message nor a pause key set by another client
   * holds a replica back longer in one go.
   */
  keep(name: string, ms: number): void {
    const pause = pauseMs(ms);
    if (pause === 0) return;
    this.until.set(name, Math.max(this.until.get(name) ?? 0, Date.now() + pause));
    // The local share keys its pauses the same way: a model's, else the family's.
    if (name.startsWith('m:')) this.init.fallback.pause(name.slice(2), 'query', pause);
    else this.init.fallback.pause(undefined, name.slice(2) as RouteFamily, pause);
  }

  /**
   * A 429 seen here: keeps the pause, then (unless Redis is known to be down) writes the pause
   * key and publishes it in one script. A failure is ignored: this process keeps the pause, and
   * the others learn of it from their own 429.
   */
  pause(name: string, ms: number, redisDown: boolean): void {
    // The key lives as long as the pause: a huge Retry-After must not stop every replica for years.
    const pause = pauseMs(ms);
    if (pause === 0) return;
    this.keep(name, pause);
    if (redisDown) return;
    const { client, base, timeoutMs } = this.init;
    base
      .then((b) =>
        PAUSE.run(client, [`${b}pause:${name}`], [String(Math.ceil(pause)), `${b}pauses`, name], timeoutMs),
      )
      .catch(() => undefined);
  }

  /**
   * Subscribes to the pause channel, once, without waiting for it: until the subscription is
   * confirmed the acquisition script still sees every pause through its key. A failed attempt
   * is tried again after `retryMs`. node-redis subscribes again by itself after a reconnect;
   * a message missed meanwhile is made up for by the key, read at the next acquisition.
   */
  listen(): void {
    const { subscriber, base, timeoutMs, retryMs } = this.init;
    if (!subscriber || this.subscribed || this.closed || Date.now() < this.retryAt) return;
    const current: Promise<boolean> = base
      .then((b) => subscription(subscriber, 'subscribe', `${b}pauses`, this.onMessage, timeoutMs))
      .then(
        () => true,
        () => false,
      );
    this.subscribed = current;
    current.then((ok) => {
      if (ok || this.subscribed !== current) return;
      this.subscribed = undefined;
      this.retryAt = Date.now() + retryMs;
    });
  }

  /** Unsubscribes from the pause channel, if subscribed. */
  async close(): Promise<void> {
    this.closed = true;
    const { subscriber, base, timeoutMs } = this.init;
    const subscribed = this.subscribed;
    this.subscribed = undefined;
    if (!subscriber || !subscribed || !(await subscribed)) return;
    const channel = `${await base}pauses`;
    // A connection that is already gone has no subscription left to end.
    await subscription(subscriber, 'unsubscribe', channel, this.onMessage, timeoutMs).catch(() => undefined);
  }

  private readonly onMessage = (message: string): void => {
    if (typeof message !== 'string') return;
    const space = message.lastIndexOf(' ');
    const name = message.slice(0, space);
    const ms = Number(message.slice(space + 1));
    if (space < 3 || !/^[mf]:/.test(name) || !Number.isInteger(ms) || ms <= 0) return;
    this.keep(name, ms);
  };
}
