// Covers: src/core/base-error.ts, src/core/errors.ts
/**
 * src/core/base-error.ts `brand` and where the SDK declares its error classes: in core/errors/,
 * each file giving its classes their brands in one call, or a static field in the small entries.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { brand, ERROR_BRAND, MediaGatewayError } from '../../src/core/base-error.js';

const src = fileURLToPath(new URL('../../src/', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

describe('brand', () => {
  test('gives each class listed its key as its own brand and its name, so instanceof holds across copies', () => {
    class ThrownError extends MediaGatewayError {}
    class OtherCopyError extends MediaGatewayError {}
    brand({ ThrownError });
    brand({ ThrownError: OtherCopyError });
    expect(Object.hasOwn(ThrownError, ERROR_BRAND)).toBe(true);
    expect((ThrownError as never)[ERROR_BRAND]).toBe('ThrownError');
    expect(new ThrownError('x').name).toBe('ThrownError');
    // Its public name too, whatever a minifier calls the class.
    expect(OtherCopyError.name).toBe('ThrownError');
    expect(new ThrownError('x')).toBeInstanceOf(OtherCopyError);
    expect(new MediaGatewayError('x')).not.toBeInstanceOf(OtherCopyError);
  });
});

describe('the error classes are declared in core/errors/', () => {
  // SDK proper: the mock gateway, the command line and job runs use the package as a user does,
  // and declare their own on top of its classes.
  const files = sources(src)
    .map((file) => relative(src, file).replaceAll('\\', '/'))
    .filter(
      (file) => !/^(core\/errors\/|testing\/|cli\/|jobs\/)/.test(file) && file !== 'core/base-error.ts',
    );

  test('no other file of the SDK declares a class of MediaGatewayError', () => {
    const declaring = files.filter((file) =>
      /class \w+ extends (MediaGatewayError|API\w*Error|InvalidResponseError|\w+Error)\b/.test(
        readFileSync(join(src, file), 'utf8'),
      ),
    );
    expect(declaring).toEqual([]);
  });

  test('each file of core/errors/ gives its brands in one call at most', () => {
    for (const file of sources(join(src, 'core/errors'))) {
      const text = readFileSync(file, 'utf8');
      expect(text.match(/^brand\(/gm)?.length ?? 0, file).toBeLessThanOrEqual(1);
    }
  });
});
