// Each entry point is bundled on its own, so an error made in `mediagw/webhooks` comes from
// another copy of this class than the one `mediagw` exports. A registered brand lets
// `instanceof MediaGatewayError` hold across copies.
const BRAND = Symbol.for('mediagw.error');

/**
 * The root of every error the SDK throws, in all three entries: catch it to catch them all.
 * Thrown as itself for a misconfigured client (no key or base URL) and for misuse such as
 * reading a download twice. Kept free of imports so that the `mediagw/webhooks` entry can
 * extend it without pulling in undici or zod.
 *
 * @example
 * try { await client.images.generate(params) }
 * catch (e) { if (e instanceof MediaGatewayError) log.error(e.toJSON()); throw e }
 */
export class MediaGatewayError extends Error {
  /** `instanceof MediaGatewayError` is true for errors of every entry point's copy of the class. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // `this` is the class on the right of instanceof: the base class (the one whose prototype
    // holds the brand) checks the brand, a subclass keeps the ordinary prototype check, reached
    // through `super` (Error's is Function.prototype's, called with `this`). The class is not
    // named here: a class that names itself in its body is built as `class _MediaGatewayError`,
    // and its `name` would be that.
    // biome-ignore lint/complexity/noThisInStatic: see above.
    return Object.hasOwn(this.prototype, BRAND)
      ? (value as Record<symbol, unknown> | null)?.[BRAND] === true
      : // biome-ignore lint/complexity/noThisInStatic: `super` keeps `this`, see above.
        super[Symbol.hasInstance](value);
  }

  /** @internal The brand behind `instanceof` across entry points. */
  get [BRAND](): true {
    return true;
  }

  /** The class name: `'MediaGatewayError'` or the subclass's name. */
  override readonly name: string = 'MediaGatewayError';

  /** A JSON form with no secrets in it: name, message and the error's own public fields. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, message: this.message };
    for (const [key, value] of Object.entries(this)) {
      if (key !== 'cause' && key !== 'headers') out[key] = value;
    }
    return out;
  }
}
