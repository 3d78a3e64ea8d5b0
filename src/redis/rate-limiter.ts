/**
 * Client rate limits shared by every replica through Redis: token buckets and in-flight leases
 * per API key (hashed), model and route family, and the pauses a 429's `Retry-After` asks for.
 * spec: Limits — "Rate limits apply per key and model".
 */

import { RedisUnavailableError } from '../core/errors/redis.js';
import {
  checkLimits,
  type LimitedRequest,
  type LimitPermit,
  pauseMs,
  QueueTimeoutError,
  type RateLimiter,
  type RequestLimits,
  type RouteFamily,
  shareOf,
} from '../core/limits.js';
import { LocalLimiter } from '../core/local-limiter.js';
import { checkOptions, count, duration } from '../core/options.js';
import {
  commandClient,
  DEFAULT_PREFIX,
  DEFAULT_TIMEOUT_MS,
  hexDigest,
  type RedisCommandClient,
  type RedisKeyOptions,
  type RedisSubscriberClient,
} from './client.js';
import { RedisReachability } from './rate-limiter-fallback.js';
import { Pauses, pauseName } from './rate-limiter-pauses.js';
import { ArrivalLines, sleepFor, waitUntilDue } from './rate-limiter-queue.js';
import {
  ACQUIRE,
  acquireArgs,
  acquireKeys,
  RELEASE,
  RENEW,
  type ScopeKey,
  scopesOf,
} from './rate-limiter-scripts.js';

/** Options of {@link RedisRateLimiter}. */
export interface RedisRateLimiterOptions extends RedisKeyOptions {
  /** A connected node-redis client (4.x or 5.x), or an adapter with `sendCommand`. */
  client: RedisCommandClient;
  /**
   * A dedicated connection in subscriber mode (node-redis: `client.duplicate()`, then
   * `connect()`; the one a `RedisTaskEventHub` listens on will do). With it, the limiter
   * subscribes to `<prefix>rl:{<key hash>}:pauses` at its first acquisition, and a pause any
   * replica publishes after a 429 is kept in this process: its requests wait it out with no
   * Redis round trip. Without it, a replica learns of a pause from the pause key, at its next
   * acquisition, and keeps it from then on.
   */
  subscriber?: RedisSubscriberClient | undefined;
  /** The API key the limits are for. Only its SHA-256 appears in key names; it is never written. */
  apiKey: string;
  /** The limits, for the whole fleet: the same shape as the client's `limits` option. */
  limits: RequestLimits;
  /**
   * How many replicas share the limits. While Redis is unreachable each process keeps to
   * `limit / expectedReplicas` on its own (rates divided, ceilings divided and at least 1).
   * @default 1
   */
  expectedReplicas?: number | undefined;
  /**
   * How long an in-flight slot is held without renewal, in ms. Held slots are renewed every
   * third of it; a replica that dies gives its slots back when their lease runs out. @default 30000
   */
  leaseMs?: number | undefined;
  /** The wait between tries while every slot is taken, in ms. @default 25 */
  pollMs?: number | undefined;
  /** How often an unreachable Redis is tried again, in ms; requests keep to the local share meanwhile. @default 1000 */
  retryRedisMs?: number | undefined;
}

interface HeldSlot {
  id: string;
  keys: string[];
}

/**
 * The numeric options of {@link RedisRateLimiter}, in the order they are checked (after
 * `limits`): rule and default.
 */
const LIMITER_OPTIONS = {
  client: commandClient,
  expectedReplicas: count(1, 1),
  timeoutMs: duration(DEFAULT_TIMEOUT_MS),
  leaseMs: count(3, 30_000, 2_147_483_647),
  pollMs: duration(25),
  retryRedisMs: duration(1_000),
};

/**
 * A rate limiter shared by every replica: pass it as the client's `limits`. Requests per second
 * are a token bucket per scope (the API key, each route family, each model) held in Redis and
 * taken atomically by a Lua script; requests in flight are leases in a sorted set; a 429's
 * `Retry-After` sets a pause key every replica's script checks, and is published to the
 * replicas listening with a `subscriber`, which then wait it out without asking Redis. Within a
 * process, the requests of one model take their turn in arrival order.
 *
 * @throws InvalidOptionError for a number of `limits` or an option out of range.
 * @example
 * const limiter = new RedisRateLimiter({ client: redis, subscriber, apiKey, expectedReplicas: 4,
 *   limits: { perModel: { '*': { requestsPerSecond: 20, maxInFlight: 40 } } } });
 * const client = new MediaGateway({ apiKey, limits: limiter });
 */
export class RedisRateLimiter implements RateLimiter {
  /** The limiter used while Redis is unreachable: this process's share of the limits. */
  private readonly fallback: LocalLimiter;
  private readonly client: RedisCommandClient;
  private readonly limits: RequestLimits;
  /** `<prefix>rl:{<key hash>}:`, once the hash is computed. */
  private readonly base: Promise<string>;
  private readonly timeoutMs: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly pauses: Pauses;
  private readonly redis: RedisReachability;
  private readonly lines = new ArrivalLines();
  private readonly held = new Set<HeldSlot>();
  private renewal: ReturnType<typeof setInterval> | undefined;
  /**
   * Set while the process keeps to its local share, until an acquisition reaches Redis again:
   * that one lowers the buckets by what the other replicas may still let through on their own
   * share until their next try of Redis, so the return adds no burst to the fleet's second.
   */
  private heldBackS: number | undefined;
  /** What {@link heldBackS} is set to when Redis becomes unreachable. */
  private readonly heldBackOnReturnS: number;

  constructor(options: RedisRateLimiterOptions) {
    const checked = checkOptions(LIMITER_OPTIONS, options, 'RedisRateLimiter.');
    this.limits = checkLimits(options.limits, 'RedisRateLimiter.limits');
    const replicas = checked.expectedReplicas;
    const retryMs = checked.retryRedisMs;
    this.timeoutMs = checked.timeoutMs;
    this.leaseMs = checked.leaseMs;
    this.pollMs = checked.pollMs;
    // Back on Redis, the replicas other than this one may keep to their share for up to
    // retryRedisMs more; at least 1/rate is held back, for this process's own local grants.
    this.heldBackOnReturnS = ((replicas - 1) / replicas) * (retryMs / 1_000);
    this.client = checked.client;
    this.fallback = new LocalLimiter(shareOf(this.limits, replicas));
    const prefix = options.prefix ?? DEFAULT_PREFIX;
    // One hash tag per API key: every key of one acquisition lives in one Redis Cluster slot.
    this.base = hexDigest('SHA-256', options.apiKey).then((hash) => `${prefix}rl:{${hash.slice(0, 32)}}:`);
    this.redis = new RedisReachability(this.client, this.timeoutMs, retryMs);
    this.pauses = new Pauses({
      client: this.client,
      subscriber: options.subscriber,
      base: this.base,
      timeoutMs: this.timeoutMs,
      retryMs,
      fallback: this.fallback,
    });
  }

  /** Whether the limiter is keeping to the local share because Redis is unreachable. */
  get usingFallback(): boolean {
    return this.redis.down;
  }

  /**
   * How long requests of `model` (or of `family`, for requests that name no model) are held
   * back by a pause this process knows of, in ms; 0 when none. Known: a 429 this process got,
   * a pause published by another replica, or one the pause key showed at an acquisition.
   */
  pausedFor(model: string | undefined, family: RouteFamily): number {
    return this.pauses.left(pauseName(model, family));
  }

  async acquire(request: LimitedRequest): Promise<LimitPermit> {
    this.pauses.listen();
    const maxWait = this.limits.maxQueueWaitMs;
    const deadline = maxWait === undefined ? Number.POSITIVE_INFINITY : Date.now() + maxWait;
    // Arrival order within the process, per model (or family): each request waits for the one
    // before it to be granted, and a paused model holds up only its own requests.
    const name = pauseName(request.model, request.family);
    const turn = this.lines.join(name);
    try {
      await waitUntilDue(turn.before, deadline, maxWait, request.signal);
      const base = await this.base;
      for (;;) {
        if (this.redis.down) {
          if (this.heldBackS === undefined) {
            // Redis granted the fleet's rate up to now: the local share starts with no tokens.
            this.fallback.drain();
            this.heldBackS = this.heldBackOnReturnS;
          }
          return await this.fallback.acquire(request);
        }
        // A pause known here (its own 429, a message, the key seen before) costs no round trip.
        let wait = this.pauses.left(name);
        if (wait === 0) {
          const scopes = scopesOf(base, this.limits, request);
          const id = globalThis.crypto.randomUUID();
          let reply: unknown;
          try {
            reply = await ACQUIRE.run(
              this.client,
              acquireKeys(base, name, scopes),
              acquireArgs(id, this.leaseMs, scopes, this.heldBackS),
              this.timeoutMs,
            );
            this.heldBackS = undefined;
          } catch (error) {
            if (!(error instanceof RedisUnavailableError)) throw error;
            this.redis.goDown();
            continue;
          }
          if (Array.isArray(reply)) {
            // The pause key is set: keep the pause here, so the next requests need not ask. A
            // key set for longer than a pause lasts (by another client) is looked at again then.
            wait = Number(reply[1]);
            if (wait > 0) {
              wait = pauseMs(wait);
              this.pauses.keep(name, wait);
            }
          } else wait = Number(reply);
          if (wait === 0) return this.permit(request, id, scopes);
          if (!(wait > 0)) wait = this.pollMs;
        }
        await waitUntilDue(
          sleepFor(Math.min(wait, Math.max(1, deadline - Date.now()))),
          deadline,
          maxWait,
          request.signal,
        );
        if (Date.now() >= deadline) throw new QueueTimeoutError(maxWait as number);
      }
    } finally {
      turn.leave();
    }
  }

  pause(model: string | undefined, family: RouteFamily, ms: number): void {
    this.pauses.pause(pauseName(model, family), ms, this.redis.down);
  }

  /**
   * Stops the lease renewal and the Redis probe, and unsubscribes from the pause channel. Held
   * slots then expire with their lease. Closing the Redis clients stays the caller's job.
   */
  async close(): Promise<void> {
    this.redis.stop();
    clearInterval(this.renewal);
    this.renewal = undefined;
    await this.pauses.close();
  }

  /** A Redis permit: its slots are released in Redis, and counted in the fallback meanwhile. */
  private permit(request: LimitedRequest, id: string, scopes: ScopeKey[]): LimitPermit {
    const local = this.fallback.hold(request.model, request.family);
    const keys = scopes.filter((scope) => scope.limit.maxInFlight !== undefined).map((scope) => scope.slots);
    const slot: HeldSlot = { id, keys };
    if (keys.length > 0) {
      this.held.add(slot);
      this.renewal ??= setInterval(() => this.renew(), Math.floor(this.leaseMs / 3));
      this.renewal.unref?.();
    }
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        local.release();
        if (keys.length === 0) return;
        this.held.delete(slot);
        if (this.held.size === 0) {
          clearInterval(this.renewal);
          this.renewal = undefined;
        }
        // When Redis is unreachable the slot goes back when its lease ends.
        RELEASE.run(this.client, keys, [id], this.timeoutMs).catch(() => undefined);
      },
    };
  }

  private renew(): void {
    for (const slot of this.held) {
      RENEW.run(this.client, slot.keys, [slot.id, String(this.leaseMs)], this.timeoutMs).catch(
        () => undefined,
      );
    }
  }
}
