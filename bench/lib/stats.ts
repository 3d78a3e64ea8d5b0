/** Bytes in a mebibyte. */
export const MiB = 1024 * 1024;

/** The median of a non-empty list (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median() of an empty list');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** `a / b`, or `undefined` when either is missing or `b` is zero. */
export function ratio(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined || b === undefined || b === 0) return undefined;
  return a / b;
}

/**
 * Runs `fn` for `reps` rounds; in every round each variant runs once, in an order that rotates
 * from round to round, so drift of the machine spreads over all variants alike.
 * Returns every variant's samples.
 */
export async function interleave<K extends string, T>(
  variants: readonly K[],
  reps: number,
  fn: (variant: K, rep: number) => Promise<T>,
): Promise<Record<K, T[]>> {
  const out = Object.fromEntries(variants.map((v) => [v, [] as T[]])) as Record<K, T[]>;
  for (let rep = 0; rep < reps; rep++) {
    for (let i = 0; i < variants.length; i++) {
      const variant = variants[(i + rep) % variants.length] as K;
      out[variant].push(await fn(variant, rep));
    }
  }
  return out;
}

/**
 * The median of round-by-round ratios `a[i] / b[i]`: each pair ran in the same round, next to
 * each other, so a machine that drifts between rounds moves both sides of a pair alike.
 */
export function pairedRatio(a: readonly number[], b: readonly number[]): number | undefined {
  if (a.length === 0 || a.length !== b.length) return undefined;
  return median(a.map((value, i) => value / (b[i] as number)));
}

/** Round-by-round differences `a[i] - b[i]`, for a median that pairs samples of the same round. */
export function pairedDifference(a: readonly number[], b: readonly number[]): number[] {
  if (a.length !== b.length) throw new Error('pairedDifference() of lists of different lengths');
  return a.map((value, i) => value - (b[i] as number));
}

/** Median of one numeric field over a list of samples. */
export function medianOf<T>(samples: readonly T[], pick: (sample: T) => number): number {
  return median(samples.map(pick));
}
