// Covers: src/cli/commands/webhooks.ts
/**
 * `mediagw webhooks send` against receivers that answer 200 at once and then drip their body,
 * or send one that never ends: judged as the gateway judges (the whole request within 10 s, or
 * no acknowledgement), with memory bounded. The limit is injected to keep most cases fast; one
 * case runs the built binary with the real 10 s.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { postDelivery } from '../../src/cli/commands/webhooks.js';
import { deliveryVerdict } from '../../src/testing/index.js';
import { ensureBuilt, run, start, until } from './helpers.js';

type Answer = (res: ServerResponse, stopped: () => boolean) => Promise<void> | void;

/** A loopback receiver answering every request with `answer`; stops writing once the client leaves. */
async function receiver(answer: Answer) {
  const server = createServer((req, res) => {
    let gone = false;
    res.on('close', () => (gone = true));
    req.resume();
    req.on('end', () => void answer(res, () => gone || res.destroyed));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** 200 at once, then one byte every `everyMs`, at most `pieces` of them. */
const drip =
  (everyMs: number, pieces: number): Answer =>
  async (res, stopped) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.flushHeaders();
    for (let i = 0; i < pieces && !stopped(); i++) {
      res.write(' ');
      await pause(everyMs);
    }
    res.end('{}');
  };

/** 200, then 64 KiB pieces as fast as the client reads, for at most 4 GiB. */
const endless: Answer = async (res, stopped) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  const piece = Buffer.alloc(64 * 1024, 0x61);
  for (let i = 0; i < 65_536 && !stopped(); i++)
    if (!res.write(piece)) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
  res.end();
};

const delivery = { body: '{"id":"evt_1","type":"task.completed"}', headers: {} as never };
const LIMITS = { totalMs: 800, keptBytes: 2048 };

describe('postDelivery, with the limit injected', () => {
  test('200 at once with a short body: acknowledged', async () => {
    const r = await receiver((res) => {
      res.end('{"received":true}');
    });
    try {
      const answer = await postDelivery(r.url, delivery, LIMITS);
      expect(answer).toMatchObject({ status: 200, error: undefined, answer: '{"received":true}' });
      expect(deliveryVerdict(answer).acknowledged).toBe(true);
    } finally {
      await r.close();
    }
  });

  test('200 headers, then a body that drips past the limit: not acknowledged, retried', async () => {
    const r = await receiver(drip(50, 200));
    try {
      const answer = await postDelivery(r.url, delivery, LIMITS);
      expect(answer.status).toBe(200);
      expect(answer.error).toMatch(/^the answer's body had not ended after 800 ms/);
      expect(answer.ms).toBeGreaterThanOrEqual(800);
      const verdict = deliveryVerdict(answer);
      expect(verdict).toMatchObject({ acknowledged: false, retried: true });
      expect(verdict.explanation).toContain('no complete answer');
    } finally {
      await r.close();
    }
  });

  test.each([
    ['5 minutes behind', -5],
    ['5 minutes ahead', 5],
  ])('503 from a receiver whose clock is %s: Retry-After counted from its Date', async (_, minutes) => {
    const date = Date.now() + minutes * 60_000;
    const r = await receiver((res) => {
      res.writeHead(503, {
        date: new Date(date).toUTCString(),
        'retry-after': new Date(date + 120_000).toUTCString(),
      });
      res.end();
    });
    try {
      const answer = await postDelivery(r.url, delivery, LIMITS);
      expect(answer).toMatchObject({ status: 503, date: new Date(date).toUTCString() });
      const verdict = deliveryVerdict(answer);
      expect(verdict).toMatchObject({ acknowledged: false, retried: true });
      expect(verdict.explanation).toContain('the gateway retries after 120 s');
    } finally {
      await r.close();
    }
  });

  test('an endless body: read and dropped past 2 KB, not acknowledged', async () => {
    const r = await receiver(endless);
    try {
      const answer = await postDelivery(r.url, delivery, LIMITS);
      expect(answer.status).toBe(200);
      expect(answer.answer.length).toBe(2048);
      expect(answer.answerBytes).toBeGreaterThan(64 * 1024);
      expect(answer.error).toMatch(/had not ended after 800 ms/);
      expect(deliveryVerdict(answer).acknowledged).toBe(false);
    } finally {
      await r.close();
    }
  });
});

describe('mediagw webhooks send, with the real 10 s', () => {
  let r: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    await ensureBuilt();
    // A byte every 250 ms for up to 30 s: still going at 10 s.
    r = await receiver(drip(250, 120));
  }, 180_000);
  afterAll(() => r?.close());

  test('a body still dripping at 10 s: not acknowledged, exit 2', async () => {
    const { code, stdout } = await run(['webhooks', 'send', r.url.href, '--secret', 'whsec_drip', '--json'], {
      timeoutMs: 40_000,
    });
    expect(code).toBe(2);
    const doc = JSON.parse(stdout);
    expect(doc).toMatchObject({ status: 200, acknowledged: false, retried: true });
    expect(doc.error).toMatch(/^the answer's body had not ended after 10 s/);
    expect(doc.duration_ms).toBeGreaterThanOrEqual(10_000);
  }, 45_000);

  test('SIGINT while the receiver has not answered: exit 130 and one document', async () => {
    let got = 0;
    // Takes the delivery and never answers; closed with the test.
    const silent = await receiver(() => {
      got++;
    });
    try {
      const sending = start(['webhooks', 'send', silent.url.href, '--secret', 'whsec_sig', '--json']);
      await until(() => got > 0, 'the delivery to arrive');
      sending.child.kill('SIGINT');
      const { code, stdout } = await sending.result;
      expect(code).toBe(130);
      expect(stdout.trim().split('\n')).toHaveLength(1);
      const { error } = JSON.parse(stdout);
      expect(error).toMatchObject({ exit_code: 130, signal: 'SIGINT' });
      // It says what the stop leaves: the receiver may have the event, named.
      expect(error.message).toMatch(
        /^Stopped while waiting for .* to answer event evt_\w+: the receiver may have taken the delivery/,
      );
    } finally {
      await silent.close();
    }
  });
});
