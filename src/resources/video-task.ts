import { describeArgument } from '../core/arguments.js';
import { RequestValidationError } from '../core/errors/validation.js';
import { VIDEO_MODELS } from '../schemas/shared/constants.js';

export type { VideoTask, VideoTaskCompat } from '../core/task-types.js';

/**
 * Default poll interval by model, `[min, max]` ms, jittered by the wait (spec: States — mini
 * 3-5 s, 2.5 5-10 s). An answer that names no model is not a `vidmodel-2.5` task (the object
 * style shows `model` for 2.5), so it gets 3-5 s, the figure for mini and images. The spec gives
 * no figure for another named model: it gets 4-6 s, around 5 s, jittered like the rest so that
 * many waits started together spread out.
 */
export function videoPollInterval(model: string | undefined): readonly [number, number] {
  if (model === 'vidmodel-2.5') return [5_000, 10_000];
  if (model === undefined || model === 'vidmodel-2.0-mini') return [3_000, 5_000];
  return [4_000, 6_000];
}

/**
 * Checks the `model` a wait is told (to pick its interval): left out, or one of the video models,
 * as `videos.create` takes them; an image or unknown model would be a mistake the wait hides.
 * @throws RequestValidationError at `options.model`.
 */
export function checkVideoModelHint(operation: string, model: unknown): void {
  if (model === undefined || (VIDEO_MODELS as readonly unknown[]).includes(model)) return;
  const got = typeof model === 'string' ? `unknown video model ${model}` : `got ${describeArgument(model)}`;
  throw new RequestValidationError(operation, [
    { path: 'options.model', message: `must be one of ${VIDEO_MODELS.join(', ')}, or left out; ${got}` },
  ]);
}
