import type { Readable } from 'node:stream';

const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;

/**
 * Reads a body of unknown length as text, destroying it with `tooLarge()` once more than `limit`
 * bytes arrived: nothing past the limit is read or kept.
 */
export function readCapped(body: Readable, limit: number, tooLarge: () => Error): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      if (size > limit) return;
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      chunks.length = 0;
      body.destroy(tooLarge());
    });
    body.once('error', reject);
    body.once('end', () => {
      const bytes = Buffer.concat(chunks, size);
      // As undici's text(): a leading byte order mark is not part of the text.
      const bom = bytes[0] === UTF8_BOM[0] && bytes[1] === UTF8_BOM[1] && bytes[2] === UTF8_BOM[2];
      resolve(bytes.toString('utf8', bom ? 3 : 0));
    });
  });
}
