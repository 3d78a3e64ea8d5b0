/**
 * The fields and limits of library request bodies, which the schemas (index.ts) take theirs from,
 * and the plain checks of valid `library.groups.create` and `library.assets.submit` bodies,
 * without zod, so a process's first library request does not load zod and build the library
 * schemas (bench (10)). Anything they do not let through gives `undefined` and is left to the
 * schema, which stays the rule and words every error. A property test holds that the schema
 * accepts, unchanged, every body these let through.
 */
import { ASSET_TYPES, LIBRARY_LIMITS } from '../shared/constants.js';
import {
  codePoints,
  hasExactly,
  isHttpUrl,
  isPlainObject,
  onlyKeys,
  plainObjectList,
} from '../shared/fast-rules.js';

// spec: Limits — limits are in characters (code points).
const isName = (value: unknown) =>
  typeof value === 'string' && value.length > 0 && codePoints(value) <= LIBRARY_LIMITS.name;
const isDescription = (value: unknown) =>
  typeof value === 'string' && codePoints(value) <= LIBRARY_LIMITS.description;
const isId = (value: unknown) => typeof value === 'string' && value.length > 0;
const optional = (value: unknown, test: (value: unknown) => boolean) => value === undefined || test(value);

/** The fields of a `library.groups.create` body; the schema's shape holds exactly these. */
export const GROUP_CREATE_FIELDS = ['model', 'name', 'description'] as const;

/** The fields of a `library.assets.submit` body; the schema's shape holds exactly these. */
export const ASSET_SUBMIT_FIELDS = [
  'model',
  'group',
  'group_id',
  'project_name',
  'asset_type',
  'assets',
] as const;

/** The fields of a new group described in a review batch; the schema's shape holds exactly these. */
export const NEW_GROUP_FIELDS = ['name', 'description'] as const;

/** spec: Library material — the only `project_name` supported. */
export const PROJECT_NAME = 'default';

const GROUP_FIELDS = new Set<string>(GROUP_CREATE_FIELDS);

/** The body of a plain, valid `library.groups.create` request, as a copy; else `undefined`. */
export function plainGroupCreateRequest<T>(params: unknown): T | undefined {
  if (!isPlainObject(params) || !onlyKeys(params, GROUP_FIELDS)) return undefined;
  const { model, name, description } = params;
  if (!isName(name) || !optional(model, isId) || !optional(description, isDescription)) return undefined;
  return { ...params } as T;
}

const SUBMIT_FIELDS = new Set<string>(ASSET_SUBMIT_FIELDS);
const NEW_GROUP = new Set<string>(NEW_GROUP_FIELDS);

const isAsset = (item: Record<string, unknown>) =>
  (hasExactly(item, ['url']) || hasExactly(item, ['url', 'name'])) &&
  typeof item.url === 'string' &&
  isHttpUrl(item.url) &&
  codePoints(item.url) <= LIBRARY_LIMITS.url &&
  optional(item.name, (name) => typeof name === 'string' && codePoints(name) <= LIBRARY_LIMITS.name);

function plainNewGroup(value: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(value) || !onlyKeys(value, NEW_GROUP)) return undefined;
  for (const key in value) if (value[key] === undefined) return undefined;
  if (!optional(value.name, isName) || !optional(value.description, isDescription)) return undefined;
  return { ...value };
}

/** The body of a plain, valid `library.assets.submit` review batch, as a copy; else `undefined`. */
export function plainAssetSubmitRequest<T>(params: unknown): T | undefined {
  if (!isPlainObject(params) || !onlyKeys(params, SUBMIT_FIELDS)) return undefined;
  const { model, group, group_id, project_name, asset_type, assets } = params;
  if (!optional(model, isId) || !optional(group_id, isId)) return undefined;
  if (!optional(project_name, (v) => v === PROJECT_NAME)) return undefined;
  if (!optional(asset_type, (v) => (ASSET_TYPES as readonly unknown[]).includes(v))) return undefined;
  // spec: Library material — a batch of 1 to 20 materials; a new group or an existing one, not both.
  if (group !== undefined && group_id !== undefined) return undefined;
  const list = plainObjectList(assets, LIBRARY_LIMITS.assets, isAsset);
  if (list === undefined || list.length === 0) return undefined;
  const body: Record<string, unknown> = { ...params, assets: list };
  if (group !== undefined) {
    const copy = plainNewGroup(group);
    if (copy === undefined) return undefined;
    body.group = copy;
  }
  return body as T;
}
