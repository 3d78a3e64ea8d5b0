/**
 * (10) Cold validation: what the first validated request of a family costs a fresh process, on
 * top of importing `mediagw`. Each target is a fresh `node` that imports the built package,
 * builds a client and exits; the family targets also make one request of their family (the
 * largest legal body) with an already-aborted signal, so the call validates the body and stops
 * before any connection (undici is never loaded). A figure is the median over the rounds of that
 * first call's time, taken inside the process once the import and the client are done, so it is
 * the cost over the import by construction. Wall time from spawn to exit, minus the same
 * round's import-only process, is given beside it: it holds the same cost, plus the noise of two
 * whole processes. A fresh `node -e ''` of the same rounds is the limit: the empty process.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BenchContext, reps } from './lib/context.js';
import type { Row } from './lib/results.js';
import { interleave, median, pairedDifference } from './lib/stats.js';
import { largestV25Request } from './validation.js';

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/** The largest legal `images.generateAsync` body: every output field, references, notifications. */
export function largestImageRequest(): Record<string, unknown> {
  return {
    model: 'imgmodel-2',
    prompt:
      'A paper crane on a rain-streaked window at dusk, soft rim light, shallow depth of field. '.repeat(4),
    n: 4,
    size: '1024x1024',
    resolution: '2k',
    quality: 'high',
    background: 'transparent',
    output_format: 'png',
    output_compression: 80,
    image_urls: range(8).map((i) => `https://cdn.example.com/refs/image-${i}.png`),
    notifications: {
      webhook: { endpoint_id: 'whep_0123456789', events: ['task.completed', 'task.failed'] },
    },
    client_reference_id: 'r'.repeat(128),
  };
}

/** The largest legal `library.assets.submit` body: 20 named materials and a new group. */
export function largestAssetSubmitRequest(): Record<string, unknown> {
  return {
    model: 'vidmodel-2.5',
    group: {
      name: 'Spring campaign faces',
      description: 'Reference faces for the spring campaign. '.repeat(20),
    },
    project_name: 'default',
    asset_type: 'Image',
    assets: range(20).map((i) => ({
      url: `https://cdn.example.com/library/face-${String(i).padStart(2, '0')}.png`,
      name: `face ${i}`,
    })),
  };
}

interface Family {
  key: 'video' | 'images' | 'library';
  call: string;
  body: Record<string, unknown>;
  /** Sends the body as an object the plain checks do not read, so the schema validates it. */
  viaSchema?: boolean;
}

const FAMILIES: readonly Family[] = [
  { key: 'video', call: 'client.videos.create', body: largestV25Request() },
  { key: 'images', call: 'client.images.generateAsync', body: largestImageRequest() },
  { key: 'library', call: 'client.library.assets.submit', body: largestAssetSubmitRequest() },
];

/** The child's code: import, a client, and optionally one aborted request of a family. */
function script(dist: string, family: Family | undefined): string {
  const entry = pathToFileURL(join(dist, 'index.js')).href;
  const lines = [
    `import { MediaGateway } from ${JSON.stringify(entry)};`,
    "const client = new MediaGateway({ apiKey: 'bench', baseURL: 'http://127.0.0.1:9' });",
  ];
  if (family) {
    lines.push(
      // An object whose prototype is not Object.prototype: the plain checks read only plain
      // objects and leave any other to the schema, which accepts it (its own fields are legal).
      family.viaSchema
        ? `const body = Object.assign(Object.create(Object.create(null)), ${JSON.stringify(family.body)});`
        : `const body = ${JSON.stringify(family.body)};`,
      'const started = performance.now();',
      `await ${family.call}(body, { signal: AbortSignal.abort() }).then(`,
      "  () => { throw new Error('the request was not aborted'); },",
      "  (error) => { if (error.name !== 'APIUserAbortError') throw error; },",
      ');',
      'process.stdout.write(String(performance.now() - started));',
    );
  }
  return lines.join('\n');
}

/** Milliseconds from spawning `node` to its exit, and what the child printed. */
function timeProcess(args: string[], cwd: string): { ms: number; out: string } {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} failed: ${result.stderr}`);
  return { ms, out: String(result.stdout) };
}

/** Runs in the parent: every target spawned in rotating order, one fresh process each time. */
export async function measure(ctx: BenchContext): Promise<Row[]> {
  const targets: Record<string, string[]> = {
    empty: ['-e', ''],
    import: ['--input-type=module', '-e', script(ctx.dist, undefined)],
    // For reference: what loading zod costs before any schema is built, as the build loads it.
    zod: ['-e', "require('zod')"],
    'zod-mini': ['-e', "require('zod/mini')"],
  };
  for (const family of FAMILIES) {
    targets[family.key] = ['--input-type=module', '-e', script(ctx.dist, family)];
    // For reference: the same body in an object the plain check leaves to the schema, so the
    // first request loads zod and builds the family's schemas.
    const viaSchema = { ...family, viaSchema: true };
    targets[`${family.key}-schema`] = ['--input-type=module', '-e', script(ctx.dist, viaSchema)];
  }
  const rounds = reps(ctx, 31, 5);
  for (const args of Object.values(targets)) timeProcess(args, ctx.root); // fill the file cache
  const inProcess: Record<string, number[]> = {};
  const samples = await interleave(Object.keys(targets), rounds, async (key) => {
    const { ms, out } = timeProcess(targets[key] as string[], ctx.root);
    if (out) {
      inProcess[key] ??= [];
      inProcess[key].push(Number(out));
    }
    return ms;
  });
  const importSamples = samples.import ?? [];
  const emptySamples = samples.empty ?? [];
  const importOver = median(pairedDifference(importSamples, emptySamples));
  const alone = (key: string) => median(pairedDifference(samples[key] ?? [], emptySamples)).toFixed(0);
  const wall = (key: string) => pairedDifference(samples[key] ?? [], importSamples);
  const rows = FAMILIES.map((family): Row => {
    const firstCall = inProcess[family.key] ?? [];
    return {
      id: `validation.cold.${family.key}`,
      figure: `(10) first ${family.call.replace('client.', '')} validation in a fresh process, over the import`,
      unit: 'ms',
      better: 'lower',
      mediagw: median(firstCall),
      limit: median(emptySamples),
      limitLabel: "node -e '' itself",
      samples: {
        mediagw: firstCall,
        wallOverImport: wall(family.key),
        schemaRoute: inProcess[`${family.key}-schema`] ?? [],
        limit: emptySamples,
      },
    };
  });
  const list = (pick: (key: Family['key']) => number) =>
    FAMILIES.map((f) => `${f.key} ${pick(f.key).toFixed(1)} ms`).join(', ');
  const viaSchema = list((key) => median(inProcess[`${key}-schema`] ?? []));
  const wallPlain = list((key) => median(wall(key)));
  const wallSchema = list((key) => median(wall(`${key}-schema`)));
  ctx.log(
    `validation cold: first call ${list((key) => median(inProcess[key] ?? []))}; through zod ${viaSchema}`,
  );
  ctx.note(
    `(10) cold validation: ${rounds} fresh processes per target in rotating order, each importing mediagw and building a client (+${importOver.toFixed(1)} ms over \`node -e ''\`), then making one request of the family with an aborted signal (it validates, then stops before connecting); a figure is the median time of that first call, taken inside the process. ` +
      `Bodies: the largest legal vidmodel-2.5 request of (7); an imgmodel-2 generateAsync with every output field, 8 image_urls and notifications; a 20-material assets.submit with a new group. ` +
      `The same bodies in objects the plain checks leave to the zod schemas (a prototype that is not Object.prototype): ${viaSchema}. ` +
      `Wall time from spawn to exit over the import-only process of the same round: ${wallPlain} (through zod: ${wallSchema}). ` +
      `For reference, alone over \`node -e ''\`: require('zod') +${alone('zod')} ms, require('zod/mini') +${alone('zod-mini')} ms.`,
  );
  return rows;
}
