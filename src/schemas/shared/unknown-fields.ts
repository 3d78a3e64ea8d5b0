import { addRuleIssue } from './across-fields.js';
import type { z } from './zod.js';

/** Edits a misspelt name may be from the field it meant. */
const MAX_EDITS = 2;
/**
 * The longest name a suggestion is looked for: every field of the API is far shorter, and the
 * work grows with the name, so a megabyte of key costs no more than a short one.
 */
const MAX_SUGGESTED_LENGTH = 64;

/**
 * Edit distance of two short strings: insertions, deletions, substitutions and swaps of
 * neighbouring characters (`sise` → `size` is 1, `qualtiy` → `quality` is 1). Keeps three rows
 * of the table, not all of it.
 */
function distance(a: string, b: string): number {
  // row(i)[j]: the edits between the first i characters of a and the first j of b.
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      let best = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, (before[j - 2] as number) + 1);
      current[j] = best;
    }
    before = previous;
    previous = current;
  }
  return previous[b.length] as number;
}

/**
 * The known field a misspelt one most likely meant: at most two edits away, else none. A name
 * longer than any field could be misspelt into gets no suggestion, and a field whose length
 * differs by more than two edits is not compared.
 */
export function closestField(field: string, known: readonly string[]): string | undefined {
  if (field.length > MAX_SUGGESTED_LENGTH) return undefined;
  const name = field.toLowerCase();
  let best: string | undefined;
  let bestDistance = MAX_EDITS + 1;
  for (const candidate of known) {
    if (Math.abs(candidate.length - name.length) > MAX_EDITS) continue;
    const d = distance(name, candidate);
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
      addRuleIssue(
        ctx,
        meant
          ? `is not a field of ${operation}; did you mean ${meant}?`
          : `is not a field of ${operation} (it takes ${listed})`,
        [field],
      );
    }
  };
}

/** Runs a refinement even when other rules of the request broke (zod skips it by default). */
export const ALWAYS = { when: () => true } as const;
