import { Readable } from 'node:stream';
import type { APIPromise } from '../core/api-promise.js';
import { checkObjectArgument, checkOptionsArgument } from '../core/arguments.js';
import { RequestValidationError } from '../core/errors.js';
import { IMAGE_MIME_TYPES, SNIFF_BYTES, sniffImageFormat } from '../core/image-header.js';
import { pollTask, type WaitOptions } from '../core/polling.js';
import { openDownload } from '../internal/download.js';
import { MediaDownload } from '../internal/media-download.js';
import { buildMultipart, imageEditParts } from '../internal/multipart.js';
import type { RequestOptions } from '../internal/request-spec.js';
import {
  parseImageEditAsyncParams,
  parseImageEditParams,
  parseImageGenerateAsyncParams,
  parseImageGenerateParams,
} from '../internal/schemas.js';
import { imageTimeout, TIMEOUTS } from '../internal/timeouts.js';
import type { Transport } from '../internal/transport.js';
import {
  progressFailed,
  reportingProgress,
  splitUploadOptions,
  type UploadOptions,
} from '../internal/upload-progress.js';
import { checkMediaURL, path } from '../internal/url.js';
import type {
  ImageEditAsyncParams,
  ImageEditParams,
  ImageGenerateAsyncParams,
  ImageGenerateParams,
} from '../schemas/images/types.js';
import { type ImageTask, imageTaskModelIssue, imageTaskOutcome, toImageTask } from './image-task.js';
import { APIResource } from './resource.js';
import { type SubmissionEnvelope, type TaskSubmission, toTaskSubmission } from './submission.js';

const DOWNLOAD_ENTRY = 'an entry of data or task.images ({ url } or { b64_json }), or a URL string';

/** One output image of a synchronous call: a temporary `url`, or the bytes as `b64_json`. */
export interface ImageData {
  /** Temporary result URL: download it promptly (see {@link Images.download}). */
  url?: string | undefined;
  /** Base64 of the image bytes, present instead of `url` on some routes or output formats. */
  b64_json?: string | undefined;
}

/** The synchronous image response. A 200 alone does not prove reference details were kept. */
export interface ImagesResponse {
  /** Unix time. */
  created: number;
  /** One entry per output image. */
  data: ImageData[];
  /** `X-Service-Request-Id` of the answer (not enumerable): quote it to support. */
  _requestId?: string | undefined;
}

/** Options of {@link Images.waitForTask}: the model used at submission is required. */
export type ImageWaitOptions = WaitOptions<ImageTask> & {
  /** The model ID used at submission; sent as the task query's `model` parameter. */
  model: string;
};

const toGenerateSubmission = (envelope: SubmissionEnvelope) =>
  toTaskSubmission(envelope, 'POST /v1/images/generations/async');
const toEditSubmission = (envelope: SubmissionEnvelope) =>
  toTaskSubmission(envelope, 'POST /v1/images/edits/async');

/** spec: States — image tasks are polled every 3-5 s. */
const IMAGE_INTERVAL: readonly [number, number] = [3_000, 5_000];

/**
 * Image generation (JSON) and editing (multipart, real files). Every submission is billable:
 * sent once, never retried after its bytes went out.
 */
export class Images extends APIResource {
  /**
   * Generates images synchronously (`POST /v1/images/generations`).
   *
   * @throws RequestValidationError for an unknown model, an empty prompt, a bad `n` or `size`,
   * `image_urls` with a 2.5 model, or `image`/`images` fields (use `images.edit` with files).
   * @throws APIError (a subclass by status) when the gateway refuses the request.
   * @throws AmbiguousSubmissionError when the outcome is unknown (timeout, reset): the images may
   * have been generated and billed; a client timeout does not prove the upstream stopped.
   * @example
   * const { data } = await client.images.generate({ model: 'imgmodel-2', prompt: 'a paper crane', size: '1024x1024' });
   */
  generate(params: ImageGenerateParams, options?: RequestOptions): APIPromise<ImagesResponse> {
    return sendGeneration<ImagesResponse>(this.transport, params, options, false);
  }

  /**
   * Submits a generation task (`POST /v1/images/generations/async`) and returns its task ID.
   * Accepts `notifications` and `client_reference_id` besides the synchronous fields.
   *
   * @throws RequestValidationError as `generate`, and for `notifications` not of the spec's shape,
   * combined with `webhook`/`callback_url`, or a `client_reference_id` over 128 bytes.
   * @throws APIError (a subclass by status) when the gateway refuses the request.
   * @throws AmbiguousSubmissionError when the outcome is unknown (timeout, reset, an accepted
   * answer without a task ID): check before resubmitting.
   * @example
   * const { task_id } = await client.images.generateAsync({ model: 'imgmodel-2', prompt: 'a fox in snow' });
   * const task = await client.images.waitForTask(task_id, { model: 'imgmodel-2' });
   */
  generateAsync(params: ImageGenerateAsyncParams, options?: RequestOptions): APIPromise<TaskSubmission> {
    return sendGeneration<SubmissionEnvelope>(this.transport, params, options, true)._thenUnwrap(
      toGenerateSubmission,
    );
  }

  /**
   * Edits with real uploaded files (`POST /v1/images/edits`, streamed multipart): one file is
   * sent as `image`, several as repeated `image[]` in your order. `options.onProgress` is told
   * the bytes sent, about 10 times a second and once at the end.
   *
   * @throws InvalidOptionError before sending when `onProgress` is not a function.
   * @throws RequestValidationError for a bare string as a file (use `fileFromPath`, `fileFromURL`,
   * `fileFromBase64`), a mask with a 2.5 model, or a mask that is not a PNG with alpha of the input's size.
   * @throws APIError (a subclass by status) when the gateway refuses the request.
   * @throws AmbiguousSubmissionError when the outcome is unknown (timeout, reset).
   * @example
   * const edited = await client.images.edit({ model: 'imgmodel-2', prompt: 'make it night', image: await fileFromPath('day.png') });
   */
  edit(params: ImageEditParams, options?: UploadOptions): APIPromise<ImagesResponse> {
    return sendEdit<ImagesResponse>(this.transport, params, options, false);
  }

  /**
   * Submits an edit task (`POST /v1/images/edits/async`): `notifications` goes as one
   * JSON-string field and `client_reference_id` as its own field. `options.onProgress` as for `edit`.
   *
   * @throws InvalidOptionError before sending when `onProgress` is not a function.
   * @throws RequestValidationError as `edit`, and for bad `notifications` or `client_reference_id`.
   * @throws APIError (a subclass by status) when the gateway refuses the request.
   * @throws AmbiguousSubmissionError when the outcome is unknown (timeout, reset, no task ID).
   * @example
   * const { task_id } = await client.images.editAsync({ model: 'imgmodel-2', prompt: 'add snow', image: await fileFromPath('a.png') });
   */
  editAsync(params: ImageEditAsyncParams, options?: UploadOptions): APIPromise<TaskSubmission> {
    return sendEdit<SubmissionEnvelope>(this.transport, params, options, true)._thenUnwrap(toEditSubmission);
  }

  /**
   * Reads an image task (`GET /v1/tasks/{id}?model=`), with its status normalised as `state`
   * and every image as a `{ url }` entry, whether the gateway listed objects or bare URLs.
   *
   * @throws RequestValidationError at `model` when it is missing (it must be the submission's
   * model), not a string, a video or embedding model, or an `imgmodel-` ID the SDK does not know;
   * at `params` when it is not an object. Nothing is sent.
   * @throws NotFoundError for an unknown task or one of another account; other APIError
   * subclasses by status. Safe to retry, so network failures are retried first.
   * @example
   * const task = await client.images.getTask(taskId, { model: 'imgmodel-2' });
   * if (task.state === 'succeeded') for (const image of task.images) console.log(image.url);
   */
  getTask(taskId: string, params: { model: string }, options?: RequestOptions): APIPromise<ImageTask> {
    return this.jsonCall<unknown>(
      'GET',
      'safe',
      () => {
        if (params !== undefined)
          checkObjectArgument('images.getTask', params, 'params', 'an object { model }');
        // spec: Endpoints — GET /v1/tasks/{task_id}?model=: "the same model ID used at submission".
        const model = params?.model;
        const issue = imageTaskModelIssue(model);
        if (issue) throw new RequestValidationError('images.getTask', [{ path: 'model', message: issue }]);
        return { path: path`/tasks/${{ taskId }}`, query: { model: model as string } };
      },
      options,
    )._thenUnwrap((raw) => toImageTask(taskId, raw));
  }

  /**
   * Polls an image task every 3-5 s (with jitter; `options.interval` or the client's
   * `pollInterval` instead when set) until it ends, calling `onProgress` after each poll. Never resubmits: at the deadline keep the task ID and query it later.
   *
   * @throws TaskFailedError (`kind: 'image'`, `task` an `ImageTask`) when the task failed;
   * WaitTimeoutError (`kind: 'image'`) at the deadline (10 minutes by default, interrupting a
   * query in flight), holding the task ID and the last task seen;
   * APIUserAbortError when `signal` aborts, with its reason as `cause`.
   * @throws ProgressCallbackError when `onProgress` throws or rejects (it is awaited).
   * @throws InvalidOptionError for a bad `timeout`, `interval` or `fallbackInterval`, or an
   * `onProgress` that is not a function, before any request.
   * @throws RequestValidationError (the promise rejects) when `options` is not an object or its
   * `model` is missing or cannot name an image task (as for `getTask`), before any request.
   * @example
   * const task = await client.images.waitForTask(taskId, { model: 'imgmodel-2', onProgress: (t) => console.log(t.status) });
   */
  waitForTask(taskId: string, options: ImageWaitOptions): Promise<ImageTask> {
    try {
      checkObjectArgument(
        'images.waitForTask',
        options,
        'options',
        'an object { model, ... }: the model ID used at submission, and the settings of the wait',
      );
      const issue = imageTaskModelIssue(options.model);
      if (issue)
        throw new RequestValidationError('images.waitForTask', [{ path: 'options.model', message: issue }]);
    } catch (error) {
      return Promise.reject(error);
    }
    const { model, ...wait } = options;
    return pollTask<ImageTask>(
      {
        taskId,
        kind: 'image',
        fetch: (signal) => this.getTask(taskId, { model }, { signal }),
        outcome: imageTaskOutcome,
        failure: (task) => task.error ?? {},
        defaultInterval: IMAGE_INTERVAL,
        clientInterval: this.settings.pollInterval,
      },
      wait,
    );
  }

  /**
   * Opens an output image: a `url` entry is downloaded (with the key only when the URL is on
   * the gateway's origin), a `b64_json` entry is decoded.
   *
   * @param entry - an entry of `data` or of `task.images`, or a URL.
   * @throws RequestValidationError at `entry` when it is neither an object nor a string, or has
   * neither `url` nor `b64_json`.
   * @throws RequestValidationError, before any request, when the URL is not an absolute http or
   * https URL.
   * @throws MediaExpiredError (410) when the temporary URL has expired; AuthenticationError (401)
   * when the URL needs the key of another account.
   * @example
   * const [first] = (await client.images.generate(params)).data;
   * await (await client.images.download(first)).saveTo('./out.png');
   */
  async download(
    entry: ImageData | { url: string } | string,
    options?: RequestOptions,
  ): Promise<MediaDownload> {
    if (typeof entry !== 'string') checkObjectArgument('images.download', entry, 'entry', DOWNLOAD_ENTRY);
    const item: ImageData = typeof entry === 'string' ? { url: entry } : entry;
    if (typeof item.b64_json === 'string') {
      const bytes = Buffer.from(item.b64_json, 'base64');
      const format = sniffImageFormat(bytes.subarray(0, SNIFF_BYTES));
      return new MediaDownload(Readable.from([bytes]), {
        contentLength: bytes.byteLength,
        contentType: format ? IMAGE_MIME_TYPES[format] : undefined,
      });
    }
    if (typeof item.url !== 'string' || !item.url) {
      throw new RequestValidationError('images.download', [
        { path: 'entry', message: `must hold url or b64_json: ${DOWNLOAD_ENTRY}` },
      ]);
    }
    const url = checkMediaURL('images.download', typeof entry === 'string' ? 'entry' : 'entry.url', item.url);
    return openDownload(this.transport, { path: '/', url }, options);
  }
}

/** Sends a generation (JSON), or submits it as a task. */
function sendGeneration<T>(
  transport: Transport,
  params: ImageGenerateAsyncParams,
  options: RequestOptions | undefined,
  asTask: boolean,
) {
  return transport.json<T>(() => {
    const body = asTask ? parseImageGenerateAsyncParams(params) : parseImageGenerateParams(params);
    const timeout = imageTimeout(body, 'generate');
    return {
      method: 'POST',
      path: asTask ? '/images/generations/async' : '/images/generations',
      body,
      retry: 'billable',
      // A synchronous upstream makes the gateway generate before it answers with the task ID.
      timeout: asTask ? Math.max(TIMEOUTS.submission, timeout) : timeout,
      options,
    };
  });
}

/**
 * Sends an edit, or submits it as a task: the options checked, the fields parsed, the files
 * read, then a streamed multipart body whose progress goes to `options.onProgress`.
 */
function sendEdit<T>(
  transport: Transport,
  params: ImageEditAsyncParams,
  options: UploadOptions | undefined,
  asTask: boolean,
) {
  const operation = asTask ? 'images.editAsync' : 'images.edit';
  return transport.json<T>(async () => {
    checkOptionsArgument(operation, options);
    const { onProgress, request } = splitUploadOptions(options);
    const parsed = asTask ? parseImageEditAsyncParams(params) : parseImageEditParams(params);
    const parts = await imageEditParts(parsed, operation);
    const timeout = imageTimeout(parsed, 'edit');
    return {
      method: 'POST',
      path: asTask ? '/images/edits/async' : '/images/edits',
      stream: reportingProgress(
        (body) => buildMultipart(parts, body),
        onProgress,
        progressFailed(transport, operation),
      ),
      model: parsed.model,
      retry: 'billable',
      // A synchronous upstream makes the gateway generate before it answers with the task ID.
      timeout: asTask ? Math.max(TIMEOUTS.submission, timeout) : timeout,
      options: request,
    };
  });
}
