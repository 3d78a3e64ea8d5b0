import { RequestValidationError, type ValidationIssue } from '../core/errors/validation.js';
import { type ByteReader, type ImageHeader, readImageHeader } from '../core/image-header.js';

/** A normalised file whose leading bytes can be read (internal/upload-file.ts's `UploadFile`). */
export interface EditFile {
  /** Random access to the file's bytes (for a stream, its first 64 KiB). */
  reader(): ByteReader;
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

/**
 * Checks the bytes of an edit's files before sending. spec: Images, edits — `mask` is an
 * "uploaded PNG with alpha channel, same dimensions as the input". A mask is refused when its
 * header shows it is not a PNG, or a PNG without alpha (colour type other than 4 or 6 and no
 * `tRNS` chunk), or when both headers can be read and the sizes differ. What a header cannot
 * tell (a stream's bytes past its first 64 KiB, an unknown format of the input) is left to the gateway.
 *
 * @throws RequestValidationError at `mask`, naming the input as `image` or `image[0]`.
 */
export async function checkEditFiles(files: EditFiles, operation = 'images.edit'): Promise<void> {
  const { mask } = files;
  if (!mask) return;
  const issues: ValidationIssue[] = [];
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
  const [first, label] = Array.isArray(files.image) ? [files.image[0], 'image[0]'] : [files.image, 'image'];
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
  if (issues.length > 0) throw new RequestValidationError(operation, issues);
}
