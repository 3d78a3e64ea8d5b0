/**
 * What the client's resources check requests with: reached only through
 * `internal/schemas-loader.ts`, so that zod and the schemas load on first use.
 */
export { parseEmbeddingCreateParams } from './embeddings.js';
export {
  parseImageEditAsyncParams,
  parseImageEditParams,
  parseImageGenerateAsyncParams,
  parseImageGenerateParams,
} from './images.js';
export {
  parseAssetListParams,
  parseAssetSubmitParams,
  parseAssetUpdateParams,
  parseGroupCreateParams,
  parseGroupUpdateParams,
  parseListParams,
} from './library.js';
export { parseMidjourneyGenerateParams } from './midjourney.js';
export { parseVideoRequest, videoRequestSchema } from './video.js';
export { video25RequestKind } from './video-2-5.js';
export {
  parseWebhookCapabilitiesParams,
  parseWebhookEndpointCreateParams,
  parseWebhookEndpointUpdateParams,
  parseWebhookEventListParams,
} from './webhook-endpoints.js';
