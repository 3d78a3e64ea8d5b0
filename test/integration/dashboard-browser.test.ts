// Covers: the mock gateway's dashboard in a browser
// The mock gateway's dashboard in a real browser: headless Chromium (Debian's, installed by
// scripts/chromium-for-tests.sh) driven with playwright-core, which downloads no browser.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type MediaGateway, TaskFailedError } from '../../src/index.js';
import { liveViewsOf, MAX_LIVE_VIEWERS } from '../../src/testing/dashboard/live.js';
import { type MockGateway, mockWebhooks, startMockGateway } from '../../src/testing/index.js';
import { createNodeWebhookHandler } from '../../src/webhooks/index.js';
import { testClient } from '../helpers/client.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CHROMIUM = process.env.MEDIAGW_TEST_CHROMIUM ?? '/usr/bin/chromium';
/** Set by .ci/run: a browser that cannot be installed or started fails the run instead of skipping. */
const required = process.env.MEDIAGW_TEST_BROWSER_REQUIRED === '1';
const screenshots = process.env.MEDIAGW_SCREENSHOTS === '1';

/** The browser's path, installing it first when missing; or why there is none. */
function findBrowser(): { path: string } | { reason: string } {
  if (existsSync(CHROMIUM)) return { path: CHROMIUM };
  const install = spawnSync('bash', [`${ROOT}scripts/chromium-for-tests.sh`], {
    stdio: ['ignore', 'inherit', 'inherit'],
    timeout: 600_000,
  });
  if (install.status === 0 && existsSync(CHROMIUM)) return { path: CHROMIUM };
  return { reason: `${CHROMIUM} is missing and scripts/chromium-for-tests.sh could not install it` };
}

const found = findBrowser();
if ('reason' in found && !required) console.warn(`skipping the dashboard browser tests: ${found.reason}`);

/** A loopback webhook receiver built on the SDK's handler; it records each delivery and its answer. */
async function startReceiver(secrets: Record<string, string>, now: () => number) {
  const deliveries: Array<{ eventId: string; type: string; status: number }> = [];
  const handler = createNodeWebhookHandler({ secrets, clock: now, onEvent: () => undefined });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const envelope = JSON.parse(body.toString('utf8')) as { id: string; type: string };
      // The endpoint's verification challenge is not a delivery of an event.
      if (envelope.type !== 'webhook.endpoint_verification')
        res.on('finish', () =>
          deliveries.push({ eventId: envelope.id, type: envelope.type, status: res.statusCode }),
        );
      handler(Object.assign(req, { body }), res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    deliveries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Waits for `check` to hold, polling every 20 ms, at most `tries` times. */
async function until(what: string, check: () => boolean, tries = 250): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out waiting until ${what}`);
}

/** Headless Chromium from `found`. */
function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: (found as { path: string }).path,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

describe.runIf('path' in found)('the dashboard in headless Chromium', () => {
  let gateway: MockGateway;
  let client: MediaGateway;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let browser: Browser;
  let page: Page;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    gateway = await startMockGateway({ clock: 'manual' });
    client = testClient({ gateway });
    const url = 'https://hooks.example.com/mediagw';
    const created = await client.webhooks.endpoints.create({ url });
    receiver = await startReceiver({ [created.endpoint.key_id]: created.signing_secret }, () =>
      gateway.clock.nowSeconds(),
    );
    mockWebhooks(gateway).configure({ jitter: false }).route(url, receiver.url);
    await client.webhooks.endpoints.verify(created.endpoint.id);
    browser = await launch();
    // The page's policy allows its own script only; axe-core is injected by the test.
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    await page.goto(gateway.dashboardUrl);
    await page.getByText('live', { exact: true }).waitFor({ timeout: 10_000 });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await receiver?.close();
  });

  test('a video failed from the page fails the SDK wait, and its delivery can be replayed', async () => {
    const endpointId = [...mockWebhooks(gateway).endpoints.keys()][0] ?? '';
    let taskId = '';
    const submitted = (id: string) => {
      taskId = id;
    };
    const waited = client.videos
      .createAndWait(
        {
          model: 'vidmodel-2.5',
          prompt: 'a lighthouse at dusk',
          notifications: { webhook: { endpoint_id: endpointId, events: ['task.completed', 'task.failed'] } },
        },
        { interval: 50, timeout: 30_000, onSubmitted: submitted },
      )
      .then(
        () => undefined,
        (error: unknown) => error,
      );

    // The task appears in the tasks view without a reload.
    await until('the SDK has submitted', () => taskId !== '');
    const failNow = page.getByRole('button', { name: `Fail now ${taskId}` });
    await failNow.waitFor({ timeout: 10_000 });
    if (screenshots)
      await page.locator('#tasks').screenshot({ path: `${ROOT}docs/images/dashboard-tasks.png` });

    // Chosen failure code, then "Fail now" from the keyboard.
    await page.getByLabel('Failure code for “Fail now”').fill('content_policy');
    await failNow.focus();
    await page.keyboard.press('Enter');
    const error = await waited;
    expect(error).toBeInstanceOf(TaskFailedError);
    expect((error as TaskFailedError).code).toBe('content_policy');
    expect((error as TaskFailedError).taskId).toBe(taskId);

    // The delivery reaches the receiver, and the page shows its attempt with the answer.
    await until('the receiver got the event', () => receiver.deliveries.length === 1);
    const [first] = receiver.deliveries;
    expect(first).toMatchObject({ type: 'task.failed', status: 200 });
    const eventId = first?.eventId ?? '';
    const attempts = page.getByRole('list', { name: `Attempts of ${eventId}` });
    await attempts.getByText(/#1 at .*: 200/).waitFor({ timeout: 10_000 });

    // Replay: delivered again, same event ID; the page lists the second attempt.
    await page.getByRole('button', { name: `Replay ${eventId}` }).click();
    await until('the replay arrived', () => receiver.deliveries.length === 2);
    expect(receiver.deliveries[1]).toMatchObject({ eventId, type: 'task.failed', status: 200 });
    await attempts.getByText(/#2 at .*: 200/).waitFor({ timeout: 10_000 });
    await page.getByText(`Event ${eventId} replayed`).waitFor({ timeout: 10_000 });

    // "Finish now" on another video: its output plays from the page.
    const { task_id: done } = await client.videos.create({ model: 'vidmodel-2.5', prompt: 'a paper crane' });
    await page.getByRole('button', { name: `Finish now ${done}` }).click();
    const output = page.getByRole('link', { name: `Open output 1 of ${done}` });
    await output.waitFor({ timeout: 10_000 });
    expect(await output.getAttribute('href')).toMatch(new RegExp(`^${gateway.mediaUrl}/media/`));
    await page.locator(`video[aria-label="Play output 1 of ${done}"]`).waitFor({ timeout: 10_000 });
    if (screenshots) {
      await page.locator('#tasks').screenshot({ path: `${ROOT}docs/images/dashboard-tasks.png` });
      await page.locator('#webhooks').screenshot({ path: `${ROOT}docs/images/dashboard-webhooks.png` });
      await page.locator('#requests').screenshot({ path: `${ROOT}docs/images/dashboard-requests.png` });
      await page.screenshot({ path: `${ROOT}docs/images/dashboard-page.png`, fullPage: true });
    }
  });

  test('the page logs no errors and has no serious or critical accessibility violations', async () => {
    const axe = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
    await page.addScriptTag({ path: axe });
    const violations = await page.evaluate(async () => {
      const result = await (
        window as unknown as {
          axe: {
            run(): Promise<{ violations: Array<{ id: string; impact: string | null; nodes: unknown[] }> }>;
          };
        }
      ).axe.run();
      return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
    });
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});

// The page as served, its policy enforced (no bypassCSP), in an 800 px wide window: what it loads
// stays out of `gateway.requests`, and what it shows fits and says what holds.
describe.runIf('path' in found)('the dashboard at 800 px, its content security policy enforced', () => {
  let gateway: MockGateway;
  let browser: Browser;
  let page: Page;
  const consoleErrors: string[] = [];
  const ids = { video: '', image: '', endpoint: '' };

  beforeAll(async () => {
    gateway = await startMockGateway({ clock: 'manual' });
    const client = testClient({ gateway });
    // An endpoint that gets every task's events without a challenge, as `mediagw mock --forward-to`
    // registers it, and a receiver that acknowledges them.
    const url = 'https://hooks.example.com/forward';
    const created = await client.webhooks.endpoints.create({ url });
    ids.endpoint = created.endpoint.id;
    const receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    gateway.onClose(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
    mockWebhooks(gateway)
      .configure({ jitter: false, catchAllEndpoints: [ids.endpoint] })
      .route(url, `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`);
    // A finished video (reserved, settled; its output previews as a player), a finished image task
    // (no reservation; its output previews as an image), and long IDs and URLs in every table.
    ids.video = (await client.videos.create({ model: 'vidmodel-2.5', prompt: 'a tide pool' })).task_id;
    ids.image = (await client.images.generateAsync({ model: 'imgmodel-2', prompt: 'a moth' })).task_id;
    gateway.tasks.finishNow(ids.video);
    gateway.tasks.finishNow(ids.image);
    await mockWebhooks(gateway).flush();
    expect(
      mockWebhooks(gateway)
        .events({ endpointId: ids.endpoint })
        .map((e) => e.status),
    ).toEqual(['delivered', 'delivered']);

    browser = await launch();
    const context = await browser.newContext({ viewport: { width: 800, height: 900 } });
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  test('loading it (previews and icon included) adds nothing to gateway.requests and logs no error', async () => {
    gateway.resetRequests();
    await page.goto(gateway.dashboardUrl);
    await page.getByText('live', { exact: true }).waitFor({ timeout: 10_000 });
    const preview = page.getByAltText(`Preview of output 1 of ${ids.image}`);
    await preview.waitFor({ timeout: 10_000 });
    await page.waitForFunction(
      (alt) => {
        const img = document.querySelector(`img[alt="${alt}"]`) as HTMLImageElement | null;
        return img?.complete === true && img.naturalWidth > 0;
      },
      `Preview of output 1 of ${ids.image}`,
      { timeout: 10_000 },
    );
    // The player loads its video when asked to.
    const played = await page.locator(`video[aria-label="Play output 1 of ${ids.video}"]`).evaluate(
      (video: HTMLVideoElement) =>
        new Promise<number>((resolve) => {
          video.addEventListener('loadedmetadata', () => resolve(video.readyState), { once: true });
          video.addEventListener('error', () => resolve(-1), { once: true });
          video.preload = 'metadata';
          video.load();
        }),
    );
    expect(played).toBeGreaterThan(0);
    expect.soft(gateway.requests.map((r) => `${r.origin} ${r.method} ${r.path}`)).toEqual([]);
    expect(consoleErrors).toEqual([]);
    // The icon comes from the page's own origin, which its policy allows.
    const icon = await page.evaluate(async () => {
      const href = document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.href ?? '';
      return { sameOrigin: new URL(href).origin === location.origin, status: (await fetch(href)).status };
    });
    expect(icon).toEqual({ sameOrigin: true, status: 200 });
  });

  test('at 800 px nothing runs off-screen: no horizontal scroll, every table within the window', async () => {
    const widths = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
      tables: Array.from(document.querySelectorAll('table')).map((t) => ({
        caption: t.caption?.textContent ?? '',
        right: Math.ceil(t.getBoundingClientRect().right),
      })),
    }));
    expect(widths.client).toBeLessThanOrEqual(800);
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    expect(widths.tables.map((t) => t.caption)).toContain('Tasks');
    expect(widths.tables.filter((t) => t.right > widths.client)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  test('settlement: "none" for a task that reserved nothing, the settlement of one that did', async () => {
    const settlement = async (taskId: string) => {
      const row = page.locator('#tasks-view tr', { has: page.locator(`code:text-is("${taskId}")`) });
      const headers = await page.locator('#tasks-view th').allTextContents();
      return (await row.locator('td').nth(headers.indexOf('Settlement')).textContent())?.trim();
    };
    expect(await settlement(ids.image)).toBe('none');
    expect(await settlement(ids.video)).toMatch(/^settle \d+ s$/);
  });

  test('a page past the cap on live pages says it is not live, and goes live once one closes', async () => {
    // The page above holds one stream; raw connections take the rest.
    const { port } = new URL(gateway.url);
    const sockets: Socket[] = [];
    for (let i = 1; i < MAX_LIVE_VIEWERS; i++) {
      const socket = connect(Number(port), '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(`GET /_dashboard/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      sockets.push(socket);
    }
    try {
      await until('every stream is open', () => liveViewsOf(gateway)?.stats().viewers === MAX_LIVE_VIEWERS);
      const extra = await page.context().newPage();
      await extra.goto(gateway.dashboardUrl);
      await extra.getByText(/^not live: the stream was refused/).waitFor({ timeout: 10_000 });
      for (const socket of sockets.splice(0)) socket.destroy();
      // The page tries again 5 s later.
      await extra.getByText('live', { exact: true }).waitFor({ timeout: 15_000 });
      await extra.close();
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  }, 30_000);

  test('a forwarding endpoint whose events are delivered is not shown as unverified', async () => {
    const row = page.locator('#endpoints-view tr', { has: page.locator(`code:text-is("${ids.endpoint}")`) });
    const cells = await row.locator('td').allTextContents();
    expect(cells[2]?.trim()).toBe('forwarding');
    expect(consoleErrors).toEqual([]);
  });
});

// Where a browser is required (.ci/run), a missing one fails the run instead of skipping the
// tests above.
test('a browser is at hand wherever MEDIAGW_TEST_BROWSER_REQUIRED=1', () => {
  const missing = 'reason' in found ? found.reason : undefined;
  expect(required && missing ? `MEDIAGW_TEST_BROWSER_REQUIRED=1, but ${missing}` : undefined).toBeUndefined();
});
