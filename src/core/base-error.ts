/**
 * The key of every error class's brand: a static property holding the class's name, written out
 * in its body (a bundler may rename the class itself). Registered with `Symbol.for`, so that
 * every copy of the SDK reads the same key: each entry point is bundled on its own, in an ESM
 * and a CommonJS build, so an application that `import`s one entry and `require`s another holds
 * several copies of each class.
 *
 * @internal
 */
export const ERROR_BRAND: unique symbol = Symbol.for('mediagw.error');

/**
 * The root of every error the SDK throws, in all three entries: catch it to catch them all.
 * Thrown as itself for a misconfigured client (no key or base URL) and for misuse such as
 * reading a download twice. Kept free of imports so that the `mediagw/webhooks` entry can
 * extend it without pulling in undici or zod.
 *
 * `instanceof` holds across copies of the SDK (an entry's ESM and CommonJS builds, and the copy
 * each entry point carries): an error is an instance of any class, from any copy, whose brand
 * one of its own classes carries.
 *
 * @example
 * try { await client.images.generate(params) }
 * catch (e) { if (e instanceof MediaGatewayError) log.error(e.toJSON()); throw e }
 */
export class MediaGatewayError extends Error {
  /** @internal This class's brand; each subclass the SDK exports has its own (see {@link brand}). */
  static readonly [ERROR_BRAND]: string = 'MediaGatewayError';

  /**
   * `value instanceof C` is true when a prototype in `value`'s chain belongs to a class with
   * `C`'s brand, whichever copy of the SDK either comes from. Inherited by every subclass: `this`
   * is the class on the right of `instanceof`. Never throws: a value whose chain cannot be read
   * (a revoked Proxy, a throwing `getPrototypeOf` trap) is no instance.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: the class tested against, see above.
    const brand = Object.hasOwn(this, ERROR_BRAND) && this[ERROR_BRAND];
    try {
      // From the class of `value`'s prototype (a `constructor` of `value`'s own proves nothing)
      // up through the classes it extends (a class's prototype is the class it extends). A
      // class that inherits its brand stands below the class it inherits it from, so reading
      // brands through inheritance finds nothing the walk would not find further up.
      for (
        let type = brand && (Object.getPrototypeOf(value) as Branded).constructor;
        type;
        type = Object.getPrototypeOf(type)
      )
        if ((type as Branded)[ERROR_BRAND] === brand) return true;
    } catch {
      // `null` or `undefined`, a prototype whose `constructor` getter throws, or a Proxy whose
      // trap does.
    }
    // A class without a brand of its own (made inside the SDK or by a user) keeps the ordinary
    // prototype check, reached through `super` (Error's is Function.prototype's, called with
    // `this`). The class is not named here: a class that names itself in its body is built as
    // `class _MediaGatewayError`, and its `name` would be that.
    // biome-ignore lint/complexity/noThisInStatic: `super` keeps `this`, see above.
    return !brand && super[Symbol.hasInstance](value);
  }

  /**
   * The class name: `'MediaGatewayError'` or the subclass's name, read from the brand (a class
   * the SDK does not export has the name of the exported class it extends).
   */
  override readonly name: string = (this.constructor as typeof MediaGatewayError)[ERROR_BRAND];

  /**
   * The task this failure concerns, when a task exists: set on the wait errors
   * (`TaskFailedError`, `WaitTimeoutError`, ...) and on every error
   * `videos.createAndWait` throws after its submission was accepted, whatever its class (an
   * abort, a poll that failed for good). The task is billed and was not resubmitted: wait for
   * it again with `waitForTask(error.taskId)`.
   */
  declare readonly taskId?: string | undefined;

  /** A JSON form with no secrets in it: name, message and the error's own public fields. */
  toJSON(): Record<string, unknown> {
    // `cause` and `headers` may hold what the SDK never prints (a request's key, a signed URL).
    const { cause: _cause, headers: _headers, ...fields } = this as Record<string, unknown>;
    return { name: this.name, message: this.message, ...fields };
  }
}

/**
 * Gives each class the SDK exports its brand and its public name: the key it is listed under, a
 * string a bundler does not rename (a minifier renames the class itself, and util.inspect
 * prints an error by its class's name). One call per file of error classes, after them:
 * `brand({ NotFoundError, ConflictError })`, so that a subclass is only what it adds.
 *
 * The classes the small entries carry (this one, `InvalidOptionError`, `QueueTimeoutError`,
 * `WebhookVerificationError`, `RedisUnavailableError`) write their brand as a static field
 * instead: this function and its calls cost `mediagw/webhooks` and `mediagw/redis` bytes
 * (about 20 and 30 min+gz) that their size budgets do not have.
 *
 * @internal
 */
export function brand(classes: Record<string, ErrorClass>): void {
  for (const name in classes) {
    const type = classes[name] as ErrorClass;
    // An assignment, as a static field would make it: own, writable and enumerable.
    (type as Branded)[ERROR_BRAND] = name;
    Object.defineProperty(type, 'name', { value: name });
  }
}

/**
 * Names classes the SDK throws but does not export after the exported class they extend, whose
 * brand they inherit: util.inspect (console.log) prints an error by its class's name, and the
 * error is thrown as that public class.
 *
 * @internal
 */
export function nameAsBranded(...types: ErrorClass[]): void {
  for (const type of types) Object.defineProperty(type, 'name', { value: (type as Branded)[ERROR_BRAND] });
}

/** A class of errors, whatever its constructor takes. */
type ErrorClass = abstract new (...args: never[]) => MediaGatewayError;

/** A value or class that may carry a brand. */
interface Branded {
  [ERROR_BRAND]?: unknown;
  constructor?: unknown;
}
