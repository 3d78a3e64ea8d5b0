import type { GatewayState } from '../state/gateway-state.js';
import { VIDEO_COMPAT_STATUS } from '../state/task-kinds.js';
import type { MockTask, TaskState } from '../state/tasks.js';
import { contentUrl, lastFrameUrl, USAGE_DELAY_MS, type VideoTaskData } from './videos-shared.js';

// Pixels per resolution tier, for a plausible `completion_tokens` statistic.
const PIXELS: Record<string, number> = { '480p': 854 * 480, '720p': 1280 * 720, '1080p': 1920 * 1080 };

/**
 * `usage` of a succeeded `vidmodel-2.5` task: `completion_tokens` is a statistic, not a price,
 * and is absent for {@link USAGE_DELAY_MS} after completion. Other models carry no usage.
 */
function usageOf(gateway: GatewayState, task: MockTask<VideoTaskData>, state: TaskState) {
  if (task.model !== 'vidmodel-2.5' || state.completedAt === undefined) return undefined;
  if (gateway.clock.now() - state.completedAt < USAGE_DELAY_MS) return undefined;
  const pixels = PIXELS[task.data.resolution] ?? PIXELS['720p']!;
  return { completion_tokens: Math.round(((task.data.output_seconds ?? 5) * 24 * pixels) / 1024) };
}

/**
 * The fields only a succeeded task has: `url`, `usage`, `actual_time`, and `last_frame_url` when
 * `return_last_frame` was true and the frame exists. spec: Video task — failed tasks carry none.
 */
function successFields(gateway: GatewayState, task: MockTask<VideoTaskData>, state: TaskState) {
  const fields: Record<string, unknown> = { url: contentUrl(gateway, task.id) };
  const usage = usageOf(gateway, task, state);
  if (usage) fields.usage = usage;
  fields.actual_time = state.actualTime;
  // spec: `last_frame_url` — omitted (not null) unless requested, the frame exists and the task succeeded.
  if (task.data.return_last_frame && task.data.last_frame_token) {
    fields.last_frame_url = lastFrameUrl(gateway, task.id);
  }
  return fields;
}

/**
 * A video task in object style, as `GET /v1/videos/{id}` answers it (spec: Video task, object
 * style). `model` is shown for `vidmodel-2.5` only; `error` `{code, message}` on failure only.
 */
export function renderVideoObject(
  gateway: GatewayState,
  task: MockTask<VideoTaskData>,
): Record<string, unknown> {
  const state = gateway.tasks.state(task);
  const body: Record<string, unknown> = { id: task.id, object: 'video' };
  if (task.model === 'vidmodel-2.5') body.model = task.model;
  body.status = state.status;
  body.progress = `${state.progress}%`;
  if (state.phase === 'succeeded') Object.assign(body, successFields(gateway, task, state));
  if (state.error) body.error = { code: state.error.code, message: state.error.message };
  return body;
}

/**
 * A video task in the compatibility format, as `GET /v1/video/generations/{id}` answers it
 * (spec: Video task, compatibility format): `{code: 'success', message: '', data}` with the
 * statuses `queued`, `processing`, `succeeded`, `failed`; `error` holds `message` on failure.
 */
export function renderVideoCompat(
  gateway: GatewayState,
  task: MockTask<VideoTaskData>,
): Record<string, unknown> {
  const state = gateway.tasks.state(task);
  const data: Record<string, unknown> = {
    task_id: task.id,
    status: VIDEO_COMPAT_STATUS[state.phase],
    format: task.data.output_format ?? 'mp4',
    error: state.error ? { message: state.error.message } : null,
    metadata: null,
  };
  if (state.phase === 'succeeded') Object.assign(data, successFields(gateway, task, state));
  return { code: 'success', message: '', data };
}

/**
 * Publishes a succeeded video task's result (the MP4/MOV, or the large body) and, when
 * `return_last_frame` was true, its last frame as a PNG, at the terminal transition: before any
 * event about the task is delivered. Failed tasks publish nothing.
 */
export function publishVideoResults(gateway: GatewayState): void {
  gateway.tasks.on('terminal', (task) => {
    if (task.kind !== 'video' || task.outcome !== 'succeeded') return;
    const data = task.data as VideoTaskData;
    if (data.video_token) return;
    const format = data.output_format === 'mov' ? 'mov' : 'mp4';
    data.video_token = gateway.media.publishVideo({ account: task.account, taskId: task.id, format }).token;
    if (data.return_last_frame) {
      const seed = Number.parseInt(task.id.slice(-4), 16) || 0;
      data.last_frame_token = gateway.media.publishImage({
        account: task.account,
        taskId: task.id,
        seed,
      }).token;
    }
  });
}
