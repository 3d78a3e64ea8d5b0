/**
 * The plain checks of valid `library.groups.create` and `library.assets.submit` bodies, without
 * zod, so a process's first library request does not load zod and build the library schemas
 * (bench (10)). Anything they do not let through gives `undefined` and is left to the schema,
 * which stays the rule and words every error. A property test holds that the schema accepts,
 * unchanged, every body these let through.
 */
import { ASSET_TYPES } from '../shared/constants.js';
import {
  codePoints,
  hasExactly,
  isHttpUrl,
  isPlainObject,
  onlyKeys,
  plainObjectList,
} from '../shared/fast-rules.js';

// spec: Limits — limits are in characters (code points).
const isName = (value: unknown) => typeof value === 'string' && value.length > 0 && codePoints(value) <= 255;
const isDescription = (value: unknown) => typeof value === 'string' && codePoints(value) <= 4000;
const isId = (value: unknown) => typeof value === 'string' && value.length > 0;
const optional = (value: unknown, test: (value: unknown) => boolean) => value === undefined || test(value);

const GROUP_FIELDS = new Set(['model', 'name', 'description']);

/** The body of a plain, valid `library.groups.create` request, as a copy; else `undefined`. */
export function plainGroupCreateRequest<T>(params: unknown): T | undefined {
  if (!isPlainObject(params) || !onlyKeys(params, GROUP_FIELDS)) return undefined;
  const { model, name, description } = params;
  if (!isName(name) || !optional(model, isId) || !optional(description, isDescription)) return undefined;
  return { ...params } as T;
}

const SUBMIT_FIELDS = new Set(['model', 'group', 'group_id', 'project_name', 'asset_type', 'assets']);
const NEW_GROUP_FIELDS = new Set(['name', 'description']);

const isAsset = (item: Record<string, unknown>) =>
  (hasExactly(item, ['url']) || hasExactly(item, ['url', 'name'])) &&
  typeof item.url === 'string' &&
  isHttpUrl(item.url) &&
  codePoints(item.url) <= 8192 &&
  optional(item.name, (name) => typeof name === 'string' && codePoints(name) <= 255);

function plainNewGroup(value: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(value) || !onlyKeys(value, NEW_GROUP_FIELDS)) return undefined;
  for (const key in value) if (value[key] === undefined) return undefined;
  if (!optional(value.name, isName) || !optional(value.description, isDescription)) return undefined;
  return { ...value };
}

/** The body of a plain, valid `library.assets.submit` review batch, as a copy; else `undefined`. */
export function plainAssetSubmitRequest<T>(params: unknown): T | undefined {
  if (!isPlainObject(params) || !onlyKeys(params, SUBMIT_FIELDS)) return undefined;
  const { model, group, group_id, project_name, asset_type, assets } = params;
  if (!optional(model, isId) || !optional(group_id, isId)) return undefined;
  if (!optional(project_name, (v) => v === 'default')) return undefined;
  if (!optional(asset_type, (v) => (ASSET_TYPES as readonly unknown[]).includes(v))) return undefined;
  // spec: Library material — a batch of 1 to 20 materials; a new group or an existing one, not both.
  if (group !== undefined && group_id !== undefined) return undefined;
  const list = plainObjectList(assets, 20, isAsset);
  if (list === undefined || list.length === 0) return undefined;
  const body: Record<string, unknown> = { ...params, assets: list };
  if (group !== undefined) {
    const copy = plainNewGroup(group);
    if (copy === undefined) return undefined;
    body.group = copy;
  }
  return body as T;
}
