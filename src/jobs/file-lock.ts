/**
 * Who runs where, and the lock file that lets one run at a time write a file journal.
 *
 * A lock names its holder: the process ID, the machine's name and its PID namespace (so that a
 * run in another container, where that PID means another process or none, is never taken for a
 * dead one). It is created whole, by a hard link from a file already written, so a reader never
 * sees it empty. A lock whose holder is gone (same machine and namespace, process not running)
 * is taken over under a second lock, `<lock>.takeover`, so that of several runs starting on one
 * journal together exactly one takes it.
 */
import { randomUUID } from 'node:crypto';
import { linkSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A process of some machine: what a lock or a staging folder records of its holder. */
export interface Owner {
  pid: number;
  /** The machine's name, as {@link machineName} gives it; absent in locks of older versions. */
  host?: string | undefined;
  /** The PID namespace (Linux), empty elsewhere; absent in locks of older versions. */
  ns?: string | undefined;
}

/** The machine's name, safe in a file name. */
export function machineName(): string {
  return hostname().replace(/[^\w-]/g, '_') || 'host';
}

/** This process's PID namespace: the inode of `/proc/self/ns/pid`, or `''` where there is none. */
function pidNamespace(): string {
  try {
    return readlinkSync('/proc/self/ns/pid').replace(/\D/g, '');
  } catch {
    return '';
  }
}

/** This process, as a lock names it. */
export const SELF: Readonly<Required<Owner>> = { pid: process.pid, host: machineName(), ns: pidNamespace() };

/** Whether a process with this id runs in this PID namespace. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether `owner` is certainly gone: a process of this machine and PID namespace that no longer
 * runs. A process of another machine or namespace is never taken as gone: nothing here can see it.
 */
export function gone(owner: Owner): boolean {
  if (!Number.isSafeInteger(owner.pid) || owner.pid <= 0) return true;
  return here(owner) && owner.pid !== process.pid && !alive(owner.pid);
}

/** Whether `owner` is a process of this machine and PID namespace. */
function here(owner: Owner): boolean {
  return (owner.host ?? SELF.host) === SELF.host && (owner.ns ?? SELF.ns) === SELF.ns;
}

/** Reads a lock's holder: `undefined` when the file is not there, `{ pid: NaN }` when unreadable. */
function holderOf(path: string): { text: string; owner: Owner } | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  // Older versions wrote the PID alone.
  if (/^\d+$/.test(text)) return { text, owner: { pid: Number(text) } };
  try {
    const owner = JSON.parse(text) as Owner;
    return { text, owner: { pid: Number(owner?.pid), host: owner?.host, ns: owner?.ns } };
  } catch {
    return { text, owner: { pid: Number.NaN } };
  }
}

/** The lock files this process holds, so that a second run in it is refused too. */
const held = new Set<string>();

/** Refused: the lock is held, by `owner`. */
export class LockHeld extends Error {
  constructor(readonly owner: Owner) {
    super('held');
  }
}

/** How many times a contended lock is tried before giving up. */
const ATTEMPTS = 200;

/**
 * Takes the lock file at `path` for this process.
 * @returns the function that releases it.
 * @throws LockHeld when a live process, or one this machine cannot see, holds it; an fs error
 * when the folder cannot be written.
 */
export async function takeLock(path: string): Promise<() => void> {
  const key = resolve(path);
  if (held.has(key)) throw new LockHeld(SELF);
  const mine = JSON.stringify(SELF);
  const draft = `${path}.${process.pid}.${randomUUID().slice(0, 8)}`;
  writeFileSync(draft, mine, { mode: 0o600, flag: 'wx' });
  try {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      try {
        linkSync(draft, path);
        held.add(key);
        return () => release(path, key, mine);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const found = holderOf(path);
      if (found === undefined) continue;
      // This process's ID in a lock it does not hold: an earlier process with that ID left it.
      const left = here(found.owner) && found.owner.pid === process.pid;
      if (!left && !gone(found.owner)) throw new LockHeld(found.owner);
      // The holder is gone: one process at a time removes its lock, and only that same lock.
      if (await takeOver(path, found.text)) continue;
      await sleep(5);
    }
  } finally {
    rmSync(draft, { force: true });
  }
  throw new Error(`${path} stayed contended`);
}

/** Removes the stale lock (if it is still `stale`) under `<path>.takeover`; false when another run is at it. */
async function takeOver(path: string, stale: string): Promise<boolean> {
  const guard = `${path}.takeover`;
  try {
    writeFileSync(guard, JSON.stringify(SELF), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // A guard left by a run killed in these few microseconds is removed too.
    const other = holderOf(guard);
    if (other && gone(other.owner)) rmSync(guard, { force: true });
    return false;
  }
  try {
    if (holderOf(path)?.text === stale) rmSync(path, { force: true });
  } finally {
    rmSync(guard, { force: true });
  }
  return true;
}

function release(path: string, key: string, mine: string): void {
  if (!held.delete(key)) return;
  // Only this process's own lock: never one another run took after it was removed by hand.
  if (holderOf(path)?.text === mine) rmSync(path, { force: true });
}
