// Covers: src/core/deadline.ts
import { getEventListeners } from 'node:events';
import { describe, expect, test, vi } from 'vitest';
import { Deadline } from '../../src/core/deadline.js';
import { APIConnectionTimeoutError, APIUserAbortError } from '../../src/core/errors.js';

describe('Deadline', () => {
  test('fires its listener at the timeout with APIConnectionTimeoutError', () => {
    vi.useFakeTimers();
    try {
      const deadline = new Deadline('GET /v1/videos/t1', 250, undefined);
      const listener = vi.fn();
      deadline.once('abort', listener);
      vi.advanceTimersByTime(249);
      expect(listener).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(listener).toHaveBeenCalledTimes(1);
      expect(deadline.aborted).toBe(true);
      expect(deadline.reason).toBeInstanceOf(APIConnectionTimeoutError);
      expect(deadline.reason?.message).toBe('GET /v1/videos/t1: no complete answer within 250 ms');
    } finally {
      vi.useRealTimers();
    }
  });

  test('released, it never fires and leaves the caller’s signal without a listener', () => {
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      const deadline = new Deadline('GET /v1/x', 100, controller.signal);
      const listener = vi.fn();
      deadline.on('abort', listener);
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
      deadline.release();
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
      vi.advanceTimersByTime(1_000);
      controller.abort();
      expect(listener).not.toHaveBeenCalled();
      expect(deadline.aborted).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  test('the caller’s abort ends it with APIUserAbortError, the reason as cause', () => {
    const controller = new AbortController();
    const deadline = new Deadline('GET /v1/x', 60_000, controller.signal);
    const listener = vi.fn();
    deadline.once('abort', listener);
    const reason = { why: 'navigated away' };
    controller.abort(reason);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(deadline.reason).toBeInstanceOf(APIUserAbortError);
    expect(deadline.reason?.cause).toBe(reason);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  test('a signal already aborted ends it at once; a removed listener is not called', () => {
    const deadline = new Deadline('GET /v1/x', 60_000, AbortSignal.abort('gone'));
    expect(deadline.aborted).toBe(true);
    expect(deadline.reason?.cause).toBe('gone');
    const other = new Deadline('GET /v1/y', 60_000, undefined);
    const listener = vi.fn();
    other.once('abort', listener).removeListener('abort', listener);
    other.abort(new APIUserAbortError());
    expect(listener).not.toHaveBeenCalled();
  });
});

describe('Deadline.abortSignal, for a fetch', () => {
  test('aborts with the deadline’s reason when it ends', () => {
    vi.useFakeTimers();
    try {
      const deadline = new Deadline('GET /v1/x', 100, undefined);
      const signal = deadline.abortSignal;
      expect(signal.aborted).toBe(false);
      expect(deadline.abortSignal).toBe(signal);
      vi.advanceTimersByTime(100);
      expect(signal.aborted).toBe(true);
      expect(signal.reason).toBeInstanceOf(APIConnectionTimeoutError);
      expect(signal.reason).toBe(deadline.reason);
    } finally {
      vi.useRealTimers();
    }
  });

  test('asked for after the end, it is aborted already; released, it never aborts', () => {
    const ended = new Deadline('GET /v1/x', 60_000, AbortSignal.abort('gone'));
    expect(ended.abortSignal.aborted).toBe(true);
    expect(ended.abortSignal.reason).toBeInstanceOf(APIUserAbortError);
    const controller = new AbortController();
    const released = new Deadline('GET /v1/y', 60_000, controller.signal);
    const signal = released.abortSignal;
    released.release();
    controller.abort();
    expect(signal.aborted).toBe(false);
  });
});
