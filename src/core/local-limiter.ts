/**
 * The in-process limiter: token buckets and in-flight counts per scope (the client, each model,
 * each route family), one FIFO queue, and pauses set by a 429's `Retry-After`.
 */
import {
  burstOf,
  type LimitedRequest,
  type LimitPermit,
  modelLimit,
  pauseMs,
  QueueTimeoutError,
  type RateLimit,
  type RateLimiter,
  type RequestLimits,
  type RouteFamily,
} from './limits.js';
import { MAX_TIMER_MS } from './options.js';
import { type AbortSubscriber, subscribe, unsubscribe } from './signal-fanout.js';

/** One budget: a token bucket, an in-flight count and a pause, any of which may be absent. */
class Scope {
  #tokens: number;
  #last: number;
  readonly #rate: number | undefined;
  readonly #burst: number;
  readonly #maxInFlight: number | undefined;
  inFlight = 0;
  pausedUntil = 0;

  constructor(limit: RateLimit | undefined, now: number) {
    this.#rate = limit?.requestsPerSecond;
    this.#burst = limit ? burstOf(limit) : 1;
    this.#maxInFlight = limit?.maxInFlight;
    // One token, not a full burst: a new limiter cannot know the key's budget was not just used
    // (a restart), and its first requests reach the gateway later than the next ones (a cold
    // connection), so a full burst on top of the rate collects 429s in the first second.
    this.#tokens = Math.min(1, this.#burst);
    this.#last = now;
  }

  /** Milliseconds until this scope has room: 0 now, `Infinity` until a request ends. */
  waitMs(now: number): number {
    if (this.pausedUntil > now) return this.pausedUntil - now;
    if (this.#maxInFlight !== undefined && this.inFlight >= this.#maxInFlight)
      return Number.POSITIVE_INFINITY;
    if (this.#rate === undefined) return 0;
    this.#tokens = Math.min(this.#burst, this.#tokens + ((now - this.#last) * this.#rate) / 1000);
    this.#last = now;
    return this.#tokens >= 1 ? 0 : Math.ceil(((1 - this.#tokens) * 1000) / this.#rate);
  }

  take(): void {
    if (this.#rate !== undefined) this.#tokens -= 1;
    this.inFlight += 1;
  }

  /** Empties the bucket: the next token comes after 1/rate. */
  drain(now: number): void {
    this.#tokens = 0;
    this.#last = now;
  }
}

interface Waiter {
  scopes: Scope[];
  resolve: (permit: LimitPermit) => void;
  reject: (error: unknown) => void;
  cleanup: () => void;
}

/**
 * A {@link RateLimiter} for one process. A request is granted once every scope it falls under
 * has room; waiting requests are granted in arrival order, except that one held back by a
 * scope it does not share with a later one (another model's pause) does not hold that one up.
 */
export class LocalLimiter implements RateLimiter {
  readonly #scopes = new Map<string, Scope>();
  readonly #queue: Waiter[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = 0;

  /** @param limits - checked limits (`checkLimits`); rates may be fractional here. */
  readonly #limits: RequestLimits;
  readonly #now: () => number;

  constructor(limits: RequestLimits, now: () => number = Date.now) {
    this.#limits = limits;
    this.#now = now;
  }

  acquire(request: LimitedRequest): Promise<LimitPermit> {
    const scopes = this.#scopesOf(request.model, request.family);
    if (this.#queue.length === 0 && this.#fits(scopes, this.#now()) === 0)
      return Promise.resolve(this.#grant(scopes));
    if (request.signal?.aborted) return Promise.reject(request.signal.reason);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { scopes, resolve, reject, cleanup: () => undefined };
      const leave = (error: unknown) => {
        const index = this.#queue.indexOf(waiter);
        if (index < 0) return;
        this.#queue.splice(index, 1);
        waiter.cleanup();
        reject(error);
        // No pump: a waiter leaving frees nothing. Every scope it was held up by is still
        // blocked for the others, and the timer set for the earliest to free up stands (a pump
        // per leaver went over the whole queue, for thousands leaving on one timeout).
      };
      const maxWait = this.#limits.maxQueueWaitMs;
      const timeout =
        maxWait === undefined ? undefined : setTimeout(() => leave(new QueueTimeoutError(maxWait)), maxWait);
      const signal = request.signal;
      const subscriber: AbortSubscriber = { onSignalAbort: leave };
      if (signal) subscribe(signal, subscriber);
      waiter.cleanup = () => {
        clearTimeout(timeout);
        if (signal) unsubscribe(signal, subscriber);
      };
      this.#queue.push(waiter);
      this.#pump();
    });
  }

  /** Holds back `model` (or `family`) for `ms`, at most `MAX_RETRY_AFTER_MS` (60 s). */
  pause(model: string | undefined, family: RouteFamily, ms: number): void {
    // The model's scope, else the family's (the last of a request's), made with its own limit
    // when it does not exist yet (a pause heard from another replica before any request).
    const scope = this.#scopesOf(model, family).at(-1) as Scope;
    scope.pausedUntil = Math.max(scope.pausedUntil, this.#now() + pauseMs(ms));
    this.#pump();
  }

  /**
   * Counts a request granted elsewhere (a shared limiter) as in flight here, without waiting or
   * taking a token: should this limiter take over, it starts from what is really in flight.
   */
  hold(model: string | undefined, family: RouteFamily): LimitPermit {
    const scopes = this.#scopesOf(model, family);
    for (const scope of scopes) scope.inFlight += 1;
    return this.#permitFor(scopes);
  }

  /**
   * Empties every token bucket, as if each had just been used at its full rate: a shared
   * limiter handing over to this one keeps to the rate across the switch, instead of adding
   * a burst to what it granted in the last second.
   */
  drain(): void {
    const now = this.#now();
    for (const scope of this.#scopes.values()) scope.drain(now);
  }

  /** Requests waiting for their turn. */
  get waiting(): number {
    return this.#queue.length;
  }

  #scope(name: string, limit: RateLimit | undefined): Scope {
    let scope = this.#scopes.get(name);
    if (!scope) {
      scope = new Scope(limit, this.#now());
      this.#scopes.set(name, scope);
    }
    return scope;
  }

  #scopesOf(model: string | undefined, family: RouteFamily): Scope[] {
    const limits = this.#limits;
    const scopes = [this.#scope('key', limits)];
    scopes.push(this.#scope(`f:${family}`, limits.perRouteFamily?.[family]));
    if (model !== undefined) scopes.push(this.#scope(`m:${model}`, modelLimit(limits, model)));
    return scopes;
  }

  /** The wait until all of `scopes` have room (0: now). */
  #fits(scopes: Scope[], now: number): number {
    let wait = 0;
    for (const scope of scopes) wait = Math.max(wait, scope.waitMs(now));
    return wait;
  }

  #grant(scopes: Scope[]): LimitPermit {
    for (const scope of scopes) scope.take();
    return this.#permitFor(scopes);
  }

  #permitFor(scopes: Scope[]): LimitPermit {
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        for (const scope of scopes) scope.inFlight -= 1;
        if (this.#queue.length > 0) this.#pump();
      },
    };
  }

  /** Grants what can be granted, in order, and sets a timer for the next bucket refill or pause end. */
  #pump(): void {
    const now = this.#now();
    const blocked = new Set<Scope>();
    let next = Number.POSITIVE_INFINITY;
    for (let i = 0; i < this.#queue.length; ) {
      const waiter = this.#queue[i] as Waiter;
      // A scope an earlier waiter is held up by stays its: later waiters do not overtake it there.
      if (waiter.scopes.some((scope) => blocked.has(scope))) {
        i++;
        continue;
      }
      let wait = 0;
      for (const scope of waiter.scopes) {
        const own = scope.waitMs(now);
        if (own > 0) {
          blocked.add(scope);
          // Wake when the first scope frees up, not when this waiter can go: a later waiter
          // held up only by that scope (the key's rate, behind another model's pause) goes then.
          next = Math.min(next, own);
        }
        wait = Math.max(wait, own);
      }
      if (wait > 0) {
        // Every waiter falls under the key's scope: none after this one can go now.
        if (blocked.has(waiter.scopes[0] as Scope)) break;
        i++;
        continue;
      }
      this.#queue.splice(i, 1);
      waiter.cleanup();
      waiter.resolve(this.#grant(waiter.scopes));
    }
    if (next === Number.POSITIVE_INFINITY || this.#queue.length === 0) return;
    // A longer delay makes setTimeout fire at once, and again, and again: wake up at most that
    // late and look again (a bucket of a tiny fractional rate can take that long to refill).
    next = Math.min(next, MAX_TIMER_MS);
    const at = now + next;
    if (this.#timer !== undefined && this.#timerAt <= at) return;
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#pump();
    }, next);
  }
}
