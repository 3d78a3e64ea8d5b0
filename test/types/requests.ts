// Consumer type test: request parameters are typed by model, so mistakes fail to compile.
// Type-checked like list.ts (see there). Never run.
import {
  type EmbeddingsResponse,
  MediaGateway,
  type RequestOptions,
  type TaskSubmission,
  type VideoCreateParams,
  type VideoTask,
} from 'mediagw';

export async function requests(options: RequestOptions): Promise<string> {
  const client = new MediaGateway({ apiKey: 'key', baseURL: 'https://gateway.example.com', maxRetries: 0 });
  const params: VideoCreateParams = { model: 'vidmodel-2.0-mini', prompt: 'a red kite', duration: 5 };
  const submission: TaskSubmission = await client.videos.create(params, options);
  const task: VideoTask = await client.videos.waitForTask(submission.task_id, { timeout: 60_000 });
  const vectors: EmbeddingsResponse = await client.embeddings.create({ model: 'bge-m3', input: ['a'] });

  // @ts-expect-error duration is a number of seconds
  await client.videos.create({ model: 'vidmodel-2.0-mini', prompt: 'x', duration: 'five' });
  // @ts-expect-error the model is one of the video models
  await client.videos.create({ model: 'no-such-model', prompt: 'x' });
  // @ts-expect-error the model is one of EMBEDDING_MODELS
  await client.embeddings.create({ model: 'no-such-model', input: 'x' });
  // @ts-expect-error RequestOptions has no `retries`; it is `maxRetries`
  await client.videos.retrieve(submission.task_id, { retries: 1 });

  return `${task.id} ${vectors.data.length}`;
}

// Every single-request call gives its answer beside its typed result.
export async function rawAccess(client: MediaGateway, id: string): Promise<number> {
  const { data, response, requestId } = await client.videos.retrieve(id).withResponse();
  const task: VideoTask = data;
  const status: number = response.status;
  const remaining: string | null = response.headers.get('x-ratelimit-remaining');
  const id2: string | undefined = requestId;
  const raw: Response = await client.embeddings.create({ model: 'bge-m3', input: 'a' }).asResponse();
  const { data: submission } = await client.videos
    .create({ model: 'vidmodel-2.5', prompt: 'p' })
    .withResponse();
  const taskId: string = submission.task_id;
  // @ts-expect-error data is a VideoTask, not a string
  const wrong: string = data;
  return `${task.id}${remaining}${id2}${taskId}${wrong}`.length + status + raw.status;
}
