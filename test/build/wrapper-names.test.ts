// Covers: scripts/wrapper-names.ts
import { describe, expect, it } from 'vitest';
import { withoutWrapperNames } from '../../scripts/wrapper-names.js';

describe('the names of lazily run modules', () => {
  it('are taken out of the wrapper, at the same length so that source maps still hold', () => {
    const code = 'var init_errors = __esm({\n  "src/core/errors/validation.ts"() {\n    init_base_error();\n';
    const built = withoutWrapperNames(code);
    expect(built).not.toContain('src/');
    expect(built).toContain('  f                              () {\n');
    expect(built.length).toBe(code.length);
    // The wrapper still gets an object with one method.
    const wrapped = new Function(`return {${withoutWrapperNames('"src/a-b/c.ts"() { return 1; }')}}`)();
    expect(Object.values(wrapped as Record<string, () => number>)[0]?.()).toBe(1);
  });

  it('leaves other text as it is', () => {
    const code = 'const message = "src/core/errors.ts is here";\nload("src/x.ts")();';
    expect(withoutWrapperNames(code)).toBe(code);
  });
});
