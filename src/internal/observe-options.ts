/**
 * The client's observability options, checked when it is built: `hooks` and `logger` are
 * objects of functions, and the log level comes from `logLevel` or `MEDIAGW_LOG`.
 */
import { describeCause } from '../core/errors.js';
import { checkCallback, InvalidOptionError } from '../core/options.js';
import { LOG_LEVELS, type LogLevel } from './observe.js';

const HOOK_NAMES = ['onRequest', 'onResponse', 'onRetry', 'onError'] as const;

/**
 * The rule of an object of callbacks: `undefined`, or an object whose members named `names`
 * are functions or left out; `rule` says what it takes.
 */
const callbacks =
  (names: readonly string[], rule: string) =>
  <V>(option: string, value: V): V => {
    if (value === undefined) return value;
    // Object(value) is value itself for an object or a function only.
    if (Object(value) !== value) throw new InvalidOptionError(option, value, rule);
    for (const name of names) {
      let member: unknown;
      try {
        member = (value as Record<string, unknown>)[name];
      } catch (error) {
        throw new InvalidOptionError(
          `${option}.${name}`,
          error,
          `a function that can be read; reading it threw ${describeCause(error)}`,
        );
      }
      checkCallback(`${option}.${name}`, member);
    }
    return value;
  };

/**
 * The rules of the client's `hooks` and `logger`, checked with `checkOptions` when it is built.
 * A hook that is not a function would otherwise be reported as failing on every call, a logger
 * method that is not one would drop every line, and a getter that throws would escape the
 * constructor as a raw error. Each refusal is an InvalidOptionError naming the option (`hooks`,
 * `logger`) or its part (`hooks.onRequest`, `logger.info`).
 */
export const OBSERVER_OPTIONS = {
  hooks: callbacks(HOOK_NAMES, 'an object of hook functions (onRequest, onResponse, onRetry, onError)'),
  logger: callbacks(
    LOG_LEVELS.filter((level) => level !== 'off'),
    'an object with console-style methods (debug, info, warn, error), such as console',
  ),
};

/**
 * The log level: the option, else `MEDIAGW_LOG`, else `debug` with a logger (it decides by the
 * methods it has) and `off` without one.
 *
 * @returns the level, or the value refused and where it came from.
 */
export function resolveLogLevel(
  option: LogLevel | undefined,
  env: string | undefined,
  hasLogger: boolean,
): LogLevel | { refused: unknown; from: 'logLevel' | 'MEDIAGW_LOG' } {
  if (option !== undefined)
    return LOG_LEVELS.includes(option) ? option : { refused: option, from: 'logLevel' };
  const fromEnv = env?.trim().toLowerCase();
  if (fromEnv) {
    return LOG_LEVELS.includes(fromEnv as LogLevel)
      ? (fromEnv as LogLevel)
      : { refused: env, from: 'MEDIAGW_LOG' };
  }
  return hasLogger ? 'debug' : 'off';
}
