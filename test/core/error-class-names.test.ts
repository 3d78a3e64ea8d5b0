// Covers: src/core/base-error.ts, src/core/errors.ts
/// <reference types="vite/client" />
import { createServer } from 'node:net';
import { inspect } from 'node:util';
import { describe, expect, test } from 'vitest';
import { ERROR_BRAND, MediaGatewayError } from '../../src/core/base-error.js';
import { APIConnectionError } from '../../src/index.js';
import { RedirectRefusedError } from '../../src/internal/redirects.js';
import { FetchFailedError, NotSentError } from '../../src/internal/retry-policy.js';
import { testClient } from '../helpers/client.js';
import { rejection } from '../helpers/rejection.js';

// Every module that may define an error class the SDK throws: the public entries, and what
// lies behind them (a class the SDK does not export is thrown too, under its public name).
const modules = import.meta.glob(
  [
    '../../src/{core,internal,resources,schemas,webhooks,redis}/**/*.ts',
    '../../src/{index,client}.ts',
    '!**/*.d.ts',
  ],
  { eager: true },
) as Record<string, Record<string, unknown>>;

type ErrorClass = typeof MediaGatewayError;

function errorClasses(): [string, ErrorClass][] {
  const found = new Map<ErrorClass, string>();
  for (const [file, exports] of Object.entries(modules)) {
    for (const [name, value] of Object.entries(exports)) {
      if (typeof value !== 'function' || found.has(value as ErrorClass)) continue;
      if (value === MediaGatewayError || value.prototype instanceof MediaGatewayError)
        found.set(value as ErrorClass, `${file.replace('../../', '')}: ${name}`);
    }
  }
  return [...found].map(([type, where]) => [where, type]);
}

describe('an error prints as its public class', () => {
  test('the classes are found', () => {
    const where = errorClasses().map(([w]) => w);
    expect(where).toEqual(expect.arrayContaining([expect.stringContaining('NotSentError')]));
    expect(where.length).toBeGreaterThan(25);
  });

  // util.inspect (console.log) prints the class by its constructor's name, and `[name]` after
  // it when the error's name differs: a class of the SDK's own has its public name for both.
  test.each(errorClasses())('%s', (_where, type) => {
    expect(type.name).toBe(type[ERROR_BRAND]);
  });

  test.each([
    ['NotSentError', () => new NotSentError('GET /v1/tasks/t: could not connect'), 'APIConnectionError'],
    ['FetchFailedError', () => new FetchFailedError('GET /v1/tasks/t', 'it threw'), 'APIConnectionError'],
    [
      'RedirectRefusedError',
      () => new RedirectRefusedError('GET x: redirect refused', 302, 'req_1'),
      'InvalidResponseError',
    ],
  ])('inspect(%s) starts with its public class and names no other', (_name, make, shown) => {
    const printed = inspect(make());
    expect(printed.startsWith(`${shown}: `)).toBe(true);
    expect(printed.split('\n')[0]).not.toMatch(/\[/);
  });

  test('a refused connection, as console.log prints it', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const client = testClient({ baseURL: `http://127.0.0.1:${port}` });
    const error = await rejection(client.webhooks.capabilities({ model: 'vidmodel-2.5' }));
    expect(error).toBeInstanceOf(APIConnectionError);
    const first = inspect(error).split('\n')[0] ?? '';
    expect(first).toMatch(/^APIConnectionError: /);
    expect(first).not.toContain('NotSentError');
  });
});
