import { type AcrossFieldsRule, addRuleIssue, ON_ARRAYS } from '../shared/across-fields.js';
import {
  clientReferenceId,
  mediaUrl,
  notificationsSchema,
  refuseLegacyWebhookWithNotifications,
} from '../shared/common.js';
import { IMAGE_ROLES, VIDEO_RATIOS } from '../shared/constants.js';
import { z } from '../shared/zod.js';
import { promptReferenceProblems, referenceCounts } from './inputs.js';

/** `aspect_ratio` / `ratio` / `size`: one of the seven ratios. */
export const ratioSchema = z.enum(VIDEO_RATIOS, { error: `must be one of ${VIDEO_RATIOS.join(', ')}` });

// spec: Video — "Booleans are JSON booleans, not strings."
/** A JSON boolean; the strings `"true"`/`"false"` and numbers are refused. */
export const jsonBoolean = z.boolean({
  error: 'must be a JSON boolean (true or false); strings such as "true" and numbers are not accepted',
});

/** A required or optional free-text field. */
export const textField = z.string({ error: 'must be a string' });

/** A prompt that generation requires: a string with at least one non-blank character. */
export const requiredPrompt = z
  .string({ error: 'is required: a non-empty string describing the video' })
  .refine((value) => value.trim().length > 0, { message: 'must not be empty' });

/** An integer seed; 0 is a valid explicit seed. */
export const seedSchema = z.int({ error: 'must be an integer (0 is a valid seed)' });

/** One media reference: `http(s)://` or `asset://`; base64 and data URLs point to `uploads.image`. */
export const mediaRef = z.string({ error: 'must be a URL string: http(s):// or asset://' }).pipe(mediaUrl);

/**
 * A public `http(s)://` URL: like {@link mediaRef} (inline data gets the upload hint) but without
 * `asset://`, for fields the spec describes as public URLs.
 */
export const publicUrl = (required: string) =>
  z.string({ error: required }).superRefine((value, ctx) => {
    const result = mediaUrl.safeParse(value);
    const message = result.success
      ? /^asset:\/\//.test(value)
        ? 'must be a public http(s):// URL; asset:// references are not accepted here'
        : undefined
      : result.error.issues[0]?.message;
    if (message) ctx.addIssue({ code: 'custom', message });
  });

/** An array of media references of one kind, with the model's maximum count. */
export function mediaRefList(max: number, kind: string, model: string) {
  return z
    .array(mediaRef, { error: `must be an array of ${kind} URLs (http(s):// or asset://)` })
    .max(max, { message: `must hold at most ${max} ${kind} for ${model}`, ...ON_ARRAYS });
}

/** spec: Video — `image_with_roles` items are `{ url, role }`. */
export const imageWithRolesSchema = z.array(
  z.strictObject(
    {
      url: mediaRef,
      role: z.enum(IMAGE_ROLES, { error: `must be one of ${IMAGE_ROLES.join(', ')}` }),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `only url and role are accepted (unexpected: ${issue.keys.join(', ')})`
          : 'must be an object { url, role }',
    },
  ),
  { error: 'must be an array of { url, role } objects' },
);

/** spec: Video — `tools`: search declarations, items `{ type: 'web_search' }`. */
export const toolsSchema = z.array(
  z.strictObject(
    { type: z.literal('web_search', { error: "must be 'web_search'" }) },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `a tool item holds only type (unexpected: ${issue.keys.join(', ')})`
          : "must be an object { type: 'web_search' }",
    },
  ),
  { error: "must be an array of { type: 'web_search' } items" },
);

/** spec: Webhook management — task request additions, accepted by every video JSON request. */
export const taskAdditionsShape = {
  notifications: notificationsSchema.optional(),
  client_reference_id: clientReferenceId.optional(),
};

type Body = Record<string, unknown>;

export { referenceCounts };

// spec: Video — "Reference indexes start at 1 in array order and are written in prompts as `@图片<n>`,
// `@视频<n>`, `@音频<n>`; an absent index must not be referenced."
/** Adds an issue at `prompt` for each `@图片<n>` / `@视频<n>` / `@音频<n>` with no matching reference. */
export function checkPromptReferences(body: Body, ctx: z.RefinementCtx): void {
  if (typeof body.prompt !== 'string') return;
  for (const { token, noun, index, available } of promptReferenceProblems(
    body.prompt,
    referenceCounts(body),
  )) {
    addRuleIssue(
      ctx,
      index < 1
        ? `${token} is not a valid reference: indexes start at 1`
        : `${token} refers to ${noun} ${index}, but the request has ${available} ${noun} reference(s) (indexes start at 1 in array order)`,
      ['prompt'],
    );
  }
}

/** Adds an issue at `field` when it and `other` are both set and differ (aliases must agree). */
export function checkAgreement(body: Body, field: string, other: string, ctx: z.RefinementCtx): void {
  if (body[field] === undefined || body[other] === undefined || body[field] === body[other]) return;
  addRuleIssue(
    ctx,
    `must match ${other} when both are set (${JSON.stringify(body[field])} vs ${JSON.stringify(body[other])})`,
    [field],
  );
}

// Input aliases the spec names without a shape (Video, "Preview upgrade"): checked only where they
// hold URL strings, so inline data is refused with the upload hint instead of a gateway 400.
const INPUT_ALIASES = ['image', 'images', 'input_reference', 'video_list'] as const;

function checkInputAliases(body: Body, ctx: z.RefinementCtx, declared: readonly string[]): void {
  for (const field of INPUT_ALIASES) {
    if (declared.includes(field)) continue;
    const value = body[field];
    const entries: Array<[unknown, Array<string | number>]> = Array.isArray(value)
      ? value.map((item, index) => [item, [field, index]])
      : [[value, [field]]];
    for (const [item, path] of entries) {
      if (typeof item !== 'string') continue;
      const result = mediaUrl.safeParse(item);
      if (!result.success) {
        ctx.addIssue({ code: 'custom', path, message: result.error.issues[0]?.message ?? 'invalid URL' });
      }
    }
  }
}

/**
 * The rules every video JSON request shares, each judged on its own (see `acrossFields`): legacy
 * webhooks, prompt references, input aliases. `declared` names the input aliases the model's
 * own shape already checks.
 */
export function commonVideoRules(declared: readonly string[] = []): AcrossFieldsRule[] {
  return [
    refuseLegacyWebhookWithNotifications,
    checkPromptReferences,
    (body, ctx) => checkInputAliases(body, ctx, declared),
  ];
}

/** The index and role of each `first_frame` / `last_frame` role item. */
export function frameRoles(body: Body): Array<{ index: number; role: 'first_frame' | 'last_frame' }> {
  const out: Array<{ index: number; role: 'first_frame' | 'last_frame' }> = [];
  const roles = Array.isArray(body.image_with_roles) ? body.image_with_roles : [];
  roles.forEach((item: unknown, index) => {
    const role = item && typeof item === 'object' ? (item as { role?: unknown }).role : undefined;
    if (role === 'first_frame' || role === 'last_frame') out.push({ index, role });
  });
  return out;
}

/** Adds an issue at the second and later items of a frame role (each frame role at most once). */
export function checkSingleFrameRoles(body: Body, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  for (const { index, role } of frameRoles(body)) {
    if (seen.has(role)) {
      addRuleIssue(ctx, `${role} may appear at most once`, ['image_with_roles', index, 'role']);
    }
    seen.add(role);
  }
}
