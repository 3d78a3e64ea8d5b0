// Consumer type test: the wait errors hold typed tasks. `instanceof` gives one error per task
// kind, and checking `kind` narrows the task. Type-checked like list.ts (see there). Never run.
import {
  APIUserAbortError,
  type ImageTaskState,
  type MediaGateway,
  MediaGatewayError,
  ProgressCallbackError,
  SubmittedCallbackError,
  TaskFailedError,
  type VideoTask,
  WaitTimeoutError,
} from 'mediagw';

export async function waits(client: MediaGateway): Promise<unknown> {
  try {
    return await client.videos.createAndWait({ model: 'vidmodel-2.0-mini', prompt: 'a kite' });
  } catch (error) {
    if (error instanceof TaskFailedError) {
      // @ts-expect-error which task it holds is known once `kind` is checked
      error.task.progress;
      if (error.kind === 'video') {
        const progress: string = error.task.progress;
        const code: string | undefined = error.task.error?.code;
        void [progress, code];
      } else if (error.kind === 'image') {
        const state: ImageTaskState = error.task.state;
        void state;
      } else {
        const usable: string[] = error.task.usable_assets;
        void usable;
      }
    }
    if (error instanceof WaitTimeoutError && error.kind === 'video') {
      const last: VideoTask | undefined = error.lastTask;
      void last;
    }
    if (error instanceof ProgressCallbackError && error.kind === 'review') {
      const percent: number = error.task.progress;
      void percent;
    }
    if (error instanceof SubmittedCallbackError) {
      // The submission envelope as received, typed.
      const code: number = error.submission.raw.code;
      void code;
      return client.videos.waitForTask(error.taskId);
    }
    // Any error after the submission names the task (an abort, a poll that failed for good).
    if (error instanceof APIUserAbortError || error instanceof MediaGatewayError) {
      const taskId: string | undefined = error.taskId;
      if (taskId) return client.videos.waitForTask(taskId);
    }
    if (error instanceof WaitTimeoutError) {
      // A wait error always has it.
      const taskId: string = error.taskId;
      void taskId;
    }
    throw error;
  }
}

// A video wait's error, named by its kind.
export function describeVideoFailure(error: TaskFailedError<'video'>): string {
  // @ts-expect-error a video error's task is a VideoTask, which has no normalised state
  error.task.state;
  return `${error.task.id} ${error.task.status} ${error.code ?? ''}`;
}

// The default is any kind: the task is the union of the task types.
export function anyFailure(error: TaskFailedError): string {
  return 'id' in error.task ? error.task.id : error.task.task_id;
}

// @ts-expect-error 'audio' is not a task kind
export type NoSuchKind = TaskFailedError<'audio'>;
