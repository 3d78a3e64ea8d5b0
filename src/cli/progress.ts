/**
 * Progress on stderr: a bar for a task being waited for (status, percent, elapsed time, time
 * left before the deadline) and one for a download (bytes, rate). On a terminal the bar redraws
 * in place (cli-progress); piped, one plain line is written per change of status, so logs stay
 * readable.
 */
import cliProgress from 'cli-progress';
import { formatBytes, formatDuration, type Output } from './output.js';

const BAR = { barCompleteChar: '█', barIncompleteChar: '░', barsize: 24, hideCursor: true };

/** The bar of a task wait. */
export class WaitProgress {
  private readonly started = Date.now();
  private bar: cliProgress.SingleBar | undefined;
  private timer: NodeJS.Timeout | undefined;
  private status = 'submitted';
  private percent = 0;
  private lastLine = '';

  constructor(
    private readonly out: Output,
    private readonly taskId: string,
    private readonly timeoutMs: number,
  ) {}

  /** Draws the bar (on a terminal) and refreshes its clock every second. */
  start(): void {
    if (!this.out.interactive) return;
    const c = this.out.errColor;
    this.bar = new cliProgress.SingleBar({
      ...BAR,
      stream: this.out.stderr,
      format: `${c.cyan('{task}')} {bar} {percentage}% ${c.dim('|')} {status} ${c.dim('|')} {elapsed} elapsed ${c.dim('|')} deadline in {left}`,
    });
    this.bar.start(100, 0, this.payload());
    this.timer = setInterval(() => this.bar?.update(this.percent, this.payload()), 1000);
    this.timer.unref();
  }

  /** Shows the task's latest status and percent. */
  update(status: string, percent: number | undefined): void {
    this.status = status;
    if (percent !== undefined) this.percent = Math.max(0, Math.min(100, Math.round(percent)));
    if (this.bar) {
      this.bar.update(this.percent, this.payload());
      return;
    }
    const line = `task ${this.taskId}: ${status}${percent === undefined ? '' : ` ${this.percent}%`}`;
    if (line !== this.lastLine) {
      this.lastLine = line;
      this.out.info(`${line} (${formatDuration(Date.now() - this.started)} elapsed)`);
    }
  }

  /** Removes the clock; leaves the last drawn state on screen. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.bar?.update(this.percent, this.payload());
    this.bar?.stop();
    this.bar = undefined;
  }

  private payload() {
    const elapsed = Date.now() - this.started;
    return {
      task: this.taskId,
      status: this.status,
      elapsed: formatDuration(elapsed),
      left: formatDuration(this.timeoutMs - elapsed),
    };
  }
}

/** The bar of a download. */
export class DownloadProgress {
  private readonly started = Date.now();
  private bar: cliProgress.SingleBar | undefined;
  private bytes = 0;

  constructor(
    private readonly out: Output,
    private readonly label: string,
    private readonly total: number | undefined,
  ) {
    if (!out.interactive) return;
    const c = out.errColor;
    this.bar = new cliProgress.SingleBar({
      ...BAR,
      stream: out.stderr,
      format: `${c.cyan('{label}')} {bar} {done} / {size} ${c.dim('|')} {rate}/s`,
    });
    this.bar.start(total ?? 0, 0, this.payload());
  }

  /** Records bytes written so far. */
  update(bytes: number): void {
    this.bytes = bytes;
    this.bar?.update(this.total === undefined ? 0 : bytes, this.payload());
  }

  /** Ends the bar and writes the summary line. */
  finish(): void {
    if (this.bar) {
      this.bar.update(this.total ?? 0, this.payload());
      this.bar.stop();
    }
    const seconds = (Date.now() - this.started) / 1000;
    this.out.info(
      `saved ${this.label} (${formatBytes(this.bytes)} in ${seconds.toFixed(1)} s, ${this.payload().rate}/s)`,
    );
  }

  /** Ends the bar without the summary (the download failed). */
  abandon(): void {
    this.bar?.stop();
  }

  private payload() {
    const seconds = Math.max(0.001, (Date.now() - this.started) / 1000);
    return {
      label: this.label,
      done: formatBytes(this.bytes),
      size: this.total === undefined ? '?' : formatBytes(this.total),
      rate: formatBytes(Math.round(this.bytes / seconds)),
    };
  }
}
