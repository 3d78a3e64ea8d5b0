// Covers: src/internal/observe-options.ts
import { describe, expect, test } from 'vitest';
import { checkOptions } from '../../src/core/options.js';
import { OBSERVER_OPTIONS } from '../../src/internal/observe-options.js';
import { optionRefusal } from '../helpers/rejection.js';

type Observers = { hooks?: unknown; logger?: unknown };
const check = (given: Observers) => checkOptions(OBSERVER_OPTIONS, given);

const refusal = (given: Observers) => optionRefusal(() => check(given));

describe('the rules of hooks and logger', () => {
  test('take them left out, empty, with members left out, or as console', () => {
    const hooks = { onRequest: () => {}, onError: undefined };
    expect(check({})).toEqual({ hooks: undefined, logger: undefined });
    expect(check({ hooks, logger: console })).toEqual({ hooks, logger: console });
    expect(() => check({ hooks: {}, logger: {} })).not.toThrow();
  });

  test('take a function holding the members, and members a class instance inherits', () => {
    const hooks = Object.assign(() => {}, { onRetry: () => {} });
    class Logger {
      info() {}
    }
    expect(() => check({ hooks, logger: new Logger() })).not.toThrow();
  });

  test.each([
    ['hooks', 5],
    ['hooks', null],
    ['hooks', 'x'],
    ['logger', true],
    ['logger', null],
  ])('refuse %s: %s, which is no object', (option, value) => {
    const error = refusal({ [option]: value });
    expect(error.option).toBe(option);
    expect(error.value).toBe(value);
  });

  test('refuse a member that is not a function, inherited or not, naming it', () => {
    expect(refusal({ hooks: { onResponse: 1 } }).option).toBe('hooks.onResponse');
    expect(refusal({ logger: Object.create({ debug: 'x' }) }).message).toBe(
      'logger.debug must be a function; got "x". Nothing was sent.',
    );
  });

  test('refuse a member whose getter throws, with what it threw', () => {
    const hooks = {
      get onRetry(): never {
        throw new RangeError('no');
      },
    };
    const error = refusal({ hooks });
    expect(error.option).toBe('hooks.onRetry');
    expect(error.message).toMatch(/^hooks\.onRetry must be a function that can be read; reading it threw/);
  });

  test('check hooks before logger, and the members in order', () => {
    expect(refusal({ logger: { info: 1 }, hooks: { onError: 1, onRequest: 1 } }).option).toBe(
      'hooks.onRequest',
    );
    expect(refusal({ logger: { error: 1, debug: 1 } }).option).toBe('logger.debug');
  });
});
