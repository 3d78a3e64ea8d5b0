import { assetSubmitSchema } from '../../schemas/library/index.js';
import { checkParams } from '../../schemas/shared/validate.js';
import { MockHttpError, validationError } from '../http-error.js';
import type { GatewayState } from '../state/gateway-state.js';
import {
  assetJSON,
  LIBRARY_TRIGGERS,
  type LibraryStore,
  libraryStore,
  type ReviewTaskData,
} from '../state/library-store.js';
import { type MockTask, outcomeFor, type TaskPlan } from '../state/tasks.js';
import type { RequestContext } from '../types.js';
import { taskRenderers } from './task-renderers.js';
import { detectedSeconds } from './videos-shared.js';

/** spec: Review task — `data.object`. */
export const REVIEW_TASK_OBJECT = 'vidmodel.avatar.asset.task';

/** The models whose library the mock serves. spec: Media library — mini uses the same library. */
export const LIBRARY_MODELS: readonly string[] = ['vidmodel-2.0', 'vidmodel-2.5', 'vidmodel-2.0-mini'];

/** spec: Media library — a group's model defaults to `vidmodel-2.5`. */
export const DEFAULT_GROUP_MODEL = 'vidmodel-2.5';
/** spec: Media library — a review batch's model defaults to `vidmodel-2.0` (video sources at most 15 s). */
export const DEFAULT_BATCH_MODEL = 'vidmodel-2.0';

/**
 * The longest video source a review batch takes under its model, in seconds. spec: Media
 * library — review batch `model`: `vidmodel-2.0` (the default, and mini's library) takes video
 * sources of at most 15 s; `vidmodel-2.5` up to 30 s.
 */
export function libraryVideoLimit(model: string): number {
  return model === 'vidmodel-2.5' ? 30 : 15;
}

/** spec: Limits — library audio intake: 2-15 s per clip, whatever the model. */
export const LIBRARY_AUDIO_SECONDS = [2, 15] as const;

/**
 * Why a material's detected length (`mock_seconds=<n>` in its URL) is refused, or `undefined`
 * when it is not refused or the URL does not say.
 */
function lengthProblem(assetType: string, model: string, url: string): string | undefined {
  const seconds = detectedSeconds(url);
  if (seconds === undefined) return undefined;
  if (assetType === 'Video') {
    const limit = libraryVideoLimit(model);
    if (seconds <= limit) return undefined;
    const hint = model === 'vidmodel-2.5' ? '' : ' (use model vidmodel-2.5 for sources up to 30 s)';
    return `is a video of ${seconds} s; ${model} takes video sources of at most ${limit} s${hint}`;
  }
  if (assetType === 'Audio') {
    const [min, max] = LIBRARY_AUDIO_SECONDS;
    if (seconds >= min && seconds <= max) return undefined;
    return `is an audio clip of ${seconds} s; library audio intake takes clips of ${min}-${max} s`;
  }
  return undefined;
}

const BATCH_ERROR = 'the review service could not check this batch; submit it again later';

/** Refuses a model the library does not serve (400), or one the key may not use (403). */
export function checkLibraryModel(ctx: RequestContext<unknown>, model: string): void {
  if (!LIBRARY_MODELS.includes(model)) {
    throw MockHttpError.spec(
      400,
      'invalid_request',
      `model: the media library serves ${LIBRARY_MODELS.join(', ')}, not ${model}`,
    );
  }
  ctx.requireModel(model);
}

/**
 * `POST /v1/vidmodel2/private-avatar/assets`: checks the batch with the SDK's schema (problems
 * of one material answer as a `media_library_error` naming `assets[<i>]`), finds or creates the
 * group, adds the materials as `Pending` and starts a review task. A video or audio material whose
 * URL carries `mock_seconds=<n>` is refused (400, nothing created) past the intake limits: video
 * 15 s (30 s under `vidmodel-2.5`), audio 2-15 s. No ledger entry: spec: Billing
 * — review and library operations carry no generation charge.
 */
export async function submitReviewBatch(gateway: GatewayState, ctx: RequestContext<unknown>): Promise<void> {
  const store = libraryStore(gateway);
  const issues = checkParams(assetSubmitSchema, ctx.body);
  const material = issues.filter((issue) => /^assets\[\d+\]/.test(issue.path));
  if (material.length > 0) {
    // spec: Errors — a library input error starts with invalid_asset_material and may name assets[<index>].
    const detail = material.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
    throw MockHttpError.library(400, `invalid_asset_material: ${detail}`);
  }
  if (issues.length > 0) throw validationError(issues);
  const body = assetSubmitSchema.parse(ctx.body);
  const model = body.model ?? DEFAULT_BATCH_MODEL;
  checkLibraryModel(ctx, model);
  const assetType = body.asset_type ?? 'Image';
  body.assets.forEach((item, i) => {
    if (item.url.includes(LIBRARY_TRIGGERS.invalid)) {
      throw MockHttpError.library(
        400,
        `invalid_asset_material: assets[${i}] could not be read as ${assetType} material (${LIBRARY_TRIGGERS.invalid})`,
      );
    }
    const problem = lengthProblem(assetType, model, item.url);
    if (problem) throw MockHttpError.library(400, `invalid_asset_material: assets[${i}] ${problem}`);
  });
  const account = ctx.account.id;
  // spec: States — a group is created when neither group nor group_id is given.
  const group =
    body.group_id !== undefined
      ? store.group(account, body.group_id)
      : store.createGroup(account, {
          model,
          name: body.group?.name ?? `group ${new Date(gateway.clock.now()).toISOString()}`,
          description: body.group?.description,
        });

  const urls = body.assets.map((item) => item.url);
  const batchError = urls.some((url) => url.includes(LIBRARY_TRIGGERS.reviewError));
  const rejected = urls.filter((url) => batchError || url.includes(LIBRARY_TRIGGERS.reject)).length;
  const plan: TaskPlan = { scale: outcomeFor(urls.join(' ')).scale };
  if (rejected > 0) {
    // spec: States — the task may be failed while other materials are already Active.
    plan.outcome = {
      failed: {
        code: 'review_failed',
        message: batchError ? BATCH_ERROR : `${rejected} of ${urls.length} materials were rejected`,
      },
    };
  }
  const data: ReviewTaskData = { group_id: group.id, asset_ids: [] };
  if (batchError) data.batch_error = BATCH_ERROR;
  const task = gateway.tasks.create<ReviewTaskData>({ account, kind: 'review', model, plan, data });
  for (const item of body.assets) {
    const asset = store.addAsset({
      account,
      asset_type: assetType,
      group_id: group.id,
      source_url: item.url,
      review_task_id: task.id,
      verdict: batchError || item.url.includes(LIBRARY_TRIGGERS.reject) ? 'Failed' : 'Active',
      name: item.name ?? nameFromUrl(item.url),
    });
    data.asset_ids.push(asset.id);
  }
  await ctx.json(200, {
    code: 200,
    data: {
      id: task.id,
      object: REVIEW_TASK_OBJECT,
      model,
      status: 'processing',
      progress: 0,
      group_id: group.id,
    },
  });
}

function nameFromUrl(url: string): string {
  try {
    const last = new URL(url).pathname.split('/').filter(Boolean).pop();
    return last ? decodeURIComponent(last).slice(0, 255) : 'material';
  } catch {
    return 'material';
  }
}

/**
 * A review task as `GET /v1/tasks/{id}` (no `model`) answers it. Polling the task refreshes its
 * materials. spec: Review task (library).
 */
export function renderReviewTask(gateway: GatewayState, store: LibraryStore, task: MockTask<unknown>) {
  const state = gateway.tasks.state(task);
  const data = task.data as ReviewTaskData;
  const assets = store.assetsOf(task);
  const out: Record<string, unknown> = {
    id: task.id,
    object: REVIEW_TASK_OBJECT,
    model: task.model,
    status: state.status,
    progress: state.progress,
    group_id: data.group_id,
  };
  if (state.terminal && data.batch_error) {
    // spec: Review task — a failure before per-material results exist: a safe message, no result.
    out.error = { message: data.batch_error };
  } else {
    out.result = {
      assets: assets.map(assetJSON),
      usable_assets: assets.filter((a) => a.status === 'Active').map(assetJSON),
      failed_assets: assets.filter((a) => a.status === 'Failed').map(assetJSON),
    };
  }
  return { code: 200, data: out };
}

/** Registers the `review` renderer of `GET /v1/tasks/:id`. */
export function registerReviewRenderer(gateway: GatewayState): void {
  const store = libraryStore(gateway);
  taskRenderers(gateway).set('review', (task) => renderReviewTask(gateway, store, task));
}
