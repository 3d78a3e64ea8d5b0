// The options every file helper takes, and their check.
import { InvalidOptionError } from '../core/options.js';

/** Name and type for a file helper. */
export interface FileOptions {
  /** Filename sent in the multipart part. @default the path's basename, or `image.<ext>` by type */
  filename?: string | undefined;
  /** MIME type. @default sniffed from the magic bytes (PNG, JPEG, GIF, WebP), else the source's own */
  contentType?: string | undefined;
}

/**
 * The options object of a file helper, checked before anything is read or sent: an object or
 * nothing, whose `filename` and `contentType` are text when given.
 *
 * @throws InvalidOptionError naming the option.
 */
export function checkFileOptions<T extends FileOptions>(options: T | undefined): T {
  if (options === undefined) return {} as T;
  if (options === null || typeof options !== 'object') {
    throw new InvalidOptionError('options', options, 'an object of options, or left out');
  }
  for (const name of ['filename', 'contentType'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'string') {
      throw new InvalidOptionError(name, options[name], 'a string');
    }
  }
  return options;
}
