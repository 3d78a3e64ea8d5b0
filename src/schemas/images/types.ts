/**
 * The request types of the image routes: what a caller may write, checked by the compiler.
 * The rules themselves (and their messages) live in images.ts.
 *
 * Each request is typed per model, discriminated on `model`: `imgmodel-2` takes the
 * `image_urls` extension and a `mask`, the 2.5 models take neither. The types list the spec's
 * fields and nothing else, so a field no image route takes (a typo such as `sise`) does not
 * compile; the validator refuses it too, before sending.
 */
import type { Uploadable } from '../../core/uploadable.js';
import type { Notifications } from '../shared/common.js';
import type { ImageModel } from '../shared/constants.js';

/** The `imgmodel-2.5-*` models: separate models, not aliases of `imgmodel-2`. */
export type ImageModel25 = Exclude<ImageModel, 'imgmodel-2'>;

/** Fields shared by generation and editing. Which values a route supports depends on the route. */
export interface ImageOutputParams {
  /** `model`: switching between `imgmodel-2` and the 2.5 IDs means changing this field. */
  model: ImageModel;
  /** `prompt`: required, non-empty; describes the result. Naming a reference image does not attach one. */
  prompt: string;
  /** `n`: number of output images (not of references), a positive integer; the maximum depends on the route. */
  n?: number | undefined;
  /**
   * `size`: pixel dimensions `<W>x<H>`, e.g. `1024x1024`, or a word a route supports, such as
   * `auto`; supported values depend on the route.
   */
  size?: string | undefined;
  /** `resolution`: route-specific tier such as `1k`, `2k`, `4k`. */
  resolution?: string | undefined;
  /** `quality`: accepted values and cost depend on the route. */
  quality?: string | undefined;
  /** `background`: needs route support. */
  background?: string | undefined;
  /** `output_format`: needs route support. */
  output_format?: string | undefined;
  /** `output_compression`: needs route support. */
  output_compression?: number | undefined;
  /**
   * `nsfw_check`: moderate the prompt and images before generation; a flagged request is
   * refused with `ContentModerationError` (no task, no charge).
   */
  nsfw_check?: boolean | undefined;
  /** `response_format`: `url` or `b64_json` on routes that support it. */
  response_format?: string | undefined;
}

/** `POST /v1/images/generations` to `imgmodel-2`. */
export interface Image2GenerateParams extends ImageOutputParams {
  /** `model`. */
  model: 'imgmodel-2';
  /**
   * `image_urls`: public `http(s)` reference URLs, an extension of some `imgmodel-2` routes only.
   * To attach reference images portably, use `images.edit` with files.
   */
  image_urls?: readonly string[] | undefined;
}

/** `POST /v1/images/generations` to `imgmodel-2.5-sunburst` or `imgmodel-2.5-flare`. */
export interface Image25GenerateParams extends ImageOutputParams {
  /** `model`. */
  model: ImageModel25;
  /** Not accepted by the 2.5 models (an `imgmodel-2` extension): use `images.edit` with files. */
  image_urls?: never;
}

/** `POST /v1/images/generations` (JSON, synchronous), typed by `model`. Produces no task events. */
export type ImageGenerateParams = Image2GenerateParams | Image25GenerateParams;

/** Task request additions of the asynchronous routes (spec: Webhook management). */
export interface ImageTaskAdditions {
  /** `notifications`: the verified endpoint and the events to send; not with legacy `webhook`/`callback_url`. */
  notifications?: Notifications | undefined;
  /** `client_reference_id`: your reference, at most 128 bytes of UTF-8, echoed in events; not an idempotency key. */
  client_reference_id?: string | undefined;
  /**
   * Legacy provider parameter, passed through unchanged; never with `notifications`.
   * @deprecated use `notifications`.
   */
  webhook?: string | undefined;
  /**
   * Legacy provider parameter, passed through unchanged; never with `notifications`.
   * @deprecated use `notifications`.
   */
  callback_url?: string | undefined;
}

/**
 * `POST /v1/images/generations/async` (JSON): the same body as synchronous generation, plus
 * `notifications` and `client_reference_id`, since the spec names both asynchronous image
 * endpoints as task-event producers and each task request names its own endpoint.
 */
export type ImageGenerateAsyncParams =
  | (Image2GenerateParams & ImageTaskAdditions)
  | (Image25GenerateParams & ImageTaskAdditions);

/** The edit fields of every model: the files. */
export interface ImageEditFiles {
  /** The input image(s), as files: one is sent as part `image`, several as `image[]` in this order. */
  image: Uploadable | readonly Uploadable[];
}

/** `POST /v1/images/edits` to `imgmodel-2`. */
export interface Image2EditParams extends ImageOutputParams, ImageEditFiles {
  /** `model`. */
  model: 'imgmodel-2';
  /** `mask`: a PNG with an alpha channel, the size of the (first) input image, where the route supports it. */
  mask?: Uploadable | undefined;
  /**
   * `image_urls`: public `http(s)` reference URLs besides the files, an extension of some
   * `imgmodel-2` routes only (spec: edits take "the other optional fields above"). Sent as one
   * JSON-string form field.
   */
  image_urls?: readonly string[] | undefined;
}

/** `POST /v1/images/edits` to `imgmodel-2.5-sunburst` or `imgmodel-2.5-flare`. */
export interface Image25EditParams extends ImageOutputParams, ImageEditFiles {
  /** `model`. */
  model: ImageModel25;
  /** Not accepted: the 2.5 edit route rejects uploaded mask files. */
  mask?: never;
  /** Not accepted by the 2.5 models (an `imgmodel-2` extension). */
  image_urls?: never;
}

/** `POST /v1/images/edits` (multipart, synchronous), typed by `model`. Produces no task events. */
export type ImageEditParams = Image2EditParams | Image25EditParams;

/** `POST /v1/images/edits/async` (multipart): edit files and fields plus the task additions. */
export type ImageEditAsyncParams =
  | (Image2EditParams & ImageTaskAdditions)
  | (Image25EditParams & ImageTaskAdditions);
