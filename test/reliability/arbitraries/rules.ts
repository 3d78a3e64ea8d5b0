import fc from 'fast-check';

/** A request body under construction. */
export type Body = Record<string, unknown>;

/** A valid request with exactly one rule broken, and the path the refusal must name. */
export interface Broken {
  input: unknown;
  path: string;
}

/** One rule of a request schema, and how to break it (and only it) in a valid request. */
export interface Rule<T = Body> {
  /** The rule in words, as the spec states it. */
  rule: string;
  /** Values that break it, when there is more than one way. */
  bad?: fc.Arbitrary<unknown> | undefined;
  /** Breaks the rule in a copy of a valid request. */
  apply(valid: T, bad: unknown): Broken;
}

/** A mutation as the property sees it. */
export interface Mutation {
  rule: string;
  input: unknown;
  path: string;
}

/**
 * Copies plain objects and arrays deeply; anything else (a Buffer, a Blob) is shared, so file
 * inputs keep their class.
 */
export function clone<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => clone(item)) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clone(v)])) as T;
  }
  return value;
}

/** Valid requests, each broken by one of `rules` (picked by fast-check). */
export function mutations<T>(valid: fc.Arbitrary<T>, rules: ReadonlyArray<Rule<T>>): fc.Arbitrary<Mutation> {
  const picked = fc.oneof(
    ...rules.map((rule) => (rule.bad ?? fc.constant(undefined)).map((bad) => ({ rule, bad }))),
  );
  return fc.tuple(valid, picked).map(([request, { rule, bad }]) => ({
    rule: rule.rule,
    ...rule.apply(clone(request), bad),
  }));
}

/** A rule broken by setting `field` to one of `values`. */
export function badValue<T extends Body>(rule: string, field: string, ...values: unknown[]): Rule<T> {
  return {
    rule,
    bad: fc.constantFrom(...values),
    apply: (body, bad) => ({ input: { ...body, [field]: bad }, path: field }),
  };
}

/** A rule broken by leaving `field` out. */
export function missing<T extends Body>(rule: string, field: string): Rule<T> {
  return {
    rule,
    apply: (body) => {
      const { [field]: _gone, ...rest } = body;
      return { input: rest, path: field };
    },
  };
}

/**
 * A rule of the routes whose fields the spec lists in full (images, embeddings): a field outside
 * the list, a typo or a made-up name, is refused at its own path.
 */
export const unknownField: Rule = {
  rule: 'only the fields the route takes are sent (a typo is refused by name)',
  bad: fc.oneof(fc.constantFrom('sise', 'promt', 'Model', 'user'), fc.stringMatching(/^x_[a-z]{1,8}$/)),
  apply: (body, field) => ({ input: { ...body, [field as string]: 'value' }, path: field as string }),
};
