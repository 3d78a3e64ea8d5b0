// Covers: src/cli/commands/validate.ts
/**
 * `mediagw validate` with several files: each one is checked and reported, whatever the others
 * hold, and the exit status is 1 if any failed. Offline: no key, no base URL.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { VIDEO_MODELS } from '../../src/index.js';
import { ensureBuilt, run } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'mediagw-cli-validate-'));
const file = (name: string, body: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof body === 'string' ? body : JSON.stringify(body));
  return path;
};

beforeAll(ensureBuilt, 180_000);

const good = file('good.json', { model: 'vidmodel-2.0-mini', prompt: 'a red kite', duration: 5 });
const unknown = file('unknown.json', { model: 'vidmodel-9', prompt: 'a red kite', duration: 5 });
const noModel = file('no-model.json', { name: 'spring' });
const notJson = file('not-json.json', '{"model":');
const missing = join(dir, 'missing.json');
const bad = file('bad.json', { model: 'vidmodel-2.0-mini', prompt: '', duration: 5 });

test('every file is checked and reported, the ones after a failure too; exit 1', async () => {
  const { code, stdout, stderr } = await run(['validate', unknown, noModel, notJson, missing, good, bad]);
  expect(code).toBe(1);
  expect(stderr).toContain(
    `error: ${unknown}: unknown model vidmodel-9 (known: ${VIDEO_MODELS.join(', ')}, `,
  );
  expect(stderr).toContain(`error: ${noModel}: its model does not say which request it is; pass --as`);
  expect(stderr).toContain(`error: ${notJson} is not valid JSON`);
  expect(stderr).toContain(`error: ${missing} does not exist (ENOENT); nothing was sent`);
  expect(stdout).toContain(`✓ ${good} (videos.create)`);
  expect(stdout).toContain(`✗ ${bad} (videos.create): 1 broken rule`);
});

test('--json: one document per file, in order, each saying whether it passed', async () => {
  const { code, stdout } = await run(['validate', unknown, good, missing, '--json']);
  expect(code).toBe(1);
  const docs = stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(docs.map((d) => [d.file, d.valid])).toEqual([
    [unknown, false],
    [good, true],
    [missing, false],
  ]);
  expect(docs[0]).toMatchObject({ operation: null, issues: [] });
  expect(docs[0].message).toMatch(/unknown model vidmodel-9 \(known: .*vidmodel-2\.5/);
});

test('all files valid: exit 0', async () => {
  const { code } = await run(['validate', good, good]);
  expect(code).toBe(0);
});
