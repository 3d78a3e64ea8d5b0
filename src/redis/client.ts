/**
 * The few Redis calls `mediagw/redis` makes, typed structurally so that no Redis package is
 * imported: a node-redis 4 or 5 client fits as it is, and an ioredis client through a
 * one-line adapter (see docs/scaling.md).
 */
import { RedisUnavailableError } from '../core/errors/redis.js';
import { InvalidOptionError } from '../core/options.js';

/**
 * A connection that runs commands. node-redis (`createClient()`, 4.x and 5.x) has this method
 * as `client.sendCommand(args)`; with ioredis pass `{ sendCommand: ([name, ...args]) => redis.call(name, ...args) }`.
 *
 * Commands sent: `SET key value NX EX s`, `SET key value EX s`, `GET key`, `DEL key`,
 * `PUBLISH channel message`, `EVAL script 1 key arg...` (compare-and-delete, compare-and-set), and
 * for the rate limiter `EVALSHA sha n key... arg...`, falling back to `EVAL` on `NOSCRIPT`.
 * Replies are read as RESP2 gives them: `'OK'` or `null` for `SET`, a string or `null` for
 * `GET`, an integer for `EVAL`.
 */
export interface RedisCommandClient {
  /** Runs one command, `[name, ...arguments]`, and resolves with its reply. */
  sendCommand(args: string[]): Promise<unknown>;
}

/**
 * A connection in subscriber mode, for one channel. node-redis clients fit as they are: use a
 * dedicated connection, `client.duplicate()`, since a subscribed connection runs no other
 * command. With ioredis, adapt `subscribe(channel)` plus its `'message'` event.
 */
export interface RedisSubscriberClient {
  /** Subscribes to `channel`; resolves once Redis confirmed the subscription. */
  subscribe(channel: string, listener: (message: string, channel: string) => unknown): Promise<unknown>;
  /** Removes `listener` from `channel` (and unsubscribes when it was the last). */
  unsubscribe(channel: string, listener: (message: string, channel: string) => unknown): Promise<unknown>;
  /**
   * Optional: calls `listener` each time the connection is ready, after a reconnect too, as
   * node-redis's `'ready'` event does. Messages published while the connection was down are
   * lost; `RedisTaskEventHub` then subscribes again and reads the kept events of its waits.
   * Without it, such a wait ends only at its fallback poll.
   */
  on?(event: 'ready', listener: () => void): unknown;
  /** Optional: removes a listener added with `on`. */
  off?(event: 'ready', listener: () => void): unknown;
}

/** Options shared by the Redis-backed pieces. */
export interface RedisKeyOptions {
  /** Prepended to every key and channel name, so several apps can share one Redis. @default 'mediagw:' */
  prefix?: string | undefined;
  /**
   * Longest wait for one Redis call, in milliseconds; past it the call fails. A node-redis
   * client keeps commands in its offline queue while disconnected, so without this limit a
   * webhook answer could hang past the gateway's 10-second acknowledgement window.
   * @default 2000
   */
  timeoutMs?: number | undefined;
}

/**
 * The rule of an option that sends commands (`client`, `publisher`): a client with
 * `sendCommand`. Passing the client where the options go, or an ioredis client without its
 * adapter, is refused where it is given, not at the first command.
 */
export function commandClient(option: string, client: RedisCommandClient): RedisCommandClient {
  if (typeof client?.sendCommand !== 'function')
    throw new InvalidOptionError(option, client, 'a connected Redis client (with sendCommand)');
  return client;
}

export const DEFAULT_PREFIX = 'mediagw:';
export const DEFAULT_TIMEOUT_MS = 2_000;

/** Runs `promise` with a time limit; a failure or timeout becomes a {@link RedisUnavailableError}. */
export async function bounded<T>(command: string, promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new RedisUnavailableError(command, `no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([promise, expired]);
  } catch (error) {
    if (error instanceof RedisUnavailableError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new RedisUnavailableError(command, message, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `send` and returns its promise, turning a synchronous throw into a rejection. */
export function attempt<T>(send: () => Promise<T>): Promise<T> {
  try {
    return Promise.resolve(send());
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Sends one command with a time limit; a failure names it by `args[0]` (every caller gives one). */
export function run(client: RedisCommandClient, args: string[], timeoutMs: number): Promise<unknown> {
  return bounded(
    args[0] as string,
    attempt(() => client.sendCommand(args)),
    timeoutMs,
  );
}

/**
 * Adds `listener` to `channel` (`'subscribe'`) or removes it (`'unsubscribe'`), with a time limit;
 * the command named in a failure is the action's.
 */
export function subscription(
  subscriber: RedisSubscriberClient,
  action: 'subscribe' | 'unsubscribe',
  channel: string,
  listener: (message: string) => void,
  timeoutMs: number,
): Promise<unknown> {
  return bounded(
    action.toUpperCase(),
    attempt(() => subscriber[action](channel, listener)),
    timeoutMs,
  );
}

/** Hex digest of `text` by Web Crypto (`globalThis.crypto`, in Node 20 and edge runtimes alike). */
export async function hexDigest(algorithm: 'SHA-1' | 'SHA-256', text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest(algorithm, new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A Lua script sent by its SHA-1 once Redis has it (`EVALSHA`), with its text the first time. */
export class LuaScript {
  private sha: Promise<string> | undefined;

  constructor(readonly source: string) {}

  /** Runs the script; a Redis that does not know it yet (`NOSCRIPT`) gets its text (`EVAL`). */
  async run(client: RedisCommandClient, keys: string[], args: string[], timeoutMs: number): Promise<unknown> {
    this.sha ??= hexDigest('SHA-1', this.source);
    const rest = [String(keys.length), ...keys, ...args];
    try {
      return await run(client, ['EVALSHA', await this.sha, ...rest], timeoutMs);
    } catch (error) {
      if (!(error instanceof RedisUnavailableError) || !/NOSCRIPT/.test(error.message)) throw error;
      return run(client, ['EVAL', this.source, ...rest], timeoutMs);
    }
  }
}
