/**
 * Remembers which event IDs were handled, so a handler calls `onEvent` once per event.
 * spec: Events — item 6 (at-least-once delivery; duplicates are dropped by `id`) and item 7
 * (retries for up to 72 hours after the event was created).
 */
import { checkCount, checkDuration } from '../core/options.js';

/**
 * What {@link DedupeStore.claimState} found:
 * - `'claimed'`: this caller holds the event ID now and runs `onEvent`;
 * - `'in_flight'`: another caller holds it and has not finished (nor released it, nor has its
 *   claim lapsed); the handler answers 503 with `Retry-After`, so the gateway retries soon;
 * - `'done'`: the event was handled; the handler answers 200 as a duplicate.
 */
export type DedupeClaim = 'claimed' | 'in_flight' | 'done';

/**
 * Where a webhook handler records event IDs. Implement it over a shared store (Redis, a SQL
 * table) when several processes receive deliveries; `mediagw/redis` provides one.
 *
 * An ID goes through three states: absent, claimed (`onEvent` runs somewhere), done. Only a
 * done ID may be acknowledged as a duplicate: a claim's holder can still fail or die, and an
 * event acknowledged meanwhile would never be retried. So implement `claimState`; a store
 * with `claim` alone cannot tell a handled event from one in flight, and the handler then
 * answers every lost claim with 503, the gateway retrying until its window ends.
 *
 * A Redis implementation: `claimState`: `SET key pending NX EX <lease>`, then on a lost race
 * `GET key` (`done` or not); `release`: `DEL key`; `markDone`: `SET key done EX <ttl>`.
 */
export interface DedupeStore {
  /**
   * Claims an event ID. Resolves `true` when this caller is first (the ID is not recorded, or
   * its claim was released or has expired) and `false` otherwise. Must be atomic: of
   * concurrent claims of one ID, exactly one resolves `true`. Used only when `claimState` is
   * absent; `false` is then taken as `'in_flight'`.
   */
  claim(eventId: string): Promise<boolean>;
  /**
   * Claims an event ID like `claim`, and says what it found when the claim is lost: `'done'`
   * only once `markDone` recorded the ID, `'in_flight'` while another claim holds it. A claim
   * whose holder died must lapse (a lease), or the event is answered 503 until the gateway
   * gives up. Optional for compatibility; the handlers use it when present.
   */
  claimState?(eventId: string): Promise<DedupeClaim>;
  /** Forgets a claim, so that the gateway's next retry of the event is processed. */
  release(eventId: string): Promise<void>;
  /**
   * Records that the event was handled, so later deliveries are acknowledged as duplicates;
   * a store may restart the ID's expiry here. Without it an ID stays claimed, not done.
   */
  markDone?(eventId: string): Promise<void>;
  /**
   * How long, in seconds, a claim holds at most while its `onEvent` runs: a whole number from 1
   * to 2147483 (setTimeout's range), read once when a handler is created, which refuses any
   * other value with an `InvalidOptionError`. Past it the handler takes the call as hung and stops holding the event in
   * its process: the deliveries waiting on the call are answered 503, later ones go to
   * `claimState` again (so `onEvent` runs again once the store lets a claim through), the hung
   * call's outcome is neither released nor marked done, and `onError` is told. Absent: a
   * claim is held for as long as `onEvent` runs.
   */
  readonly maxHoldSeconds?: number | undefined;
}

/** Options of {@link MemoryDedupeStore}. */
export interface MemoryDedupeStoreOptions {
  /** Most IDs kept; past it the oldest are forgotten first. @default 10000 */
  maxEntries?: number | undefined;
  /**
   * How long an ID is kept, in milliseconds. Keep it at least as long as the gateway retries.
   * @default 259200000 (72 hours)
   */
  ttlMs?: number | undefined;
  /** Clock in milliseconds, for tests. @default Date.now */
  now?: (() => number) | undefined;
}

/**
 * The default {@link DedupeStore}: event IDs in memory, for one process. Bounded: it keeps at
 * most `maxEntries` IDs, each for `ttlMs` (72 hours by default) unless the bound forces the
 * oldest out earlier. A restart forgets every ID; use a shared store when that matters.
 *
 * @throws {InvalidOptionError} at construction when `maxEntries` is not a whole number of at
 * least 1 or `ttlMs` not a whole number of milliseconds from 1 to 2147483647.
 * @example
 * const dedupe = new MemoryDedupeStore({ maxEntries: 50_000 });
 * createWebhookHandler({ secrets, onEvent, dedupe });
 */
export class MemoryDedupeStore implements DedupeStore {
  /** ID -> time it was claimed or marked done; the Map keeps insertion order, oldest first. */
  readonly #ids = new Map<string, number>();
  /** IDs claimed and neither released nor marked done. */
  readonly #claimed = new Set<string>();
  readonly #max: number;
  readonly #ttl: number;
  readonly #now: () => number;

  constructor(options: MemoryDedupeStoreOptions = {}) {
    this.#max = checkCount('MemoryDedupeStore.maxEntries', options.maxEntries, 1) ?? 10_000;
    this.#ttl = checkDuration('MemoryDedupeStore.ttlMs', options.ttlMs) ?? 72 * 3_600_000;
    this.#now = options.now ?? Date.now;
  }

  /** How many IDs are kept now. */
  get size(): number {
    this.#prune();
    return this.#ids.size;
  }

  /** Resolves `true` when the ID was not kept (or has expired), and keeps it from now on. */
  async claim(eventId: string): Promise<boolean> {
    return (await this.claimState(eventId)) === 'claimed';
  }

  /**
   * `'claimed'` when the ID was not kept (or has expired), and keeps it as claimed from now
   * on; `'done'` after `markDone`; `'in_flight'` while claimed.
   */
  async claimState(eventId: string): Promise<DedupeClaim> {
    this.#prune();
    if (this.#ids.has(eventId)) return this.#claimed.has(eventId) ? 'in_flight' : 'done';
    this.#record(eventId);
    this.#claimed.add(eventId);
    return 'claimed';
  }

  /** Forgets the ID. */
  async release(eventId: string): Promise<void> {
    this.#forget(eventId);
  }

  /** Records the ID as done, for a full `ttlMs` from now. */
  async markDone(eventId: string): Promise<void> {
    this.#forget(eventId);
    this.#record(eventId);
  }

  #record(eventId: string): void {
    this.#ids.set(eventId, this.#now());
    this.#prune();
  }

  /** Forgets the oldest IDs while they have expired or there are more than `maxEntries`. */
  #prune(): void {
    const cutoff = this.#now() - this.#ttl;
    for (const [id, at] of this.#ids) {
      if (at >= cutoff && this.#ids.size <= this.#max) break;
      this.#forget(id);
    }
  }

  #forget(eventId: string): void {
    this.#ids.delete(eventId);
    this.#claimed.delete(eventId);
  }
}
