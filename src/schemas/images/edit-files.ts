import { RequestValidationError, type ValidationIssue } from '../../core/errors/validation.js';
import { type ByteReader, type ImageHeader, readImageHeader } from '../../core/image-header.js';

/** A normalised file whose leading bytes can be read (internal/upload-file.ts's `UploadFile`). */
export interface EditFile {
  /** Random access to the file's bytes (for a stream, its first 64 KiB). */
  reader(): ByteReader;
  /** Byte length; `NaN` for a stream of unknown length (only its first bytes can be read). */
  readonly size?: number | undefined;
}

/** The normalised files of an image edit. */
export interface EditFiles {
  /** One file (sent as `image`) or several (sent as `image[]`); the first is the image the mask applies to. */
  image: EditFile | EditFile[];
  /** The mask (`imgmodel-2` only): a PNG with alpha of the first image's size. */
  mask?: EditFile | undefined;
}

const FORMAT_NAMES: Record<ImageHeader['format'], string> = {
  png: 'PNG',
  jpeg: 'JPEG',
  gif: 'GIF',
  webp: 'WebP',
};

/** The formats the gateway takes as image files, as messages name them. */
export const IMAGE_FORMATS_TEXT = 'JPEG, PNG, GIF or WebP';

/**
 * Reads a file's image header through a reader that notes whether a read came back short: for
 * a stream of unknown length that means the walk went past the bytes at hand, not past the end.
 */
async function readHeader(file: EditFile): Promise<{ header: ImageHeader | undefined; partial: boolean }> {
  const inner = file.reader();
  let short = false;
  const header = await readImageHeader({
    read: async (offset, length) => {
      const bytes = await inner.read(offset, length);
      if (bytes.byteLength < length) short = true;
      return bytes;
    },
  });
  return { header, partial: short && !Number.isFinite(file.size) };
}

/**
 * Checks that `file` is an image by its bytes (JPEG, PNG, GIF or WebP) and, with
 * `dimensions: true`, that its width and height can be read from its header (and are not 0);
 * `others` ends the message, saying what is refused. A stream whose
 * header lies past its first 64 KiB is not refused for dimensions: that is left to the gateway.
 * @returns the issue at `path`, or `undefined` when the file passes.
 */
export async function imageFileIssue(
  file: EditFile,
  path: string,
  {
    dimensions = false,
    others = 'an edit takes image files; video, audio and other files are refused',
  }: { dimensions?: boolean; others?: string } = {},
): Promise<ValidationIssue | undefined> {
  if (file.size === 0) return { path, message: `must not be empty: the file has no bytes (${others})` };
  const { header, partial } = await readHeader(file);
  if (!header) {
    return {
      path,
      message: `must be a ${IMAGE_FORMATS_TEXT} image by its bytes; ${others}`,
    };
  }
  if (dimensions && !(header.width && header.height) && !partial) {
    return {
      path,
      message: `must be an image whose dimensions can be read; this ${FORMAT_NAMES[header.format]} file's header gives no width and height (is it cut short or damaged?)`,
    };
  }
  return undefined;
}

/**
 * Checks an upload's file before sending. spec: Image upload — the gateway "checks detected
 * format and readable dimensions": the file must be a JPEG, PNG, GIF or WebP image whose width
 * and height its header gives (a stream's header past its first 64 KiB is left to the gateway).
 * @throws RequestValidationError at `file`.
 */
export async function checkUploadImage(file: EditFile, operation = 'uploads.image'): Promise<void> {
  const issue = await imageFileIssue(file, 'file', {
    dimensions: true,
    others: 'video, audio and other files cannot be uploaded here',
  });
  if (issue) throw new RequestValidationError(operation, [issue]);
}

/**
 * Checks the bytes of an edit's files before sending. Every file in `image` must be a JPEG, PNG,
 * GIF or WebP image by its bytes (not empty). spec: Images, edits — `mask` is an
 * "uploaded PNG with alpha channel, same dimensions as the input". A mask is refused when its
 * header shows it is not a PNG, or a PNG without alpha (colour type other than 4 or 6 and no
 * `tRNS` chunk), or when both headers can be read and the sizes differ. What a header cannot
 * tell (a stream's bytes past its first 64 KiB) is left to the gateway. Every broken rule is
 * named at once.
 *
 * @throws RequestValidationError at `image`, `image[i]` and `mask`.
 */
export async function checkEditFiles(files: EditFiles, operation = 'images.edit'): Promise<void> {
  const { mask } = files;
  const issues: ValidationIssue[] = [];
  const list = Array.isArray(files.image) ? files.image : [files.image];
  const label = (i: number) => (Array.isArray(files.image) ? `image[${i}]` : 'image');
  for (const [i, file] of list.entries()) {
    const issue = await imageFileIssue(file, label(i));
    if (issue) issues.push(issue);
  }
  if (mask) await maskIssues(mask, list[0], label(0), issues);
  if (issues.length > 0) throw new RequestValidationError(operation, issues);
}

/** The mask's issues: a PNG with alpha, of the first image's size. */
async function maskIssues(
  mask: EditFile,
  first: EditFile | undefined,
  label: string,
  issues: ValidationIssue[],
): Promise<void> {
  const maskHeader = await readImageHeader(mask.reader());
  if (maskHeader?.format !== 'png') {
    const what = maskHeader
      ? `a ${FORMAT_NAMES[maskHeader.format]} image`
      : 'not a PNG, JPEG, GIF or WebP image';
    issues.push({ path: 'mask', message: `must be a PNG with an alpha channel; this file is ${what}` });
  } else if (maskHeader.hasAlpha === false) {
    issues.push({
      path: 'mask',
      message:
        'must be a PNG with an alpha channel (transparent pixels mark the area to edit); this PNG has none ' +
        '(colour type without alpha and no tRNS chunk)',
    });
  }
  if (maskHeader?.width !== undefined && maskHeader.height !== undefined && first) {
    const input = await readImageHeader(first.reader());
    if (
      input?.width !== undefined &&
      input.height !== undefined &&
      (input.width !== maskHeader.width || input.height !== maskHeader.height)
    ) {
      issues.push({
        path: 'mask',
        message: `must have the same dimensions as ${label} (${input.width}x${input.height}); the mask is ${maskHeader.width}x${maskHeader.height}`,
      });
    }
  }
}
