// Requests the SDK refused before sending them.
import { ERROR_BRAND, MediaGatewayError } from '../base-error.js';

/** One reason a request was refused before sending: the field path and the rule it breaks. */
export interface ValidationIssue {
  /** Dotted path into the request, e.g. `image_with_roles[1].role`; `''` for the whole request. */
  path: string;
  /** The rule, in words: what was expected and, where it helps, what to do instead. */
  message: string;
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
  /** @internal */
  static override readonly [ERROR_BRAND]: string = 'RequestValidationError';
  /** Always `'RequestValidationError'`. */
  declare readonly name: 'RequestValidationError';
  /** Every rule the request breaks, one issue per field path, in the order found. */
  readonly issues: ValidationIssue[];

  /**
   * @param operation - what was refused, e.g. `videos.create`; starts the message.
   * @param issues - the rules broken; listed in the message as `path: rule`.
   */
  constructor(operation: string, issues: ValidationIssue[]) {
    const list = issues.map((i) => `${i.path || '(request)'}: ${i.message}`).join('; ');
    super(`${operation} was not sent: ${list}`);
    this.issues = issues;
  }
}
