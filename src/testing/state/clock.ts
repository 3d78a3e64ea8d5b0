/** How the mock clock moves: only when told (`advance`), or with real time scaled by `speed`. */
export type ClockMode = 'manual' | 'real';

/** Cancels a timer set with {@link MockClock.at}. */
export type CancelTimer = () => void;

/** Options of {@link MockClock}. */
export interface MockClockOptions {
  /** `manual`: time moves only with `advance`; `real`: it follows the wall clock times `speed`. @default 'real' */
  mode?: ClockMode | undefined;
  /** Mock milliseconds per real millisecond in `real` mode; must be positive. @default 1 */
  speed?: number | undefined;
  /** The mock time at creation, in ms since the epoch. @default Date.now() */
  start?: number | undefined;
  /** Called when a timer throws. @default prints to stderr */
  onError?: ((error: unknown) => void) | undefined;
}

interface Timer {
  due: number;
  seq: number;
  fn: () => void;
}

/**
 * The mock gateway's time source. Task states, media expiry and webhook retries read it, so a
 * test decides when things happen instead of waiting for them.
 *
 * - `manual`: time stands still until {@link MockClock.advance} moves it.
 * - `real`: time follows the wall clock multiplied by `speed` (speed 10 = ten mock seconds per
 *   real second); `advance` still jumps ahead on top of that.
 *
 * Its real timers are unref'd (they never keep a process alive) and are cleared by `stop()`.
 *
 * @example
 * const clock = new MockClock({ mode: 'manual' });
 * clock.at(clock.now() + 5_000, () => console.log('due'));
 * await clock.advance(5_000); // prints "due"
 */
export class MockClock {
  /** How this clock moves: `manual` or `real`. */
  readonly mode: ClockMode;
  /** Mock milliseconds per real millisecond in `real` mode. */
  readonly speed: number;
  private readonly startMock: number;
  private readonly startReal: number;
  private offset = 0;
  private timers: Timer[] = [];
  private seq = 0;
  private handle: NodeJS.Timeout | undefined;
  private stopped = false;
  private running = false;
  private readonly onError: (error: unknown) => void;

  /**
   * @param options - mode, speed, start time and timer-error reporter; see {@link MockClockOptions}.
   * @throws RangeError when `speed` is not a positive finite number.
   */
  constructor(options: MockClockOptions = {}) {
    this.mode = options.mode ?? 'real';
    this.speed = options.speed ?? 1;
    if (!(this.speed > 0) || !Number.isFinite(this.speed))
      throw new RangeError('speed must be a positive number');
    this.startMock = options.start ?? Date.now();
    this.startReal = Date.now();
    this.onError = options.onError ?? ((error) => console.error('mock clock: a timer failed:', error));
  }

  /** The mock time in milliseconds since the epoch. */
  now(): number {
    const realElapsed = this.mode === 'real' ? (Date.now() - this.startReal) * this.speed : 0;
    return Math.floor(this.startMock + realElapsed + this.offset);
  }

  /** The mock time as whole Unix seconds, as the spec's `created_at`-style fields carry it. */
  nowSeconds(): number {
    return Math.floor(this.now() / 1000);
  }

  /**
   * Moves the clock forward by `ms`, running every timer that falls due on the way, in order and
   * synchronously, each seeing `now()` at its own due time (in `manual` mode). Resolves once they
   * have run and pending promise callbacks have had a turn.
   *
   * @throws RangeError when `ms` is negative.
   */
  async advance(ms: number): Promise<void> {
    if (!(ms >= 0)) throw new RangeError('advance() takes a non-negative number of milliseconds');
    const target = this.now() + ms;
    // Called from inside a timer: only move time; the outer run picks up what fell due.
    if (!this.running) {
      for (let next = this.timers[0]; next && next.due <= target; next = this.timers[0]) {
        if (next.due > this.now()) this.offset += next.due - this.now();
        this.runDue();
      }
    }
    this.offset += Math.max(0, target - this.now());
    this.runDue();
    await new Promise<void>((resolve) => setImmediate(resolve));
  }

  /** Runs `fn` once the mock time reaches `due` (at once on the next check if it already has). */
  at(due: number, fn: () => void): CancelTimer {
    const timer: Timer = { due, seq: this.seq++, fn };
    this.timers.push(timer);
    this.timers.sort((a, b) => a.due - b.due || a.seq - b.seq);
    this.arm();
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
      this.arm();
    };
  }

  /** Runs `fn` after `ms` of mock time. */
  after(ms: number, fn: () => void): CancelTimer {
    return this.at(this.now() + ms, fn);
  }

  /** Number of timers not yet run. */
  get pendingTimers(): number {
    return this.timers.length;
  }

  /** Drops every timer and stops the real-time driver. The clock still answers `now()`. */
  stop(): void {
    this.stopped = true;
    this.timers = [];
    if (this.handle) clearTimeout(this.handle);
    this.handle = undefined;
  }

  private runDue(): void {
    if (this.running) return;
    this.running = true;
    try {
      for (let next = this.timers[0]; next && next.due <= this.now(); next = this.timers[0]) {
        this.timers.shift();
        try {
          next.fn();
        } catch (error) {
          // A failing listener must not stop the clock for everyone else.
          this.onError(error);
        }
      }
    } finally {
      this.running = false;
    }
    this.arm();
  }

  private arm(): void {
    if (this.handle) clearTimeout(this.handle);
    this.handle = undefined;
    const next = this.timers[0];
    if (this.stopped || this.mode !== 'real' || !next) return;
    const delay = Math.max(0, Math.ceil((next.due - this.now()) / this.speed));
    // Node caps timers at 2^31-1 ms; a longer wait simply re-arms when it fires.
    this.handle = setTimeout(() => this.runDue(), Math.min(delay, 2 ** 31 - 1));
    this.handle.unref();
  }
}
