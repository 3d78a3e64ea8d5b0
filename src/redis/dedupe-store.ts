/**
 * A webhook dedupe store shared by every replica through Redis.
 * spec: Events — item 6 (at-least-once delivery; duplicates are dropped by `id`), item 7
 * (retries for up to 72 hours after the event was created) and item 8 (a replay opens a new window).
 */
import { checkOptions, count, duration, MAX_TIMER_MS } from '../core/options.js';
import type { DedupeClaim, DedupeStore } from '../webhooks/dedupe.js';
import {
  attempt,
  commandClient,
  DEFAULT_PREFIX,
  DEFAULT_TIMEOUT_MS,
  type RedisCommandClient,
  type RedisKeyOptions,
  run,
} from './client.js';

/** Deletes KEYS[1] only while it holds ARGV[1]: a claim is released only by its owner. */
const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/**
 * Sets KEYS[1] to ARGV[2] for ARGV[3] seconds while it holds ARGV[1], or is gone (the lease
 * lapsed, Redis lost it), but never over another replica's claim. Also renews a claim (ARGV[2]
 * its token): a holder whose key vanished takes it back while no other replica holds it.
 */
const MARK_DONE_SCRIPT = `local v = redis.call('GET', KEYS[1]) if v == ARGV[1] or not v then redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3]) return 1 end return 0`;

/** The value of a handled event's key. */
export const DONE_VALUE = 'done';

const RETRY_WINDOW_SECONDS = 72 * 3_600;

/** Options of {@link RedisDedupeStore}. */
export interface RedisDedupeStoreOptions extends RedisKeyOptions {
  /** A connected client (node-redis `createClient()`, or an adapter: see `RedisCommandClient`). */
  client: RedisCommandClient;
  /**
   * How long a handled event ID is kept, in seconds, from the time `onEvent` resolved. At
   * least the gateway's 72-hour retry window; the default adds a day of margin. A manual
   * replay arriving later than this is processed again.
   * @default 345600 (96 hours)
   */
  ttlSeconds?: number | undefined;
  /**
   * How long a claim holds without renewal, in seconds. While `onEvent` runs the store renews
   * its claim every third of this, so deliveries of the event reaching other replicas are
   * answered 503 with `Retry-After` however long it takes (up to `maxHoldSeconds`). A replica
   * that dies inside `onEvent` stops renewing: its claim lapses within this, and a later retry
   * is processed. Short enough that a crashed replica does not hold an event long.
   * @default 300
   */
  leaseSeconds?: number | undefined;
  /**
   * How long a claim is renewed at most, in seconds from when it was taken (at most 2147483).
   * An `onEvent` still running then is taken as hung: the handler stops holding the event in
   * its process (the deliveries waiting on the call are answered 503, `onError` is told), the
   * claim lapses within `leaseSeconds`, and the gateway's next retry is processed, on any
   * replica (this one included) while the hung call still runs. The
   * gateway stops waiting for an answer after 10 s and then retries (1, 2, 5, 15 minutes
   * later, every 10 s while answered 503); the default lets a slow `onEvent` run 60 times that
   * window undisturbed, and frees a hung one's event after minutes, not the 72-hour retry window.
   * @default 600 (10 minutes)
   */
  maxHoldSeconds?: number | undefined;
}

/** A claim this store took: its token, and the timer that renews it. */
interface Held {
  token: string;
  timer?: ReturnType<typeof setInterval> | undefined;
}

/** The numeric options of {@link RedisDedupeStore}, in the order they are checked: rule and default. */
const DEDUPE_OPTIONS = {
  client: commandClient,
  // spec: Events 7 — the gateway retries for up to 72 hours; an ID forgotten sooner is processed twice.
  ttlSeconds: count(RETRY_WINDOW_SECONDS, RETRY_WINDOW_SECONDS + 24 * 3_600),
  leaseSeconds: count(1, 300),
  maxHoldSeconds: count(1, 600, 2_147_483),
  timeoutMs: duration(DEFAULT_TIMEOUT_MS),
};

/**
 * A {@link DedupeStore} on Redis, for webhook receivers spread over several processes: of all
 * deliveries of one event ID, on any replica, one runs `onEvent` at a time, and an event is
 * acknowledged only after its `onEvent` completed. The handler waits for the done record
 * before it answers 200; if writing it fails, the answer is still 200 (a retry could only run
 * `onEvent` again) and the store writes it in the background once Redis answers (`markDone`).
 * Pass it as the `dedupe` option of `createWebhookHandler` or `createNodeWebhookHandler`.
 *
 * Key `<prefix>dedupe:<event_id>`, always with an expiry:
 * - `claimState` (and `claim`): `SET key pending:<token> NX EX leaseSeconds`; only the first
 *   caller gets `OK`. The others read the key (`GET`): `done` means handled (the handler
 *   answers 200), anything else that a claim is in flight (the handler answers 503).
 * - While the claim is held, every third of `leaseSeconds` (up to `maxHoldSeconds`):
 *   `SET key token EX leaseSeconds` if it still holds the token or is gone, never over another
 *   replica's claim (`EVAL` compare-and-set). A renewal that fails or finds another claim is
 *   tried at the next turn, until `maxHoldSeconds`. The timer is
 *   `unref()`ed: it never keeps a process alive.
 * - `release` (when `onEvent` threw): deletes the key if it still holds this claim's token
 *   (an `EVAL` compare-and-delete), so the gateway's retry is processed by whichever replica gets it.
 * - `markDone` (after `onEvent` resolved): sets the key to `done` for `ttlSeconds`, unless
 *   another replica claimed it meanwhile (`EVAL` compare-and-set). One that fails is tried
 *   again 1, 2, 4, 8, 16 and 32 s later, the claim renewed meanwhile. A later delivery of the
 *   handled event runs `onEvent` again only if the record never lands (the process dies, or
 *   reaches no Redis for that minute) or the claim lapsed first (no renewal reached Redis for
 *   `leaseSeconds`) and another replica took it.
 *
 * When Redis fails or does not answer within `timeoutMs`, `claim` throws a
 * `RedisUnavailableError`, which the handler answers with 500, so the gateway retries later.
 * A claim that reached Redis although its answer was lost is withdrawn by a compare-and-delete
 * queued right behind it.
 *
 * @throws {InvalidOptionError} at construction when `ttlSeconds` is not a whole number of at
 * least 259200 (72 hours), `leaseSeconds` not one of at least 1, `maxHoldSeconds` not one from 1 to 2147483, or
 * `timeoutMs` not a whole number of milliseconds from 1 to 2147483647.
 * @example
 * import { createClient } from 'redis';
 * import { RedisDedupeStore } from 'mediagw/redis';
 * const redis = await createClient({ url: process.env.REDIS_URL }).on('error', log.warn).connect();
 * app.post('/webhooks', express.raw({ type: 'application/json' }),
 *   createNodeWebhookHandler({ secrets, onEvent, dedupe: new RedisDedupeStore({ client: redis }) }));
 */
export class RedisDedupeStore implements DedupeStore {
  readonly #client: RedisCommandClient;
  readonly #prefix: string;
  readonly #ttl: string;
  readonly #lease: string;
  readonly #renewMs: number;
  /** How long a claim is held at most, in seconds; the handlers stop waiting on `onEvent` then. */
  readonly maxHoldSeconds: number;
  readonly #timeoutMs: number;
  /** Event ID -> this store's claim of it, until it is released or marked done. */
  readonly #held = new Map<string, Held>();

  constructor(options: RedisDedupeStoreOptions) {
    const checked = checkOptions(DEDUPE_OPTIONS, options, 'RedisDedupeStore.');
    this.#client = checked.client;
    this.#prefix = options.prefix ?? DEFAULT_PREFIX;
    this.#ttl = String(checked.ttlSeconds);
    this.#lease = String(checked.leaseSeconds);
    // As the rate limiter's leases: renewed every third, so one lost renewal does not lose the claim.
    this.#renewMs = Math.min((checked.leaseSeconds * 1_000) / 3, MAX_TIMER_MS);
    this.maxHoldSeconds = checked.maxHoldSeconds;
    this.#timeoutMs = checked.timeoutMs;
  }

  /** The Redis key of an event ID. */
  keyOf(eventId: string): string {
    return `${this.#prefix}dedupe:${eventId}`;
  }

  /**
   * Resolves `true` when this call claimed the event ID (no replica holds or handled it).
   * @throws {RedisUnavailableError} when Redis fails or does not answer in time.
   */
  async claim(eventId: string): Promise<boolean> {
    return (await this.claimState(eventId)) === 'claimed';
  }

  /**
   * Claims the event ID: `'claimed'` when this call took it; otherwise `'done'` when a
   * replica handled it and `'in_flight'` while a replica's claim holds it (or the key was
   * released or lapsed a moment ago: the gateway's next retry then takes it). While this store
   * holds a claim of the ID (neither released nor marked done, for up to `maxHoldSeconds`), it
   * answers `'in_flight'` at once, without Redis, even if the claim lapsed: its holder still
   * runs in this process. Past `maxHoldSeconds` it asks Redis like any replica.
   * @throws {RedisUnavailableError} when Redis fails or does not answer in time.
   */
  async claimState(eventId: string): Promise<DedupeClaim> {
    // One claim per ID in this process: a second one would take the first holder's place, and
    // the first holder's release or markDone would then act on the second's claim.
    if (this.#held.has(eventId)) return 'in_flight';
    const key = this.keyOf(eventId);
    const token = `pending:${globalThis.crypto.randomUUID()}`;
    let reply: unknown;
    try {
      reply = await run(this.#client, ['SET', key, token, 'NX', 'EX', this.#lease], this.#timeoutMs);
    } catch (error) {
      // The SET may still reach Redis (sent before the connection dropped, or held in the
      // client's offline queue). Queued behind it, this withdraws it, so the retry is not
      // taken for a claim in flight.
      attempt(() => this.#client.sendCommand(['EVAL', RELEASE_SCRIPT, '1', key, token])).catch(() => {});
      throw error;
    }
    if (reply !== null && reply !== undefined) {
      const held: Held = { token };
      const until = Date.now() + this.maxHoldSeconds * 1e3;
      this.#held.set(eventId, held);
      held.timer = setInterval(() => {
        // Past maxHoldSeconds the claim is no longer this process's either: left to lapse, so a
        // later delivery here claims the event anew once it has.
        if (Date.now() >= until) return this.#drop(eventId, held);
        // Nothing awaits a renewal: one that fails, or finds another replica's claim, is tried
        // at the next turn; the timer runs until maxHoldSeconds whatever they find, so a hung
        // call's event is let go here even after its key vanished.
        this.#eval(MARK_DONE_SCRIPT, eventId, held.token, held.token, this.#lease).catch(() => {});
      }, this.#renewMs);
      held.timer.unref?.();
      return 'claimed';
    }
    // Only a key recorded as done is a duplicate; a pending claim may still fail or die.
    const value = await run(this.#client, ['GET', key], this.#timeoutMs);
    return value === DONE_VALUE ? 'done' : 'in_flight';
  }

  /**
   * Withdraws this store's claim of the event ID, so the next delivery of it is processed.
   * Does nothing when the key no longer holds this store's claim.
   * @throws {RedisUnavailableError} when Redis fails or does not answer in time.
   */
  async release(eventId: string): Promise<void> {
    const held = this.#drop(eventId);
    if (held) await this.#eval(RELEASE_SCRIPT, eventId, held.token);
  }

  /**
   * Records that the event was handled: the key becomes `done` for `ttlSeconds`. When that
   * fails, the store tries again in the background 1, 2, 4, 8, 16 and 32 seconds later (about
   * a minute), renewing its claim meanwhile (up to `maxHoldSeconds`), so the record lands once
   * Redis answers again.
   * @throws {RedisUnavailableError} when Redis fails or does not answer in time (the first
   * try; the handler reports it to `onError` and still acknowledges the event).
   */
  async markDone(eventId: string): Promise<void> {
    const held = this.#held.get(eventId);
    if (held) await this.#markDone(eventId, held, 1);
  }

  /**
   * Deletes the record of an event ID whatever its state, so that a manual replay of an
   * event already handled is processed again.
   * @throws {RedisUnavailableError} when Redis fails or does not answer in time.
   */
  async forget(eventId: string): Promise<void> {
    this.#drop(eventId);
    await run(this.#client, ['DEL', this.keyOf(eventId)], this.#timeoutMs);
  }

  /** Sets the key to done; after a failure tries again in `seconds`, then twice as long, up to 32 s. */
  #markDone(eventId: string, held: Held, seconds: number): Promise<unknown> {
    return this.#eval(MARK_DONE_SCRIPT, eventId, held.token, DONE_VALUE, this.#ttl).then(
      () => this.#drop(eventId, held),
      (error) => {
        // The event was handled and is acknowledged: until the record lands, a later duplicate
        // would run onEvent again. The claim (still held, still renewed) keeps other replicas off.
        if (seconds > 32) this.#drop(eventId, held);
        else
          setTimeout(() => {
            if (this.#held.get(eventId) === held) this.#markDone(eventId, held, seconds * 2).catch(() => {});
          }, seconds * 1_000).unref?.();
        throw error;
      },
    );
  }

  /** Stops holding this store's claim of the event ID (`held`, when given), and returns it. */
  #drop(eventId: string, held = this.#held.get(eventId)): Held | undefined {
    clearInterval(held?.timer);
    if (this.#held.get(eventId) === held) this.#held.delete(eventId);
    return held;
  }

  /** Runs one of the scripts on the event ID's key. */
  #eval(script: string, eventId: string, ...args: string[]): Promise<unknown> {
    return run(this.#client, ['EVAL', script, '1', this.keyOf(eventId), ...args], this.#timeoutMs);
  }
}
