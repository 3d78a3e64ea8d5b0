/**
 * Splits a long document into chunks, embeds them in small batches with bounded concurrency,
 * and finds the chunk closest to a question.
 *
 *   npx tsx examples/embeddings-batched.ts   (starts its own mock gateway)
 */
import { pathToFileURL } from 'node:url';
import { cosineSimilarity, MediaGateway } from 'mediagw';
import { startMockGateway } from 'mediagw/testing';

/** Options of {@link main}. */
export interface ExampleOptions {
  baseURL: string;
  apiKey: string;
  outDir?: string | undefined;
}

const DOCUMENT = [
  'The gateway generates images from text and edits images with uploaded reference files.',
  'Video generation is asynchronous: a submission creates a task that is polled until it ends.',
  'The media library reviews materials and yields asset references for video requests.',
  'Webhooks notify a verified endpoint when a task completes or fails.',
  'Embeddings turn texts into dense vectors for search and clustering.',
].join(' ');

/** Cuts a text into chunks of at most `words` words (each text is limited to 8192 tokens). */
function chunk(text: string, words: number): string[] {
  const all = text.split(/\s+/).filter(Boolean);
  const out: string[] = [];
  for (let i = 0; i < all.length; i += words) out.push(all.slice(i, i + words).join(' '));
  return out;
}

/** Embeds the document's chunks in batches and returns the chunk that best answers a question. */
export async function main(opts: ExampleOptions): Promise<{ chunks: number; best: string }> {
  const client = new MediaGateway({ baseURL: opts.baseURL, apiKey: opts.apiKey });
  const chunks = chunk(DOCUMENT, 8);
  // Several small requests, at most two in flight; data[i] belongs to chunks[i].
  const embedded = await client.embeddings.createBatched(
    chunks,
    { model: 'bge-m3' },
    { batchSize: 4, concurrency: 2 },
  );
  // The question must use the same model (and dimensions) as the index.
  const question = await client.embeddings.create({
    model: 'bge-m3',
    input: 'which asset references does the library give',
  });
  const q = question.data[0]!.embedding;
  const scored = embedded.data.map((d) => ({
    text: chunks[d.index]!,
    score: cosineSimilarity(q, d.embedding),
  }));
  scored.sort((a, b) => b.score - a.score);
  const best = scored[0]!;
  console.log(`${chunks.length} chunks embedded with ${embedded.model} (${embedded.dimensions} dimensions)`);
  console.log(`best match (${best.score.toFixed(3)}): ${best.text}`);
  return { chunks: chunks.length, best: best.text };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const gateway = await startMockGateway();
  try {
    await main({ baseURL: gateway.url, apiKey: gateway.apiKey });
  } finally {
    await gateway.close();
  }
}
