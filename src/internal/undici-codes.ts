// The failure codes (undici's and the system's) the SDK tells apart: read here alone, for the
// transport's errors (internal/error-mapping.ts) and a download's body (download.ts) alike.

/** Connection failures that happen before a request byte can have left this process. */
export const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** undici's timeouts: no answer's headers in time, or a body that paused longer than allowed. */
export const TIMEOUT_CODES: ReadonlySet<string> = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** The system or undici code of a failure, looked for down its `cause` chain. */
export function errorCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_SOCKET') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return (error as { code?: string } | undefined)?.code;
}
