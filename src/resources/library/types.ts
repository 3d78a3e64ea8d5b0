import type { Asset, ReviewTask } from '../../core/task-types.js';
import { keepRequestId } from '../../internal/response-body.js';

export type { Asset, ReviewTask } from '../../core/task-types.js';

/**
 * A library group. The spec names its ID, name and description; its other fields are kept as
 * sent and read with `withExtraFields`.
 */
export interface Group {
  /** The group ID, for `group_id` in review batches and material lists. */
  id: string;
  /** Name, at most 255 characters. */
  name: string;
  /** Description, at most 4000 characters; optional when the group was created. */
  description?: string | undefined;
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
  if (inner && typeof inner === 'object' && body?._requestId) keepRequestId(inner, body._requestId);
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
  return keepRequestId(
    { ...data, usable_assets: refs } as ReviewTask,
    (data as { _requestId?: string })._requestId,
  );
}
