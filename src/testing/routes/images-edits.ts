import { RequestValidationError } from '../../core/errors/validation.js';
import { sniffImageFormat } from '../../core/image-header.js';
import { toUploadFile } from '../../internal/upload-file.js';
import { editFieldFromText } from '../../schemas/images/edit-fields.js';
import { checkEditFiles } from '../../schemas/images/edit-files.js';
import { imageEditAsyncSchema, imageEditSchema } from '../../schemas/images/requests.js';
import { MockHttpError, validationError } from '../http-error.js';
import type { ReceivedPart, RequestContext } from '../types.js';

/** spec: Images, edits — the message for a URL or base64 text sent where a file belongs. */
export const NOT_A_FILE_MESSAGE =
  'URLs or base64 text are not accepted as the file; decode or download them and upload the bytes';

const FILE_FIELDS = new Set(['image', 'image[]', 'mask']);

/** A multipart edit as the mock understood it. */
export interface EditRequest {
  /** Text fields, decoded as the SDK's edit schemas read them (`editFieldFromText`). */
  fields: Record<string, unknown>;
  /** The input files, in the order received. */
  images: ReceivedPart[];
  /** The mask file, when one was sent. */
  mask: ReceivedPart | undefined;
}

function invalid(message: string): MockHttpError {
  return MockHttpError.spec(400, 'invalid_request', message);
}

/** Text parts as a record: the last value of a repeated name wins; each decoded by the shared rule. */
function textFields(parts: readonly ReceivedPart[]): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const part of parts) {
    if (part.filename !== undefined) continue;
    fields[part.name] = editFieldFromText(part.name, part.value ?? '');
  }
  return fields;
}

/**
 * Reads and checks the parts of `POST /v1/images/edits[/async]` with the SDK's own edit schema
 * (the files stand in as their first bytes) and mask check. Refuses, with 400 `invalid_request`:
 * a URL or base64 text in a file field, no input file, an empty or non-image file, a `mask`
 * with an `imgmodel-2.5-*` model, a mask that is not a PNG with alpha of the input's size, and
 * every field rule of the schema.
 */
export async function readEditRequest(ctx: RequestContext<unknown>, async: boolean): Promise<EditRequest> {
  const text = ctx.parts.find((p) => p.filename === undefined && FILE_FIELDS.has(p.name));
  if (text) throw invalid(`${text.name}: ${NOT_A_FILE_MESSAGE}`);
  const images = ctx.parts.filter(
    (p) => p.filename !== undefined && (p.name === 'image' || p.name === 'image[]'),
  );
  const mask = ctx.files('mask').at(-1);
  if (images.length === 0) {
    throw invalid(
      'image: is required: upload the input image as a file part named image (several as repeated image[] parts)',
    );
  }
  const asList = images.length > 1 || images[0]?.name === 'image[]';
  const label = (i: number) => (asList ? `image[${i}]` : 'image');
  for (const [i, part] of images.entries()) {
    if (part.size === 0) throw invalid(`${label(i)}: the file is empty`);
    if (!sniffImageFormat(part.head ?? Buffer.alloc(0))) {
      throw invalid(`${label(i)}: must be a PNG, JPEG, GIF or WebP image by its bytes`);
    }
  }
  const fields = textFields(ctx.parts);
  const heads = images.map((p) => p.head ?? Buffer.alloc(0));
  const params: Record<string, unknown> = { ...fields, image: asList ? heads : heads[0] };
  if (mask) params.mask = mask.head ?? Buffer.alloc(0);
  ctx.validate(async ? imageEditAsyncSchema : imageEditSchema, params);
  if (mask) {
    const operation = async ? 'images.editAsync' : 'images.edit';
    const files = await Promise.all(heads.map((head, i) => toUploadFile(head, label(i), operation)));
    try {
      await checkEditFiles(
        {
          image: asList ? files : files[0]!,
          mask: await toUploadFile(mask.head ?? Buffer.alloc(0), 'mask', operation),
        },
        operation,
      );
    } catch (error) {
      if (error instanceof RequestValidationError) throw validationError(error.issues);
      throw error;
    }
  }
  return { fields, images, mask };
}
