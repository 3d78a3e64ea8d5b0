/** A video task in object style, from `GET /v1/videos/{id}`. */
export interface VideoTask {
  /** Public task ID. */
  id: string;
  /** `video`. */
  object: string;
  /** Model ID (shown for `vidmodel-2.5`). */
  model?: string | undefined;
  /** `queued`, `in_progress`, `completed` or `failed`. */
  status: 'queued' | 'in_progress' | 'completed' | 'failed' | (string & {});
  /** Percent text, e.g. `100%`. */
  progress?: string | undefined;
  /** Authenticated download URL (success only). Use `videos.downloadContent`. */
  url?: string | undefined;
  /** A statistic, not a price; may be absent right after completion. */
  usage?:
    | {
        /** `vidmodel-2.5` token count of the output: a statistic, not a price. */
        completion_tokens?: number | undefined;
        [key: string]: unknown;
      }
    | undefined;
  /** Seconds from submission to completion, waiting included; success only; not the video's duration. */
  actual_time?: number | undefined;
  /** Present only when `return_last_frame` was true, the frame exists and the task succeeded. */
  last_frame_url?: string | undefined;
  /** On failure: `code` (e.g. `task_failed`) and `message`. */
  error?:
    | {
        /** The failure code, e.g. `task_failed`, `FormatUnsupported`, `InvalidParameter.TaskTypeMismatch`. */
        code?: string | undefined;
        /** The failure message; a review failure may carry no detail. */
        message?: string | undefined;
      }
    | null
    | undefined;
  /** `X-Service-Request-Id` of the answer (not enumerable). */
  _requestId?: string | undefined;
  /** Any other field, kept as sent. */
  [key: string]: unknown;
}

/** A video task in the compatibility format, from `GET /v1/video/generations/{id}`. */
export interface VideoTaskCompat {
  /** `success` on a successful query. */
  code: string;
  /** Empty on success. */
  message: string;
  /** The task. */
  data: {
    /** Public task ID. */
    task_id: string;
    /** `queued`, `processing`, `succeeded` or `failed`. */
    status: 'queued' | 'processing' | 'succeeded' | 'failed' | (string & {});
    /** Authenticated download URL of the video. */
    url?: string | undefined;
    /** Container, e.g. `mp4`. */
    format?: string | undefined;
    /** On failure holds `message`. */
    error?:
      | {
          /** The failure message. */
          message?: string | undefined;
          /** The failure code, when the gateway gives one. */
          code?: string | undefined;
        }
      | null
      | undefined;
    /** Legacy; currently null. */
    metadata?: null | undefined;
    /** `vidmodel-2.5` responses; may be absent right after completion. */
    usage?:
      | {
          /** A statistic, not a price. */
          completion_tokens?: number | undefined;
        }
      | undefined;
    /** Seconds from submission to completion, waiting included; success only; not the video's duration. */
    actual_time?: number | undefined;
    /** Omitted (not null) unless `return_last_frame` was true, the frame exists and the task succeeded. */
    last_frame_url?: string | undefined;
    [key: string]: unknown;
  };
  /** `X-Service-Request-Id` of the answer (not enumerable). */
  _requestId?: string | undefined;
}

/**
 * Default poll interval by model, `[min, max]` ms, jittered by the wait (spec: States — mini
 * 3-5 s, 2.5 5-10 s). An answer that names no model is not a `vidmodel-2.5` task (the object
 * style shows `model` for 2.5), so it gets 3-5 s, the figure for mini and images. The spec gives
 * no figure for another named model: it gets 4-6 s, around 5 s, jittered like the rest so that
 * many waits started together spread out.
 */
export function videoPollInterval(model: string | undefined): readonly [number, number] {
  if (model === 'vidmodel-2.5') return [5_000, 10_000];
  if (model === undefined || model === 'vidmodel-2.0-mini') return [3_000, 5_000];
  return [4_000, 6_000];
}
