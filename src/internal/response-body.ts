// The body of an answer: read within maxResponseBytes, and checked to be the JSON object every
// answer of the gateway is.
import { InvalidResponseError, ResponseTooLargeError } from '../core/errors.js';
import { readCapped } from './read-capped.js';
import type { JSONAnswer, RawResponse } from './request-spec.js';

const ignore = () => undefined;

/** Keeps the request ID on the answer's object itself, not enumerable. */
export function withRequestId<T>({ body, requestId }: JSONAnswer<T>): T {
  return keepRequestId(body, requestId);
}

/** Puts `requestId` on `target` as `_requestId`, not enumerable, and returns `target`. */
export function keepRequestId<T>(target: T, requestId: string | undefined): T {
  return Object.defineProperty(target, '_requestId', { value: requestId, enumerable: false });
}

/**
 * Reads an answer's body as text, at most `limit` bytes of it: a larger `content-length` is
 * refused before reading, and any body is cut off once past the limit. Past the limit a 2xx
 * answer throws {@link ResponseTooLargeError}; any other gives a note in place of its body, for
 * the APIError its status calls for. Other failures are thrown as they are, for the caller to map.
 */
export async function readBodyText(operation: string, response: RawResponse, limit: number): Promise<string> {
  const declared = response.headers['content-length'];
  const length = declared === undefined ? Number.NaN : Number(declared);
  try {
    const tooLarge = () =>
      new ResponseTooLargeError(
        `${operation} answered ${response.status} with a body of ${
          length > limit ? `${length} bytes` : `more than ${limit} bytes`
        }, over maxResponseBytes (${limit}); it was not read`,
        response.status,
        response.requestId,
        limit,
      );
    if (length > limit) {
      const error = tooLarge();
      // Destroyed, the body emits the error too: it is thrown here, not left unhandled there.
      response.body.on('error', ignore).destroy(error);
      throw error;
    }
    // Counted as it is read whatever `content-length` says: a body decoded on its way here
    // (gzip undone by a fetch, or by an interceptor of the caller's dispatcher) is longer
    // than the bytes that length counts.
    return await readCapped(response.body, limit, tooLarge);
  } catch (error) {
    // A refusal is known by its status: an oversized error body is dropped, and its APIError
    // says so in place of the gateway's message.
    if (error instanceof ResponseTooLargeError && (response.status < 200 || response.status >= 300)) {
      return `(the body was not read: it passed maxResponseBytes, ${limit} bytes)`;
    }
    throw error;
  }
}

/**
 * The JSON object of an answer's text.
 * @throws InvalidResponseError when the text is not JSON, or is JSON but not an object; the
 * text it quotes is passed through `redact` first.
 */
export function parseJSONObject(
  operation: string,
  response: RawResponse,
  text: string,
  redact: <T>(value: T) => T,
): object {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new InvalidResponseError(
      `${operation} answered ${response.status} with a body that is not JSON: ${redact(text).slice(0, 120)}`,
      response.status,
      response.requestId,
      { cause },
    );
  }
  // spec: Errors — every answer is a JSON object; `null`, an array, a bare string or number is not one.
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidResponseError(
      `${operation} answered ${response.status} with JSON that is not an object: ${redact(text).slice(0, 120)}`,
      response.status,
      response.requestId,
    );
  }
  return value;
}
