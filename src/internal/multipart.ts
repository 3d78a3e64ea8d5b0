import type { FileLike, FormDataEncoder } from 'form-data-encoder';
import { cutOffRequest, RequestValidationError } from '../core/errors/validation.js';
import { SNIFF_BYTES, sniffImageFormat } from '../core/image-header.js';
import { checkEditFiles } from '../schemas/images/edit-files.js';
import type { ImageEditAsyncParams, ImageEditParams } from '../schemas/images/types.js';
import { type StreamOptions, toUploadFile, UploadFile } from './upload-file.js';

/** One multipart part: a text value or a file. Parts are sent in array order. */
export type MultipartField = readonly [name: string, value: string | FileLike];

/** A streamed multipart body and the headers the encoder computed for it. */
export interface MultipartBody {
  /** The encoded body, produced chunk by chunk as it is consumed (never assembled in memory). */
  body: AsyncIterable<Uint8Array>;
  /** `content-type` (with the encoder's boundary) and, when every part's size is known, `content-length`. */
  headers: Record<string, string>;
}

/**
 * Encodes `fields` as `multipart/form-data` with formdata-node and form-data-encoder. The boundary
 * and `Content-Type` come from the encoder; `Content-Length` is set only when every part's size is
 * known (a stream of unknown length leaves it out and the body is sent chunked).
 * Call it once per attempt: each call reads the files anew. `options.reuseChunks` is for a body
 * that only undici's socket writer consumes (see `writesOnlyToSockets`).
 */
export async function buildMultipart(
  fields: readonly MultipartField[],
  options: StreamOptions = {},
): Promise<MultipartBody> {
  const [{ FormDataEncoder }, { FormData }] = await loadEncoders();
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  const encoder = new FormDataEncoder(form);
  // spec: Endpoints — "For multipart bodies the client library must generate the content type and boundary".
  const headers: Record<string, string> = { 'content-type': encoder.contentType };
  if (encoder.contentLength !== undefined) headers['content-length'] = encoder.contentLength;
  return { body: encode(encoder, options), headers };
}

let encoders: Promise<[typeof import('form-data-encoder'), typeof import('formdata-node')]> | undefined;

/** The multipart libraries, loaded with the first upload rather than with `mediagw`. */
function loadEncoders() {
  encoders ??= Promise.all([import('form-data-encoder'), import('formdata-node')]);
  return encoders;
}

/**
 * The encoder's parts in order, a file's chunks passed on as its stream yields them. The same
 * bytes as `encoder.encode()`, through one generator instead of three nested ones: a large upload
 * is tens of thousands of chunks, and each layer adds a promise and an iterator result to each.
 */
async function* encode(
  encoder: FormDataEncoder,
  options: StreamOptions,
): AsyncGenerator<Uint8Array, void, undefined> {
  for (const part of encoder.values()) {
    if (part instanceof Uint8Array) yield part;
    else if (part instanceof UploadFile) yield* part.stream(options);
    else yield* part.stream() as AsyncIterable<Uint8Array>;
  }
}

/**
 * The text of a non-file field: strings as they are, numbers and booleans in JSON notation,
 * objects and arrays as a JSON string; `undefined` and `null` are left out.
 */
export function toTextPart(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return JSON.stringify(value);
}

/**
 * The parts of an image edit, files normalised and checked: every text field first (`model`,
 * `prompt`, `n`, ... in the caller's order; `notifications` as one JSON-string part;
 * `client_reference_id` its own part), then one file as part `image` or several as repeated
 * `image[]` parts in the caller's order, then `mask`.
 *
 * @throws RequestValidationError at `image`, `image[i]` or `mask` for something that is not a
 * file, or a mask that is not a PNG with alpha of the input's size (see `checkEditFiles`).
 */
export async function imageEditParts(
  params: ImageEditParams | ImageEditAsyncParams,
  operation: string,
): Promise<MultipartField[]> {
  const { image, mask, ...rest } = params;
  const list = Array.isArray(image) ? image : [image];
  const images = await Promise.all(
    list.map((file, i) => toUploadFile(file, Array.isArray(image) ? `image[${i}]` : 'image', operation)),
  );
  const maskFile = mask === undefined ? undefined : await toUploadFile(mask, 'mask', operation);
  await checkEditFiles(
    { image: Array.isArray(image) ? images : (images[0] as UploadFile), mask: maskFile },
    operation,
  );
  const parts: MultipartField[] = [];
  for (const [name, value] of Object.entries(rest)) {
    const text = toTextPart(value);
    if (text !== undefined) parts.push([name, text]);
  }
  // spec: Images, edits — one file in part `image`, several in repeated `image[]` in prompt order.
  const imageField = images.length === 1 ? 'image' : 'image[]';
  for (const file of images) parts.push([imageField, file]);
  if (maskFile) parts.push(['mask', maskFile]);
  return parts;
}

/** spec: Image upload — at most 20 MiB. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
const UPLOAD_FORMATS = 'JPEG, PNG, GIF or WebP';

/**
 * The single `file` part of an image upload, refused before sending when it is over 20 MiB or its
 * bytes are not JPEG, PNG, GIF or WebP. A stream of unknown length is cut off once it passes
 * 20 MiB, with the same error, whose message says how many bytes had gone out.
 *
 * @throws RequestValidationError at `file`.
 */
export async function imageUploadParts(
  value: unknown,
  operation = 'uploads.image',
): Promise<MultipartField[]> {
  const file = await toUploadFile(value, 'file', operation);
  const refuse = (message: string) => new RequestValidationError(operation, [{ path: 'file', message }]);
  if (file.size > MAX_UPLOAD_BYTES) {
    throw refuse(`must be at most 20 MiB (${MAX_UPLOAD_BYTES} bytes); it has ${file.size} bytes`);
  }
  const head = await file.reader().read(0, SNIFF_BYTES);
  if (!sniffImageFormat(head)) {
    throw refuse(
      `must be a ${UPLOAD_FORMATS} image by its bytes; video, audio and other files cannot be uploaded here`,
    );
  }
  const sized = Number.isNaN(file.size)
    ? file.withLimit(MAX_UPLOAD_BYTES, (sent) =>
        cutOffRequest(
          operation,
          [{ path: 'file', message: `must be at most 20 MiB (${MAX_UPLOAD_BYTES} bytes)` }],
          `${sent} bytes of the file had been sent`,
          'Nothing was uploaded, and uploads are not billed: send a file of at most 20 MiB.',
        ),
      )
    : file;
  return [['file', sized]];
}
