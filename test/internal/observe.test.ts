// Covers: src/internal/observe.ts
import { HttpResponse, http } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import type { ClientOptions } from '../../src/client.js';
import { NotFoundError } from '../../src/core/errors.js';
import { InvalidOptionError } from '../../src/core/options.js';
import type { Hooks } from '../../src/internal/observe.js';
import { testClient } from '../helpers/client.js';
import { type MswServer, startMswServer } from '../helpers/msw-server.js';
import { warningsDuring } from '../helpers/process-warnings.js';
import { rejection } from '../helpers/rejection.js';

let server: MswServer;
beforeAll(async () => {
  server = await startMswServer();
});
afterAll(() => server.close());
const savedLevel = process.env.MEDIAGW_LOG;
beforeEach(() => {
  server.requests.length = 0;
  delete process.env.MEDIAGW_LOG;
});
afterEach(() => {
  if (savedLevel === undefined) delete process.env.MEDIAGW_LOG;
  else process.env.MEDIAGW_LOG = savedLevel;
  vi.restoreAllMocks();
});

const KEY = 'mgw_observe_secret_key';
const client = (options: ClientOptions = {}) =>
  testClient({ apiKey: KEY, baseURL: server.url, maxRetries: 1, ...options });

/** Answers 500 (retry at once), then 200 with a request ID. */
function failOnceThenAnswer() {
  let calls = 0;
  server.use(
    http.get('*/v1/videos/:id', () =>
      calls++ === 0
        ? HttpResponse.json({ error: { message: 'busy' } }, { status: 500, headers: { 'retry-after': '0' } })
        : HttpResponse.json({ id: 'task_1' }, { headers: { 'x-service-request-id': 'req_ok' } }),
    ),
  );
}

type Line = { level: string; message: string; fields: Record<string, unknown> | undefined };
function recordingLogger() {
  const lines: Line[] = [];
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    lines.push({ level, message, fields });
  return { lines, logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
}

describe('log lines', () => {
  test('carry method, path, status, attempt, duration, request ID and bytes', async () => {
    failOnceThenAnswer();
    const { lines, logger } = recordingLogger();
    await client({ logger, logLevel: 'debug' }).videos.retrieve('task_1');

    const retry = lines.find((l) => l.level === 'warn');
    expect(retry?.message).toBe(
      'GET /v1/videos/task_1 failed (GET /v1/videos/task_1 failed with 500: busy); retry 1 in 0 ms',
    );
    expect(retry?.fields).toMatchObject({
      method: 'GET',
      path: '/v1/videos/task_1',
      attempt: 1,
      status: 500,
      delayMs: 0,
    });

    const done = lines.filter((l) => l.level === 'info');
    expect(done).toHaveLength(1);
    expect(done[0]?.message).toMatch(/^GET \/v1\/videos\/task_1 200 in \d+ ms$/);
    expect(done[0]?.fields).toMatchObject({
      method: 'GET',
      path: '/v1/videos/task_1',
      status: 200,
      attempt: 2,
      requestId: 'req_ok',
      bytes: JSON.stringify({ id: 'task_1' }).length,
    });
    expect(done[0]?.fields?.durationMs).toEqual(expect.any(Number));

    const answers = lines.filter((l) => l.level === 'debug' && l.message.startsWith('←'));
    expect(answers.map((l) => [l.fields?.status, l.fields?.attempt])).toEqual([
      [500, 1],
      [200, 2],
    ]);
    expect(JSON.stringify(lines)).not.toContain(KEY);
  });

  test('a failed call is logged at error with its status', async () => {
    server.use(
      http.get('*/v1/videos/:id', () => HttpResponse.json({ error: { message: 'gone' } }, { status: 404 })),
    );
    const { lines, logger } = recordingLogger();
    await rejection(client({ logger, logLevel: 'error' }).videos.retrieve('task_x'));
    expect(lines.map((l) => l.level)).toEqual(['error']);
    expect(lines[0]?.fields).toMatchObject({
      method: 'GET',
      path: '/v1/videos/task_x',
      status: 404,
      attempt: 1,
    });
  });

  test('MEDIAGW_LOG sets the level, and a level without a logger writes to console', async () => {
    failOnceThenAnswer();
    process.env.MEDIAGW_LOG = 'warn';
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    await client().videos.retrieve('task_1');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[1]).toMatchObject({ status: 500, attempt: 1 });
    expect(info).not.toHaveBeenCalled();
    expect(debug).not.toHaveBeenCalled();
  });

  test('MEDIAGW_LOG=off silences a logger; the option wins over it', async () => {
    process.env.MEDIAGW_LOG = 'off';
    failOnceThenAnswer();
    const quiet = recordingLogger();
    await client({ logger: quiet.logger }).videos.retrieve('task_1');
    expect(quiet.lines).toEqual([]);
    failOnceThenAnswer();
    const loud = recordingLogger();
    await client({ logger: loud.logger, logLevel: 'info' }).videos.retrieve('task_1');
    expect(loud.lines.map((l) => l.level)).toEqual(['warn', 'info']);
  });

  test('an unknown level is refused, naming where it came from', () => {
    process.env.MEDIAGW_LOG = 'verbose';
    expect(() => client()).toThrow(InvalidOptionError);
    expect(() => client()).toThrow(/MEDIAGW_LOG must be one of debug, info, warn, error, off/);
    delete process.env.MEDIAGW_LOG;
    expect(() => client({ logLevel: 'loud' as never })).toThrow(/logLevel must be one of/);
  });

  test('without a logger, a level or hooks, calls build no observer', () => {
    expect((client()._transport as unknown as { observer: unknown }).observer).toBeUndefined();
  });
});

describe('hooks', () => {
  test('are told of each attempt, answer and retry, with one call ID', async () => {
    failOnceThenAnswer();
    const events: Array<[string, Record<string, unknown>]> = [];
    const hooks: Hooks = {
      onRequest: (info) => events.push(['request', { ...info }]),
      onResponse: (info) => events.push(['response', { ...info }]),
      onRetry: (info) => events.push(['retry', { ...info }]),
      onError: (info) => events.push(['error', { ...info }]),
    };
    await client({ hooks }).videos.retrieve('task_1');
    expect(events.map(([name, info]) => [name, info.attempt, info.status])).toEqual([
      ['request', 1, undefined],
      ['response', 1, 500],
      ['retry', 1, 500],
      ['request', 2, undefined],
      ['response', 2, 200],
    ]);
    expect(new Set(events.map(([, info]) => info.callId)).size).toBe(1);
    expect(events[4]?.[1]).toMatchObject({ method: 'GET', path: '/v1/videos/task_1', requestId: 'req_ok' });
    expect(events[4]?.[1].durationMs).toEqual(expect.any(Number));
    expect(events[2]?.[1]).toMatchObject({ delayMs: 0 });
  });

  test('onError receives the error the call rejects with', async () => {
    server.use(
      http.get('*/v1/videos/:id', () => HttpResponse.json({ error: { message: 'gone' } }, { status: 404 })),
    );
    const onError = vi.fn();
    const error = await rejection(client({ hooks: { onError } }).videos.retrieve('task_x'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]?.[0]).toMatchObject({
      error,
      status: 404,
      attempt: 1,
      path: '/v1/videos/task_x',
    });
  });

  test('a hook that throws or rejects does not change the call, and is reported', async () => {
    failOnceThenAnswer();
    const { lines, logger } = recordingLogger();
    const boom = () => {
      throw new Error(`boom ${KEY}`);
    };
    const hooks: Hooks = {
      onRequest: boom,
      onResponse: async () => Promise.reject(new Error('late')),
      onRetry: boom,
    };
    const task = await client({ hooks, logger, logLevel: 'warn' }).videos.retrieve('task_1');
    expect(task.id).toBe('task_1');
    await new Promise((resolve) => setImmediate(resolve));
    const reports = lines.filter((l) => l.message.includes('hook threw')).map((l) => l.fields?.hook);
    expect(reports.sort()).toEqual(['onRequest', 'onRequest', 'onResponse', 'onResponse', 'onRetry']);
    expect(JSON.stringify(lines)).not.toContain(KEY);
  });

  test('without a logger, a failing hook becomes a process warning', async () => {
    server.use(http.get('*/v1/videos/:id', () => HttpResponse.json({ id: 'task_1' })));
    const warnings = await warningsDuring(() =>
      client({
        hooks: {
          onRequest: () => {
            throw new Error('broken metrics');
          },
        },
      }).videos.retrieve('task_1'),
    );
    expect(warnings.map((w) => w.message)).toEqual([
      'the onRequest hook threw (broken metrics); the call went on',
    ]);
  });
});

describe('hooks and logger are checked when the client is built', () => {
  /** An object whose `name` cannot be read: its getter throws. */
  const getterThrowing = (name: string) =>
    Object.defineProperty({}, name, {
      get() {
        throw new Error('getter broke');
      },
    });

  // The value is built by the test, not at collection: a throwing getter must not fire there.
  test.each([
    ['hooks: "x"', () => ({ hooks: 'x' }), 'hooks', /^hooks must be an object of hook functions/],
    ['hooks: null', () => ({ hooks: null }), 'hooks', /^hooks must be an object of hook functions/],
    [
      'hooks.onRequest: 42',
      () => ({ hooks: { onRequest: 42 } }),
      'hooks.onRequest',
      /^hooks\.onRequest must be a function; got 42/,
    ],
    [
      'hooks.onError: "log"',
      () => ({ hooks: { onError: 'log' } }),
      'hooks.onError',
      /^hooks\.onError must be a function; got "log"/,
    ],
    [
      'hooks.onRetry, a getter that throws',
      () => ({ hooks: getterThrowing('onRetry') }),
      'hooks.onRetry',
      /^hooks\.onRetry must be a function that can be read; reading it threw Error: getter broke/,
    ],
    [
      'logger: "console"',
      () => ({ logger: 'console' }),
      'logger',
      /^logger must be an object with console-style methods/,
    ],
    [
      'logger: null',
      () => ({ logger: null }),
      'logger',
      /^logger must be an object with console-style methods/,
    ],
    [
      'logger.info: 5',
      () => ({ logger: { info: 5 } }),
      'logger.info',
      /^logger\.info must be a function; got 5/,
    ],
    [
      'logger.warn: {}',
      () => ({ logger: { warn: {} } }),
      'logger.warn',
      /^logger\.warn must be a function; got object/,
    ],
    [
      'logger.info, a getter that throws',
      () => ({ logger: getterThrowing('info') }),
      'logger.info',
      /^logger\.info must be a function that can be read; reading it threw Error: getter broke/,
    ],
  ])(
    '%s is refused with InvalidOptionError naming the option; nothing is sent',
    (_name, options, option, message) => {
      let error: unknown;
      try {
        client(options() as ClientOptions);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(InvalidOptionError);
      expect(error).toMatchObject({ option });
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).toMatch(/Nothing was sent\.$/);
      expect(server.requests).toHaveLength(0);
    },
  );

  test('withOptions checks them too', () => {
    expect(() => client().withOptions({ hooks: { onResponse: 1 as never } })).toThrow(
      /^hooks\.onResponse must/,
    );
  });

  test('taken: hooks and a logger of functions, some left out, console, and a logger made from a class', async () => {
    server.use(http.get('*/v1/videos/:id', () => HttpResponse.json({ id: 'task_1' })));
    const seen: string[] = [];
    class Lines {
      info(message: string) {
        seen.push(message);
      }
    }
    const api = client({
      hooks: { onRequest: () => void seen.push('request'), onError: undefined },
      logger: new Lines(),
      logLevel: 'info',
    });
    expect(() => client({ logger: console, hooks: {} })).not.toThrow();
    await api.videos.retrieve('task_1');
    expect(seen).toEqual(['request', expect.stringMatching(/^GET \/v1\/videos\/task_1 200 in \d+ ms$/)]);
  });
});

describe('a logger that fails', () => {
  /** The messages of the MEDIAGW_LOGGER_FAILED warnings emitted while `run` runs. */
  async function loggerWarningsDuring(run: () => Promise<unknown>): Promise<string[]> {
    return (await warningsDuring(run))
      .filter((w) => (w as { code?: string }).code === 'MEDIAGW_LOGGER_FAILED')
      .map((w) => w.message);
  }

  const accepted = () =>
    server.use(
      http.post('*/v1/videos/generations', () =>
        HttpResponse.json({ code: 'success', data: [{ task_id: 'cgt-accepted', status: 'submitted' }] }),
      ),
    );
  const quiet = () => {};

  test.each([
    [
      'info, throwing on the call ended',
      'info' as const,
      {
        info: () => {
          throw new Error(`sink down ${KEY}`);
        },
      },
    ],
    [
      'debug, throwing on the answer line',
      'debug' as const,
      {
        debug: (m: string) => {
          if (m.startsWith('←')) throw new Error('sink down');
        },
      },
    ],
    ['info, rejecting', 'info' as const, { info: async () => Promise.reject(new Error('sink down')) }],
  ])(
    '(%s) never changes an accepted billable submission; the failure is one process warning',
    async (_, logLevel, failing) => {
      accepted();
      const logger = { debug: quiet, info: quiet, warn: quiet, error: quiet, ...failing };
      let taskId: string | undefined;
      const warnings = await loggerWarningsDuring(async () => {
        const api = client({ logger, logLevel, maxRetries: 0 });
        for (const _ of [1, 2]) {
          taskId = (await api.videos.create({ model: 'vidmodel-2.0-mini', prompt: 'a kite', duration: 5 }))
            .task_id;
        }
      });
      expect(taskId).toBe('cgt-accepted');
      expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(2);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(
        /^the logger threw \(sink down.*\); its lines are dropped and calls go on$/,
      );
      expect(warnings[0]).not.toContain(KEY);
    },
  );
});
