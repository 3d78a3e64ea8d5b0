// Covers: src/testing/dashboard/live.ts
// The dashboard's live stream read by raw sockets, some of which stop reading: what a stalled
// page costs the mock is bounded, the number of pages is capped, and pages that read keep
// getting every view.
import { connect, type Socket } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { liveViewsOf, MAX_LIVE_VIEWERS } from '../../src/testing/dashboard/live.js';
import { type MockGateway, startMockGateway } from '../../src/testing/index.js';

/** A raw connection to the event stream that collects what it reads, and can stop reading. */
class RawViewer {
  readonly socket: Socket;
  text = '';
  ended = false;

  constructor(gateway: MockGateway) {
    const { port } = new URL(gateway.url);
    this.socket = connect(Number(port), '127.0.0.1');
    this.socket.setEncoding('utf8');
    this.socket.on('data', (chunk: string) => {
      this.text += chunk;
      // Keep only the tail: enough for the newest frames, not the whole history.
      if (this.text.length > 64 * 1024 * 1024) this.text = this.text.slice(-32 * 1024 * 1024);
    });
    this.socket.on('close', () => {
      this.ended = true;
    });
    this.socket.on('error', () => undefined);
    this.socket.write(
      `GET /_dashboard/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`,
    );
  }

  /** The status line's code, once the head arrived. */
  get status(): number | undefined {
    const match = /^HTTP\/1\.1 (\d{3})/.exec(this.text);
    return match ? Number(match[1]) : undefined;
  }

  /** The `now` of the newest complete frame. */
  newestNow(): number | undefined {
    const end = this.text.lastIndexOf('\n\n');
    const start = this.text.lastIndexOf('event: state\ndata: ', end);
    if (start < 0 || end < start) return undefined;
    const data = this.text.slice(start + 'event: state\ndata: '.length, end);
    try {
      return (JSON.parse(data) as { now: number }).now;
    } catch {
      return undefined;
    }
  }

  close(): void {
    this.socket.destroy();
  }
}

/** Waits for `check`, polling every 10 ms, at most `tries` times. */
async function until(what: string, check: () => boolean, tries = 1000): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting until ${what}`);
}

async function advance(gateway: MockGateway, ms: number): Promise<void> {
  const res = await request(`${gateway.dashboardUrl}/actions/advance-clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-mediagw-dashboard': '1' },
    body: JSON.stringify({ ms }),
  });
  expect(res.statusCode).toBe(200);
  await res.body.dump();
}

describe('stalled viewers', () => {
  let gateway: MockGateway;
  const viewers: RawViewer[] = [];

  beforeAll(async () => {
    gateway = await startMockGateway({ clock: 'manual' });
    // A view of about 1 MB: 100 requests (the most the dashboard lists) of 10 KB each.
    const pad = 'x'.repeat(10_000);
    for (let i = 0; i < 100; i++) {
      const res = await request(`${gateway.url}/v1/padding`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ i, pad }),
      });
      await res.body.dump();
    }
  });
  afterAll(async () => {
    for (const viewer of viewers) viewer.close();
    await gateway.close();
  });

  test('cost at most three views each; the reading page gets every view; a resumed one the newest', async () => {
    const reader = new RawViewer(gateway);
    const stalled = [new RawViewer(gateway), new RawViewer(gateway)];
    viewers.push(reader, ...stalled);
    for (const viewer of stalled) viewer.socket.pause();
    await until('three streams are open', () => liveViewsOf(gateway)?.stats().viewers === 3);
    await until('the reader has the first view', () => reader.newestNow() === gateway.clock.now());

    // 40 views of about 1 MB: 40 MB for each page that does not read, were it all kept.
    for (let i = 0; i < 40; i++) {
      await advance(gateway, 1000);
      const now = gateway.clock.now();
      await until(`the reader has view ${i + 1}`, () => reader.newestNow() === now);
    }
    const stats = liveViewsOf(gateway)?.stats();
    expect(stats?.viewers).toBe(3);
    expect(stats?.frameBytes).toBeGreaterThan(1_000_000);
    // What the mock holds for the three streams: the kernel's socket buffers take some megabytes;
    // the rest waits in the process, at most three views a stream (one being written to the
    // socket, one in the stream's readable side, one not yet taken), whatever the number of views.
    expect(stats?.bufferedBytes).toBeLessThanOrEqual(3 * 3 * (stats?.frameBytes ?? 0) + 256 * 1024);
    expect(stats?.blocked).toBeGreaterThanOrEqual(1);

    // A stalled page that reads again catches up with the newest view.
    const [resumed] = stalled;
    resumed?.socket.resume();
    const now = gateway.clock.now();
    await until('the resumed page has the newest view', () => resumed?.newestNow() === now, 3000);

    // Closed streams let go of what they held.
    for (const viewer of stalled) viewer.close();
    await until('the stalled streams are gone', () => liveViewsOf(gateway)?.stats().viewers === 1);
    await advance(gateway, 1000);
    const later = gateway.clock.now();
    await until('the reader still gets views', () => reader.newestNow() === later);
  });
});

describe('a page that opens', () => {
  let gateway: MockGateway;
  const viewers: RawViewer[] = [];

  beforeAll(async () => {
    gateway = await startMockGateway({ clock: 'manual' });
  });
  afterAll(async () => {
    for (const viewer of viewers) viewer.close();
    await gateway.close();
  });

  test('while a change is not yet sent: the pages already open get it too', async () => {
    const first = new RawViewer(gateway);
    viewers.push(first);
    await until('the first page has a view', () => first.newestNow() !== undefined);
    // A request is no event: the pages learn of it from the next check, or from a page opening.
    const res = await request(`${gateway.url}/v1/unknown-path`);
    await res.body.dump();
    const second = new RawViewer(gateway);
    viewers.push(second);
    await until('the second page has a view', () => second.newestNow() !== undefined);
    await until('the first page lists the request', () => first.text.includes('/v1/unknown-path'));
    expect(second.text).toContain('/v1/unknown-path');
  });
});

describe('the cap on viewers', () => {
  let gateway: MockGateway;
  const viewers: RawViewer[] = [];

  beforeAll(async () => {
    gateway = await startMockGateway({ clock: 'manual' });
  });
  afterAll(async () => {
    for (const viewer of viewers) viewer.close();
    await gateway.close();
  });

  test(`past ${MAX_LIVE_VIEWERS} open pages, one more is refused with 503 until one closes`, async () => {
    for (let i = 0; i < MAX_LIVE_VIEWERS; i++) viewers.push(new RawViewer(gateway));
    await until('every page is streaming', () => viewers.every((v) => v.newestNow() !== undefined));
    expect(viewers.map((v) => v.status)).toEqual(viewers.map(() => 200));

    const refused = await request(`${gateway.dashboardUrl}/events`);
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    const body = (await refused.body.json()) as { code: string; message: string };
    expect(body.code).toBe('too_many_viewers');
    expect(body.message).toContain(`at most ${MAX_LIVE_VIEWERS} pages`);
    expect(liveViewsOf(gateway)?.stats().viewers).toBe(MAX_LIVE_VIEWERS);

    // The open pages are still served.
    await advance(gateway, 1000);
    const now = gateway.clock.now();
    await until('every open page has the new view', () => viewers.every((v) => v.newestNow() === now));

    // One closes: another may open.
    viewers.shift()?.close();
    await until(
      'the closed page is gone',
      () => liveViewsOf(gateway)?.stats().viewers === MAX_LIVE_VIEWERS - 1,
    );
    const next = new RawViewer(gateway);
    viewers.push(next);
    await until('the new page streams', () => next.newestNow() === now);
    expect(next.status).toBe(200);
  });
});

describe('an idle gateway on the real clock', () => {
  // The real clock's `now` was in every view, so an idle page got the whole view again at every
  // check, four times a second: megabytes a second per page once there were thousands of tasks.
  test('sends the view once, then only clock events while nothing else changes', async () => {
    const gateway = await startMockGateway();
    const viewer = new RawViewer(gateway);
    try {
      await until('the first view', () => viewer.newestNow() !== undefined);
      await until('three clock events', () => viewer.text.split('event: clock\n').length > 3);
      expect(viewer.text.split('event: state\n')).toHaveLength(2);
      const tick = /event: clock\ndata: (\{[^\n]*\})\n\n/.exec(viewer.text)?.[1] ?? '';
      expect(Object.keys(JSON.parse(tick))).toEqual(['now']);
    } finally {
      viewer.close();
      await gateway.close();
    }
  });
});
