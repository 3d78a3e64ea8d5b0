import { acrossFields } from '../shared/across-fields.js';
import { refuseLegacyWebhookWithNotifications } from '../shared/common.js';
import { UPGRADE_INHERITED_FIELDS } from '../shared/constants.js';
import { addRuleIssue } from '../shared/issue.js';
import { z } from '../shared/zod.js';
import { jsonBoolean, taskAdditionsShape } from './shared.js';

/** The only fields an upgrade body may hold (the task request additions included). */
export const UPGRADE_ALLOWED_FIELDS = [
  'model',
  'draft_task_id',
  'output_format',
  'return_last_frame',
  'watermark',
  'resolution',
  'notifications',
  'client_reference_id',
] as const;

const ALLOWED = new Set<string>(UPGRADE_ALLOWED_FIELDS);
const INHERITED = new Set<string>(UPGRADE_INHERITED_FIELDS);
const ALLOWED_TEXT =
  'model, draft_task_id and optionally output_format, return_last_frame, watermark, resolution';

function refusal(field: string, value: unknown): string {
  if (INHERITED.has(field)) {
    return 'is inherited from the preview and must not be resent in an upgrade (draft_task_id), even when equal, false, 0 or null';
  }
  if (field === 'draft') {
    return value === true
      ? 'draft_task_id and draft: true must not be combined: send draft_task_id alone to upgrade a preview'
      : `must not be sent with draft_task_id: an upgrade body holds only ${ALLOWED_TEXT}`;
  }
  if (field === 'service_tier') return 'is rejected for an upgrade (draft_task_id): ordinary generation only';
  return `is not accepted in an upgrade (draft_task_id): the body holds only ${ALLOWED_TEXT}, notifications, client_reference_id`;
}

/**
 * The `vidmodel-2.5` preview upgrade body (`draft_task_id`): a new 1080p task from a succeeded
 * preview under 7 days old. Every other field is refused, whatever its value.
 */
export const video25UpgradeSchema = z
  .looseObject({
    model: z.literal('vidmodel-2.5'),
    draft_task_id: z
      .string({ error: 'must be the task ID of a succeeded vidmodel-2.5 preview (draft: true)' })
      .min(1, { message: 'must be the task ID of a succeeded vidmodel-2.5 preview (draft: true)' }),
    output_format: z.enum(['mp4', 'mov'], { error: 'must be mp4 or mov' }).optional(),
    return_last_frame: jsonBoolean.optional(),
    watermark: jsonBoolean.optional(),
    // spec: Video — "Resolution may be omitted (becomes `1080p`); any other value gives 400."
    resolution: z
      .literal('1080p', { error: "an upgrade renders at 1080p only: omit resolution or set '1080p'" })
      .optional(),
    ...taskAdditionsShape,
  })
  .superRefine(
    ...acrossFields(refuseLegacyWebhookWithNotifications, (body, ctx) => {
      for (const field of Object.keys(body)) {
        // An allowed field is never read here: its own rule judges it.
        if (ALLOWED.has(field)) continue;
        const value = body[field];
        if (value === undefined) continue;
        // spec: Video — only "`draft_task_id` and `draft: true` must not be combined".
        if (field === 'draft' && value === false) continue;
        addRuleIssue(ctx, refusal(field, value), [field]);
      }
    }),
  );
