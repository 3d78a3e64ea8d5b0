/**
 * `mediagw/redis`: webhook receivers and task waits spread over several processes, on a Redis
 * the application already runs. A dedupe store so that one replica handles each event, and a
 * task event hub so that a wait on any replica ends when any replica receives the event, and a
 * rate limiter so that the replicas together keep to the gateway's limits.
 * Imports no Redis package: pass a connected node-redis client (4.x or 5.x) or an adapter
 * with the same few methods (see `RedisCommandClient` and `RedisSubscriberClient`).
 *
 * @module mediagw/redis
 */
// The same classes the `mediagw` entry exports, bundled into this entry: `instanceof` holds
// across the copies, since each class carries a brand every copy recognises.
export { RedisUnavailableError } from '../core/errors/redis.js';
export { QueueTimeoutError, type RequestLimits } from '../core/limits.js';
export { InvalidOptionError } from '../core/options.js';
export type {
  RedisCommandClient,
  RedisKeyOptions,
  RedisSubscriberClient,
} from './client.js';
export { RedisDedupeStore, type RedisDedupeStoreOptions } from './dedupe-store.js';
export { RedisRateLimiter, type RedisRateLimiterOptions } from './rate-limiter.js';
export { RedisTaskEventHub, type RedisTaskEventHubOptions } from './task-event-hub.js';
