/**
 * Client rate limits shared by every replica through Redis: token buckets and in-flight leases
 * per API key (hashed), model and route family, and the pauses a 429's `Retry-After` asks for.
 * spec: Limits — "Rate limits apply per key and model".
 */
import {
  checkLimits,
  type LimitedRequest,
  type LimitPermit,
  modelLimit,
  QueueTimeoutError,
  type RateLimit,
  type RateLimiter,
  type RequestLimits,
  type RouteFamily,
  shareOf,
} from '../core/limits.js';
import { LocalLimiter } from '../core/local-limiter.js';
import { checkCount, checkDuration } from '../core/options.js';
import { sleep } from '../core/sleep.js';
import {
  DEFAULT_PREFIX,
  DEFAULT_TIMEOUT_MS,
  hexDigest,
  LuaScript,
  type RedisCommandClient,
  type RedisKeyOptions,
  RedisUnavailableError,
  run,
} from './client.js';

/**
 * Takes room in every scope at once, or says how long to wait. KEYS[1] is the pause key, then a
 * bucket and a slot set per scope; ARGV: slot ID, lease ms, then rate, burst, maxInFlight per
 * scope (0: none). Returns 0 (granted), the ms to wait, or -1 (full: wait for a release).
 * Time is Redis's own (TIME), so replicas with skewed clocks share one bucket fairly.
 */
const ACQUIRE = new LuaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local paused = redis.call('PTTL', KEYS[1])
if paused > 0 then return paused end
local n = (#KEYS - 1) / 2
local lease = tonumber(ARGV[2])
local wait = 0
local full = false
local tokens = {}
for i = 1, n do
  local rate = tonumber(ARGV[3 * i])
  local burst = tonumber(ARGV[3 * i + 1])
  local max = tonumber(ARGV[3 * i + 2])
  if max > 0 then
    redis.call('ZREMRANGEBYSCORE', KEYS[2 * i + 1], '-inf', now)
    if redis.call('ZCARD', KEYS[2 * i + 1]) >= max then full = true end
  end
  if rate > 0 then
    local b = redis.call('HMGET', KEYS[2 * i], 't', 'ts')
    local tk = tonumber(b[1]) or burst
    local ts = tonumber(b[2]) or now
    tk = math.min(burst, tk + math.max(0, now - ts) * rate / 1000)
    tokens[i] = tk
    if tk < 1 then wait = math.max(wait, math.ceil((1 - tk) * 1000 / rate)) end
  end
end
if wait > 0 then return wait end
if full then return -1 end
for i = 1, n do
  local rate = tonumber(ARGV[3 * i])
  local burst = tonumber(ARGV[3 * i + 1])
  local max = tonumber(ARGV[3 * i + 2])
  if rate > 0 then
    redis.call('HSET', KEYS[2 * i], 't', tostring(tokens[i] - 1), 'ts', tostring(now))
    redis.call('PEXPIRE', KEYS[2 * i], math.ceil(burst * 1000 / rate) + 1000)
  end
  if max > 0 then
    redis.call('ZADD', KEYS[2 * i + 1], now + lease, ARGV[1])
    redis.call('PEXPIRE', KEYS[2 * i + 1], lease * 2)
  end
end
return 0`);

/** Gives a slot back: removes ARGV[1] from every slot set in KEYS. */
const RELEASE = new LuaScript(`for i = 1, #KEYS do redis.call('ZREM', KEYS[i], ARGV[1]) end return 0`);

/** Extends a held slot's lease to now + ARGV[2] ms, in every slot set that still holds it. */
const RENEW = new LuaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i = 1, #KEYS do
  if redis.call('ZSCORE', KEYS[i], ARGV[1]) then
    redis.call('ZADD', KEYS[i], 'XX', now + tonumber(ARGV[2]), ARGV[1])
    redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[2]) * 2)
  end
end
return 0`);

/** Sets the pause key for ARGV[1] ms, unless it is already set for longer. */
const PAUSE = new LuaScript(`
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) end
return 0`);

/** Options of {@link RedisRateLimiter}. */
export interface RedisRateLimiterOptions extends RedisKeyOptions {
  /** A connected node-redis client (4.x or 5.x), or an adapter with `sendCommand`. */
  client: RedisCommandClient;
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

interface ScopeKey {
  bucket: string;
  slots: string;
  limit: RateLimit;
}

interface HeldSlot {
  id: string;
  keys: string[];
}

/**
 * A rate limiter shared by every replica: pass it as the client's `limits`. Requests per second
 * are a token bucket per scope (the API key, each route family, each model) held in Redis and
 * taken atomically by a Lua script; requests in flight are leases in a sorted set; a 429's
 * `Retry-After` sets a pause key every replica checks. Within a process, the requests of one
 * model take their turn in arrival order.
 *
 * @throws InvalidOptionError for a number of `limits` or an option out of range.
 * @example
 * const limiter = new RedisRateLimiter({ client: redis, apiKey, expectedReplicas: 4,
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
  private readonly retryRedisMs: number;
  private readonly paused = new Map<string, number>();
  private readonly held = new Set<HeldSlot>();
  private readonly tails = new Map<string, Promise<void>>();
  private down = false;
  private probe: ReturnType<typeof setInterval> | undefined;
  private renewal: ReturnType<typeof setInterval> | undefined;

  constructor(options: RedisRateLimiterOptions) {
    this.limits = checkLimits(options.limits, 'RedisRateLimiter.limits');
    const replicas = checkCount('RedisRateLimiter.expectedReplicas', options.expectedReplicas, 1) ?? 1;
    this.timeoutMs = checkDuration('RedisRateLimiter.timeoutMs', options.timeoutMs) ?? DEFAULT_TIMEOUT_MS;
    this.leaseMs = checkCount('RedisRateLimiter.leaseMs', options.leaseMs, 3, 2_147_483_647) ?? 30_000;
    this.pollMs = checkDuration('RedisRateLimiter.pollMs', options.pollMs) ?? 25;
    this.retryRedisMs = checkDuration('RedisRateLimiter.retryRedisMs', options.retryRedisMs) ?? 1_000;
    this.client = options.client;
    this.fallback = new LocalLimiter(shareOf(this.limits, replicas));
    const prefix = options.prefix ?? DEFAULT_PREFIX;
    // One hash tag per API key: every key of one acquisition lives in one Redis Cluster slot.
    this.base = hexDigest('SHA-256', options.apiKey).then((hash) => `${prefix}rl:{${hash.slice(0, 32)}}:`);
  }

  /** Whether the limiter is keeping to the local share because Redis is unreachable. */
  get usingFallback(): boolean {
    return this.down;
  }

  async acquire(request: LimitedRequest): Promise<LimitPermit> {
    const started = Date.now();
    const maxWait = this.limits.maxQueueWaitMs;
    const deadline = maxWait === undefined ? Number.POSITIVE_INFINITY : started + maxWait;
    // Arrival order within the process, per model (or family): each request waits for the one
    // before it to be granted, and a paused model holds up only its own requests.
    const line = pauseName(request.model, request.family);
    const before = this.tails.get(line) ?? Promise.resolve();
    let done!: () => void;
    const mine = new Promise<void>((resolve) => {
      done = resolve;
    });
    const tail = before.then(() => mine);
    this.tails.set(line, tail);
    try {
      await this.wait(before, deadline, maxWait, request.signal);
      const base = await this.base;
      for (;;) {
        if (this.down) return await this.fallback.acquire(request);
        let wait = this.localPause(request);
        if (wait === 0) {
          const scopes = this.scopesOf(base, request);
          const id = globalThis.crypto.randomUUID();
          try {
            wait = Number(
              await ACQUIRE.run(
                this.client,
                this.keysOf(base, request, scopes),
                this.argsOf(id, scopes),
                this.timeoutMs,
              ),
            );
          } catch (error) {
            if (!(error instanceof RedisUnavailableError)) throw error;
            this.goDown();
            continue;
          }
          if (wait === 0) return this.permit(request, id, scopes);
          if (wait < 0) wait = this.pollMs;
        }
        await this.wait(
          sleepFor(Math.min(wait, Math.max(1, deadline - Date.now()))),
          deadline,
          maxWait,
          request.signal,
        );
        if (Date.now() >= deadline) throw new QueueTimeoutError(maxWait as number);
      }
    } finally {
      done();
      if (this.tails.get(line) === tail) this.tails.delete(line);
    }
  }

  pause(model: string | undefined, family: RouteFamily, ms: number): void {
    const name = pauseName(model, family);
    this.paused.set(name, Math.max(this.paused.get(name) ?? 0, Date.now() + ms));
    this.fallback.pause(model, family, ms);
    if (this.down) return;
    this.base
      .then((base) => PAUSE.run(this.client, [`${base}pause:${name}`], [String(ms)], this.timeoutMs))
      .catch(() => undefined);
  }

  /** Stops the lease renewal and the Redis probe. Held slots then expire with their lease. */
  close(): void {
    clearInterval(this.probe);
    clearInterval(this.renewal);
    this.probe = undefined;
    this.renewal = undefined;
  }

  private localPause(request: LimitedRequest): number {
    const until = this.paused.get(pauseName(request.model, request.family)) ?? 0;
    return Math.max(0, until - Date.now());
  }

  private scopesOf(base: string, request: LimitedRequest): ScopeKey[] {
    const scopes: ScopeKey[] = [];
    const add = (name: string, limit: RateLimit | undefined) => {
      if (limit && (limit.requestsPerSecond !== undefined || limit.maxInFlight !== undefined)) {
        scopes.push({ bucket: `${base}bucket:${name}`, slots: `${base}slots:${name}`, limit });
      }
    };
    add('key', this.limits);
    add(`f:${request.family}`, this.limits.perRouteFamily?.[request.family]);
    if (request.model !== undefined) add(`m:${request.model}`, modelLimit(this.limits, request.model));
    return scopes;
  }

  private keysOf(base: string, request: LimitedRequest, scopes: ScopeKey[]): string[] {
    const keys = [`${base}pause:${pauseName(request.model, request.family)}`];
    for (const scope of scopes) keys.push(scope.bucket, scope.slots);
    return keys;
  }

  private argsOf(id: string, scopes: ScopeKey[]): string[] {
    const args = [id, String(this.leaseMs)];
    for (const { limit } of scopes) {
      const rate = limit.requestsPerSecond ?? 0;
      args.push(String(rate), String(limit.burst ?? Math.max(1, rate)), String(limit.maxInFlight ?? 0));
    }
    return args;
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

  /** Switches to the local share and tries Redis again every `retryRedisMs`. */
  private goDown(): void {
    if (this.down) return;
    this.down = true;
    this.probe = setInterval(() => {
      run(this.client, ['PING'], this.timeoutMs).then(
        () => {
          this.down = false;
          clearInterval(this.probe);
          this.probe = undefined;
        },
        () => undefined,
      );
    }, this.retryRedisMs);
    this.probe.unref?.();
  }

  /** Waits for `promise`, or rejects at the deadline or on abort. */
  private async wait(
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
        sleep(2_147_483_647, AbortSignal.any([signal, controller.signal])).then(
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
}

function pauseName(model: string | undefined, family: RouteFamily): string {
  return model === undefined ? `f:${family}` : `m:${model}`;
}

function sleepFor(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
