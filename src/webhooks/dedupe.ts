/**
 * Remembers which event IDs were handled, so a handler calls `onEvent` once per event.
 * spec: Events — item 6 (at-least-once delivery; duplicates are dropped by `id`) and item 7
 * (retries for up to 72 hours after the event was created).
 */

/**
 * Where a webhook handler records event IDs. Implement it over a shared store (Redis, a SQL
 * table) when several processes receive deliveries; `mediagw/redis` provides one.
 *
 * A Redis implementation maps to `claim`: `SET key 1 NX EX <ttl>`, `release`: `DEL key`.
 */
export interface DedupeStore {
  /**
   * Claims an event ID. Resolves `true` when this caller is first (the ID is not recorded, or
   * its claim was released or has expired) and `false` otherwise. Must be atomic: of
   * concurrent claims of one ID, exactly one resolves `true`.
   */
  claim(eventId: string): Promise<boolean>;
  /** Forgets a claim, so that the gateway's next retry of the event is processed. */
  release(eventId: string): Promise<void>;
  /** Records that the event was handled; a store may restart the ID's expiry here. Optional. */
  markDone?(eventId: string): Promise<void>;
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
 * @example
 * const dedupe = new MemoryDedupeStore({ maxEntries: 50_000 });
 * createWebhookHandler({ secrets, onEvent, dedupe });
 */
export class MemoryDedupeStore implements DedupeStore {
  /** ID -> time it was claimed or marked done; the Map keeps insertion order, oldest first. */
  readonly #ids = new Map<string, number>();
  readonly #max: number;
  readonly #ttl: number;
  readonly #now: () => number;

  constructor(options: MemoryDedupeStoreOptions = {}) {
    this.#max = options.maxEntries ?? 10_000;
    this.#ttl = options.ttlMs ?? 72 * 3_600_000;
    this.#now = options.now ?? Date.now;
  }

  /** How many IDs are kept now. */
  get size(): number {
    this.#prune();
    return this.#ids.size;
  }

  /** Resolves `true` when the ID was not kept (or has expired), and keeps it from now on. */
  async claim(eventId: string): Promise<boolean> {
    this.#prune();
    if (this.#ids.has(eventId)) return false;
    this.#record(eventId);
    return true;
  }

  /** Forgets the ID. */
  async release(eventId: string): Promise<void> {
    this.#ids.delete(eventId);
  }

  /** Keeps the ID for a full `ttlMs` from now. */
  async markDone(eventId: string): Promise<void> {
    this.#ids.delete(eventId);
    this.#record(eventId);
  }

  #record(eventId: string): void {
    this.#ids.set(eventId, this.#now());
    for (const oldest of this.#ids.keys()) {
      if (this.#ids.size <= this.#max) break;
      this.#ids.delete(oldest);
    }
  }

  #prune(): void {
    const cutoff = this.#now() - this.#ttl;
    for (const [id, at] of this.#ids) {
      if (at >= cutoff) break;
      this.#ids.delete(id);
    }
  }
}
