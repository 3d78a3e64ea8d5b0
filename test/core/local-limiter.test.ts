// Covers: src/core/local-limiter.ts
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkLimits, MAX_RETRY_AFTER_MS, QueueTimeoutError, shareOf } from '../../src/core/limits.js';
import { LocalLimiter } from '../../src/core/local-limiter.js';
import { InvalidOptionError } from '../../src/core/options.js';

const creation = (model?: string) => ({ model, family: 'creation' as const });

describe('LocalLimiter', () => {
  it('grants waiting requests in arrival order as room frees up', async () => {
    const limiter = new LocalLimiter({ maxInFlight: 1 });
    const first = await limiter.acquire(creation('m'));
    const order: number[] = [];
    const waits = [1, 2, 3, 4].map((n) =>
      limiter.acquire(creation('m')).then((permit) => {
        order.push(n);
        return permit;
      }),
    );
    expect(limiter.waiting).toBe(4);
    first.release();
    for (const wait of waits) (await wait).release();
    expect(order).toEqual([1, 2, 3, 4]);
  });

  it('never lets more than maxInFlight per model run, and other models pass a full one', async () => {
    const limiter = new LocalLimiter({ perModel: { '*': { maxInFlight: 2 } } });
    const a1 = await limiter.acquire(creation('a'));
    const a2 = await limiter.acquire(creation('a'));
    let a3Granted = false;
    const a3 = limiter.acquire(creation('a')).then((p) => {
      a3Granted = true;
      return p;
    });
    const b = await limiter.acquire(creation('b'));
    expect(a3Granted).toBe(false);
    a1.release();
    (await a3).release();
    a2.release();
    b.release();
  });

  it('holds requests to the bucket rate, counted on an injected clock', async () => {
    let now = 0;
    const limiter = new LocalLimiter({ requestsPerSecond: 10, burst: 2 }, () => now);
    (await limiter.acquire(creation())).release(); // a new bucket holds one token, not the burst
    now = 1_000; // a quiet spell: the burst is back
    (await limiter.acquire(creation())).release();
    (await limiter.acquire(creation())).release();
    let third = false;
    const pending = limiter.acquire(creation()).then((p) => {
      third = true;
      return p;
    });
    await Promise.resolve();
    expect(third).toBe(false);
    now = 1_100; // one token back at 10 per second
    (await pending).release();
    expect(third).toBe(true);
  });

  it('drain() empties the buckets of the requests it has seen: the next token comes 1/rate later', async () => {
    let now = 0;
    const limiter = new LocalLimiter({ requestsPerSecond: 10, burst: 5 }, () => now);
    limiter.hold(undefined, 'creation').release();
    now = 1_000; // a full bucket again
    limiter.drain();
    let granted = false;
    const pending = limiter.acquire(creation()).then((p) => {
      granted = true;
      return p;
    });
    await Promise.resolve();
    expect(granted).toBe(false);
    now = 1_100;
    (await pending).release();
    expect(granted).toBe(true);
  });

  it('rejects with QueueTimeoutError past maxQueueWaitMs and grants the rest', async () => {
    const limiter = new LocalLimiter({ maxInFlight: 1, maxQueueWaitMs: 20 });
    const held = await limiter.acquire(creation());
    await expect(limiter.acquire(creation())).rejects.toBeInstanceOf(QueueTimeoutError);
    expect(limiter.waiting).toBe(0);
    held.release();
    (await limiter.acquire(creation())).release();
  });

  it('a pause holds its model only', async () => {
    let now = 0;
    const limiter = new LocalLimiter({}, () => now);
    limiter.pause('a', 'creation', 1_000);
    let a = false;
    const pending = limiter.acquire(creation('a')).then((p) => {
      a = true;
      return p;
    });
    (await limiter.acquire(creation('b'))).release();
    await Promise.resolve();
    expect(a).toBe(false);
    now = 1_000;
    limiter.pause('x', 'creation', 1); // any call re-examines the queue
    (await pending).release();
  });
});

describe('LocalLimiter pauses and timers', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  /** Acquires for `model`, telling whether the permit has been granted yet. */
  function pending(limiter: LocalLimiter, model: string) {
    const state = { granted: false };
    const permit = limiter.acquire(creation(model)).then((p) => {
      state.granted = true;
      return p;
    });
    return { state, permit };
  }

  it.each([
    ['99999999 seconds', 99_999_999_000],
    ['Infinity', Number.POSITIVE_INFINITY],
  ])('a pause of %s lasts MAX_RETRY_AFTER_MS, then the model goes again', async (_, ms) => {
    let now = 0;
    const limiter = new LocalLimiter({}, () => now);
    limiter.pause('a', 'creation', ms);
    const a = pending(limiter, 'a');
    now = MAX_RETRY_AFTER_MS - 1;
    limiter.pause('x', 'creation', 1); // any call re-examines the queue
    await Promise.resolve();
    expect(a.state.granted).toBe(false);
    now = MAX_RETRY_AFTER_MS;
    limiter.pause('x', 'creation', 1);
    await Promise.resolve();
    expect(a.state.granted).toBe(true);
    (await a.permit).release();
  });

  it.each([
    ['NaN', Number.NaN],
    ['0', 0],
    ['-5', -5],
  ])('a pause of %s holds nothing back', async (_, ms) => {
    const limiter = new LocalLimiter({}, () => 0);
    limiter.pause('a', 'creation', ms);
    const a = pending(limiter, 'a');
    await Promise.resolve();
    expect(a.state.granted).toBe(true);
    (await a.permit).release();
  });

  it('never sets a timer past the longest setTimeout takes (which would fire at once, again and again)', async () => {
    vi.useFakeTimers();
    const delays: number[] = [];
    const setTimer = globalThis.setTimeout;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number) => {
      delays.push(ms ?? 0);
      return setTimer(fn, ms);
    }) as typeof setTimeout);
    // A share of a replicated limit may refill at a tiny fractional rate: a wait of ~31 years.
    const limiter = new LocalLimiter({ requestsPerSecond: 1e-9, burst: 1 });
    (await limiter.acquire(creation('a'))).release();
    const controller = new AbortController();
    const second = limiter.acquire({ ...creation('a'), signal: controller.signal });
    expect(delays.length).toBeGreaterThan(0);
    for (const delay of delays) expect(delay).toBeLessThanOrEqual(2 ** 31 - 1);
    // Waking up early only looks again: nothing is granted before the bucket refills.
    vi.advanceTimersByTime(2 ** 31 - 1);
    expect(limiter.waiting).toBe(1);
    controller.abort(new Error('done'));
    await expect(second).rejects.toThrow('done');
  });
});

describe('LocalLimiter pauses and long queues', () => {
  it('a pause set before a model was first asked for keeps that model to its limit', async () => {
    let now = 0;
    const limiter = new LocalLimiter({ perModel: { '*': { maxInFlight: 1 } } }, () => now);
    limiter.pause('m', 'query', 100); // heard from another replica, say
    now = 200;
    const first = await limiter.acquire(creation('m'));
    let second = false;
    const pending = limiter.acquire(creation('m')).then((p) => {
      second = true;
      return p;
    });
    await Promise.resolve();
    expect(second).toBe(false);
    first.release();
    (await pending).release();
  });

  // A full burst at the start, on top of the rate, met a gateway whose first second had no room
  // for both: 8-9% of the requests of a new client at 10/s were answered 429 in its first 5 s.
  it('a new bucket holds one token, not a burst: its second request waits for the refill', async () => {
    let now = 0;
    const limiter = new LocalLimiter({ requestsPerSecond: 10, burst: 10 }, () => now);
    (await limiter.acquire(creation())).release();
    let second = false;
    const pending = limiter.acquire(creation()).then((permit) => {
      second = true;
      return permit;
    });
    await Promise.resolve();
    expect(second).toBe(false);
    now = 100; // one token back at 10 per second
    (await pending).release();
    expect(second).toBe(true);
  });

  it('paces a rate under one a second: at 0.5, one request every 2 s, with a burst of 1', async () => {
    vi.useFakeTimers();
    let now = 0;
    const limiter = new LocalLimiter({ requestsPerSecond: 0.5 }, () => now);
    (await limiter.acquire(creation())).release();
    let granted = 0;
    const next = [1, 2].map(() =>
      limiter.acquire(creation()).then((permit) => {
        granted++;
        return permit;
      }),
    );
    // [ms on the clock, requests granted by then]: one token every 2 s.
    for (const [at, expected] of [
      [1_999, 0],
      [2_000, 1],
      [3_999, 1],
      [4_000, 2],
    ] as const) {
      const step = at - now;
      now = at;
      await vi.advanceTimersByTimeAsync(step);
      expect(granted, `at ${at} ms`).toBe(expected);
    }
    for (const permit of next) (await permit).release();
  });

  it("a paused model at the head does not hold another model's requests past the key's refill", async () => {
    vi.useFakeTimers();
    try {
      const limiter = new LocalLimiter({ requestsPerSecond: 20, burst: 1 });
      (await limiter.acquire(creation('b'))).release(); // the key's bucket is empty
      limiter.pause('a', 'creation', 5_000);
      const paused = limiter.acquire(creation('a'));
      let granted = false;
      const other = limiter.acquire(creation('b')).then((permit) => {
        granted = true;
        permit.release();
      });
      // The key's token is back after 50 ms; the head waiter's pause lasts 5 s.
      await vi.advanceTimersByTimeAsync(100);
      expect(granted).toBe(true);
      await other;
      await vi.advanceTimersByTimeAsync(5_000);
      (await paused).release();
    } finally {
      vi.useRealTimers();
    }
  });

  it('many waiters timing out together all reject, and the queue goes on after them', async () => {
    const limiter = new LocalLimiter({ maxInFlight: 1, maxQueueWaitMs: 100 });
    const held = await limiter.acquire(creation());
    const waits = Array.from({ length: 2_000 }, () => limiter.acquire(creation()).catch((e: unknown) => e));
    for (const error of await Promise.all(waits)) expect(error).toBeInstanceOf(QueueTimeoutError);
    held.release();
    (await limiter.acquire(creation())).release();
  });
});

describe('limits options', () => {
  it.each([
    [{ requestsPerSecond: 0 }, 'limits.requestsPerSecond'],
    [{ maxInFlight: 1.5 }, 'limits.maxInFlight'],
    [{ maxQueueWaitMs: 0 }, 'limits.maxQueueWaitMs'],
    [{ perModel: { m: { burst: Number.NaN } } }, 'limits.perModel.m.burst'],
    [
      { perRouteFamily: { upload: { requestsPerSecond: -1 } } },
      'limits.perRouteFamily.upload.requestsPerSecond',
    ],
  ])('refuses %j naming %s', (limits, option) => {
    expect(() => checkLimits(limits)).toThrow(InvalidOptionError);
    expect(() => checkLimits(limits)).toThrow(option);
  });

  // Each was taken as no limit at all.
  it.each([
    [[], 'limits must be an object; got []'],
    [{ perModel: 5 }, 'limits.perModel must be an object; got 5'],
    [{ perModel: [{ requestsPerSecond: 1 }] }, 'limits.perModel must be an object; got [object]'],
    [{ perRouteFamily: 'creation' }, 'limits.perRouteFamily must be an object; got "creation"'],
    [{ perModel: { m: [] } }, 'limits.perModel.m must be an object; got []'],
  ])('refuses %j: not an object, where one is due', (limits, message) => {
    expect(() => checkLimits(limits as never)).toThrow(message);
  });

  it('takes limits whose maps are left out or empty', () => {
    expect(() => checkLimits({ perModel: {}, perRouteFamily: {} })).not.toThrow();
    expect(() => checkLimits({ perModel: undefined })).not.toThrow();
  });

  it('a replica share divides rates and ceilings, keeping at least one', () => {
    expect(
      shareOf({ requestsPerSecond: 10, maxInFlight: 3, perModel: { '*': { requestsPerSecond: 2 } } }, 4),
    ).toEqual({
      requestsPerSecond: 2.5,
      burst: 2,
      maxInFlight: 1,
      perModel: { '*': { requestsPerSecond: 0.5, burst: 1, maxInFlight: undefined } },
      perRouteFamily: undefined,
      maxQueueWaitMs: undefined,
    });
  });
});
