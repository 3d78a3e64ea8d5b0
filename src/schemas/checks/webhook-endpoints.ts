/**
 * The webhook management checks that the SDK's resources call, alone: the lazy schema loader
 * (internal/schemas-loader.ts) requires this module, and a required module's every export is built
 * into its namespace in the bundle, so the schemas the mock gateway also imports stay out of it.
 */
export {
  parseWebhookCapabilitiesParams,
  parseWebhookEndpointCreateParams,
  parseWebhookEndpointUpdateParams,
  parseWebhookEventListParams,
} from '../webhook-endpoints/index.js';
