/**
 * Reads an image's format, dimensions and (for PNG and WebP) alpha channel from its first bytes,
 * without decoding pixels. Segment walks (PNG chunks, JPEG markers) jump from header to header,
 * so a large metadata block does not have to be read.
 */

/** The image formats the gateway accepts (spec: Image upload — JPEG, PNG, GIF, WebP). */
export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

/** MIME type of each {@link ImageFormat}. */
export const IMAGE_MIME_TYPES: Readonly<Record<ImageFormat, string>> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** What the header of an image says. A field is `undefined` when the bytes at hand do not tell. */
export interface ImageHeader {
  /** `png`, `jpeg`, `gif` or `webp`. */
  format: ImageFormat;
  /** Width in pixels. */
  width?: number | undefined;
  /** Height in pixels. */
  height?: number | undefined;
  /** PNG: colour type 4 or 6, or a `tRNS` chunk before `IDAT`. WebP: the alpha flag. JPEG: always false. */
  hasAlpha?: boolean | undefined;
}

/**
 * Random access to the bytes of a file. `read` may return fewer bytes than asked at the end of the
 * file, or when only part of the file is available (a stream's peeked head).
 */
export interface ByteReader {
  /** Reads up to `length` bytes from `offset`. */
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** Enough bytes to tell the four formats apart. */
export const SNIFF_BYTES = 32;

// Headers are small and mostly adjacent; a jump over a large segment costs one small read.
const WINDOW = 4 * 1024;
// Walks stop after this many segments: a hostile or corrupt file cannot keep the loop going.
const MAX_SEGMENTS = 4096;

/** The format named by the magic bytes at the start of `bytes`, if it is one of the four. */
export function sniffImageFormat(bytes: Uint8Array): ImageFormat | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') return 'gif';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return 'webp';
  return undefined;
}

/** A {@link ByteReader} over bytes already in memory. */
export function bytesReader(bytes: Uint8Array): ByteReader {
  return { read: async (offset, length) => bytes.subarray(offset, offset + length) };
}

/**
 * A {@link ByteReader} over a Blob that reads 4 KiB windows with `blob.slice()`, so a walk over
 * small headers costs few reads and a file-backed Blob is never read whole.
 */
export function blobReader(blob: Pick<Blob, 'slice' | 'size'>): ByteReader {
  let start = 0;
  let cached = new Uint8Array(0);
  return {
    async read(offset, length) {
      if (offset < start || offset + length > start + cached.byteLength) {
        start = offset;
        const end = Math.min(blob.size, offset + Math.max(length, WINDOW));
        cached = new Uint8Array(await blob.slice(offset, end).arrayBuffer());
      }
      return cached.subarray(offset - start, offset - start + length);
    },
  };
}

/** Reads the header of the image behind `reader`; `undefined` when it is not PNG, JPEG, GIF or WebP. */
export async function readImageHeader(reader: ByteReader): Promise<ImageHeader | undefined> {
  const head = await reader.read(0, SNIFF_BYTES);
  const format = sniffImageFormat(head);
  switch (format) {
    case 'png':
      return readPng(reader);
    case 'jpeg':
      return readJpeg(reader);
    case 'gif':
      return { format, width: u16le(head, 6), height: u16le(head, 8) };
    case 'webp':
      return readWebp(reader);
    default:
      return undefined;
  }
}

// PNG: signature, then chunks of length(4) type(4) data crc(4); IHDR comes first.
async function readPng(reader: ByteReader): Promise<ImageHeader> {
  const ihdr = await reader.read(8, 8 + 13);
  if (ihdr.byteLength < 21 || ascii(ihdr, 4, 4) !== 'IHDR') return { format: 'png' };
  const header: ImageHeader = { format: 'png', width: u32be(ihdr, 8), height: u32be(ihdr, 12) };
  const colorType = ihdr[8 + 9];
  if (colorType === 4 || colorType === 6) return { ...header, hasAlpha: true };
  // Colour types 0, 2 and 3 carry alpha only through a tRNS chunk, which precedes IDAT.
  let offset = 8;
  for (let i = 0; i < MAX_SEGMENTS; i++) {
    const chunk = await reader.read(offset, 8);
    if (chunk.byteLength < 8) return header;
    const type = ascii(chunk, 4, 4);
    if (type === 'tRNS') return { ...header, hasAlpha: true };
    if (type === 'IDAT' || type === 'IEND') return { ...header, hasAlpha: false };
    offset += 12 + u32be(chunk, 0);
  }
  return header;
}

// JPEG: markers FF xx; SOFn carries precision(1) height(2) width(2) after its length.
const SOF_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);
const STANDALONE_MARKERS = new Set([0x01, 0xd0, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8]);

async function readJpeg(reader: ByteReader): Promise<ImageHeader> {
  let offset = 2;
  for (let i = 0; i < MAX_SEGMENTS; i++) {
    const bytes = await reader.read(offset, 9);
    if (bytes.byteLength < 2 || bytes[0] !== 0xff) break;
    const marker = bytes[1] as number;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (STANDALONE_MARKERS.has(marker)) {
      offset += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) break; // end of image, or scan data before any frame
    if (bytes.byteLength < 4) break;
    if (SOF_MARKERS.has(marker)) {
      if (bytes.byteLength < 9) break;
      return { format: 'jpeg', width: u16be(bytes, 7), height: u16be(bytes, 5), hasAlpha: false };
    }
    offset += 2 + u16be(bytes, 2);
  }
  return { format: 'jpeg', hasAlpha: false };
}

// WebP: RIFF header, then a VP8 (lossy), VP8L (lossless) or VP8X (extended) chunk at offset 12.
async function readWebp(reader: ByteReader): Promise<ImageHeader> {
  const b = await reader.read(0, 30);
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8 ' && b.byteLength >= 30) {
    return { format: 'webp', width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff, hasAlpha: false };
  }
  if (chunk === 'VP8L' && b.byteLength >= 25 && b[20] === 0x2f) {
    const bits = u32le(b, 21);
    return {
      format: 'webp',
      width: (bits & 0x3fff) + 1,
      height: ((bits >>> 14) & 0x3fff) + 1,
      hasAlpha: ((bits >>> 28) & 1) === 1,
    };
  }
  if (chunk === 'VP8X' && b.byteLength >= 30) {
    return {
      format: 'webp',
      width: u24le(b, 24) + 1,
      height: u24le(b, 27) + 1,
      hasAlpha: ((b[20] as number) & 0x10) !== 0,
    };
  }
  return { format: 'webp' };
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.byteLength >= prefix.length && prefix.every((byte, i) => bytes[i] === byte);
}

function ascii(bytes: Uint8Array, offset: number, length: number): string {
  if (bytes.byteLength < offset + length) return '';
  return String.fromCharCode(...bytes.subarray(offset, offset + length));
}

const at = (b: Uint8Array, i: number): number => b[i] ?? 0;
const u16be = (b: Uint8Array, i: number): number => (at(b, i) << 8) | at(b, i + 1);
const u16le = (b: Uint8Array, i: number): number => at(b, i) | (at(b, i + 1) << 8);
const u24le = (b: Uint8Array, i: number): number => at(b, i) | (at(b, i + 1) << 8) | (at(b, i + 2) << 16);
const u32be = (b: Uint8Array, i: number): number =>
  ((at(b, i) << 24) | (at(b, i + 1) << 16) | (at(b, i + 2) << 8) | at(b, i + 3)) >>> 0;
const u32le = (b: Uint8Array, i: number): number =>
  (at(b, i) | (at(b, i + 1) << 8) | (at(b, i + 2) << 16) | (at(b, i + 3) << 24)) >>> 0;
