import { bytesReader, IMAGE_MIME_TYPES, readImageHeader } from '../../core/image-header.js';
import { MockHttpError } from '../http-error.js';
import type { GatewayState } from '../state/gateway-state.js';
import { pngImage } from '../state/media.js';
import { PART_HEAD_BYTES, type RouteRegistry } from '../types.js';
import { NOT_A_FILE_MESSAGE } from './images-edits.js';

/** spec: Image upload — at most 20 MiB. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

/**
 * Registers `POST /v1/uploads/images`: one file part named `file`, JPEG, PNG, GIF or WebP by its
 * bytes with readable dimensions, at most 20 MiB. Answers the uploaded image resource with a
 * public URL on the media origin (no key needed). The mock keeps only a file's first 64 KiB:
 * a larger upload is served as a generated PNG stand-in of the same dimensions (at most 512 px a side).
 */
export function registerUploadRoutes(router: RouteRegistry, gateway: GatewayState): void {
  router.add(
    'POST',
    '/v1/uploads/images',
    async (ctx) => {
      if (ctx.field('file') !== undefined) {
        throw MockHttpError.spec(400, 'invalid_request', `file: ${NOT_A_FILE_MESSAGE}`);
      }
      const files = ctx.files('file');
      const file = files[0];
      if (!file || files.length > 1 || ctx.files().length > 1) {
        throw MockHttpError.spec(
          400,
          'invalid_request',
          `file: send exactly one file part named file (got ${ctx.files().length} file parts)`,
        );
      }
      // spec: Errors — Image upload over the size limit: 413.
      if (file.size > MAX_UPLOAD_BYTES) {
        throw MockHttpError.spec(
          413,
          'payload_too_large',
          `file: the image is ${file.size} bytes; the limit is 20 MiB (${MAX_UPLOAD_BYTES} bytes)`,
        );
      }
      const head = file.head ?? Buffer.alloc(0);
      const header = await readImageHeader(bytesReader(head));
      if (!header) {
        throw MockHttpError.spec(
          400,
          'invalid_request',
          'file: must be a JPEG, PNG, GIF or WebP image by its bytes; video and audio cannot be uploaded here',
        );
      }
      if (header.width === undefined || header.height === undefined) {
        throw MockHttpError.spec(400, 'invalid_request', 'file: the image dimensions could not be read');
      }
      const complete = file.size <= PART_HEAD_BYTES;
      const contentType = complete ? IMAGE_MIME_TYPES[header.format] : 'image/png';
      const bytes = complete
        ? head
        : pngImage({ width: Math.min(header.width, 512), height: Math.min(header.height, 512) });
      const record = gateway.media.publish({ account: ctx.account.id, contentType, bytes });
      return ctx.json(200, {
        url: record.url,
        filename: file.filename || 'image',
        content_type: IMAGE_MIME_TYPES[header.format],
        bytes: file.size,
        created_at: Math.floor(gateway.clock.now() / 1000),
      });
    },
    { body: 'multipart' },
  );
}
