/**
 * Embeds two texts and prints their cosine similarity.
 *
 *   npx tsx examples/embeddings-similarity.ts   (starts its own mock gateway)
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

/** Embeds two texts with one request and returns their cosine similarity. */
export async function main(opts: ExampleOptions): Promise<{ similarity: number; dimensions: number }> {
  const client = new MediaGateway({ baseURL: opts.baseURL, apiKey: opts.apiKey });
  const texts = ['A red fox jumps over the fence.', 'The red fox jumped over a fence.'];
  // One request for both texts; data[i] belongs to texts[i].
  const { data, model, dimensions } = await client.embeddings.create({
    model: 'text-embedding-3-small',
    input: texts,
    dimensions: 512,
  });
  const similarity = cosineSimilarity(data[0]!.embedding, data[1]!.embedding);
  // Only compare vectors of the same model and dimensions.
  console.log(`${model} (${dimensions} dimensions): cosine similarity ${similarity.toFixed(4)}`);
  return { similarity, dimensions };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const gateway = await startMockGateway();
  try {
    await main({ baseURL: gateway.url, apiKey: gateway.apiKey });
  } finally {
    await gateway.close();
  }
}
