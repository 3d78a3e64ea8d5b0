/**
 * Removes a secret from everything an error or a log line carries. The key is replaced
 * wherever it appears, whole, so that no message, stack, body or cause can leak it.
 */
export function createRedactor(secret: string): <T>(value: T) => T {
  const marker = '[redacted]';
  const scrub = (text: string) => (secret && text.includes(secret) ? text.split(secret).join(marker) : text);
  const walk = (value: unknown, seen: WeakSet<object>, depth: number): unknown => {
    if (typeof value === 'string') return scrub(value);
    if (!value || typeof value !== 'object' || depth > 20 || seen.has(value)) return value;
    seen.add(value);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) value[i] = walk(value[i], seen, depth + 1);
      return value;
    }
    if (value instanceof Error) {
      const error = value as Error & { cause?: unknown };
      for (const key of ['message', 'stack'] as const) {
        const text = error[key];
        if (typeof text === 'string' && text.includes(secret)) {
          Object.defineProperty(error, key, { value: scrub(text), configurable: true, writable: true });
        }
      }
      if (error.cause !== undefined) walk(error.cause, seen, depth + 1);
    }
    // Own properties, hidden ones too (an APIError keeps its headers non-enumerable).
    for (const key of Object.getOwnPropertyNames(value)) {
      if (value instanceof Error && (key === 'message' || key === 'stack')) continue;
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      if (!descriptor || !('value' in descriptor)) continue;
      const next = walk(descriptor.value, seen, depth + 1);
      if (next !== descriptor.value && (descriptor.writable || descriptor.configurable)) {
        Object.defineProperty(value, key, { ...descriptor, value: next });
      }
    }
    return value;
  };
  return <T>(value: T): T => (secret ? (walk(value, new WeakSet(), 0) as T) : value);
}

/** Shows that a key is set without showing it: `mgw_…9f2c`. */
export function maskKey(key: string): string {
  return key.length <= 8 ? '…' : `${key.slice(0, 4)}…${key.slice(-4)}`;
}
