/** A library material (asset). Timestamp and source-URL fields exist too; their names are not fixed by the document. */
export interface Asset {
  /** Public material ID. */
  id: string;
  /** Public material ID (same as `id`). */
  asset_id?: string | undefined;
  /** `asset://<asset_id>`: use it unchanged in generation requests; not a download URL. */
  asset_url?: string | undefined;
  /** Display name, at most 255 characters. */
  name?: string | undefined;
  /** `Image`, `Video` or `Audio` (case-sensitive). */
  asset_type?: 'Image' | 'Video' | 'Audio' | (string & {}) | undefined;
  /** The owning group. */
  group_id?: string | undefined;
  /** `Pending`, `Active` or `Failed`. Only `Active` materials may be referenced; `Pending` ones cannot be renamed or deleted. */
  status?: 'Pending' | 'Active' | 'Failed' | (string & {}) | undefined;
  /** Any other field (timestamps, source URL), kept as sent. */
  [key: string]: unknown;
}

/** A library group. Fields beyond these are not fixed by the document. */
export interface Group {
  /** The group ID, for `group_id` in review batches and material lists. */
  id: string;
  /** Name, at most 255 characters. */
  name?: string | undefined;
  /** Description, at most 4000 characters. */
  description?: string | undefined;
  /** Any other field, kept as sent. */
  [key: string]: unknown;
}

/** A library review task, from `GET /v1/tasks/{id}` without `model`. */
export interface ReviewTask {
  /** Review task ID. */
  id: string;
  /** `vidmodel.avatar.asset.task`. */
  object?: string | undefined;
  /** The model the batch was reviewed for, e.g. `vidmodel-2.0` or `vidmodel-2.5`. */
  model?: string | undefined;
  /** `processing`, `completed` or `failed`. A failed batch may still have usable assets. */
  status: 'processing' | 'completed' | 'failed' | (string & {});
  /** 0-100. */
  progress?: number | undefined;
  /** The group the materials belong to (created automatically when the batch named none). */
  group_id?: string | undefined;
  /** Absent when the review failed before per-material results existed. */
  result?:
    | {
        /** All materials of the batch. */
        assets?: Asset[] | undefined;
        /** The materials that are `Active`. */
        usable_assets?: Asset[] | undefined;
        /** The rejected materials. */
        failed_assets?: Asset[] | undefined;
        [key: string]: unknown;
      }
    | undefined;
  /** A safe error message on failure, when the gateway gave one. */
  error?: unknown;
  /** The `asset://` references of the usable (`Active`) materials, ready for video requests. */
  usable_assets: string[];
  /** `X-Service-Request-Id` of the answer (not enumerable). */
  _requestId?: string | undefined;
  /** Any other field, kept as sent. */
  [key: string]: unknown;
}

/** The `{ code, data }` wrapper of library answers. */
export interface LibraryEnvelope<T> {
  /** `200` on success. */
  code?: number | undefined;
  /** The record, the list page or the result. */
  data: T;
  [key: string]: unknown;
}

/** Unwraps `{code, data}`, keeping the request ID. */
export function unwrap<T>(envelope: LibraryEnvelope<T> | T): T {
  const body = envelope as LibraryEnvelope<T> & { _requestId?: string };
  const inner = (body && typeof body === 'object' && 'data' in body ? body.data : envelope) as T;
  if (inner && typeof inner === 'object' && body?._requestId) {
    Object.defineProperty(inner, '_requestId', { value: body._requestId, enumerable: false });
  }
  return inner;
}

/**
 * The `asset://` reference of a material: its `asset_url`, else `asset://<asset_id or id>`.
 * A bare string entry is taken as a reference or an ID. `undefined` when there is none.
 * Never throws.
 *
 * @example
 * assetReference({ id: 'asset_123' }); // 'asset://asset_123'
 * assetReference('https://example.com/a.png'); // undefined: a URL is not a material
 */
export function assetReference(entry: unknown): string | undefined {
  if (typeof entry === 'string') {
    if (entry.startsWith('asset://')) return entry;
    return entry && !entry.includes('://') ? `asset://${entry}` : undefined;
  }
  if (!entry || typeof entry !== 'object') return undefined;
  const asset = entry as Asset;
  if (typeof asset.asset_url === 'string' && asset.asset_url.startsWith('asset://')) return asset.asset_url;
  const id = asset.asset_id || asset.id;
  return typeof id === 'string' && id ? `asset://${id}` : undefined;
}

/** Normalises a review task answer and adds the `asset://` references of its usable materials. */
export function toReviewTask(raw: unknown): ReviewTask {
  const data = (unwrap(raw as LibraryEnvelope<Partial<ReviewTask>>) ?? {}) as Partial<ReviewTask>;
  const listed: unknown = data.result?.usable_assets;
  const usable: unknown[] = Array.isArray(listed) ? listed : [];
  const refs = usable.map((entry) => assetReference(entry)).filter((ref): ref is string => ref !== undefined);
  const task = { ...data, usable_assets: refs } as ReviewTask;
  Object.defineProperty(task, '_requestId', {
    value: (data as { _requestId?: string })._requestId,
    enumerable: false,
  });
  return task;
}
