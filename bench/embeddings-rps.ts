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
  url: string;
  /** Warm-up requests per client, sequential and then again at 32 in flight. */
  warmup: number;
  /** Blocks per mode; in each block every client runs once, in an order that rotates. */
  blocks: number;
  /** Requests per client and block, one at a time. */
  sequential: number;
  /** Requests per client and block, 32 in flight. */
  concurrent: number;
}

type Mode = 'sequential' | 'concurrent';

/** One round (one process): each client's median rate, and mediagw's ratios paired by block. */
interface WorkerResult {
  rates: Record<Mode, Record<Client, number>>;
  /** Median over the blocks of mediagw's rate over raw undici's in the same block. */
  ratio: Record<Mode, number>;
  /** The same over openai-node. */
  peerRatio: Record<Mode, number>;
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

/**
 * Child side: the three clients in one process, warmed up, then taking turns in short blocks on
 * the same server, so that whatever the machine does at a moment weighs on all of them alike.
 */
export async function embeddingsWorker(args: WorkerArgs): Promise<WorkerResult> {
  const calls = {} as Record<Client, () => Promise<unknown>>;
  for (const client of CLIENTS) {
    const call = await makeCall(client, args.url);
    const first = (await call()) as { data?: Array<{ embedding?: unknown[] }> };
    if (first.data?.[0]?.embedding?.length !== EMBEDDING_PARAMS.dimensions) {
      throw new Error(`${client} did not return the vector`);
    }
    await timed(args.warmup, 1, call);
    await timed(args.warmup, LANES, call);
    calls[client] = call;
  }
  const result = { rates: {}, ratio: {}, peerRatio: {} } as WorkerResult;
  for (const mode of ['sequential', 'concurrent'] as const) {
    const [count, lanes] = mode === 'sequential' ? [args.sequential, 1] : [args.concurrent, LANES];
    const samples = await interleave(CLIENTS, args.blocks, (client) => timed(count, lanes, calls[client]));
    result.rates[mode] = Object.fromEntries(
      CLIENTS.map((client) => [client, median(samples[client])]),
    ) as Record<Client, number>;
    result.ratio[mode] = pairedRatio(samples.mediagw, samples.undici) as number;
    result.peerRatio[mode] = pairedRatio(samples.mediagw, samples.openai) as number;
  }
  return result;
}

/** Parent side: the server here, the clients in one fresh process per round. */
export async function measure(ctx: BenchContext): Promise<Row[]> {
  const answer = embeddingsAnswer();
  const server = await startLoopbackServer(() => ({ body: answer }));
  const rounds = reps(ctx, 5, 2);
  const args: WorkerArgs = { url: server.url, warmup: 2_000, blocks: 12, sequential: 400, concurrent: 1_600 };
  try {
    const results: WorkerResult[] = [];
    for (let round = 0; round < rounds; round++) {
      const result = await runInChild<WorkerResult>(modulePath(import.meta.url), 'embeddingsWorker', args);
      for (const mode of ['sequential', 'concurrent'] as const) {
        const rates = CLIENTS.map((c) => `${c} ${result.rates[mode][c].toFixed(0)}`).join(', ');
        ctx.log(`embeddings ${mode}: ${rates} req/s; mediagw/undici ${result.ratio[mode].toFixed(3)}`);
      }
      results.push(result);
    }
    const row = (mode: Mode, figure: string): Row => {
      const pick = (client: Client) => results.map((r) => r.rates[mode][client]);
      return {
        id: `embeddings.${mode}`,
        figure,
        unit: 'req/s',
        better: 'higher',
        mediagw: median(pick('mediagw')),
        limit: median(pick('undici')),
        limitLabel: 'undici.request',
        peer: median(pick('openai')),
        peerLabel: 'openai-node',
        ratio: median(results.map((r) => r.ratio[mode])),
        peerRatio: median(results.map((r) => r.peerRatio[mode])),
        samples: { mediagw: pick('mediagw'), limit: pick('undici'), peer: pick('openai') },
      };
    };
    ctx.note(
      `(1) embeddings: ${rounds} rounds, each one fresh process holding the three clients (raw undici and mediagw share undici's global agent); ` +
        `each client warmed up with ${args.warmup} + ${args.warmup} requests, then ${args.blocks} blocks per mode in which every client runs ` +
        `${args.sequential} sequential requests (or ${args.concurrent} at ${LANES} in flight), in an order that rotates from block to block; ` +
        `256-dimension vector answer (${answer.length} bytes). Rates are medians of the blocks; a ratio is the median of the blocks' ` +
        'own ratios (the clients of a block run back to back), and the figure shown the median over the rounds.',
    );
    return [
      row('sequential', '(1) embeddings.create, sequential'),
      row('concurrent', `(1) embeddings.create, ${LANES} concurrent`),
    ];
  } finally {
    await server.close();
  }
}
