import type { APIPromise } from '../core/api-promise.js';
import { checkOptionsArgument } from '../core/arguments.js';
import type { Uploadable } from '../internal/files.js';
import { buildMultipart, imageUploadParts } from '../internal/multipart.js';
import { TIMEOUTS } from '../internal/timeouts.js';
import type { UploadFile } from '../internal/upload-file.js';
import {
  progressFailed,
  reportingProgress,
  splitUploadOptions,
  type UploadOptions,
} from '../internal/upload-progress.js';
import { checkUploadImage } from '../schemas/images/edit-files.js';
import { APIResource } from './resource.js';

export type { UploadOptions, UploadProgress } from '../internal/upload-progress.js';

/** An uploaded image. The URL is public to anyone who knows it and has no guaranteed retention. */
export interface UploadedImage {
  /** Public URL on the service's domain; pass it as a reference in generation requests. */
  url: string;
  /** The file name the upload was sent with. */
  filename: string;
  /** The detected media type, e.g. `image/png`. */
  content_type: string;
  /** Size in bytes. */
  bytes: number;
  /** Unix time. */
  created_at: number;
  /** `X-Service-Request-Id` of the answer (not enumerable). */
  _requestId?: string | undefined;
}

/** Image upload: a local image in, a public URL out (`POST /v1/uploads/images`). */
export class Uploads extends APIResource {
  /**
   * Uploads one image (JPEG, PNG, GIF or WebP, at most 20 MiB), streamed as the part `file`.
   * Uploads carry no generation charge, so this is retried like a management call (only where
   * the gateway provably did not take it). Default timeout 180 s. `options.onProgress` is told
   * the bytes sent, about 10 times a second and once at the end.
   *
   * @throws RequestValidationError before sending when the file is over 20 MiB, its bytes are not
   * an accepted format, or its header gives no width and height (spec: the gateway "checks
   * detected format and readable dimensions"; a stream's header past its first 64 KiB is left to it).
   * @throws InvalidOptionError before sending when `onProgress` is not a function.
   * @throws PayloadTooLargeError when the gateway refuses the size (413); BadRequestError (400)
   * when it refuses what the SDK could not check; RateLimitError (429) per key or IP.
   * @example
   * const { url } = await client.uploads.image(await fileFromPath('./photo.jpg'), {
   *   onProgress: ({ bytes, total }) => console.log(`${bytes} of ${total} bytes sent`),
   * });
   */
  image(file: Uploadable, options?: UploadOptions): APIPromise<UploadedImage> {
    return this.transport.json<UploadedImage>(async () => {
      checkOptionsArgument('uploads.image', options);
      const { onProgress, request } = splitUploadOptions(options);
      const parts = await imageUploadParts(file);
      await checkUploadImage(parts[0]?.[1] as UploadFile, 'uploads.image');
      return {
        method: 'POST',
        path: '/uploads/images',
        stream: reportingProgress(
          (body) => buildMultipart(parts, body),
          onProgress,
          progressFailed(this.transport, 'uploads.image'),
        ),
        retry: 'create',
        // Up to 20 MiB go out within the attempt's deadline: the image figure, not the 60 s one.
        timeout: TIMEOUTS.imageBasic,
        options: request,
      };
    });
  }
}
