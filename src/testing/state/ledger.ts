/** What a ledger entry records. */
export type LedgerEntryKind = 'reserve' | 'settle' | 'refund';

/**
 * One movement of billable seconds. spec: Limits — Billing and reservations: submission
 * reserves, success settles (the final charge), failure refunds the reservation in full.
 */
export interface LedgerEntry {
  /** The task the seconds belong to. */
  readonly taskId: string;
  /** The account charged. */
  readonly account: string;
  /** `reserve`, `settle` or `refund`. */
  readonly kind: LedgerEntryKind;
  /** `reserve`: seconds held; `settle`: seconds finally charged; `refund`: seconds given back. */
  readonly seconds: number;
  /** Price tier, e.g. `720P`, `480P-input`, `1080p`; the routes name it by the spec's rules. */
  readonly tier: string;
  /** Mock time of the entry (ms). */
  readonly at: number;
}

/** What a submission reserves. */
export interface ReservationInit {
  /** The submitted task; it may hold one reservation only. */
  taskId: string;
  /** The submitting account. */
  account: string;
  /** Billable seconds to hold, 0 or more. */
  seconds: number;
  /** Price tier, e.g. `720P-input` or `1080p`. */
  tier: string;
}

/**
 * The mock gateway's billing ledger, in seconds and tiers (the spec shows no money). Tests
 * read it to prove that a refused request reserved nothing and that no task was charged twice.
 *
 * @example
 * expect(gateway.ledger.entriesFor(taskId).map((e) => e.kind)).toEqual(['reserve', 'settle']);
 */
export class Ledger {
  /** Every entry, oldest first. */
  readonly entries: LedgerEntry[] = [];

  constructor(private readonly now: () => number) {}

  /**
   * Holds `seconds` at `tier` for a submitted task.
   *
   * @throws Error when the task already has a reservation (a task is reserved exactly once).
   */
  reserve(init: ReservationInit): LedgerEntry {
    if (!(init.seconds >= 0))
      throw new RangeError(`reservation of task ${init.taskId}: seconds must be >= 0`);
    if (this.reservationOf(init.taskId)) throw new Error(`task ${init.taskId} already has a reservation`);
    return this.push({ ...init, kind: 'reserve' });
  }

  /**
   * Closes the reservation of a succeeded task, charging `seconds` (the reserved seconds when
   * omitted). Does nothing for a task without an open reservation.
   */
  settle(taskId: string, seconds?: number): LedgerEntry | undefined {
    return this.close(taskId, 'settle', seconds);
  }

  /** Gives a failed task's reservation back in full. Does nothing without an open reservation. */
  refund(taskId: string): LedgerEntry | undefined {
    return this.close(taskId, 'refund');
  }

  /** Closes a task's open reservation with `kind`, for `seconds` (the reserved seconds when omitted). */
  private close(taskId: string, kind: 'settle' | 'refund', seconds?: number): LedgerEntry | undefined {
    const held = this.openReservation(taskId);
    if (!held) return undefined;
    return this.push({
      taskId,
      account: held.account,
      kind,
      seconds: seconds ?? held.seconds,
      tier: held.tier,
    });
  }

  /** The entries of one task, oldest first. */
  entriesFor(taskId: string): LedgerEntry[] {
    return this.entries.filter((e) => e.taskId === taskId);
  }

  /** The entries of one account, oldest first. */
  entriesOf(account: string): LedgerEntry[] {
    return this.entries.filter((e) => e.account === account);
  }

  /** The reservation of a task, open or closed. */
  reservationOf(taskId: string): LedgerEntry | undefined {
    return this.entries.find((e) => e.taskId === taskId && e.kind === 'reserve');
  }

  /** Seconds held by the account's reservations that are neither settled nor refunded yet. */
  reservedTotal(account: string): number {
    let total = 0;
    for (const e of this.entriesOf(account))
      if (e.kind === 'reserve' && this.isOpen(e.taskId)) total += e.seconds;
    return total;
  }

  /** Seconds finally charged to the account by settled tasks. */
  settledTotal(account: string): number {
    let total = 0;
    for (const e of this.entriesOf(account)) if (e.kind === 'settle') total += e.seconds;
    return total;
  }

  /** Empties the ledger (between tests). */
  clear(): void {
    this.entries.length = 0;
  }

  private isOpen(taskId: string): boolean {
    return !this.entries.some((e) => e.taskId === taskId && e.kind !== 'reserve');
  }

  private openReservation(taskId: string): LedgerEntry | undefined {
    return this.isOpen(taskId) ? this.reservationOf(taskId) : undefined;
  }

  private push(entry: Omit<LedgerEntry, 'at'>): LedgerEntry {
    const full = Object.freeze({ ...entry, at: this.now() });
    this.entries.push(full);
    return full;
  }
}
