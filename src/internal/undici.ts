/** undici, loaded on first use, and its answers' headers as the SDK reads them. */

let undiciModule: Promise<typeof import('undici')> | undefined;
let undiciLoaded: typeof import('undici') | undefined;
/** undici is loaded on the first request, so importing the SDK stays cheap. */
export function loadUndici(): Promise<typeof import('undici')> {
  undiciModule ??= import('undici').then((undici) => {
    undiciLoaded = undici;
    return undici;
  });
  return undiciModule;
}

/** undici once loaded: later requests take it without waiting a turn of the event loop. */
export function undiciIfLoaded(): typeof import('undici') | undefined {
  return undiciLoaded;
}

/** An answer's headers with one string each: a repeated header's values joined with `, `. */
export function flattenHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  // undici's request API lower-cases every header name (whatever the dispatcher); only a repeated
  // header comes as a list.
  let flat = true;
  for (const key in headers) {
    if (typeof headers[key] !== 'string') {
      flat = false;
      break;
    }
  }
  if (flat) return headers as Record<string, string>;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value !== undefined) out[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
