/**
 * JSON a hostile or broken gateway could send, as the transport hands it on: parsed text, so
 * `__proto__` is an own key, and objects may shadow `toString` and `valueOf` with non-functions
 * (then converting them to a string or number throws).
 */
import fc from 'fast-check';

/** Keys every plain object inherits, and the fields the decoders read. */
export const TRICKY_KEYS = [
  '__proto__',
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'toJSON',
  'length',
  'then',
] as const;

/** Strings that stress parsers: long runs, separators, escapes, lone surrogates. */
export const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: fc.constantFrom('.', ',', ':', '|', '[', ']', '"', "'", '`', ' ', '\\', 'and ', '=') }),
  fc.constantFrom('', ' ', '\u0000', '\ud800', 'a'.repeat(70), 'NaN', '-1', '1e309', ...TRICKY_KEYS),
  fc
    .constantFrom('.', ' ', '[', 'a,')
    .chain((unit) => fc.integer({ min: 1, max: 5_000 }).map((n) => unit.repeat(n))),
);

/** An object that cannot be converted to a primitive: `String()` and `Number()` of it throw. */
const unconvertible = fc.constant('{"toString":1,"valueOf":1}');

/** JSON text: any value, with tricky keys and hostile strings mixed in at every level. */
export const hostileJsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString.map((s) => JSON.stringify(s)),
    fc.constantFrom('null', 'true', 'false', '0', '-0', '1e308', '-1.5', '200', '4294967296'),
    unconvertible,
    fc.array(tie('value'), { maxLength: 5 }).map((items) => `[${items.join(',')}]`),
    fc
      .array(fc.tuple(fc.oneof(fc.constantFrom(...TRICKY_KEYS), hostileString), tie('value')), {
        maxLength: 5,
      })
      .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  ),
})).value;

/** A parsed hostile value. */
export const hostileJson: fc.Arbitrary<unknown> = hostileJsonText.map((text) => JSON.parse(text) as unknown);

/**
 * Objects shaped like the answer a decoder reads, each field of it replaced by hostile JSON at
 * random, so the generator reaches the code behind the first type check.
 */
export function shaped(template: unknown): fc.Arbitrary<unknown> {
  if (Array.isArray(template)) {
    return fc.oneof(
      hostileJson,
      fc.array(fc.oneof(...template.map((item) => shaped(item))), { maxLength: 4 }),
    );
  }
  if (template && typeof template === 'object') {
    const fields = Object.entries(template as Record<string, unknown>);
    return fc.oneof(
      { weight: 1, arbitrary: hostileJson },
      {
        weight: 4,
        arbitrary: fc
          .tuple(...fields.map(([, value]) => fc.option(shaped(value), { nil: undefined })))
          .map((values) =>
            Object.fromEntries(fields.map(([key], i) => [key, values[i]]).filter(([, v]) => v !== undefined)),
          ),
      },
    );
  }
  return fc.oneof({ weight: 1, arbitrary: hostileJson }, { weight: 2, arbitrary: fc.constant(template) });
}
