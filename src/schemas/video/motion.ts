import { acrossFields } from '../shared/across-fields.js';
import { refuseLegacyWebhookWithNotifications } from '../shared/common.js';
import { z } from '../shared/zod.js';
import { jsonBoolean, publicUrl, taskAdditionsShape, textField } from './shared.js';

const MODEL = 'motion-v3-motion-control';

/**
 * The request body of `motion-v3-motion-control` (spec: Video, "`motion-v3-motion-control`
 * fields"): a reference image and a motion video. `duration` is only the estimate used for
 * pre-deduction; it neither sets the output length nor caps the charge.
 */
export const motionControlSchema = z
  .looseObject({
    model: z.literal(MODEL),
    image_url: publicUrl('is required: the public http(s):// URL of the reference image'),
    video_url: publicUrl(
      'is required: the public http(s):// URL of the motion video (mp4/mov, at most 100 MB)',
    ),
    character_orientation: z.enum(['image', 'video'], {
      error: 'is required: image (reference video 3-10 s) or video (3-30 s)',
    }),
    mode: z.enum(['std', 'pro'], { error: 'is required: std or pro' }),
    prompt: textField.optional(),
    keep_original_sound: z.enum(['yes', 'no'], { error: "must be the string 'yes' or 'no'" }).optional(),
    watermark_info: z
      .strictObject(
        { enabled: jsonBoolean },
        {
          error: (issue) =>
            issue.code === 'unrecognized_keys'
              ? `holds only enabled (unexpected: ${issue.keys.join(', ')})`
              : 'must be an object { enabled: boolean }',
        },
      )
      .optional(),
    duration: z
      .int({ error: 'must be a positive integer number of seconds (an estimate for pre-deduction only)' })
      .positive({
        message: 'must be a positive integer number of seconds (an estimate for pre-deduction only)',
      })
      .optional(),
    ...taskAdditionsShape,
  })
  .superRefine(...acrossFields(refuseLegacyWebhookWithNotifications));
