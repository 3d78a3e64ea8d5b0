/**
 * The output folder of a run: files land in it whole, by a rename from a staging folder beside
 * it (`.<name>.mediagw-staging/`), so the folder holds only finished outputs, even after a crash.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { FileInputError, type MediaDownload } from '../index.js';
import { gone, machineName, SELF } from './file-lock.js';

const EXTENSIONS: Record<string, string> = {
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'video/quicktime': 'mov',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'application/json': 'json',
};

/** The extension of a download: by its content type, else by its URL, else `fallback`. */
export function extensionOf(
  contentType: string | undefined,
  url: string | undefined,
  fallback: string,
): string {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (type && EXTENSIONS[type]) return EXTENSIONS[type];
  if (url) {
    try {
      const ext = extname(new URL(url).pathname).slice(1).toLowerCase();
      if (/^[a-z0-9]{1,5}$/.test(ext)) return ext === 'jpeg' ? 'jpg' : ext;
    } catch {}
  }
  return fallback;
}

/** `<id>.<ext>` for a job's only output, `<id>-<n>.<ext>` (n from 1) for one of several. */
export function outputName(id: string, index: number, count: number, ext: string): string {
  return count <= 1 ? `${id}.${ext}` : `${id}-${index + 1}.${ext}`;
}

/** The output folder and this run's staging folder. */
export class OutputFolder {
  /** The output folder, absolute. */
  readonly dir: string;
  private readonly staging: string;

  constructor(dir: string) {
    this.dir = resolve(dir);
    const root = join(dirname(this.dir), `.${basename(this.dir)}.mediagw-staging`);
    // Named for the run's machine, process and PID namespace: what a run left is removed only
    // once that run is certainly gone.
    this.staging = join(root, `${SELF.host}.${SELF.pid}.${SELF.ns || '0'}.${randomUUID().slice(0, 8)}`);
  }

  /**
   * Creates the folders, and removes what killed runs left in the staging folder (the runs of
   * this machine that no longer run).
   */
  prepare(): void {
    const root = dirname(this.staging);
    try {
      mkdirSync(this.dir, { recursive: true });
      mkdirSync(this.staging, { recursive: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new FileInputError(
        'the output folder',
        this.dir,
        `could not be made (${code}): give a folder, or a path where one can be made; nothing was sent`,
        { cause: error },
      );
    }
    // Folders of this machine's runs that no longer run; another machine's or container's are
    // its own to clean. (Names of older versions have no namespace: `<machine>.<pid>.<random>`.)
    for (const name of readdirSync(root)) {
      const parts = name.split('.');
      const ns = parts.length > 3 ? (parts[2] === '0' ? '' : parts[2]) : undefined;
      if (join(root, name) === this.staging) continue;
      if (parts[0] === machineName() && gone({ host: parts[0], pid: Number(parts[1]), ns }))
        rmSync(join(root, name), { recursive: true, force: true });
    }
  }

  /** Whether every file is in the folder. */
  has(files: readonly string[]): boolean {
    return files.every((name) => existsSync(join(this.dir, name)));
  }

  /** Saves a download as `name` in the folder, whole. */
  async save(download: MediaDownload, name: string, signal?: AbortSignal): Promise<void> {
    const staged = join(this.staging, name);
    if (signal?.aborted) throw signal.reason;
    await download.saveTo(staged);
    renameSync(staged, join(this.dir, name));
  }

  /** Writes `text` as `name` in the folder, whole. */
  write(name: string, text: string): void {
    const staged = join(this.staging, name);
    writeFileSync(staged, text);
    renameSync(staged, join(this.dir, name));
  }

  /** Removes this run's staging folder (and the folder that holds it, when empty). */
  close(): void {
    rmSync(this.staging, { recursive: true, force: true });
    const root = dirname(this.staging);
    try {
      if (readdirSync(root).length === 0) rmSync(root, { recursive: true, force: true });
    } catch {}
  }
}
