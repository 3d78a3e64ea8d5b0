/**
 * Live updates of the dashboard over server-sent events: each open page gets the whole view
 * when it connects, then again whenever it changes. Task and delivery events push at once; a
 * short real-time check catches the rest (requests, progress, the clock) while a page is open.
 * When only the real clock moved, a page gets a `clock` event with its time, not the view.
 *
 * A page that stops reading (a suspended laptop, `curl | less`) costs bounded memory: once its
 * stream holds more than it takes, it is skipped, and when it drains it gets the newest view
 * only, the views in between being superseded. The number of pages is capped.
 */
import type { ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import type { GatewayState } from '../state/gateway-state.js';
import { mockWebhooks } from '../state/webhooks/index.js';

/** Real milliseconds between checks for changes while a page is connected. */
export const LIVE_CHECK_MS = 250;

/** The most pages streaming at once; one more is refused with 503 until one closes. */
export const MAX_LIVE_VIEWERS = 32;

/** One open event stream. */
interface Viewer {
  readonly stream: PassThrough;
  /** The HTTP answer the stream is piped into, for what it holds. */
  readonly res: ServerResponse | undefined;
  /** The last write was not taken at once: nothing more is written until the stream drains. */
  blocked: boolean;
  /** A view was skipped while blocked: the newest one is sent on drain. */
  behind: boolean;
}

/** What the open streams hold, for tests and diagnostics. */
export interface LiveViewStats {
  /** Open event streams. */
  viewers: number;
  /** Streams skipped because their reader is behind. */
  blocked: number;
  /** Bytes written to the streams and not yet handed to the sockets' kernel buffers. */
  bufferedBytes: number;
  /** Byte length of the newest frame sent. */
  frameBytes: number;
}

const registry = new WeakMap<GatewayState, LiveViews>();

/** The live views of a gateway's dashboard, once a page has opened the event stream. */
export function liveViewsOf(gateway: GatewayState): LiveViews | undefined {
  return registry.get(gateway);
}

/** The open event streams of one gateway's dashboard. */
export class LiveViews {
  private readonly viewers = new Set<Viewer>();
  private last = '';
  private lastFrame = '';
  /** The `now` of the last render. */
  private lastNow: number | undefined;
  /** The real clock's `now`, when it alone changed at the last {@link refresh}. */
  private ticked: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private queued = false;

  constructor(
    gateway: GatewayState,
    private readonly render: () => unknown,
  ) {
    gateway.tasks.on('created', () => this.changed());
    gateway.tasks.on('terminal', () => this.changed());
    mockWebhooks(gateway).on('delivery', () => this.changed());
    gateway.onClose(() => this.close());
    registry.set(gateway, this);
  }

  /** Whether another page may open a stream now. */
  get full(): boolean {
    return this.viewers.size >= MAX_LIVE_VIEWERS;
  }

  /** A new event stream, sent the current view at once. `res` is what it will be piped into. */
  open(res?: ServerResponse): PassThrough {
    const stream = new PassThrough();
    const viewer: Viewer = { stream, res, blocked: false, behind: false };
    this.viewers.add(viewer);
    stream.on('close', () => {
      this.viewers.delete(viewer);
      if (this.viewers.size === 0) this.stopTimer();
    });
    stream.on('drain', () => {
      viewer.blocked = false;
      if (viewer.behind) {
        viewer.behind = false;
        this.write(viewer, this.lastFrame);
      }
    });
    // A view newer than the open pages have goes to them too, so every page shows the same.
    if (this.refresh())
      for (const other of this.viewers) if (other !== viewer) this.write(other, this.lastFrame);
    // The browser reconnects after 1 s if the stream drops.
    stream.write('retry: 1000\n\n');
    this.write(viewer, this.lastFrame);
    this.timer ??= setInterval(() => this.push(), LIVE_CHECK_MS).unref();
    return stream;
  }

  /** Sends the view soon, once per burst of changes. */
  changed(): void {
    if (this.queued || this.viewers.size === 0) return;
    this.queued = true;
    setImmediate(() => {
      this.queued = false;
      this.push();
    });
  }

  /** What the open streams hold now. */
  stats(): LiveViewStats {
    let blocked = 0;
    let bufferedBytes = 0;
    for (const viewer of this.viewers) {
      if (viewer.blocked) blocked++;
      bufferedBytes +=
        viewer.stream.writableLength + viewer.stream.readableLength + (viewer.res?.writableLength ?? 0);
    }
    return {
      viewers: this.viewers.size,
      blocked,
      bufferedBytes,
      frameBytes: Buffer.byteLength(this.lastFrame),
    };
  }

  private push(): void {
    if (this.viewers.size === 0) return;
    if (this.refresh()) for (const viewer of this.viewers) this.write(viewer, this.lastFrame);
    else if (this.ticked) {
      // Only the real clock moved: its time alone, not the whole view again.
      const tick = `event: clock\ndata: ${this.ticked}\n\n`;
      for (const viewer of this.viewers) this.write(viewer, tick);
    }
    this.ticked = undefined;
  }

  /**
   * Renders the view; true when it differs from the last one sent (now `lastFrame`). Under the
   * real clock `now` moves at every check: a view that differs there alone is not sent again
   * (the `now` is kept in `ticked`, for a small clock event); a manual clock's `now` is part of it.
   */
  private refresh(): boolean {
    const { now, ...view } = this.render() as { now: number; clockMode?: string };
    const data = JSON.stringify(view);
    const key = view.clockMode === 'real' ? data : `${now} ${data}`;
    if (key === this.last) {
      this.ticked = now === this.lastNow ? undefined : JSON.stringify({ now });
      this.lastNow = now;
      return false;
    }
    this.last = key;
    this.lastNow = now;
    this.lastFrame = frame(`{"now":${JSON.stringify(now)},${data.slice(1)}`);
    return true;
  }

  /** Writes a frame, or marks the viewer behind while its stream has not drained. */
  private write(viewer: Viewer, text: string): void {
    if (viewer.blocked) {
      viewer.behind = true;
      return;
    }
    if (!viewer.stream.write(text)) viewer.blocked = true;
  }

  private stopTimer(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private close(): void {
    this.stopTimer();
    for (const viewer of this.viewers) viewer.stream.end();
    this.viewers.clear();
  }
}

function frame(data: string): string {
  return `event: state\ndata: ${data}\n\n`;
}
