/**
 * (2) Peak RSS growth of a process uploading one large image through `images.edit`: mediagw
 * from `fileFromPath` and from a Buffer, raw undici with a FormData of `fs.openAsBlob`, and
 * openai-node `images.edit` with an `fs.ReadStream`, at 20 MiB and 100 MiB.
 */
import { closeSync, createReadStream, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { runInChild } from './lib/child.js';
import { type BenchContext, modulePath, reps } from './lib/context.js';
import { startLoopbackServer } from './lib/loopback-server.js';
import { loadMediagw, loadTesting } from './lib/package.js';
import type { Row } from './lib/results.js';
import { type PeakRss, SETTLE_MS, settleAfterWarmUp, startPeakRss } from './lib/rss.js';
import { MiB, median, ratio } from './lib/stats.js';

type Client = 'mediagw' | 'undici' | 'openai';
type Source = 'path' | 'buffer';
const API_KEY = 'mgw_bench_key';
const PROMPT = 'make the sky purple';

interface Case {
  key: string;
  client: Client;
  source: Source;
  mib: number;
}

const CASES: readonly Case[] = [20, 100].flatMap((mib) => [
  { key: `mediagw-path-${mib}`, client: 'mediagw' as const, source: 'path' as const, mib },
  { key: `mediagw-buffer-${mib}`, client: 'mediagw' as const, source: 'buffer' as const, mib },
  { key: `undici-${mib}`, client: 'undici' as const, source: 'path' as const, mib },
  { key: `openai-${mib}`, client: 'openai' as const, source: 'path' as const, mib },
]);

interface WorkerArgs {
  client: Client;
  source: Source;
  file: string;
  warmupFile: string;
  url: string;
}

interface WorkerResult extends PeakRss {
  seconds: number;
}

async function uploader(
  client: Client,
  url: string,
): Promise<(file: string, buffer?: Buffer) => Promise<unknown>> {
  if (client === 'mediagw') {
    const { MediaGateway, fileFromPath } = await loadMediagw();
    const gateway = new MediaGateway({ apiKey: API_KEY, baseURL: url });
    return async (file, buffer) =>
      gateway.images.edit({
        model: 'imgmodel-2',
        prompt: PROMPT,
        image: buffer ?? (await fileFromPath(file)),
      });
  }
  if (client === 'undici') {
    const { FormData, request } = await import('undici');
    const { openAsBlob } = await import('node:fs');
    return async (file) => {
      const form = new FormData();
      form.append('model', 'imgmodel-2');
      form.append('prompt', PROMPT);
      form.append('image', await openAsBlob(file, { type: 'image/png' }), 'image.png');
      const response = await request(`${url}/v1/images/edits`, {
        method: 'POST',
        headers: { authorization: `Bearer ${API_KEY}` },
        body: form,
      });
      return response.body.json();
    };
  }
  const { default: OpenAI } = await import('openai');
  const openai = new OpenAI({ apiKey: API_KEY, baseURL: `${url}/v1` });
  return (file) =>
    openai.images.edit({ model: 'gpt-image-1', prompt: PROMPT, image: createReadStream(file) });
}

/** Child side: one warm-up upload of a small file, then the measured upload. */
export async function uploadWorker(args: WorkerArgs): Promise<WorkerResult> {
  const upload = await uploader(args.client, args.url);
  const warm = args.source === 'buffer' ? readFileSync(args.warmupFile) : undefined;
  await upload(args.warmupFile, warm);
  // A Buffer source is the caller's memory, read before the measurement starts.
  const buffer = args.source === 'buffer' ? readFileSync(args.file) : undefined;
  await settleAfterWarmUp();
  const stop = startPeakRss();
  const started = performance.now();
  const answer = (await upload(args.file, buffer)) as { data?: unknown[] };
  const seconds = (performance.now() - started) / 1000;
  const peak = stop();
  if (!Array.isArray(answer.data)) throw new Error(`${args.client}: unexpected answer`);
  return { ...peak, seconds };
}

/** Writes a PNG of `bytes` bytes: a real image followed by filler, which decoders ignore. */
async function writeImage(path: string, bytes: number): Promise<void> {
  const { pngImage } = await loadTesting();
  const head = pngImage({ width: 64, height: 64 });
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, head);
    const filler = Buffer.alloc(MiB, 0x5a);
    for (let written = head.length; written < bytes; written += filler.length) {
      writeSync(fd, filler, 0, Math.min(filler.length, bytes - written));
    }
  } finally {
    closeSync(fd);
  }
}

/** Parent side: the files and a draining server here, one fresh process per sample. */
export async function measure(ctx: BenchContext): Promise<Row[]> {
  const warmupFile = join(ctx.tmp, 'warmup.png');
  await writeImage(warmupFile, 64 * 1024);
  const files = new Map<number, string>();
  for (const mib of [20, 100]) {
    const file = join(ctx.tmp, `upload-${mib}.png`);
    await writeImage(file, mib * MiB);
    files.set(mib, file);
  }
  const answer = Buffer.from(JSON.stringify({ created: 1, data: [{ url: 'https://media.example/a.png' }] }));
  const server = await startLoopbackServer(() => ({ body: answer }));
  const rounds = reps(ctx, 3, 1);
  const samples = new Map<string, WorkerResult[]>();
  try {
    for (let round = 0; round < rounds; round++) {
      for (const item of CASES) {
        const result = await runInChild<WorkerResult>(modulePath(import.meta.url), 'uploadWorker', {
          client: item.client,
          source: item.source,
          file: files.get(item.mib) as string,
          warmupFile,
          url: server.url,
        } satisfies WorkerArgs);
        if (server.lastBodyBytes < item.mib * MiB) {
          throw new Error(`${item.key}: the server received only ${server.lastBodyBytes} bytes`);
        }
        ctx.log(`upload ${item.key}: +${(result.growth / MiB).toFixed(1)} MiB peak RSS (${result.method})`);
        samples.set(item.key, [...(samples.get(item.key) ?? []), result]);
      }
    }
  } finally {
    await server.close();
  }
  const mibOf = (key: string) => (samples.get(key) ?? []).map((s) => s.growth / MiB);
  const row = (mib: number, source: Source): Row => {
    const mediagw = median(mibOf(`mediagw-${source}-${mib}`));
    const limit = median(mibOf(`undici-${mib}`));
    const peer = median(mibOf(`openai-${mib}`));
    return {
      id: `upload.${mib}MiB.${source}`,
      figure: `(2) images.edit ${mib} MiB upload from ${source === 'path' ? 'fileFromPath' : 'a Buffer'}, peak RSS growth`,
      unit: 'MiB',
      better: 'lower',
      mediagw,
      limit,
      limitLabel: 'undici FormData(openAsBlob)',
      peer,
      peerLabel: 'openai-node, ReadStream',
      ratio: ratio(mediagw, limit),
      peerRatio: ratio(mediagw, peer),
      samples: {
        mediagw: mibOf(`mediagw-${source}-${mib}`),
        limit: mibOf(`undici-${mib}`),
        peer: mibOf(`openai-${mib}`),
      },
    };
  };
  ctx.note(
    `(2) upload: ${rounds} fresh process(es) per case; growth = kernel peak RSS (VmHWM, reset after a warm-up upload of 64 KiB and a ${SETTLE_MS / 1000} s pause) minus RSS before the upload. A Buffer source is read before the baseline.`,
  );
  return [row(20, 'path'), row(20, 'buffer'), row(100, 'path'), row(100, 'buffer')];
}
