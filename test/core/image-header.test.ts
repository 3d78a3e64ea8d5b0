// Covers: src/core/image-header.ts
import { describe, expect, test } from 'vitest';
import { blobReader, bytesReader, readImageHeader, sniffImageFormat } from '../../src/core/image-header.js';
import { gif, jpeg, png, webpExtended, webpLossless, webpLossy } from './image-fixtures.js';

const header = (bytes: Uint8Array) => readImageHeader(bytesReader(bytes));

describe('sniffImageFormat', () => {
  test.each([
    ['png', png(1, 1)],
    ['jpeg', jpeg(1, 1)],
    ['gif', gif(1, 1)],
    ['webp', webpLossy(1, 1)],
  ])('%s magic bytes', (format, bytes) => {
    expect(sniffImageFormat(bytes.subarray(0, 32))).toBe(format);
  });

  test.each([
    ['text', Buffer.from('hello world, not an image')],
    ['empty', Buffer.alloc(0)],
    ['a RIFF that is not WebP', Buffer.from('RIFF\0\0\0\0WAVEfmt ')],
    ['GIF without version', Buffer.from('GIF8')],
    ['truncated PNG signature', Buffer.from([0x89, 0x50, 0x4e, 0x47])],
  ])('%s is no image', (_, bytes) => {
    expect(sniffImageFormat(bytes)).toBeUndefined();
  });
});

describe('PNG', () => {
  test.each([
    ['RGBA (colour type 6)', png(64, 32, { colorType: 6 }), true],
    ['grey + alpha (colour type 4)', png(64, 32, { colorType: 4 }), true],
    ['RGB (colour type 2)', png(64, 32, { colorType: 2 }), false],
    ['grey (colour type 0)', png(64, 32, { colorType: 0 }), false],
    ['palette without tRNS', png(64, 32, { colorType: 3 }), false],
    ['palette with tRNS', png(64, 32, { colorType: 3, trns: true }), true],
    ['RGB with tRNS', png(64, 32, { colorType: 2, trns: true }), true],
    [
      'RGB with a large text chunk, then tRNS',
      png(64, 32, { colorType: 2, textBytes: 200_000, trns: true }),
      true,
    ],
  ])('%s: 64x32, alpha %s', async (_, bytes, alpha) => {
    expect(await header(bytes)).toEqual({ format: 'png', width: 64, height: 32, hasAlpha: alpha });
  });

  test('alpha is unknown when the bytes end before IDAT', async () => {
    const bytes = png(10, 20, { colorType: 2, idat: false });
    expect(await header(bytes)).toEqual({ format: 'png', width: 10, height: 20 });
  });

  test('a broken IHDR gives the format only', async () => {
    const bytes = png(10, 20);
    bytes.write('XXXX', 12, 'ascii');
    expect(await header(bytes)).toEqual({ format: 'png' });
  });
});

describe('JPEG', () => {
  test.each([
    ['plain', jpeg(640, 480)],
    ['with fill bytes before SOF', jpeg(640, 480, { fillBytes: 3 })],
    ['with 150 KiB of APP1 metadata before SOF', jpeg(640, 480, { app1Bytes: 150_000 })],
  ])('%s: dimensions from the SOF segment', async (_, bytes) => {
    expect(await header(bytes)).toEqual({ format: 'jpeg', width: 640, height: 480, hasAlpha: false });
  });

  test('no SOF before the scan leaves the dimensions unknown', async () => {
    const bytes = Buffer.from([0xff, 0xd8, 0xff, 0xda, 0, 4, 0, 0, 0xff, 0xd9]);
    expect(await header(bytes)).toEqual({ format: 'jpeg', hasAlpha: false });
  });
});

describe('GIF and WebP', () => {
  test('GIF logical screen size', async () => {
    expect(await header(gif(300, 200))).toEqual({ format: 'gif', width: 300, height: 200 });
  });

  test.each([
    ['VP8 (lossy)', webpLossy(800, 600), { width: 800, height: 600, hasAlpha: false }],
    [
      'VP8L (lossless) with alpha',
      webpLossless(1000, 16000, true),
      { width: 1000, height: 16000, hasAlpha: true },
    ],
    ['VP8L (lossless) without alpha', webpLossless(3, 5, false), { width: 3, height: 5, hasAlpha: false }],
    ['VP8X with alpha flag', webpExtended(5000, 7000, true), { width: 5000, height: 7000, hasAlpha: true }],
    ['VP8X without alpha flag', webpExtended(16, 9, false), { width: 16, height: 9, hasAlpha: false }],
  ])('%s', async (_, bytes, expected) => {
    expect(await header(bytes)).toEqual({ format: 'webp', ...expected });
  });
});

describe('blobReader', () => {
  test.each([
    [
      'PNG with 3 MB of text before tRNS',
      png(7, 9, { colorType: 2, textBytes: 3_000_000, trns: true }),
      { format: 'png', width: 7, height: 9, hasAlpha: true },
    ],
    [
      'JPEG with 1 MB of APP1 before SOF',
      jpeg(640, 360, { app1Bytes: 1_000_000 }),
      { format: 'jpeg', width: 640, height: 360, hasAlpha: false },
    ],
  ])('%s: walked by slices without reading the file whole', async (_, bytes, expected) => {
    const blob = new Blob([bytes]);
    let read = 0;
    const counting = {
      size: blob.size,
      slice: (start?: number, end?: number) => {
        const part = blob.slice(start, end);
        read += part.size;
        return part;
      },
    };
    expect(await readImageHeader(blobReader(counting))).toEqual(expected);
    expect(blob.size).toBeGreaterThan(1_000_000);
    // Each jump over a large chunk or segment costs one small window, never the segment itself.
    expect(read).toBeLessThan(100 * 1024);
  });

  test('reads past the end as fewer bytes', async () => {
    const reader = blobReader(new Blob([Buffer.from('abc')]));
    expect(Buffer.from(await reader.read(1, 10)).toString()).toBe('bc');
    expect((await reader.read(10, 4)).byteLength).toBe(0);
  });

  test('a non-image gives undefined', async () => {
    expect(await readImageHeader(blobReader(new Blob(['plain text'])))).toBeUndefined();
  });
});
