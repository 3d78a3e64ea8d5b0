/**
 * The tasks a wait can end with, and the records they hold, as the gateway answers them: video
 * tasks (object style and compatibility format), image tasks and library review tasks. They
 * sit in core/ because the wait's errors (`TaskFailedError`, `WaitTimeoutError`, ...) carry them;
 * the resources that read them re-export them.
 *
 * Each type lists the spec's fields only: a field the spec always sends is required, one it
 * sends on a condition (success only, `vidmodel-2.5` only, ...) is optional. Fields the spec
 * does not name are still on the object as received; read them with `withExtraFields` (or an
 * `in` check), or through `raw` where a type has one.
 */

/** An image task's status, normalised from the spec's status table. */
export type ImageTaskState = 'pending' | 'running' | 'succeeded' | 'failed';

/**
 * The image task as the gateway sends it from `GET /v1/tasks/{id}?model=` (`data` of the answer).
 *
 * @inline
 */
export interface ImageTaskData {
  /** The wire status; see {@link ImageTaskState} for how it maps. */
  status: string;
  /** `result.images`: tracked tasks list `{ url }` objects, legacy upstreams a URL array. */
  result?: {
    /** Every generated image: `{ url }` objects, or bare URL strings from legacy upstreams. */
    images?:
      | Array<
          | {
              /** The image's URL. */
              url: string;
              [key: string]: unknown;
            }
          | string
        >
      | undefined;
    [key: string]: unknown;
  };
  /** The failure reason, as the upstream gave it. */
  error?: unknown;
  /** Any other field, kept as sent. */
  [key: string]: unknown;
}

/** An image task, with its status normalised as `state` and every image as a `{ url }` entry. */
export interface ImageTask {
  /** The task ID queried. */
  task_id: string;
  /** The wire object (`code`, `data`, ...). */
  raw: {
    /** The task's `data` object. */
    data?: ImageTaskData;
    [key: string]: unknown;
  };
  /** The wire status (`pending`, `processing`, `succeeded`, `error`, ...). */
  status: string;
  /** `pending`, `running`, `succeeded` or `failed`. An unknown status counts as `running`. */
  state: ImageTaskState;
  /** Every generated image, whether the upstream listed objects or bare URLs. */
  images: Array<{
    /** The image's URL; download it with `images.download`. */
    url: string;
  }>;
  /** The failure reason, when the task failed and the gateway said. */
  error:
    | {
        /** The upstream's error code, when it gave one. */
        code?: string | undefined;
        /** The upstream's message, when it gave one. */
        message?: string | undefined;
      }
    | undefined;
  /** `X-Service-Request-Id` of the answer (not enumerable). */
  _requestId?: string | undefined;
}

/** A video task in object style, from `GET /v1/videos/{id}`. */
export interface VideoTask {
  /** Public task ID. */
  id: string;
  /** Always `video`. */
  object: 'video';
  /** Model ID: shown for `vidmodel-2.5` only. */
  model?: string | undefined;
  /** `queued`, `in_progress`, `completed` or `failed`. */
  status: 'queued' | 'in_progress' | 'completed' | 'failed' | (string & {});
  /** Percent text, e.g. `100%`. */
  progress: string;
  /** Authenticated download URL; success only. Use `videos.downloadContent`. */
  url?: string | undefined;
  /** `vidmodel-2.5` on success; may be absent right after completion. */
  usage?:
    | {
        /** Token count of the output: a statistic, not a price. */
        completion_tokens?: number | undefined;
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
    /** Authenticated download URL of the video; success only. */
    url?: string | undefined;
    /** Container, e.g. `mp4`. */
    format: string;
    /** `null`, or on failure an object holding `message`. */
    error: {
      /** The failure message. */
      message?: string | undefined;
      /** The failure code, when the gateway gives one. */
      code?: string | undefined;
    } | null;
    /** Legacy; currently null. */
    metadata: null;
    /** `vidmodel-2.5` on success, as in {@link VideoTask}; may be absent right after completion. */
    usage?: VideoTask['usage'];
    /** Seconds from submission to completion, waiting included; success only; not the video's duration. */
    actual_time?: number | undefined;
    /** Omitted (not null) unless `return_last_frame` was true, the frame exists and the task succeeded. */
    last_frame_url?: string | undefined;
  };
  /** `X-Service-Request-Id` of the answer (not enumerable). */
  _requestId?: string | undefined;
}

/**
 * A library material (asset). Timestamp and source-URL fields exist too; the spec does not name
 * them, so they are read with `withExtraFields`.
 */
export interface Asset {
  /** Public material ID. */
  id: string;
  /** Public material ID (same as `id`). */
  asset_id: string;
  /** `asset://<asset_id>`: use it unchanged in generation requests; not a download URL. */
  asset_url: string;
  /** Display name, at most 255 characters. */
  name: string;
  /** `Image`, `Video` or `Audio` (case-sensitive). */
  asset_type: 'Image' | 'Video' | 'Audio' | (string & {});
  /** The owning group. */
  group_id: string;
  /** `Pending`, `Active` or `Failed`. Only `Active` materials may be referenced; `Pending` ones cannot be renamed or deleted. */
  status: 'Pending' | 'Active' | 'Failed' | (string & {});
}

/** A library review task, from `GET /v1/tasks/{id}` without `model`. */
export interface ReviewTask {
  /** Review task ID. */
  id: string;
  /** Always `vidmodel.avatar.asset.task`. */
  object: 'vidmodel.avatar.asset.task';
  /** The model the batch was reviewed for, e.g. `vidmodel-2.0` or `vidmodel-2.5`. */
  model: string;
  /** `processing`, `completed` or `failed`. A failed batch may still have usable assets. */
  status: 'processing' | 'completed' | 'failed' | (string & {});
  /** 0-100. */
  progress: number;
  /** The group the materials belong to (created automatically when the batch named none). */
  group_id: string;
  /** Absent when the review failed before per-material results existed. */
  result?:
    | {
        /** All materials of the batch. */
        assets: Asset[];
        /** The materials that are `Active`. */
        usable_assets: Asset[];
        /** The rejected materials. */
        failed_assets: Asset[];
      }
    | undefined;
  /** A safe error message on failure, when the gateway gave one. */
  error?: unknown;
  /** The `asset://` references of the usable (`Active`) materials, ready for video requests. */
  usable_assets: string[];
  /** `X-Service-Request-Id` of the answer (not enumerable). */
  _requestId?: string | undefined;
}

/**
 * The asynchronous submission envelope of image and video tasks, as the gateway sends it.
 *
 * @inline
 */
export interface SubmissionEnvelope {
  /** `200` on acceptance. */
  code: number;
  /** Normally one element: `status` (normally `submitted`) and the public `task_id`. */
  data: Array<{
    /** Normally `submitted`; an upstream may already report a completion state. */
    status: string;
    /** The public task ID; the first poll may already show completion. */
    task_id: string;
    [key: string]: unknown;
  }>;
  /** `null`; present in the `vidmodel-2.5` envelope. */
  error?: unknown;
  /** Any other field, kept as sent. */
  [key: string]: unknown;
}

/** Which kind of task a wait was for: it tells {@link TaskByKind} which task type an error holds. */
export type TaskKind = 'video' | 'image' | 'review';

/** The task type of each {@link TaskKind}: what `waitForTask` of that resource resolves with. */
export interface TaskByKind {
  /** `videos.waitForTask`, `videos.createAndWait`. */
  video: VideoTask;
  /** `images.waitForTask`. */
  image: ImageTask;
  /** `library.reviewTasks.waitForTask`. */
  review: ReviewTask;
}

/** Any task a wait can end with: `VideoTask`, `ImageTask` or `ReviewTask`. */
export type AnyTask = TaskByKind[TaskKind];
