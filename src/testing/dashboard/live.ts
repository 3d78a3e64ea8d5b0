/**
 * Live updates of the dashboard over server-sent events: each open page gets the whole view
 * when it connects, then again whenever it changes. Task and delivery events push at once; a
 * short real-time check catches the rest (requests, progress, the clock) while a page is open.
 */
import { PassThrough } from 'node:stream';
import type { GatewayState } from '../state/gateway-state.js';
import { mockWebhooks } from '../state/webhooks/index.js';

/** Real milliseconds between checks for changes while a page is connected. */
export const LIVE_CHECK_MS = 250;

/** The open event streams of one gateway's dashboard. */
export class LiveViews {
  private readonly clients = new Set<PassThrough>();
  private last = '';
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
  }

  /** A new event stream, sent the current view at once. */
  open(): PassThrough {
    const stream = new PassThrough();
    this.clients.add(stream);
    stream.on('close', () => {
      this.clients.delete(stream);
      if (this.clients.size === 0) this.stopTimer();
    });
    // The browser reconnects after 1 s if the stream drops.
    stream.write('retry: 1000\n\n');
    stream.write(frame(JSON.stringify(this.render())));
    this.timer ??= setInterval(() => this.push(), LIVE_CHECK_MS).unref();
    return stream;
  }

  /** Sends the view soon, once per burst of changes. */
  changed(): void {
    if (this.queued || this.clients.size === 0) return;
    this.queued = true;
    setImmediate(() => {
      this.queued = false;
      this.push();
    });
  }

  private push(): void {
    if (this.clients.size === 0) return;
    const data = JSON.stringify(this.render());
    if (data === this.last) return;
    this.last = data;
    const text = frame(data);
    for (const client of this.clients) client.write(text);
  }

  private stopTimer(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private close(): void {
    this.stopTimer();
    for (const client of this.clients) client.end();
    this.clients.clear();
  }
}

function frame(data: string): string {
  return `event: state\ndata: ${data}\n\n`;
}
