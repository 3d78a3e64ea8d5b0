// Covers: src/core/detached-call.ts
import { describe, expect, test } from 'vitest';
import { callDetached } from '../../src/core/detached-call.js';
import { throwingThenable, unhandledRejectionsDuring } from '../helpers/unhandled-rejections.js';

/** Calls `callback` detached; gives what reached `failed` and what was left unhandled. */
async function outcome(callback: () => unknown) {
  const failures: unknown[] = [];
  const unhandled = await unhandledRejectionsDuring(async () => {
    callDetached(callback, (error) => failures.push(error));
  });
  return { failures, unhandled };
}

const boom = new Error('boom');

describe('callDetached', () => {
  test.each([
    [
      'throws',
      () => {
        throw boom;
      },
    ],
    ['returns a promise that rejects', async () => Promise.reject(boom)],
    ['returns a thenable whose then throws', () => throwingThenable(boom)],
    [
      'returns an object whose then getter throws',
      () =>
        Object.defineProperty({}, 'then', {
          get() {
            throw boom;
          },
        }),
    ],
  ])('a callback that %s: its error goes to failed, none left unhandled', async (_name, callback) => {
    expect(await outcome(callback)).toEqual({ failures: [boom], unhandled: [] });
  });

  test.each([
    ['returns nothing', () => undefined],
    ['returns a value', () => 42],
    ['returns an object whose then is not a function', () => Object.defineProperty({}, 'then', { value: 1 })],
    ['returns a promise that resolves', async () => 'done'],
  ])('a callback that %s: nothing is failed', async (_name, callback) => {
    expect(await outcome(callback)).toEqual({ failures: [], unhandled: [] });
  });

  test('calls the callback at once, without waiting for its promise', () => {
    const order: string[] = [];
    callDetached(
      () => {
        order.push('called');
        return new Promise(() => undefined);
      },
      () => order.push('failed'),
    );
    order.push('returned');
    expect(order).toEqual(['called', 'returned']);
  });
});
