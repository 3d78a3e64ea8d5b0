import { plainImageGenerateRequest } from '../schemas/images/fast.js';
import { plainAssetSubmitRequest, plainGroupCreateRequest } from '../schemas/library/fast.js';
import { plainVideo25Request } from '../schemas/video/2-5-fast.js';
import type { ReservationEstimate, ReservationHints } from '../schemas/video/reservation-tiers.js';
import type { VideoCreateParams } from '../schemas/video/types.js';
import { type SchemaFamily, schemaFamilies } from './schemas-loader.js';

type Family<F extends SchemaFamily> = ReturnType<(typeof schemaFamilies)[F]>;
type CheckerName<F extends SchemaFamily> = {
  [K in keyof Family<F>]: Family<F>[K] extends (...args: never[]) => unknown ? K : never;
}[keyof Family<F>];

/** `name` of a family's schemas, loading that family (and zod) on the first call. */
const lazy = <F extends SchemaFamily, K extends CheckerName<F>>(family: F, name: K): Family<F>[K] =>
  ((...args: unknown[]) =>
    ((schemaFamilies[family]() as Family<F>)[name] as (...a: unknown[]) => unknown)(...args)) as Family<F>[K];

/**
 * `check`, after a plain check that lets valid requests through without zod (each family's
 * fast path in schemas/: `images/fast.ts`, `library/fast.ts`, `video/2-5-fast.ts`); whatever it
 * leaves, valid or not, the schema decides and words.
 */
const plainFirst =
  <P, R>(plain: (params: unknown) => R | undefined, check: (params: P) => R) =>
  (params: P): R =>
    plain(params) ?? check(params);

// The request checks the resources call.
export const parseEmbeddingCreateParams = lazy('embeddings', 'parseEmbeddingCreateParams');
export const parseImageEditAsyncParams = lazy('images', 'parseImageEditAsyncParams');
export const parseImageEditParams = lazy('images', 'parseImageEditParams');
export const parseImageGenerateAsyncParams = plainFirst(
  (params) => plainImageGenerateRequest(params, true),
  lazy('images', 'parseImageGenerateAsyncParams'),
);
export const parseImageGenerateParams = plainFirst(
  (params) => plainImageGenerateRequest(params, false),
  lazy('images', 'parseImageGenerateParams'),
);
export const parseAssetListParams = lazy('library', 'parseAssetListParams');
export const parseAssetSubmitParams = plainFirst(
  plainAssetSubmitRequest,
  lazy('library', 'parseAssetSubmitParams'),
);
export const parseAssetUpdateParams = lazy('library', 'parseAssetUpdateParams');
export const parseGroupCreateParams = plainFirst(
  plainGroupCreateRequest,
  lazy('library', 'parseGroupCreateParams'),
);
export const parseGroupUpdateParams = lazy('library', 'parseGroupUpdateParams');
export const parseListParams = lazy('library', 'parseListParams');
export const parseMidjourneyGenerateParams = lazy('midjourney', 'parseMidjourneyGenerateParams');
export const parseWebhookCapabilitiesParams = lazy('webhookEndpoints', 'parseWebhookCapabilitiesParams');
export const parseWebhookEndpointCreateParams = lazy('webhookEndpoints', 'parseWebhookEndpointCreateParams');
export const parseWebhookEndpointUpdateParams = lazy('webhookEndpoints', 'parseWebhookEndpointUpdateParams');
export const parseWebhookEventListParams = lazy('webhookEndpoints', 'parseWebhookEventListParams');

/**
 * Checks a `videos.create` body against the rules of its model before anything is sent.
 * Returns the same fields the caller gave (never adds defaults, because the gateway's defaults
 * changed on 2026-10-01 and may change again). The package exports it as `parseVideoRequest`;
 * its own name keeps it apart from the video schemas' check of that name, which it calls for
 * whatever the fast path leaves.
 *
 * @throws {RequestValidationError} with operation `videos.create` and one issue per broken rule,
 * each naming the field path (`image_with_roles[1].role`) and the rule in words.
 * @example
 * parseVideoRequest({ model: 'vidmodel-2.0-mini', prompt: 'a red kite', duration: 5 });
 */
export function checkVideoRequest(params: unknown): VideoCreateParams {
  // A plain valid vidmodel-2.5 body is checked without zod; the schema decides everything else.
  return plainVideo25Request(params) ?? schemaFamilies.video().parseVideoRequest(params);
}

/**
 * Estimates the seconds and tier that submitting `params` reserves, by the spec's "Billing and
 * reservations" rules. No request is made. The lengths of referenced videos are unknown to the
 * client: pass them in `hints` when known, otherwise the estimate assumes the maximum and says
 * so in `notes`. The gateway settles the difference after completion.
 *
 * @throws {RequestValidationError} when `params` breaks a request rule, or a hint is malformed.
 * @example
 * estimateReservation(
 *   { model: 'vidmodel-2.0-mini', prompt: 'x', duration: 6, video_urls: ['https://example.com/a.mp4'] },
 *   { videoDurations: [3.2], prices: { '720P-input': 0.1 } },
 * ); // { seconds: 10, tier: '720P-input', cost: 1, ... }
 */
export function estimateReservation(
  params: VideoCreateParams,
  hints?: ReservationHints,
): ReservationEstimate {
  return schemaFamilies.reservation().estimateReservation(params, hints);
}
