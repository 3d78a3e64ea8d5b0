import { deflateSync } from 'node:zlib';

/** Small valid image files built in memory for header, sniffing and multipart tests. */

/** Node's Buffer factories are typed over ArrayBufferLike; these buffers own plain ArrayBuffers. */
type Bytes = Buffer<ArrayBuffer>;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Bytes {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.byteLength, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
  return Buffer.concat([head, data, crc]) as Bytes;
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** A PNG of `width`x`height` (8-bit) with the given colour type, an optional tRNS and text padding. */
export function png(
  width: number,
  height: number,
  options: { colorType?: 0 | 2 | 3 | 4 | 6; trns?: boolean; textBytes?: number; idat?: boolean } = {},
): Bytes {
  const colorType = options.colorType ?? 6;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = colorType;
  const parts = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr)];
  if (options.textBytes)
    parts.push(
      chunk('tEXt', Buffer.concat([Buffer.from('Comment\0'), Buffer.alloc(options.textBytes, 0x61)])),
    );
  if (colorType === 3) parts.push(chunk('PLTE', Buffer.from([0, 0, 0, 255, 255, 255])));
  if (options.trns) parts.push(chunk('tRNS', Buffer.from(colorType === 3 ? [0] : [0, 0, 0, 0, 0, 0])));
  if (options.idat !== false) {
    const rows = Buffer.alloc(height * (1 + width * (CHANNELS[colorType] ?? 4)));
    parts.push(chunk('IDAT', deflateSync(rows)), chunk('IEND', new Uint8Array(0)));
  }
  return Buffer.concat(parts) as Bytes;
}

/** A JPEG skeleton (SOI, APP0, optional large APP1, DQT, SOF0, SOS, EOI) of `width`x`height`. */
export function jpeg(
  width: number,
  height: number,
  options: { app1Bytes?: number; fillBytes?: number } = {},
): Bytes {
  const segment = (marker: number, data: Uint8Array) => {
    const head = Buffer.from([0xff, marker, 0, 0]);
    head.writeUInt16BE(data.byteLength + 2, 2);
    return Buffer.concat([head, data]);
  };
  const sof = Buffer.alloc(15);
  sof[0] = 8;
  sof.writeUInt16BE(height, 1);
  sof.writeUInt16BE(width, 3);
  sof[5] = 3;
  const parts = [
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'binary')),
  ];
  if (options.app1Bytes) {
    // One APP segment holds at most 65533 bytes; larger padding takes several.
    for (let left = options.app1Bytes; left > 0; left -= 65000)
      parts.push(segment(0xe1, Buffer.alloc(Math.min(left, 65000))));
  }
  parts.push(segment(0xdb, Buffer.alloc(65)));
  if (options.fillBytes) parts.push(Buffer.alloc(options.fillBytes, 0xff));
  parts.push(segment(0xc0, sof), segment(0xda, Buffer.alloc(10)), Buffer.from([1, 2, 3, 0xff, 0xd9]));
  return Buffer.concat(parts) as Bytes;
}

/** A GIF89a header of `width`x`height` followed by a trailer. */
export function gif(width: number, height: number): Bytes {
  const b = Buffer.alloc(14);
  b.write('GIF89a', 0, 'ascii');
  b.writeUInt16LE(width, 6);
  b.writeUInt16LE(height, 8);
  b[13] = 0x3b;
  return b as Bytes;
}

function riff(fourcc: string, payload: Buffer): Bytes {
  const b = Buffer.alloc(20 + payload.byteLength);
  b.write('RIFF', 0, 'ascii');
  b.writeUInt32LE(12 + payload.byteLength, 4);
  b.write('WEBP', 8, 'ascii');
  b.write(fourcc, 12, 'ascii');
  b.writeUInt32LE(payload.byteLength, 16);
  payload.copy(b, 20);
  return b as Bytes;
}

/** A lossy (VP8) WebP header. */
export function webpLossy(width: number, height: number): Bytes {
  const p = Buffer.alloc(10);
  p.set([0x9d, 0x01, 0x2a], 3);
  p.writeUInt16LE(width, 6);
  p.writeUInt16LE(height, 8);
  return riff('VP8 ', p);
}

/** A lossless (VP8L) WebP header. */
export function webpLossless(width: number, height: number, alpha: boolean): Bytes {
  const p = Buffer.alloc(5);
  p[0] = 0x2f;
  p.writeUInt32LE(((width - 1) | ((height - 1) << 14) | ((alpha ? 1 : 0) << 28)) >>> 0, 1);
  return riff('VP8L', p);
}

/** An extended (VP8X) WebP header. */
export function webpExtended(width: number, height: number, alpha: boolean): Bytes {
  const p = Buffer.alloc(10);
  p[0] = alpha ? 0x10 : 0;
  p.writeUIntLE(width - 1, 4, 3);
  p.writeUIntLE(height - 1, 7, 3);
  return riff('VP8X', p);
}
