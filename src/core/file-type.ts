import {
  type ByteReader,
  IMAGE_MIME_TYPES,
  type ImageFormat,
  SNIFF_BYTES,
  sniffImageFormat,
} from './image-header.js';

/** The type of bytes whose kind is unknown. */
export const OCTET_STREAM = 'application/octet-stream';
const EXTENSIONS: Record<ImageFormat, string> = { png: 'png', jpeg: 'jpg', gif: 'gif', webp: 'webp' };

/** The MIME type named by the magic bytes, if the file is PNG, JPEG, GIF or WebP. */
export async function sniffType(reader: ByteReader): Promise<string | undefined> {
  const format = sniffImageFormat(await reader.read(0, SNIFF_BYTES));
  return format ? IMAGE_MIME_TYPES[format] : undefined;
}

/** `image.<ext>` for a known image format, else `file`. */
export function defaultName(format: ImageFormat | undefined): string {
  return format ? `image.${EXTENSIONS[format]}` : 'file';
}

/** {@link defaultName} by MIME type. */
export function defaultNameForType(type: string): string {
  const format = (Object.keys(IMAGE_MIME_TYPES) as ImageFormat[]).find((f) => IMAGE_MIME_TYPES[f] === type);
  return defaultName(format);
}
