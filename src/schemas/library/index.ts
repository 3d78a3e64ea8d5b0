import { acrossFields, addRuleIssue, ON_ARRAYS } from '../shared/across-fields.js';
import { httpUrl } from '../shared/common.js';
import {
  ASSET_STATUSES,
  ASSET_TYPES,
  type AssetStatus,
  type AssetType,
  LIBRARY_LIMITS,
} from '../shared/constants.js';
import { codePoints, required } from '../shared/fast-rules.js';
import { parseParams } from '../shared/validate.js';
import { z } from '../shared/zod.js';
import {
  type ASSET_SUBMIT_FIELDS,
  type GROUP_CREATE_FIELDS,
  type NEW_GROUP_FIELDS,
  PROJECT_NAME,
} from './fast.js';

/** `POST .../private-avatar/groups`. */
export interface GroupCreateParams {
  /** `model`: the gateway uses `vidmodel-2.5` when it is left out; the SDK never fills it in. */
  model?: string | undefined;
  /** `name`: 1-255 characters. */
  name: string;
  /** `description`: at most 4000 characters. */
  description?: string | undefined;
}

/** `PATCH .../private-avatar/groups/{group_id}`: `name` and/or `description`, at least one. */
export interface GroupUpdateParams {
  /** `name`: 1-255 characters. */
  name?: string | undefined;
  /** `description`: at most 4000 characters. */
  description?: string | undefined;
}

/** Query of the group list. */
export interface ListParams {
  /** `page`: a positive integer. @default 1 (on the gateway) */
  page?: number | undefined;
  /** `limit`: an integer from 1 to 100. @default 20 (on the gateway) */
  limit?: number | undefined;
}

/** Query of the asset list. */
export interface AssetListParams extends ListParams {
  /** `group_id`: only materials of this group. */
  group_id?: string | undefined;
  /** `status`: `Pending`, `Active` or `Failed` (case-sensitive). */
  status?: AssetStatus | undefined;
}

/** One material of a review batch. */
export interface AssetSubmitItem {
  /** `url`: public `http(s)` URL, at most 8192 characters. */
  url: string;
  /** `name`: at most 255 characters. */
  name?: string | undefined;
}

/** `POST .../private-avatar/assets`: a review batch of 1-20 materials of one type. */
export interface AssetSubmitParams {
  /** `model`: the gateway uses `vidmodel-2.0` (video sources at most 15 s) when left out; `vidmodel-2.5` allows 30 s. */
  model?: string | undefined;
  /** `group`: a new group; never together with `group_id`. Leaving out both creates a group. */
  group?:
    | {
        /** `group.name`: at most 255 characters. */
        name?: string | undefined;
        /** `group.description`: at most 4000 characters. */
        description?: string | undefined;
      }
    | undefined;
  /** `group_id`: an existing group of the account; never together with `group`. */
  group_id?: string | undefined;
  /** `project_name`: only `default` is supported. */
  project_name?: 'default' | undefined;
  /** `asset_type`: `Image` (the gateway's default), `Video` or `Audio`; case-sensitive; one type per batch. */
  asset_type?: AssetType | undefined;
  /** `assets`: 1-20 materials. */
  assets: readonly AssetSubmitItem[];
}

/** `PATCH .../private-avatar/assets/{asset_id}`: only the name changes; no new review. */
export interface AssetUpdateParams {
  /** `name`: 1-255 characters. */
  name: string;
}

/** A zod shape with exactly the fields the plain checks (fast.ts) declare. */
type Shape<F extends readonly string[]> = Record<F[number], z.ZodType>;

function maxChars(max: number, what = 'characters') {
  return z
    .string({ error: 'must be a string' })
    .refine((value) => codePoints(value) <= max, { message: `must be at most ${max} ${what}` });
}

const nameSchema = (max: number) =>
  z
    .string({ error: `must be a string of 1 to ${max} characters` })
    .refine((value) => value.length > 0 && codePoints(value) <= max, {
      message: `must be 1 to ${max} characters`,
    });

const groupName = nameSchema(LIBRARY_LIMITS.name);
const description = maxChars(LIBRARY_LIMITS.description);
const modelId = z.string({ error: 'must be a model ID string' }).min(1, 'must not be empty');
const idString = z.string({ error: 'must be a string ID' }).min(1, 'must not be empty');

/** Builds an enum whose refusal points out a case mismatch. */
function caseSensitiveEnum<T extends readonly [string, ...string[]]>(values: T) {
  return z.string({ error: `must be one of ${values.join(', ')}` }).superRefine((value, ctx) => {
    if ((values as readonly string[]).includes(value)) return;
    const match = values.find((v) => v.toLowerCase() === value.toLowerCase());
    addRuleIssue(
      ctx,
      match
        ? `is case-sensitive: use '${match}', not '${value}'`
        : `must be one of ${values.join(', ')} (case-sensitive)`,
    );
  }) as unknown as z.ZodType<T[number]>;
}

const page = z
  .number({ error: 'must be a positive integer' })
  .int('must be a positive integer')
  .min(1, 'must be a positive integer');
const limit = z
  .number({ error: 'must be an integer from 1 to 100' })
  .int('must be an integer from 1 to 100')
  .min(1, 'must be an integer from 1 to 100')
  .max(100, 'must be an integer from 1 to 100');

/** `library.groups.create` body. */
export const groupCreateSchema = z.looseObject({
  model: modelId.optional(),
  name: groupName,
  description: description.optional(),
} satisfies Shape<typeof GROUP_CREATE_FIELDS>);

/** `library.groups.update` body: `name` and/or `description`. */
export const groupUpdateSchema = z
  .looseObject({ name: groupName.optional(), description: description.optional() })
  .superRefine((value, ctx) => {
    if (value.name === undefined && value.description === undefined) {
      addRuleIssue(ctx, 'must change name and/or description (neither was given)', []);
    }
  });

/** `library.groups.list` query. */
export const listQuerySchema = z.looseObject({ page: page.optional(), limit: limit.optional() });

/** `library.assets.list` query. */
export const assetListQuerySchema = z.looseObject({
  page: page.optional(),
  limit: limit.optional(),
  group_id: idString.optional(),
  status: caseSensitiveEnum(ASSET_STATUSES).optional(),
});

const assetItem = z.strictObject(
  {
    url: z
      .string({ error: required('a public http(s):// URL') })
      .pipe(httpUrl)
      .refine((value) => codePoints(value) <= LIBRARY_LIMITS.url, {
        message: `must be at most ${LIBRARY_LIMITS.url} characters`,
      }),
    name: maxChars(LIBRARY_LIMITS.name).optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `an asset holds only url and name (unexpected: ${issue.keys.join(', ')})`
        : 'must be an object { url, name? }',
  },
);

const newGroup = z.strictObject(
  { name: groupName.optional(), description: description.optional() } satisfies Shape<
    typeof NEW_GROUP_FIELDS
  >,
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `a new group holds only name and description (unexpected: ${issue.keys.join(', ')})`
        : 'must be an object { name, description? }',
  },
);

/** `library.assets.submit` body: the review-batch rules. */
export const assetSubmitSchema = z
  .looseObject({
    model: modelId.optional(),
    group: newGroup.optional(),
    group_id: idString.optional(),
    project_name: z
      .literal(PROJECT_NAME, { error: `must be '${PROJECT_NAME}' (the only supported project)` })
      .optional(),
    asset_type: caseSensitiveEnum(ASSET_TYPES).optional(),
    assets: z
      .array(assetItem, {
        error: required(`an array of 1 to ${LIBRARY_LIMITS.assets} { url, name? } objects`),
      })
      .min(1, { message: 'must hold at least 1 asset', ...ON_ARRAYS })
      .max(LIBRARY_LIMITS.assets, {
        message: `must hold at most ${LIBRARY_LIMITS.assets} assets (submit several batches)`,
        ...ON_ARRAYS,
      }),
  } satisfies Shape<typeof ASSET_SUBMIT_FIELDS>)
  .superRefine(
    ...acrossFields((value, ctx) => {
      if (value.group !== undefined && value.group_id !== undefined) {
        addRuleIssue(
          ctx,
          'must not be combined with group: name an existing group_id or describe a new group, not both',
          ['group_id'],
        );
      }
    }),
  );

/** `library.assets.update` body: `name` only. */
export const assetUpdateSchema = z.strictObject(
  { name: groupName },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `only name can be changed (unexpected: ${issue.keys.join(', ')})`
        : 'must be an object { name }',
  },
);

/** Checks a `library.groups.create` request. @throws RequestValidationError naming each broken rule. */
export function parseGroupCreateParams(params: unknown): GroupCreateParams {
  return parseParams(groupCreateSchema, params, 'library.groups.create') as GroupCreateParams;
}

/** Checks a `library.groups.update` request. @throws RequestValidationError naming each broken rule. */
export function parseGroupUpdateParams(params: unknown): GroupUpdateParams {
  return parseParams(groupUpdateSchema, params, 'library.groups.update') as GroupUpdateParams;
}

/** Checks a `library.groups.list` query. @throws RequestValidationError naming each broken rule. */
export function parseListParams(params: unknown = {}, operation = 'library.groups.list'): ListParams {
  return parseParams(listQuerySchema, params, operation) as ListParams;
}

/** Checks a `library.assets.list` query. @throws RequestValidationError naming each broken rule. */
export function parseAssetListParams(params: unknown = {}): AssetListParams {
  return parseParams(assetListQuerySchema, params, 'library.assets.list') as AssetListParams;
}

/**
 * Checks a `library.assets.submit` review batch. @throws RequestValidationError naming each broken rule.
 * @example parseAssetSubmitParams({ asset_type: 'Image', assets: [{ url: 'https://example.com/a.png' }] })
 */
export function parseAssetSubmitParams(params: unknown): AssetSubmitParams {
  return parseParams(assetSubmitSchema, params, 'library.assets.submit') as AssetSubmitParams;
}

/** Checks a `library.assets.update` request. @throws RequestValidationError naming each broken rule. */
export function parseAssetUpdateParams(params: unknown): AssetUpdateParams {
  return parseParams(assetUpdateSchema, params, 'library.assets.update') as AssetUpdateParams;
}
