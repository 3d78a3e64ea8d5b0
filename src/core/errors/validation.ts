// Requests the SDK refused before sending them.
import { brand, MediaGatewayError } from '../base-error.js';

/** One reason a request was refused before sending: the field path and the rule it breaks. */
export interface ValidationIssue {
  /** Dotted path into the request, e.g. `image_with_roles[1].role`; `''` for the whole request. */
  path: string;
  /** The rule, in words: what was expected and, where it helps, what to do instead. */
  message: string;
}

// The longest path a RequestValidationError's message quotes whole.
const MAX_QUOTED_PATH = 100;

/**
 * A path as the message shows it: whole when short; else its start and its length, so that a
 * key of a megabyte (a mistake, or input passed on unchecked) does not make a message of one.
 */
function quotePath(path: string): string {
  if (!path) return '(request)';
  if (path.length <= MAX_QUOTED_PATH) return path;
  let start = path.slice(0, 64);
  // Never end on half of a surrogate pair.
  if (/[\uD800-\uDBFF]$/.test(start)) start = start.slice(0, -1);
  return `${start}… (${path.length} characters)`;
}

/**
 * The SDK refused the request before sending it. Nothing reached the gateway: no task was
 * created and nothing was reserved.
 *
 * @example
 * try { await client.videos.create({ model: 'vidmodel-2.0-mini', prompt: 'x', duration: 20 }) }
 * catch (e) { if (e instanceof RequestValidationError) console.log(e.issues) } // [{ path: 'duration', ... }]
 */
export class RequestValidationError extends MediaGatewayError {
  /** Always `'RequestValidationError'`. */
  declare readonly name: 'RequestValidationError';
  /** Every rule the request breaks, one issue per field path (as given, however long), in the order found. */
  declare readonly issues: ValidationIssue[];

  /**
   * @param operation - what was refused, e.g. `videos.create`; starts the message.
   * @param issues - the rules broken; listed in the message as `path: rule`, a path longer than 100
   *   characters shown by its start and its length.
   * @param options - `cause`: what made a rule impossible to check, when something threw.
   */
  constructor(operation: string, issues: ValidationIssue[], options?: ErrorOptions) {
    const list = issues.map((i) => `${quotePath(i.path)}: ${i.message}`).join('; ');
    super(`${operation} was not sent: ${list}`, options);
    this.issues = issues;
  }
}

brand({ RequestValidationError });

/**
 * The error of a request cut off while its body was being sent, for a rule only its bytes could
 * show (a stream of unknown length past its limit): a {@link RequestValidationError} with the
 * same issues, whose message says that the request was cut off after `sent` (not that it was not
 * sent), then `outcome`. Only for a request that is not billable, whose outcome is known.
 *
 * @internal
 */
export function cutOffRequest(
  operation: string,
  issues: ValidationIssue[],
  sent: string,
  outcome: string,
): RequestValidationError {
  const error = new RequestValidationError(operation, issues);
  const before = error.message;
  const after = `${before.replace(`${operation} was not sent: `, `${operation} was cut off after ${sent}: `)}. ${outcome}`;
  error.message = after;
  if (error.stack) error.stack = error.stack.replace(before, after);
  return error;
}

/**
 * What a request whose parameters could not even be read is refused with: an SDK error passes
 * as it is; anything else (a getter that throws, a revoked Proxy) becomes a
 * `RequestValidationError` with the failure as `cause`, since nothing was sent.
 *
 * @internal
 */
export function unreadableRequest(error: unknown): unknown {
  if (error instanceof MediaGatewayError) return error;
  const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new RequestValidationError(
    'the request',
    [
      {
        path: '(request)',
        message: `could not be read (${what}): a getter or Proxy in the parameters threw; pass plain data`,
      },
    ],
    { cause: error },
  );
}
