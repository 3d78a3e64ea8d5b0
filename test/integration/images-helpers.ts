import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { MockGateway, RecordedRequest } from '../../src/testing/index.js';

/** The first bytes of every PNG. */
export const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Hex SHA-256 of bytes. */
export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Hex SHA-256 of a file, read as a stream. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Writes a file of exactly `size` bytes that starts with `head` (an image) and is padded with a
 * repeating pattern, one 1 MiB block at a time, so the whole file is never held in memory.
 */
export async function writePaddedFile(path: string, head: Uint8Array, size: number): Promise<void> {
  const file = await open(path, 'w');
  try {
    await file.write(head, 0, head.byteLength, 0);
    const block = Buffer.alloc(1024 * 1024, 0x5a);
    for (let at = head.byteLength; at < size; at += block.length) {
      await file.write(block, 0, Math.min(block.length, size - at), at);
    }
  } finally {
    await file.close();
  }
}

/** The requests the gateway (not the media origin) received for `method path`. */
export function apiRequests(gateway: MockGateway, method: string, path: string | RegExp): RecordedRequest[] {
  return gateway.requests.filter(
    (r) =>
      r.origin === 'api' &&
      r.method === method &&
      (typeof path === 'string' ? r.path === path : path.test(r.path)),
  );
}

/** The parts of a recorded multipart request without their bytes: name, filename, type, size, value. */
export function partSummary(request: RecordedRequest | undefined) {
  return (request?.parts ?? []).map((p) => ({
    name: p.name,
    ...(p.filename !== undefined ? { filename: p.filename } : {}),
    ...(p.value !== undefined ? { value: p.value } : {}),
    ...(p.filename !== undefined ? { contentType: p.contentType } : {}),
  }));
}
