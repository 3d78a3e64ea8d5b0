// Covers: src/internal/upload-progress.ts
/**
 * Upload progress: the body's chunks counted as the consumer takes them, reported at most every
 * 100 ms of the given clock and once at the end, with nothing read ahead or held.
 */
import { describe, expect, test } from 'vitest';
import { InvalidOptionError } from '../../src/core/options.js';
import type { StreamBody } from '../../src/internal/request-spec.js';
import {
  reportingProgress,
  splitUploadOptions,
  type UploadProgress,
} from '../../src/internal/upload-progress.js';
import { throwingThenable, unhandledRejectionsDuring } from '../helpers/unhandled-rejections.js';

const KiB = 1024;

/** A body of `count` chunks of `size` bytes, counting how many chunks were read from it. */
function body(count: number, size: number, headers: Record<string, string> = {}) {
  const state = { read: 0 };
  async function* chunks() {
    for (let i = 0; i < count; i++) {
      state.read++;
      yield new Uint8Array(size).fill(i % 256);
    }
  }
  const factory = async (): Promise<StreamBody> => ({ body: chunks(), headers });
  return { factory, state };
}

/** A clock that moves `step` ms each time it is read. */
function steppingClock(step: number) {
  let now = 0;
  return () => {
    now += step;
    return now;
  };
}

async function drain(stream: StreamBody): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const chunk of stream.body) out.push(chunk);
  return out;
}

const noFailure = (error: unknown) => {
  throw error;
};

describe('reportingProgress', () => {
  test('without a callback the factory is returned as it is: no layer over the chunks', () => {
    const { factory } = body(1, 1);
    expect(reportingProgress(factory, undefined, noFailure)).toBe(factory);
  });

  test('a clock moving 10 ms a chunk: a call every 10 chunks, rising, the last with bytes === total', async () => {
    const total = 100 * KiB;
    const { factory } = body(100, KiB, { 'content-length': String(total) });
    const calls: UploadProgress[] = [];
    const wrapped = reportingProgress(factory, (p) => calls.push(p), noFailure, steppingClock(10));
    const chunks = await drain(await wrapped({}));
    expect(chunks).toHaveLength(100);
    // The clock reads 10, 20, ... 1000: a call at the first chunk, then each time 100 ms passed.
    expect(calls.map((c) => c.bytes)).toEqual(
      [1, 11, 21, 31, 41, 51, 61, 71, 81, 91, 100].map((n) => n * KiB),
    );
    expect(calls.every((c) => c.total === total)).toBe(true);
    // At most one call per 100 ms of the clock, plus the last one.
    expect(calls.length).toBeLessThanOrEqual(1000 / 100 + 1);
  });

  test('a clock that stands still: the first chunk and the end, however many chunks', async () => {
    const { factory } = body(500, 16 * KiB, { 'content-length': String(500 * 16 * KiB) });
    const calls: number[] = [];
    const wrapped = reportingProgress(
      factory,
      (p) => calls.push(p.bytes),
      noFailure,
      () => 0,
    );
    await drain(await wrapped({}));
    expect(calls).toEqual([16 * KiB, 500 * 16 * KiB]);
  });

  test('a body of unknown length reports total undefined, and its bytes to the end', async () => {
    const { factory } = body(3, 10);
    const calls: UploadProgress[] = [];
    const wrapped = reportingProgress(
      factory,
      (p) => calls.push(p),
      noFailure,
      () => 0,
    );
    await drain(await wrapped({}));
    expect(calls).toEqual([
      { bytes: 10, total: undefined },
      { bytes: 30, total: undefined },
    ]);
  });

  test('a chunk counts once the next one is asked for, and nothing is read ahead', async () => {
    const { factory, state } = body(3, 10, { 'content-length': '30' });
    const calls: number[] = [];
    const stream = await reportingProgress(
      factory,
      (p) => calls.push(p.bytes),
      noFailure,
      steppingClock(100),
    )({});
    const iterator = stream.body[Symbol.asyncIterator]();
    await iterator.next();
    expect([state.read, calls]).toEqual([1, []]);
    await iterator.next();
    expect([state.read, calls]).toEqual([2, [10]]);
    await iterator.next();
    expect([state.read, calls]).toEqual([3, [10, 20]]);
    expect((await iterator.next()).done).toBe(true);
    expect(calls).toEqual([10, 20, 30]);
  });

  test('the chunks go on unchanged, the same objects, with the other parts of the body', async () => {
    const source = [new Uint8Array([1, 2]), new Uint8Array([3])];
    const headers = { 'content-type': 'multipart/form-data; boundary=x', 'content-length': '3' };
    const factory = async (): Promise<StreamBody> => ({
      body: (async function* () {
        yield* source;
      })(),
      headers,
    });
    const stream = await reportingProgress(factory, () => undefined, noFailure)({});
    expect(stream.headers).toEqual(headers);
    const chunks = await drain(stream);
    expect(chunks[0]).toBe(source[0]);
    expect(chunks[1]).toBe(source[1]);
  });

  test('each attempt builds its body anew and counts from 0 again', async () => {
    const { factory } = body(2, 5, { 'content-length': '10' });
    const calls: number[] = [];
    const wrapped = reportingProgress(
      factory,
      (p) => calls.push(p.bytes),
      noFailure,
      () => 0,
    );
    await drain(await wrapped({}));
    await drain(await wrapped({}));
    expect(calls).toEqual([5, 10, 5, 10]);
  });

  test('a callback that throws: the body is sent whole, the failure told once, the callback not called again', async () => {
    const { factory } = body(50, KiB, { 'content-length': String(50 * KiB) });
    const failures: unknown[] = [];
    let calls = 0;
    const boom = new Error('progress bar gone');
    const wrapped = reportingProgress(
      factory,
      () => {
        calls++;
        throw boom;
      },
      (error) => failures.push(error),
      steppingClock(100),
    );
    const chunks = await drain(await wrapped({}));
    expect(chunks).toHaveLength(50);
    expect([calls, failures]).toEqual([1, [boom]]);
  });

  test.each([
    ['returns a promise that rejects', (error: Error) => async () => Promise.reject(error)],
    ['returns a thenable whose then throws', (error: Error) => () => throwingThenable(error)],
  ])(
    'a callback that %s: the body is sent whole, the failure told once, no call after it',
    async (_name, make) => {
      const { factory } = body(50, KiB, { 'content-length': String(50 * KiB) });
      const failures: unknown[] = [];
      let calls = 0;
      let callsAtFailure = -1;
      const boom = new Error('metrics sink down');
      const failing = make(boom);
      const wrapped = reportingProgress(
        factory,
        () => {
          calls++;
          return failing();
        },
        (error) => {
          callsAtFailure = calls;
          failures.push(error);
        },
        steppingClock(100),
      );
      const unhandled = await unhandledRejectionsDuring(async () => {
        const chunks = await drain(await wrapped({}));
        expect(chunks).toHaveLength(50);
      });
      expect(unhandled).toEqual([]);
      expect(failures).toEqual([boom]);
      expect(calls).toBe(callsAtFailure);
      expect(calls).toBeLessThan(50);
    },
  );

  test('a callback whose promises all reject later is told once, however many calls were made', async () => {
    const { factory } = body(5, 10, { 'content-length': '50' });
    const failures: unknown[] = [];
    const pending: Array<() => void> = [];
    const wrapped = reportingProgress(
      factory,
      () =>
        new Promise<void>((_resolve, reject) => {
          pending.push(() => reject(new Error('late')));
        }),
      (error) => failures.push(error),
      steppingClock(100),
    );
    await drain(await wrapped({}));
    // Every chunk was reported before any promise settled: 5 calls and the end adds none.
    expect(pending).toHaveLength(5);
    const unhandled = await unhandledRejectionsDuring(async () => {
      for (const reject of pending) reject();
    });
    expect(unhandled).toEqual([]);
    expect(failures).toHaveLength(1);
  });

  test('a failing source fails the body with its own error', async () => {
    const broken = new Error('disk gone');
    const factory = async (): Promise<StreamBody> => ({
      body: (async function* () {
        yield new Uint8Array(4);
        throw broken;
      })(),
      headers: {},
    });
    const calls: number[] = [];
    const stream = await reportingProgress(
      factory,
      (p) => calls.push(p.bytes),
      noFailure,
      () => 0,
    )({});
    await expect(drain(stream)).rejects.toBe(broken);
    // The 4 bytes handed over were told; no final call claims the body ended.
    expect(calls).toEqual([4]);
  });
});

describe('splitUploadOptions', () => {
  test('takes onProgress out of the request options', () => {
    const onProgress = () => undefined;
    const signal = new AbortController().signal;
    expect(splitUploadOptions({ onProgress, signal, timeout: 5 })).toEqual({
      onProgress,
      request: { signal, timeout: 5 },
    });
    expect(splitUploadOptions(undefined)).toEqual({ onProgress: undefined, request: undefined });
    expect(splitUploadOptions({ timeout: 5 })).toEqual({ onProgress: undefined, request: { timeout: 5 } });
  });

  test.each([
    ['a string', 'log'],
    ['a number', 1],
    ['an object', {}],
    ['null', null],
  ])('refuses an onProgress that is %s with InvalidOptionError', (_name, onProgress) => {
    const split = () => splitUploadOptions({ onProgress: onProgress as unknown as () => void });
    expect(split).toThrow(InvalidOptionError);
    expect(split).toThrow(/onProgress must be a function/);
  });
});
