// Files on disk that an upload reads itself: where a file-backed Blob lives, and a reader that
// takes its bytes in a few reused buffers rather than a new Buffer per chunk.
import { open } from 'node:fs/promises';
import { FileInputError, MediaGatewayError, messageOf } from '../core/errors.js';

const CHUNK = 64 * 1024;
/** Buffers a file on disk is read into when its chunks may be reused (see `writesOnlyToSockets`). */
const RING = 4;

/** Where a file-backed Blob's bytes live: what `fileFromPath` opened, or an `fs.ReadStream`'s range. */
export interface FileOnDisk {
  /** The file's path. */
  path: string;
  /** Offset of the first byte. */
  start: number;
  /** Bytes from `start`. */
  size: number;
  /** Modification time when it was opened: a file changed since is refused, as Node's Blob does. */
  mtimeMs: number;
}

const ON_DISK = new WeakMap<Blob, FileOnDisk>();

/** Notes where a file-backed Blob lives, so an upload can read it without a Buffer per chunk. */
export function rememberFileOnDisk(blob: Blob, where: FileOnDisk): void {
  ON_DISK.set(blob, where);
}

/** Where a Blob noted by {@link rememberFileOnDisk} lives; `undefined` for any other Blob. */
export function fileOnDisk(blob: Blob): FileOnDisk | undefined {
  return ON_DISK.get(blob);
}

/**
 * A file's bytes read into {@link RING} buffers taken in turn: each chunk yielded is overwritten
 * when its buffer comes round again, so the consumer must be done with it by then.
 */
export async function* readInRing(
  disk: FileOnDisk,
  name: string,
): AsyncGenerator<Uint8Array, void, undefined> {
  const changed = () =>
    new MediaGatewayError(
      `${name}: ${disk.path} changed on disk after it was opened; open it again to send it`,
    );
  const handle = await open(disk.path, 'r').catch((error: unknown) => {
    throw new FileInputError(
      name,
      disk.path,
      `could not be opened again to send it: ${whyUnreadable(error)}`,
      {
        cause: error,
      },
    );
  });
  try {
    const info = await handle.stat();
    if (info.mtimeMs !== disk.mtimeMs || info.size < disk.start + disk.size) throw changed();
    const ring = Array.from({ length: RING }, () => Buffer.allocUnsafeSlow(CHUNK));
    for (let offset = 0, turn = 0; offset < disk.size; turn++) {
      const buffer = ring[turn % RING] as Buffer;
      const want = Math.min(CHUNK, disk.size - offset);
      const { bytesRead } = await handle.read(buffer, 0, want, disk.start + offset);
      if (bytesRead === 0) throw changed();
      offset += bytesRead;
      yield bytesRead === CHUNK ? buffer : buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/** Why a path could not be read, in words, with the system code: `does not exist (ENOENT)`. */
export function whyUnreadable(error: unknown): string {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'does not exist (ENOENT)';
    case 'ENOTDIR':
      return 'does not exist: a part of the path is not a folder (ENOTDIR)';
    case 'EACCES':
    case 'EPERM':
      return `may not be read (${code})`;
    case 'ELOOP':
      return 'is a loop of links (ELOOP)';
    case 'ENAMETOOLONG':
      return 'is too long a name (ENAMETOOLONG)';
    case 'EISDIR':
      return 'is a folder, not a file (EISDIR)';
    default: {
      const message = messageOf(error);
      return `cannot be read: ${message}`;
    }
  }
}
