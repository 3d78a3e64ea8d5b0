import { readFileSync, writeFileSync } from 'node:fs';

/** Peak resident memory of this process over a measured section. */
export interface PeakRss {
  /** RSS when the section started, in bytes. */
  baseline: number;
  /** Highest RSS seen during the section, in bytes. */
  peak: number;
  /** `peak - baseline`, in bytes (never negative). */
  growth: number;
  /** `hwm`: the kernel's high-water mark (exact); `sampled`: RSS read every 2 ms. */
  method: 'hwm' | 'sampled';
}

function readStatusKb(field: 'VmHWM' | 'VmRSS'): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Resets the kernel's peak-RSS mark to the current RSS (Linux >= 4.0). Whether it worked. */
function resetHighWaterMark(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return readStatusKb('VmHWM') !== undefined;
  } catch {
    return false;
  }
}

/** Runs a full garbage collection when the process was started with `--expose-gc`. */
export function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    gc();
  }
}

/**
 * Starts measuring this process's peak RSS. On Linux the kernel's high-water mark is reset
 * and read back (exact, nothing can be missed); elsewhere RSS is sampled every 2 ms, which a
 * short spike between samples can escape. Call the returned function to stop.
 */
export function startPeakRss(): () => PeakRss {
  collectGarbage();
  const baseline = process.memoryUsage.rss();
  const exact = resetHighWaterMark();
  let sampled = baseline;
  const timer = setInterval(() => {
    sampled = Math.max(sampled, process.memoryUsage.rss());
  }, 2);
  return () => {
    clearInterval(timer);
    sampled = Math.max(sampled, process.memoryUsage.rss());
    const hwm = exact ? readStatusKb('VmHWM') : undefined;
    const peak = hwm ?? sampled;
    return { baseline, peak, growth: Math.max(0, peak - baseline), method: hwm ? 'hwm' : 'sampled' };
  };
}

/**
 * How long a worker waits after its warm-up before it starts measuring. The first request loads
 * undici's HTTP parser, a WebAssembly module that V8 recompiles with TurboFan on a background
 * thread a few hundred milliseconds later; that compilation takes up to about 25 MiB of native
 * memory, once per process. Measured right after the warm-up, it lands inside the window at random
 * and swamps what the transfer itself costs (0-28 MiB from run to run, with or without mediagw).
 */
export const SETTLE_MS = 1_500;

/** Waits {@link SETTLE_MS}: see there. */
export function settleAfterWarmUp(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
}
