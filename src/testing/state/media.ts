import { Readable } from 'node:stream';
import { deflateSync } from 'node:zlib';
import { TINY_MP4_BASE64 } from './media-fixtures.js';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** Options of {@link pngImage}. */
export interface PngOptions {
  /** @default 64 */
  width?: number | undefined;
  /** @default 64 */
  height?: number | undefined;
  /** Picks the blue channel, so different tasks get visibly different images. @default 0 */
  seed?: number | undefined;
}

/**
 * A real RGBA PNG: a red/green gradient whose blue channel comes from `seed`. Any image
 * reader opens it.
 *
 * @example
 * const png = pngImage({ seed: 7 }); // 64x64
 */
export function pngImage(options: PngOptions = {}): Buffer {
  const width = options.width ?? 64;
  const height = options.height ?? 64;
  const blue = ((options.seed ?? 0) * 67 + 40) & 0xff;
  const rows = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 4 + 1);
    rows[row] = 0; // filter type: none
    for (let x = 0; x < width; x++) {
      const at = row + 1 + x * 4;
      rows[at] = Math.round((x / Math.max(1, width - 1)) * 255);
      rows[at + 1] = Math.round((y / Math.max(1, height - 1)) * 255);
      rows[at + 2] = blue;
      rows[at + 3] = 255;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit depth, RGBA, deflate, adaptive filters, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

let mp4: Buffer | undefined;

/** A real MP4: 1 second, 64x36, H.264 with an AAC track, about 4 KB. A copy per call. */
export function mp4Video(): Buffer {
  mp4 ??= Buffer.from(TINY_MP4_BASE64, 'base64');
  return Buffer.from(mp4);
}

/** The byte {@link largeBody} sends at `offset`, so a reader can check what it got. */
export function largeBodyByteAt(offset: number, seed = 0): number {
  return (offset + seed) & 0xff;
}

const LARGE_CHUNK = 64 * 1024;

/**
 * A stream of `bytes` deterministic bytes (byte `i` is `largeBodyByteAt(i, seed)`), made as it
 * is read in 64 KiB chunks: hundreds of megabytes cost no memory. Respects backpressure.
 *
 * @example
 * gateway.media.publish({ account: 'acct_1', contentType: 'video/mp4', size: 500e6, generator: () => largeBody(500e6) });
 */
export function largeBody(bytes: number, seed = 0): Readable {
  if (!(bytes >= 0) || !Number.isSafeInteger(bytes))
    throw new RangeError('largeBody(): bytes must be a whole number >= 0');
  // The pattern repeats every 256 bytes, and a chunk is a multiple of 256: one template serves all.
  const template = Buffer.alloc(LARGE_CHUNK);
  for (let i = 0; i < LARGE_CHUNK; i++) template[i] = largeBodyByteAt(i, seed);
  let sent = 0;
  return new Readable({
    highWaterMark: LARGE_CHUNK,
    read() {
      if (sent >= bytes) {
        this.push(null);
        return;
      }
      const size = Math.min(LARGE_CHUNK, bytes - sent);
      sent += size;
      // A view, not a copy: every chunk has the same bytes, so nothing is allocated per chunk.
      this.push(template.subarray(0, size));
    },
  });
}
