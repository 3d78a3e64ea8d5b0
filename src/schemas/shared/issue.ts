import type { z } from './zod.js';

/**
 * Adds a broken rule to a refinement: `message` at `path` (relative to the value refined; the
 * value itself when omitted).
 */
export function addRuleIssue(ctx: z.RefinementCtx, message: string, path?: PropertyKey[]): void {
  ctx.addIssue(path ? { code: 'custom', path, message } : { code: 'custom', message });
}
