import { TIMEOUTS } from '../../internal/timeouts.js';
import type { RequestOptions, Transport } from '../../internal/transport.js';
import {
  parseWebhookCapabilitiesParams,
  type WebhookCapabilitiesParams,
} from '../../schemas/webhook-endpoints.js';
import { APIResource } from '../resource.js';
import { Endpoints } from './endpoints.js';
import { WebhookEvents } from './events.js';
import type { WebhookManagementResponse } from './types.js';

/** Webhook management. Receiving and verifying deliveries lives in `mediagw/webhooks`. */
export class Webhooks extends APIResource {
  readonly endpoints: Endpoints;
  readonly events: WebhookEvents;

  constructor(transport: Transport) {
    super(transport);
    this.endpoints = new Endpoints(transport);
    this.events = new WebhookEvents(transport);
  }

  /**
   * Whether a model can produce task events (`GET /v1/webhook-capabilities?model=`).
   * @throws RequestValidationError before sending when `model` is missing or empty.
   * @example
   * const capability = await client.webhooks.capabilities({ model: 'vidmodel-2.5' });
   */
  async capabilities(
    params: WebhookCapabilitiesParams,
    options?: RequestOptions,
  ): Promise<WebhookManagementResponse> {
    const { model } = parseWebhookCapabilitiesParams(params);
    return this.transport.json<WebhookManagementResponse>({
      method: 'GET',
      path: '/webhook-capabilities',
      query: { model },
      retry: 'safe',
      timeout: TIMEOUTS.default,
      options,
    });
  }
}
