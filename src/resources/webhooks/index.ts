import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../internal/request-spec.js';
import { parseWebhookCapabilitiesParams } from '../../internal/schemas.js';
import type { Transport } from '../../internal/transport.js';
import type { WebhookCapabilitiesParams } from '../../schemas/webhook-endpoints/index.js';
import { APIResource } from '../resource.js';
import { Endpoints } from './endpoints.js';
import { WebhookEvents } from './events.js';
import type { WebhookManagementResponse } from './types.js';

/** Webhook management. Receiving and verifying deliveries lives in `mediagw/webhooks`. */
export class Webhooks extends APIResource {
  /** Register, verify, pause or resume endpoints and rotate their secrets. */
  readonly endpoints: Endpoints;
  /** Events of a task, their delivery attempts, and manual replays. */
  readonly events: WebhookEvents;

  /** Built by `MediaGateway`; reach it as `client.webhooks`. */
  constructor(transport: Transport) {
    super(transport);
    this.endpoints = new Endpoints(transport);
    this.events = new WebhookEvents(transport);
  }

  /**
   * Whether a model can produce task events (`GET /v1/webhook-capabilities?model=`). The
   * answer's shape is not fixed by the document, so it is returned as received.
   *
   * @throws RequestValidationError before sending when `model` is missing or empty.
   * @throws APIError (a subclass by status) when the gateway refuses the call.
   * @example
   * const capability = await client.webhooks.capabilities({ model: 'vidmodel-2.5' });
   */
  capabilities(
    params: WebhookCapabilitiesParams,
    options?: RequestOptions,
  ): APIPromise<WebhookManagementResponse> {
    return this.jsonCall<WebhookManagementResponse>(
      'GET',
      'safe',
      () => ({
        path: '/webhook-capabilities',
        query: { model: parseWebhookCapabilitiesParams(params).model },
      }),
      options,
    );
  }
}
