import { InvalidResponseError } from '../core/errors/transport.js';
import { keepRequestId } from '../internal/response-body.js';

/** One vector of an embeddings answer. */
export interface Embedding {
  /** Position of its text in the request's `input`. */
  index: number;
  /** The vector. A base64 answer is decoded into numbers. */
  embedding: number[];
  /** `embedding` when the gateway sends it. */
  object?: string | undefined;
}

/**
 * An embeddings answer, typed as the OpenAI-compatible list the gateway returns, and tagged
 * with the model and the vectors' dimensions. Vectors of different models or dimensions must
 * not share an index (spec: Embeddings).
 */
export interface EmbeddingsResponse {
  /** One vector per input text, sorted by `index`. */
  data: Embedding[];
  /** The model that made the vectors (the answer's, else the request's). */
  model: string;
  /** Length of the vectors. */
  dimensions: number;
  /** Token counts, when the gateway sends them (summed over batches by `createBatched`). */
  usage?:
    | {
        /** Tokens in the input texts. */
        prompt_tokens?: number | undefined;
        /** Tokens billed for the request. */
        total_tokens?: number | undefined;
        [key: string]: unknown;
      }
    | undefined;
  /** `list` when the gateway sends it. */
  object?: string | undefined;
  /** `X-Service-Request-Id` of the answer (not enumerable); absent on a `createBatched` result. */
  _requestId?: string | undefined;
}

/** Decodes a base64 string of little-endian float32 values. */
export function decodeBase64Embedding(value: string): number[] {
  const bytes = Buffer.from(value, 'base64');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Array<number>(Math.floor(bytes.byteLength / 4));
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

// An object is NaN, not Number(object): an answer's object may shadow toString and valueOf
// with non-functions, and converting it would throw a TypeError.
const toNumber = (value: unknown): number =>
  value !== null && typeof value === 'object' ? Number.NaN : Number(value);

/** The vector as numbers: a list that already holds only numbers is kept, not copied. */
function numbers(list: unknown[]): number[] {
  for (let i = 0; i < list.length; i++) {
    if (typeof list[i] !== 'number') return list.map(toNumber);
  }
  return list as number[];
}

/**
 * Reads an embeddings answer leniently: the document does not fix its shape, so the
 * OpenAI-compatible `data[].embedding` list is read, entries without `index` take their
 * position, and base64 vectors are decoded.
 *
 * @throws InvalidResponseError when the answer holds no vectors.
 */
export function toEmbeddingsResponse(
  raw: unknown,
  requestedModel: string,
  requestId?: string | undefined,
): EmbeddingsResponse {
  const body = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const list = Array.isArray(body.data) ? body.data : undefined;
  if (!list) {
    throw new InvalidResponseError(
      'POST /v1/embeddings answered without a data list of vectors',
      200,
      undefined,
    );
  }
  const data: Embedding[] = list.map((entry, position) => {
    const item = (entry && typeof entry === 'object' ? entry : {}) as Record<string, unknown>;
    const vector = item.embedding;
    const embedding =
      typeof vector === 'string'
        ? decodeBase64Embedding(vector)
        : Array.isArray(vector)
          ? numbers(vector)
          : Array.isArray(entry)
            ? (entry as unknown[]).map(toNumber)
            : [];
    const result: Embedding = { index: typeof item.index === 'number' ? item.index : position, embedding };
    if (typeof item.object === 'string') result.object = item.object;
    return result;
  });
  data.sort((a, b) => a.index - b.index);
  const response: EmbeddingsResponse = {
    data,
    model: typeof body.model === 'string' && body.model ? body.model : requestedModel,
    dimensions: data[0]?.embedding.length ?? 0,
  };
  if (body.usage && typeof body.usage === 'object')
    response.usage = body.usage as EmbeddingsResponse['usage'];
  if (typeof body.object === 'string') response.object = body.object;
  return keepRequestId(response, requestId);
}

/**
 * Cosine similarity of two vectors of the same length: from -1 to 1, or 0 when either vector
 * is all zeros. Compare only vectors of the same model and dimensions.
 *
 * @throws RangeError when the vectors differ in length.
 * @example
 * const { data } = await client.embeddings.create({ model: 'bge-m3', input: ['cat', 'kitten'] });
 * cosineSimilarity(data[0]!.embedding, data[1]!.embedding); // e.g. 0.83
 */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new RangeError(`vectors differ in length (${a.length} vs ${b.length})`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/**
 * Runs `work` over `items` in batches of `batchSize`, at most `concurrency` at a time, and
 * returns the results in input order. After the first failure no further batch is started,
 * and the failure is thrown once the batches in flight have settled.
 */
export async function inBatches<T, R>(
  items: readonly T[],
  batchSize: number,
  concurrency: number,
  work: (batch: T[], offset: number) => Promise<R>,
): Promise<R[]> {
  const batches: Array<{ batch: T[]; offset: number }> = [];
  for (let offset = 0; offset < items.length; offset += batchSize) {
    batches.push({ batch: items.slice(offset, offset + batchSize), offset });
  }
  const results = new Array<R>(batches.length);
  let next = 0;
  let failed = false;
  let failure: unknown;
  const worker = async () => {
    while (!failed && next < batches.length) {
      const i = next++;
      const { batch, offset } = batches[i]!;
      try {
        results[i] = await work(batch, offset);
      } catch (error) {
        if (!failed) failure = error;
        failed = true;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, batches.length) }, worker));
  if (failed) throw failure;
  return results;
}
