/**
 * The grammars of `mediagw mock`'s `--fault` and `--rate-limit` flags.
 *
 * `--rate-limit SPEC`: the mock gateway's rate limits from the command line, in the shape
 * `startMockGateway({ rateLimits })` takes. The mock has two limits, each a token bucket of
 * whole requests per second: one per API key and model, and one per client IP on the creation
 * and upload routes (spec: Limits). A SPEC names one of them:
 *
 *   [key-model=]N/s[,burst=B]   every model of every key: N requests per second each
 *   ip=N/s[,burst=B]            each client IP, on creation and upload routes
 *
 * `burst` is how many are admitted at once after a quiet spell (default N).
 */
import type { FaultInit, MockRateLimit, MockRateLimitOptions } from '../../testing/index.js';
import { CliError } from '../exit-codes.js';
import { integer } from '../input.js';

/** `KIND[:PATH][xTIMES]`, or the JSON of a `FaultInit`. KIND: an HTTP status, hang, reset, delay=MS. */
export function parseFault(spec: string): FaultInit {
  if (spec.trim().startsWith('{')) {
    try {
      return JSON.parse(spec) as FaultInit;
    } catch (error) {
      throw new CliError(`--fault: not valid JSON: ${(error as Error).message}`);
    }
  }
  // The path may hold an x; only a final xN or xinf is the count.
  const match = /^([^:]+?)(?::(.*?))?(?:x(\d+|inf))?$/.exec(spec.trim());
  if (!match)
    throw new CliError(
      `--fault: cannot read ${spec}; use e.g. 503:/v1/videos/generations or reset:/v1/imagesx2`,
    );
  const [, kind = '', path, times] = match;
  const init: FaultInit = { fault: { status: 500 } };
  if (/^\d{3}$/.test(kind)) init.fault = { status: Number(kind) };
  else if (kind === 'hang') init.fault = { hang: true };
  else if (kind === 'reset') init.fault = { reset: 'after-body', runHandler: true };
  else if (kind.startsWith('delay=')) init.fault = { delayMs: integer('--fault delay')(kind.slice(6)) };
  else throw new CliError(`--fault: unknown kind ${kind}; use an HTTP status, hang, reset or delay=MS`);
  if (path) init.match = { path };
  if (times) init.times = times === 'inf' ? Number.POSITIVE_INFINITY : Number(times);
  return init;
}

const SCOPES = { 'key-model': 'perKeyModel', ip: 'perIp' } as const;
type Scope = keyof typeof SCOPES;

function refuse(spec: string, why: string): never {
  throw new CliError(
    `--rate-limit ${JSON.stringify(spec)}: ${why}; use [key-model=]N/s[,burst=B] or ip=N/s[,burst=B], e.g. --rate-limit 10/s or --rate-limit ip=20/s,burst=40`,
  );
}

function wholeNumber(spec: string, what: string, text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text)))
    refuse(spec, `${what} must be a whole number of 1 or more, got ${JSON.stringify(text)}`);
  return Number(text);
}

/** One SPEC: its scope and its limit. @throws CliError (exit 1) naming the flag and what is wrong. */
export function parseRateLimit(spec: string): { scope: Scope; limit: MockRateLimit } {
  const text = spec.trim();
  if (text === '') refuse(spec, 'empty');
  const equals = text.indexOf('=');
  const comma = text.indexOf(',');
  // A scope is what comes before the first '=', unless that '=' belongs to an option after a comma.
  const scoped = equals >= 0 && (comma < 0 || equals < comma);
  const scope = scoped ? text.slice(0, equals).trim() : 'key-model';
  if (!(scope in SCOPES)) {
    refuse(
      spec,
      `unknown scope ${JSON.stringify(scope)} (the mock limits every model alike: key-model or ip)`,
    );
  }
  const [rate = '', ...options] = (scoped ? text.slice(equals + 1) : text).split(',');
  const match = /^\s*([^/\s]*)\s*\/\s*(\S*)\s*$/.exec(rate);
  if (!match) refuse(spec, `the rate must be N/s, got ${JSON.stringify(rate.trim())}`);
  const [, count = '', unit = ''] = match;
  if (unit !== 's')
    refuse(
      spec,
      `the mock counts whole requests per second: the unit must be s, got ${JSON.stringify(unit)}`,
    );
  const limit: MockRateLimit = { requestsPerSecond: wholeNumber(spec, 'the rate', count) };
  for (const option of options) {
    const [name = '', value, extra] = option.split('=').map((part) => part.trim());
    if (name !== 'burst' || value === undefined || extra !== undefined)
      refuse(spec, `unknown option ${JSON.stringify(option.trim())} (the only one is burst=B)`);
    if (limit.burst !== undefined) refuse(spec, 'burst is given twice');
    limit.burst = wholeNumber(spec, 'burst', value);
  }
  return { scope: scope as Scope, limit };
}

/** Every `--rate-limit` given, as `rateLimits`; undefined for none. @throws CliError for a bad SPEC or a scope given twice. */
export function parseRateLimits(specs: readonly string[] | undefined): MockRateLimitOptions | undefined {
  if (!specs?.length) return undefined;
  const options: MockRateLimitOptions = {};
  for (const spec of specs) {
    const { scope, limit } = parseRateLimit(spec);
    const key = SCOPES[scope];
    if (options[key]) refuse(spec, `a ${scope} limit is already given; give each scope once`);
    options[key] = limit;
  }
  return options;
}

/** The active limits as the banner prints them, e.g. `10/s per key and model (burst 20)`. */
export function describeRateLimits(options: MockRateLimitOptions): string {
  const one = (limit: MockRateLimit, what: string) =>
    `${limit.requestsPerSecond}/s ${what} (burst ${limit.burst ?? limit.requestsPerSecond})`;
  const parts: string[] = [];
  if (options.perKeyModel) parts.push(one(options.perKeyModel, 'per key and model'));
  if (options.perIp) parts.push(one(options.perIp, 'per IP on creation and upload routes'));
  return parts.join('; ');
}

/** The active limits for `--json`: snake_case, the burst filled in, `null` for a scope without one. */
export function rateLimitsJson(options: MockRateLimitOptions | undefined) {
  const one = (limit: MockRateLimit | undefined) =>
    limit
      ? { requests_per_second: limit.requestsPerSecond, burst: limit.burst ?? limit.requestsPerSecond }
      : null;
  return { per_key_model: one(options?.perKeyModel), per_ip: one(options?.perIp) };
}
