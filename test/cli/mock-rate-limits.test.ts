// Covers: src/cli/commands/mock-flags.ts
import { beforeAll, describe, expect, test } from 'vitest';
import {
  describeRateLimits,
  parseRateLimit,
  parseRateLimits,
  rateLimitsJson,
} from '../../src/cli/commands/mock-flags.js';
import { CliError, EXIT } from '../../src/cli/exit-codes.js';
import { MockRateLimits } from '../../src/testing/state/rate-limits.js';
import { testClient } from '../helpers/client.js';
import { ensureBuilt, run, start, stop, until } from './helpers.js';

const kite = { model: 'vidmodel-2.0-mini', prompt: 'a red kite', duration: 5 } as const;

describe('mediagw mock --rate-limit SPEC', () => {
  test.each([
    ['10/s', 'key-model', { requestsPerSecond: 10 }],
    ['key-model=10/s', 'key-model', { requestsPerSecond: 10 }],
    ['10/s,burst=20', 'key-model', { requestsPerSecond: 10, burst: 20 }],
    [' key-model = 3 / s , burst = 1 ', 'key-model', { requestsPerSecond: 3, burst: 1 }],
    ['ip=20/s', 'ip', { requestsPerSecond: 20 }],
    ['ip=20/s,burst=40', 'ip', { requestsPerSecond: 20, burst: 40 }],
  ])('%j is a %s limit of %j', (spec, scope, limit) => {
    expect(parseRateLimit(spec)).toEqual({ scope, limit });
  });

  test.each([
    ['', /empty/],
    ['   ', /empty/],
    ['10', /the rate must be N\/s, got "10"/],
    ['ten/s', /the rate must be a whole number of 1 or more, got "ten"/],
    ['0/s', /the rate must be a whole number of 1 or more, got "0"/],
    ['-1/s', /the rate must be a whole number of 1 or more, got "-1"/],
    ['1.5/s', /the rate must be a whole number of 1 or more, got "1.5"/],
    ['/s', /the rate must be a whole number of 1 or more, got ""/],
    ['99999999999999999999/s', /the rate must be a whole number/],
    ['20/min', /the unit must be s, got "min"/],
    ['20/', /the unit must be s, got ""/],
    ['10/s,burst=0', /burst must be a whole number of 1 or more, got "0"/],
    ['10/s,burst=2.5', /burst must be a whole number of 1 or more, got "2.5"/],
    ['10/s,burst=', /burst must be a whole number of 1 or more, got ""/],
    ['10/s,burst=2,burst=3', /burst is given twice/],
    ['10/s,burst', /unknown option "burst"/],
    ['10/s,window=2', /unknown option "window=2"/],
    ['10/s,burst=2=3', /unknown option "burst=2=3"/],
    [
      'vidmodel-2.5=5/s',
      /unknown scope "vidmodel-2.5" \(the mock limits every model alike: key-model or ip\)/,
    ],
    ['ip:create=20/s', /unknown scope "ip:create"/],
    ['=5/s', /unknown scope ""/],
  ])('%j is refused: %s', (spec, why) => {
    let error: unknown;
    try {
      parseRateLimit(spec);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(EXIT.usage);
    expect((error as CliError).message).toMatch(/^--rate-limit /);
    expect((error as CliError).message).toMatch(why);
    // And it says what would be right.
    expect((error as CliError).message).toContain('[key-model=]N/s[,burst=B]');
  });

  test('each scope once, as rateLimits; none given is undefined', () => {
    expect(parseRateLimits(undefined)).toBeUndefined();
    expect(parseRateLimits([])).toBeUndefined();
    const options = parseRateLimits(['2/s', 'ip=20/s,burst=40']);
    expect(options).toEqual({
      perKeyModel: { requestsPerSecond: 2 },
      perIp: { requestsPerSecond: 20, burst: 40 },
    });
    // What the CLI builds, the mock takes.
    expect(() => new MockRateLimits(options)).not.toThrow();
    expect(() => parseRateLimits(['2/s', 'key-model=3/s'])).toThrow(
      /--rate-limit "key-model=3\/s": a key-model limit is already given; give each scope once/,
    );
    expect(() => parseRateLimits(['ip=2/s', 'ip=3/s'])).toThrow(/an? ip limit is already given/);
  });

  test('the banner line and the --json form show the burst the mock applies', () => {
    expect(describeRateLimits({ perKeyModel: { requestsPerSecond: 2 } })).toBe(
      '2/s per key and model (burst 2)',
    );
    expect(
      describeRateLimits({
        perKeyModel: { requestsPerSecond: 2 },
        perIp: { requestsPerSecond: 20, burst: 40 },
      }),
    ).toBe('2/s per key and model (burst 2); 20/s per IP on creation and upload routes (burst 40)');
    expect(rateLimitsJson({ perIp: { requestsPerSecond: 20, burst: 40 } })).toEqual({
      per_key_model: null,
      per_ip: { requests_per_second: 20, burst: 40 },
    });
    expect(rateLimitsJson(undefined)).toEqual({ per_key_model: null, per_ip: null });
  });
});

describe('mediagw mock --rate-limit, run as a user would', () => {
  beforeAll(ensureBuilt, 180_000);

  test('past the limit a 429 with Retry-After; the SDK keeps under it with limits, and waits out the 429s without', async () => {
    const mock = start(['mock', '--json', '--rate-limit', '2/s', '--rate-limit', 'ip=500/s,burst=500']);
    try {
      await until(() => mock.output().includes('Press Ctrl+C'), 'the mock to start');
      expect(mock.output()).toContain(
        'rate limits:  2/s per key and model (burst 2); 500/s per IP on creation and upload routes (burst 500)',
      );
      // --json: the gateway's document comes first on stdout, with the active limits.
      const { gateway } = JSON.parse(mock.stdout().split('\n')[0] ?? '') as { gateway: StartedGateway };
      expect(gateway.rate_limits).toEqual({
        per_key_model: { requests_per_second: 2, burst: 2 },
        per_ip: { requests_per_second: 500, burst: 500 },
      });
      const [first, second] = gateway.accounts.map((a) => a.api_key ?? '');

      // Six submissions at once: the bucket holds two, so the later ones are answered 429.
      const answers = await Promise.all(
        Array.from({ length: 6 }, () =>
          fetch(`${gateway.url}/v1/videos/generations`, {
            method: 'POST',
            headers: { authorization: `Bearer ${first}`, 'content-type': 'application/json' },
            body: JSON.stringify(kite),
          }),
        ),
      );
      const limited = answers.filter((a) => a.status === 429);
      expect(limited.length).toBeGreaterThan(0);
      expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(0);
      for (const answer of limited) {
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(await answer.json()).toMatchObject({ code: 'rate_limit_exceeded' });
      }

      // A client whose own limiter keeps to 1/s (half the mock's rate) is never refused,
      // even with no retries.
      const limitedClient = testClient({
        baseURL: gateway.url,
        apiKey: second ?? '',
        limits: { perModel: { '*': { requestsPerSecond: 1 } } },
      });
      const created = await Promise.all([1, 2, 3].map(() => limitedClient.videos.create(kite)));
      expect(created.map((c) => c.task_id)).toHaveLength(3);

      // Without limits, the SDK meets the 429s, pauses the model for their Retry-After and
      // sends again: every submission ends accepted.
      const before = await limitedAnswers(gateway.dashboard_url);
      const retrying = testClient({ baseURL: gateway.url, apiKey: first ?? '', maxRetries: 4 });
      const images = await Promise.all(
        [1, 2, 3, 4, 5].map(() => retrying.images.generateAsync({ model: 'imgmodel-2', prompt: 'a kite' })),
      );
      expect(images.map((i) => i.task_id)).toHaveLength(5);
      expect(await limitedAnswers(gateway.dashboard_url)).toBeGreaterThan(before);
    } finally {
      stop(mock.child);
    }
    expect((await mock.result).code).toBe(0);
  });

  test('a bad --rate-limit is a usage error (exit 1) naming the flag and what is wrong, before anything starts', async () => {
    const { code, stdout, stderr } = await run(['mock', '--rate-limit', '20/min']);
    expect(code).toBe(EXIT.usage);
    expect(stdout).toBe('');
    expect(stderr).toContain('--rate-limit "20/min": the mock counts whole requests per second');
    const json = await run(['mock', '--json', '--rate-limit', 'vidmodel-2.5=5/s']);
    expect(json.code).toBe(EXIT.usage);
    expect(JSON.parse(json.stdout)).toMatchObject({
      error: {
        exit_code: 1,
        message: expect.stringMatching(/^--rate-limit "vidmodel-2.5=5\/s": unknown scope/),
      },
    });
  });
});

interface StartedGateway {
  url: string;
  dashboard_url: string;
  rate_limits: unknown;
  accounts: Array<{ id: string; api_key: string | null }>;
}

/** How many answers the mock logged as 429, from its dashboard's view. */
async function limitedAnswers(dashboardUrl: string): Promise<number> {
  const state = (await (await fetch(`${dashboardUrl}/state`)).json()) as {
    requests: Array<{ status: number }>;
  };
  return state.requests.filter((r) => r.status === 429).length;
}
