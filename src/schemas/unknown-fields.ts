import type { z } from './zod.js';

/**
 * Edit distance of two short strings: insertions, deletions, substitutions and swaps of
 * neighbouring characters (`sise` → `size` is 1, `qualtiy` → `quality` is 1).
 */
function distance(a: string, b: string): number {
  // d[i][j]: the edits between the first i characters of a and the first j of b.
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      let best = Math.min(
        at(i - 1, j) + 1,
        at(i, j - 1) + 1,
        at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

/** The known field a misspelt one most likely meant: at most two edits away, else none. */
export function closestField(field: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of known) {
    const d = distance(field.toLowerCase(), candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/**
 * A refinement that refuses every field of a request not in `known`, each at its own path,
 * naming the field it most likely meant: `sise` → "is not a field of images.generate; did you
 * mean size?". The route would otherwise take the request and drop or pass on the field, and
 * the caller would never learn that their setting was not applied.
 *
 * Pass the result to `superRefine` with {@link ALWAYS}, so that a typo is reported beside the
 * other broken rules of the request, not only once they are fixed.
 *
 * @param known - every field the route takes.
 * @param operation - the call, for the message, e.g. `images.generate`.
 * @param refusedElsewhere - fields the schema refuses with a message of their own, left to it.
 */
export function refuseUnknownFields(
  known: readonly string[],
  operation: string,
  refusedElsewhere: readonly string[] = [],
) {
  const fields = new Set([...known, ...refusedElsewhere]);
  const listed = known.join(', ');
  return (value: unknown, ctx: z.RefinementCtx): void => {
    if (value === null || typeof value !== 'object') return;
    for (const field of Object.keys(value)) {
      if (fields.has(field) || (value as Record<string, unknown>)[field] === undefined) continue;
      const meant = closestField(field, known);
      ctx.addIssue({
        code: 'custom',
        path: [field],
        message: meant
          ? `is not a field of ${operation}; did you mean ${meant}?`
          : `is not a field of ${operation} (it takes ${listed})`,
      });
    }
  };
}

/** Runs a refinement even when other rules of the request broke (zod skips it by default). */
export const ALWAYS = { when: () => true } as const;
