/**
 * The redactor's names at the path they had before it moved to core/redact.ts, where it is
 * defined once, below every layer that uses it. Nothing is defined here; the SDK's own modules
 * import core/redact.ts.
 */
export {
  createRedactor,
  isSecretName,
  KEY_REDACTED_EVERYWHERE,
  MAX_DEPTH,
  maskKey,
  REDACTED,
  redactText,
  TOO_DEEP,
} from '../core/redact.js';
