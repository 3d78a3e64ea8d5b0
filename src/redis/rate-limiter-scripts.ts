/**
 * The Lua scripts of `RedisRateLimiter`. Each runs atomically in Redis, so the replicas of a
 * fleet never take the same token or slot; time is Redis's own (`TIME`), so replicas with skewed
 * clocks share one bucket fairly.
 */
import {
  burstOf,
  type LimitedRequest,
  modelLimit,
  type RateLimit,
  type RequestLimits,
} from '../core/limits.js';
import { LuaScript } from './client.js';

/** One scope an acquisition takes room in: its bucket and slot set, and its limit. */
export interface ScopeKey {
  bucket: string;
  slots: string;
  limit: RateLimit;
}

/** The scopes of a request that have a rate or a ceiling: the key, its family, its model. */
export function scopesOf(base: string, limits: RequestLimits, request: LimitedRequest): ScopeKey[] {
  const scopes: ScopeKey[] = [];
  const add = (name: string, limit: RateLimit | undefined) => {
    if (limit && (limit.requestsPerSecond !== undefined || limit.maxInFlight !== undefined)) {
      scopes.push({ bucket: `${base}bucket:${name}`, slots: `${base}slots:${name}`, limit });
    }
  };
  add('key', limits);
  add(`f:${request.family}`, limits.perRouteFamily?.[request.family]);
  if (request.model !== undefined) add(`m:${request.model}`, modelLimit(limits, request.model));
  return scopes;
}

/** {@link ACQUIRE}'s KEYS: the pause key of `pauseName`, then each scope's bucket and slot set. */
export function acquireKeys(base: string, pauseName: string, scopes: ScopeKey[]): string[] {
  const keys = [`${base}pause:${pauseName}`];
  for (const scope of scopes) keys.push(scope.bucket, scope.slots);
  return keys;
}

/**
 * {@link ACQUIRE}'s ARGV: the slot ID, the lease, then rate, burst, ceiling and cap per scope.
 * The cap is the burst, except on a process's first acquisition after it kept to its local
 * share (`heldBackS`, seconds): then it is minus the tokens that many seconds of the rate hold,
 * for what the fleet let through locally meanwhile.
 */
export function acquireArgs(id: string, leaseMs: number, scopes: ScopeKey[], heldBackS?: number): string[] {
  const args = [id, String(leaseMs)];
  for (const { limit } of scopes) {
    const rate = limit.requestsPerSecond ?? 0;
    const burst = burstOf(limit);
    const cap = heldBackS === undefined ? burst : -rate * heldBackS;
    args.push(String(rate), String(burst), String(limit.maxInFlight ?? 0), String(cap));
  }
  return args;
}

/**
 * Takes room in every scope at once, or says how long to wait. KEYS[1] is the pause key, then a
 * bucket and a slot set per scope; ARGV: slot ID, lease ms, then rate, burst, maxInFlight (0:
 * none) and cap per scope. Returns 0 (granted), the ms to wait for a token, -1 (full: wait for a
 * release), or `{'paused', ms}` while the pause key lives, so the caller can keep that pause
 * itself instead of asking again. The pause is checked here even by a replica that hears pauses
 * over pub/sub: in the same round trip, at no cost, it covers a replica that started after the
 * message, missed it while disconnected, or asks between the key's write and the message.
 *
 * A bucket Redis does not hold (first use, an hour of quiet, or lost with Redis's data) starts
 * with one token, not a full burst, so a fleet's first second keeps to the rate. A cap under the
 * burst (a process back from its local share) lowers the tokens to it at once, granted or not.
 */
export const ACQUIRE = new LuaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local paused = redis.call('PTTL', KEYS[1])
if paused > 0 then return {'paused', paused} end
local n = (#KEYS - 1) / 2
local lease = tonumber(ARGV[2])
local wait = 0
local full = false
local tokens = {}
for i = 1, n do
  local rate = tonumber(ARGV[4 * i - 1])
  local burst = tonumber(ARGV[4 * i])
  local max = tonumber(ARGV[4 * i + 1])
  local cap = tonumber(ARGV[4 * i + 2])
  if max > 0 then
    redis.call('ZREMRANGEBYSCORE', KEYS[2 * i + 1], '-inf', now)
    if redis.call('ZCARD', KEYS[2 * i + 1]) >= max then full = true end
  end
  if rate > 0 then
    local b = redis.call('HMGET', KEYS[2 * i], 't', 'ts')
    local tk = tonumber(b[1]) or 1
    local ts = tonumber(b[2]) or now
    tk = math.min(burst, cap, tk + math.max(0, now - ts) * rate / 1000)
    if cap < burst then
      redis.call('HSET', KEYS[2 * i], 't', tostring(tk), 'ts', tostring(now))
      redis.call('PEXPIRE', KEYS[2 * i], math.max(3600000, math.ceil(burst * 1000 / rate) + 1000))
    end
    tokens[i] = tk
    if tk < 1 then wait = math.max(wait, math.ceil((1 - tk) * 1000 / rate)) end
  end
end
if wait > 0 then return wait end
if full then return -1 end
for i = 1, n do
  local rate = tonumber(ARGV[4 * i - 1])
  local burst = tonumber(ARGV[4 * i])
  local max = tonumber(ARGV[4 * i + 1])
  if rate > 0 then
    redis.call('HSET', KEYS[2 * i], 't', tostring(tokens[i] - 1), 'ts', tostring(now))
    redis.call('PEXPIRE', KEYS[2 * i], math.max(3600000, math.ceil(burst * 1000 / rate) + 1000))
  end
  if max > 0 then
    redis.call('ZADD', KEYS[2 * i + 1], now + lease, ARGV[1])
    redis.call('PEXPIRE', KEYS[2 * i + 1], lease * 2)
  end
end
return 0`);

/** Gives a slot back: removes ARGV[1] from every slot set in KEYS. */
export const RELEASE = new LuaScript(`for i = 1, #KEYS do redis.call('ZREM', KEYS[i], ARGV[1]) end return 0`);

/** Extends a held slot's lease to now + ARGV[2] ms, in every slot set that still holds it. */
export const RENEW = new LuaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease = tonumber(ARGV[2])
for i = 1, #KEYS do
  if redis.call('ZSCORE', KEYS[i], ARGV[1]) then
    redis.call('ZADD', KEYS[i], 'XX', now + lease, ARGV[1])
    redis.call('PEXPIRE', KEYS[i], lease * 2)
  end
end
return 0`);

/**
 * Sets the pause key KEYS[1] for ARGV[1] ms, unless it is already set for longer, then
 * publishes `<ARGV[3]> <ms left>` on the channel ARGV[2]: the key's own time left, so every
 * replica keeps the longest pause asked for. Key and message in one step: a replica that hears
 * the message finds the key written.
 */
export const PAUSE = new LuaScript(`
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) end
redis.call('PUBLISH', ARGV[2], ARGV[3] .. ' ' .. redis.call('PTTL', KEYS[1]))
return 0`);
