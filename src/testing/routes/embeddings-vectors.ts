import { createHash } from 'node:crypto';

/** spec: Limits — an embedding text is limited to 8192 tokens. */
export const MAX_EMBEDDING_TOKENS = 8192;

const TOKEN = /[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu;

/**
 * The mock's tokens of a text: runs of letters or digits, and every other non-space character.
 * Real tokenizers differ by route (spec: Limits); this only has to be stable.
 */
export function mockTokens(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

/** A small seeded generator (mulberry32) giving numbers in [-1, 1). */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) / 4294967296) * 2 - 1;
  };
}

/**
 * A deterministic, unit-length vector for `text`: the sum of one pseudo-random vector per
 * lowercased word (seeded by a hash of model and word), so texts that share words point in
 * similar directions. With `dimensions` below the model's size the full vector is cut and
 * normalised again, as reduced `text-embedding-3-small` vectors are.
 *
 * @example mockEmbedding('bge-m3', 'a red fox', 1024).length // 1024
 */
export function mockEmbedding(
  model: string,
  text: string,
  fullSize: number,
  dimensions = fullSize,
): number[] {
  const words = mockTokens(text.toLowerCase()).filter((t) => /[\p{L}\p{N}]/u.test(t));
  const sum = new Float64Array(fullSize);
  for (const word of words.length > 0 ? words : [text]) {
    const digest = createHash('sha256').update(`${model}\0${word}`).digest();
    const next = generator(digest.readUInt32LE(0));
    for (let i = 0; i < fullSize; i++) sum[i] = (sum[i] ?? 0) + next();
  }
  const size = Math.min(dimensions, fullSize);
  let norm = 0;
  for (let i = 0; i < size; i++) norm += (sum[i] ?? 0) ** 2;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  return Array.from({ length: size }, (_, i) => (sum[i] ?? 0) * scale);
}

/** Packs a vector as base64 of little-endian float32 values (`encoding_format: 'base64'`). */
export function toBase64Float32(vector: readonly number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, i) => {
    bytes.writeFloatLE(value, i * 4);
  });
  return bytes.toString('base64');
}
