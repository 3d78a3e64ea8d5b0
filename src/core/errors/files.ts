// The file helpers' inputs and MediaDownload.saveTo's output.
import { brand, MediaGatewayError } from '../base-error.js';

/**
 * A file helper (`fileFromPath`, `fileFromURL`, `fileFromBase64`, or an `fs.ReadStream` given
 * as a file) could not make a file of its input: a path that cannot be read or is not a regular
 * file, a URL that is malformed, not `http(s):` or could not be downloaded, text that is not
 * base64. Nothing was sent and nothing is left on disk. Repeating the call with the same input
 * fails the same way, unless the file or server it names changes.
 *
 * @example
 * try { await fileFromPath('missing.png') }
 * catch (e) { if (e instanceof FileInputError) console.log(e.input, e.code) } // 'missing.png' 'ENOENT'
 */
export class FileInputError extends MediaGatewayError {
  /** Always `'FileInputError'`. */
  declare readonly name: 'FileInputError';
  /** What refused the input: `fileFromPath`, `fileFromURL`, `fileFromBase64`, or the operation. */
  declare readonly helper: string;
  /**
   * The input as the message shows it: the path, the URL without its query, fragment or
   * credentials (a presigned URL's signature stays out), or the start of the text.
   */
  declare readonly input: string;
  /** The system error code behind it (`ENOENT`, `EISDIR`, `EACCES`, ...), when there is one. */
  declare readonly code: string | undefined;

  /**
   * @param helper - what refused the input; starts the message.
   * @param input - the input as it may be shown (no secrets); control characters are escaped
   * (`\x0a`) in the message.
   * @param reason - what is wrong with it, in words.
   * @param options - `cause`: the underlying error.
   */
  constructor(helper: string, input: string, reason: string, options?: { cause?: unknown }) {
    super(`${helper}: "${printable(input)}" ${reason}`, options);
    this.helper = helper;
    this.input = input;
    this.code = systemCode(options?.cause);
  }
}

/**
 * `MediaDownload.saveTo` could not write the file: the folder is missing or cannot be written,
 * the path names a folder, or a write failed (disk full). When it is raised before any byte
 * was written (a missing folder, a folder as the target), the download is still unread and
 * can be saved elsewhere. Never retried: repeating the same write fails the same way.
 *
 * @example
 * try { await video.saveTo('/missing/dir/video.mp4') }
 * catch (e) { if (e instanceof FileWriteError) await video.saveTo('./video.mp4') }
 */
export class FileWriteError extends MediaGatewayError {
  /** Always `'FileWriteError'`. */
  declare readonly name: 'FileWriteError';
  /** The path that was to be written, as given. */
  declare readonly path: string;
  /** The system error code behind it (`ENOENT`, `EISDIR`, `ENOSPC`, ...), when there is one. */
  declare readonly code: string | undefined;
  /** Whether the download is still unread, so `saveTo` can be called again with another path. */
  declare readonly unread: boolean;

  /**
   * @param path - the path that was to be written; control characters are escaped in the message.
   * @param reason - what failed, in words.
   * @param init - `unread`: whether the body is still unread; `cause`: the `fs` error.
   */
  constructor(path: string, reason: string, init: { unread: boolean; cause?: unknown }) {
    super(
      `saveTo: "${printable(path)}" ${reason}${init.unread ? '; nothing was read from the download, which can be saved elsewhere' : ''}`,
      { cause: init.cause },
    );
    this.path = path;
    this.code = systemCode(init.cause);
    this.unread = init.unread;
  }
}

brand({ FileInputError, FileWriteError });

/** Text with its control characters escaped (`\x0a`), so a path or URL cannot forge log lines. */
function printable(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
  return text.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

function systemCode(cause: unknown): string | undefined {
  const code = (cause as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}
