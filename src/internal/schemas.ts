import type { VideoCreateParams } from '../schemas/video-types.js';
import { loadSchemas, type Schemas } from './schemas-loader.js';

type Checker = Extract<Schemas[keyof Schemas], (...args: never[]) => unknown>;
type CheckerName = { [K in keyof Schemas]: Schemas[K] extends Checker ? K : never }[keyof Schemas];

/** `name` of the schemas, loading them on the first call. */
const lazy = <K extends CheckerName>(name: K): Schemas[K] =>
  ((...args: unknown[]) => (loadSchemas()[name] as (...a: unknown[]) => unknown)(...args)) as Schemas[K];

// The request checks the resources call, each loading the schemas (and zod) on first use.
export const parseEmbeddingCreateParams = lazy('parseEmbeddingCreateParams');
export const parseImageEditAsyncParams = lazy('parseImageEditAsyncParams');
export const parseImageEditParams = lazy('parseImageEditParams');
export const parseImageGenerateAsyncParams = lazy('parseImageGenerateAsyncParams');
export const parseImageGenerateParams = lazy('parseImageGenerateParams');
export const parseAssetListParams = lazy('parseAssetListParams');
export const parseAssetSubmitParams = lazy('parseAssetSubmitParams');
export const parseAssetUpdateParams = lazy('parseAssetUpdateParams');
export const parseGroupCreateParams = lazy('parseGroupCreateParams');
export const parseGroupUpdateParams = lazy('parseGroupUpdateParams');
export const parseListParams = lazy('parseListParams');
export const parseMidjourneyGenerateParams = lazy('parseMidjourneyGenerateParams');
export const video25RequestKind = lazy('video25RequestKind');
export const parseWebhookCapabilitiesParams = lazy('parseWebhookCapabilitiesParams');
export const parseWebhookEndpointCreateParams = lazy('parseWebhookEndpointCreateParams');
export const parseWebhookEndpointUpdateParams = lazy('parseWebhookEndpointUpdateParams');
export const parseWebhookEventListParams = lazy('parseWebhookEventListParams');

/**
 * Checks a `videos.create` body against the rules of its model before anything is sent.
 * Returns the same fields the caller gave (never adds defaults, because the gateway's defaults
 * changed on 2026-10-01 and may change again).
 *
 * @throws {RequestValidationError} with operation `videos.create` and one issue per broken rule,
 * each naming the field path (`image_with_roles[1].role`) and the rule in words.
 * @example
 * parseVideoRequest({ model: 'vidmodel-2.0-mini', prompt: 'a red kite', duration: 5 });
 */
export function parseVideoRequest(params: unknown): VideoCreateParams {
  return loadSchemas().parseVideoRequest(params);
}
