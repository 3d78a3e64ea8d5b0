import { MockHttpError } from '../http-error.js';
import type { GatewayState } from '../state/gateway-state.js';
import { checkAssetReference } from '../state/library-store.js';

type Body = Record<string, unknown>;

// Every field of a video request that may hold media references, the input aliases included.
const LIST_FIELDS = ['image_urls', 'images', 'video_urls', 'video_list', 'audio_urls'] as const;
const ONE_FIELDS = ['image', 'input_reference', 'first_frame_image', 'last_frame_image'] as const;

/** Every `asset://` reference of a video request, with the path of the field that holds it. */
export function assetReferences(body: Body): Array<{ path: string; ref: string }> {
  const out: Array<{ path: string; ref: string }> = [];
  const add = (path: string, value: unknown) => {
    if (typeof value === 'string' && value.startsWith('asset://')) out.push({ path, ref: value });
  };
  for (const field of LIST_FIELDS) {
    const list = body[field];
    if (!Array.isArray(list)) continue;
    for (const [i, value] of list.entries()) add(`${field}[${i}]`, value);
  }
  for (const field of ONE_FIELDS) add(field, body[field]);
  const roles = body.image_with_roles;
  if (Array.isArray(roles)) {
    for (const [i, item] of roles.entries()) {
      add(`image_with_roles[${i}].url`, (item as { url?: unknown } | null)?.url);
    }
  }
  return out;
}

/**
 * Checks the library materials a video request references. spec: Media library — only `Active`
 * materials may be referenced; "Materials combined in one generation must share a compatible
 * group context"; "An approved material from another account or platform cannot be used".
 * spec: Errors — unknown, deleted or foreign material 404; not ready or incompatible group 409.
 * The mock's compatible group context is one group: materials of two groups are refused.
 * @throws MockHttpError 404 or 409, before any task or reservation exists.
 */
export function checkVideoAssets(gateway: GatewayState, account: string, body: Body): void {
  const groups = new Map<string, string>();
  for (const { path, ref } of assetReferences(body)) {
    const asset = checkAssetReference(gateway, account, ref);
    if (asset && !groups.has(asset.group_id)) groups.set(asset.group_id, path);
  }
  if (groups.size > 1) {
    const [first, second] = [...groups.entries()];
    throw MockHttpError.spec(
      409,
      'incompatible_group_context',
      `${second?.[1]}: materials combined in one generation must share a group context (${first?.[0]} at ${first?.[1]}, ${second?.[0]} at ${second?.[1]})`,
    );
  }
}
