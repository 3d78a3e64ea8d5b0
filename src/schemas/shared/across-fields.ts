/**
 * Rules across the fields of a request, judged in the same pass as the rules of each field.
 * zod skips an object's refinements once a field of it has the wrong type or value, so a body
 * with a mistyped field and a broken cross-field rule would be refused twice: once for the
 * field, and, once that is fixed, again for the rule. Here each cross-field rule runs anyway,
 * on the fields that parsed; a rule that reads a field which did not is skipped (it cannot be
 * judged), so no rule speaks about a value it cannot read.
 */
import type { z } from 'zod';

/** One rule across fields: reads `body`, adds an issue to `ctx` for each break it finds. */
export type AcrossFieldsRule = (body: Record<string, unknown>, ctx: z.RefinementCtx) => void;

/** Thrown by the read of a field that did not parse: the rule reading it is skipped. */
const UNJUDGED: unique symbol = Symbol('unjudged');
const NONE: ReadonlySet<string> = new Set();

/** Top-level fields with an issue that stops zod's own refinements: a wrong type or value. */
function brokenFields(
  issues: readonly {
    readonly path?: readonly PropertyKey[] | undefined;
    readonly continue?: boolean | undefined;
  }[],
): Set<string> {
  const broken = new Set<string>();
  for (const issue of issues) {
    const field = issue.path?.[0];
    if (issue.continue !== true && typeof field === 'string') broken.add(field);
  }
  return broken;
}

/**
 * `body` whose broken fields throw {@link UNJUDGED} when read (or asked about with `in`); their
 * names can still be listed (`Object.keys`), so a rule over unknown fields runs on.
 */
function guarded(body: Record<string, unknown>, broken: ReadonlySet<string>): Record<string, unknown> {
  const refuse = (key: string | symbol) => typeof key === 'string' && broken.has(key);
  return new Proxy(body, {
    get(target, key, receiver) {
      if (refuse(key)) throw UNJUDGED;
      return Reflect.get(target, key, receiver);
    },
    has(target, key) {
      if (refuse(key)) throw UNJUDGED;
      return Reflect.has(target, key);
    },
  });
}

/**
 * The arguments of `superRefine` for `rules`, each judged on its own: every rule runs, even when
 * other rules of the request broke, unless it reads a field that has the wrong type or value.
 * With no broken field the rules see the body itself, as a plain refinement would.
 *
 * @example
 * z.looseObject({ ... }).superRefine(...acrossFields(ruleA, ruleB));
 */
export function acrossFields(
  ...rules: AcrossFieldsRule[]
): [(value: unknown, ctx: z.RefinementCtx) => void, { when: (payload: z.core.ParsePayload) => boolean }] {
  // Set by `when`, which zod calls just before this refinement on the same payload.
  let broken = NONE;
  const refine = (value: unknown, ctx: z.RefinementCtx) => {
    const skip = broken;
    broken = NONE;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
    const body = value as Record<string, unknown>;
    const view = skip.size === 0 ? body : guarded(body, skip);
    for (const rule of rules) {
      try {
        rule(view, ctx);
      } catch (error) {
        if (error !== UNJUDGED) throw error;
      }
    }
  };
  const when = (payload: z.core.ParsePayload): boolean => {
    broken = brokenFields(payload.issues);
    return true;
  };
  return [refine, { when }];
}

/**
 * For a length check of a list (`.min`, `.max`): judged only on an array. zod would judge a
 * string of the wrong type by its length too, and name "at most 9 images" beside "must be an
 * array".
 */
export const ON_ARRAYS = { when: (payload: z.core.ParsePayload): boolean => Array.isArray(payload.value) };

/**
 * Adds a broken rule to a refinement: `message` at `path` (relative to the value refined; the
 * value itself when omitted).
 */
export function addRuleIssue(ctx: z.RefinementCtx, message: string, path?: PropertyKey[]): void {
  ctx.addIssue(path ? { code: 'custom', path, message } : { code: 'custom', message });
}
