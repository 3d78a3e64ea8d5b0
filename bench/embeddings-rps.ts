/**
 * (1) Requests per second of `embeddings.create` against a keep-alive loopback server, one
 * request at a time and 32 at once: mediagw vs raw `undici.request` (same JSON body, same
 * parsing) vs openai-node. Validation stays on in mediagw.
 */

import { runInChild } from './lib/child.js';
import { type BenchContext, modulePath, reps } from './lib/context.js';
import { startLoopbackServer } from './lib/loopback-server.js';
import { loadMediagw } from './lib/package.js';
import type { Row } from './lib/results.js';
import { interleave, median, pairedRatio } from './lib/stats.js';

type Client = 'mediagw' | 'undici' | 'openai';
const CLIENTS: readonly Client[] = ['undici', 'mediagw', 'openai'];
const API_KEY = 'mgw_bench_key';
const LANES = 32;

/** The request every client sends (the same JSON). `float` keeps openai-node from decoding base64. */
export const EMBEDDING_PARAMS = {
  model: 'text-embedding-3-small',
  input: 'The quick brown fox jumps over the lazy dog',
  dimensions: 256,
  encoding_format: 'float',
} as const;

/** The answer every client gets: one 256-dimension vector, about 3 KB of JSON. */
export function embeddingsAnswer(): Buffer {
  const embedding = Array.from({ length: EMBEDDING_PARAMS.dimensions }, (_, i) =>
    Number((Math.sin(i + 1) / 10).toFixed(8)),
  );
  return Buffer.from(
    JSON.stringify({
      object: 'list',
      data: [{ object: 'embedding', index: 0, embedding }],
      model: EMBEDDING_PARAMS.model,
      usage: { prompt_tokens: 9, total_tokens: 9 },
    }),
  );
}

interface WorkerArgs {
  client: Client;
  url: string;
  warmup: number;
  sequential: number;
  concurrent: number;
}

interface WorkerResult {
  sequential: number;
  concurrent: number;
}

async function makeCall(client: Client, url: string): Promise<() => Promise<unknown>> {
  if (client === 'undici') {
    const { request } = await import('undici');
    return async () => {
      const response = await request(`${url}/v1/embeddings`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${API_KEY}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify(EMBEDDING_PARAMS),
      });
      if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
      return response.body.json();
    };
  }
  if (client === 'mediagw') {
    const { MediaGateway } = await loadMediagw();
    const gateway = new MediaGateway({ apiKey: API_KEY, baseURL: url });
    return () => gateway.embeddings.create({ ...EMBEDDING_PARAMS });
  }
  const { default: OpenAI } = await import('openai');
  const openai = new OpenAI({ apiKey: API_KEY, baseURL: `${url}/v1` });
  return () => openai.embeddings.create({ ...EMBEDDING_PARAMS });
}

async function timed(count: number, lanes: number, call: () => Promise<unknown>): Promise<number> {
  const perLane = Math.ceil(count / lanes);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      for (let i = 0; i < perLane; i++) await call();
    }),
  );
  return (perLane * lanes) / ((performance.now() - started) / 1000);
}

/** Child side: one client, warmed up, then timed sequentially and with 32 requests in flight. */
export async function embeddingsWorker(args: WorkerArgs): Promise<WorkerResult> {
  const call = await makeCall(args.client, args.url);
  const first = (await call()) as { data?: Array<{ embedding?: unknown[] }> };
  if (first.data?.[0]?.embedding?.length !== EMBEDDING_PARAMS.dimensions) {
    throw new Error(`${args.client} did not return the vector`);
  }
  await timed(args.warmup, 1, call);
  await timed(args.warmup, LANES, call);
  return {
    sequential: await timed(args.sequential, 1, call),
    concurrent: await timed(args.concurrent, LANES, call),
  };
}

/** Parent side: the server here, each client in its own fresh process per repetition. */
export async function measure(ctx: BenchContext): Promise<Row[]> {
  const answer = embeddingsAnswer();
  const server = await startLoopbackServer(() => ({ body: answer }));
  const rounds = reps(ctx, 5, 2);
  // Windows of a second or more: a shorter one measures V8's tiering and GC timing more than the
  // clients, and weighs on the client with more code to warm up.
  const args = { url: server.url, warmup: 2_000, sequential: 3_000, concurrent: 12_000 };
  try {
    const samples = await interleave(CLIENTS, rounds, async (client) => {
      const result = await runInChild<WorkerResult>(modulePath(import.meta.url), 'embeddingsWorker', {
        ...args,
        client,
      });
      ctx.log(
        `embeddings ${client}: ${result.sequential.toFixed(0)} req/s sequential, ${result.concurrent.toFixed(0)} req/s x${LANES}`,
      );
      return result;
    });
    const pick = (client: Client, mode: keyof WorkerResult) => samples[client].map((s) => s[mode]);
    const row = (mode: keyof WorkerResult, figure: string): Row => {
      const mediagw = median(pick('mediagw', mode));
      const limit = median(pick('undici', mode));
      const peer = median(pick('openai', mode));
      return {
        id: `embeddings.${mode}`,
        figure,
        unit: 'req/s',
        better: 'higher',
        mediagw,
        limit,
        limitLabel: 'undici.request',
        peer,
        peerLabel: 'openai-node',
        ratio: pairedRatio(pick('mediagw', mode), pick('undici', mode)),
        peerRatio: pairedRatio(pick('mediagw', mode), pick('openai', mode)),
        samples: { mediagw: pick('mediagw', mode), limit: pick('undici', mode), peer: pick('openai', mode) },
      };
    };
    ctx.note(
      `(1) embeddings: ${rounds} rounds; each round a fresh process per client, ${args.warmup} + ${args.warmup} warm-up requests, ` +
        `then ${args.sequential} sequential and ${args.concurrent} at ${LANES} in flight; 256-dimension vector answer (${answer.length} bytes). ` +
        "Ratios are the median of the rounds' own ratios (each round runs the clients one after another).",
    );
    return [
      row('sequential', '(1) embeddings.create, sequential'),
      row('concurrent', `(1) embeddings.create, ${LANES} concurrent`),
    ];
  } finally {
    await server.close();
  }
}
