/**
 * Default per-attempt timeouts by operation, from the spec's Limits ("Suggested client
 * timeouts for images: 180 s basic, 300 s higher resolution, 600 s demanding or high-quality
 * edits"). The client's `timeout` option and a call's `timeout` override them.
 */
export const TIMEOUTS = {
  /** Ordinary calls: queries, management, embeddings. */
  default: 60_000,
  /** Image generation and edits at basic settings. */
  imageBasic: 180_000,
  /** Higher resolution (2k, 4k, or a side over 1536 px). */
  imageHighResolution: 300_000,
  /** Edits at high quality or higher resolution. */
  imageDemandingEdit: 600_000,
  /**
   * Video, Midjourney and async image submissions: a synchronous upstream makes the gateway
   * wait for generation before it returns the task ID (spec: Asynchronous submission envelope).
   */
  submission: 300_000,
} as const;

interface ImageTimeoutParams {
  resolution?: unknown;
  size?: unknown;
  quality?: unknown;
}

function isHighResolution(params: ImageTimeoutParams): boolean {
  if (typeof params.resolution === 'string' && /^[2-9]k$/i.test(params.resolution)) return true;
  if (typeof params.size === 'string') {
    const match = /^(\d+)x(\d+)$/.exec(params.size);
    if (match && Math.max(Number(match[1]), Number(match[2])) > 1536) return true;
  }
  return false;
}

/** The default timeout of an image generation or edit with these parameters. */
export function imageTimeout(params: ImageTimeoutParams, kind: 'generate' | 'edit'): number {
  const high = isHighResolution(params);
  if (kind === 'edit' && (high || params.quality === 'high' || params.quality === 'hd')) {
    return TIMEOUTS.imageDemandingEdit;
  }
  return high ? TIMEOUTS.imageHighResolution : TIMEOUTS.imageBasic;
}
