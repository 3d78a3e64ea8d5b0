/**
 * The root of every error the SDK throws. Kept free of imports so that the
 * `mediagw/webhooks` entry can extend it without pulling in undici or zod.
 */
export class MediaGatewayError extends Error {
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
