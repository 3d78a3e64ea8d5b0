import { TIMEOUTS } from '../../internal/timeouts.js';
import type { RequestOptions } from '../../internal/transport.js';
import { path } from '../../internal/url.js';
import {
  parseWebhookEndpointCreateParams,
  parseWebhookEndpointUpdateParams,
  type WebhookEndpointCreateParams,
  type WebhookEndpointUpdateParams,
} from '../../schemas/webhook-endpoints.js';
import { APIResource } from '../resource.js';
import type { EndpointCreated, WebhookManagementResponse } from './types.js';

/** Webhook endpoints: `/v1/webhook-endpoints`. */
export class Endpoints extends APIResource {
  /**
   * Registers an endpoint: HTTPS on port 443, no credentials in the URL, immutable once made.
   * The answer's `signing_secret` is returned only this once: store it.
   *
   * @throws RequestValidationError before sending for a URL the gateway would refuse.
   */
  async create(params: WebhookEndpointCreateParams, options?: RequestOptions): Promise<EndpointCreated> {
    return this.transport.json<EndpointCreated>({
      method: 'POST',
      path: '/webhook-endpoints',
      body: parseWebhookEndpointCreateParams(params),
      retry: 'create',
      timeout: TIMEOUTS.default,
      options,
    });
  }

  /**
   * Starts the verification challenge: the gateway sends a `webhook.endpoint_verification`
   * event, which the receiver must answer within 10 s with `{ challenge }` (the SDK's
   * handlers do). Only verified, enabled endpoints may be named in task requests.
   */
  verify(endpointId: string, options?: RequestOptions): Promise<WebhookManagementResponse> {
    return this.post(path`/webhook-endpoints/${endpointId}/verify`, options);
  }

  /** Pauses (`enabled: false`) or resumes (`enabled: true`) an endpoint. */
  async update(
    endpointId: string,
    params: WebhookEndpointUpdateParams,
    options?: RequestOptions,
  ): Promise<WebhookManagementResponse> {
    return this.transport.json<WebhookManagementResponse>({
      method: 'PATCH',
      path: path`/webhook-endpoints/${endpointId}`,
      body: parseWebhookEndpointUpdateParams(params),
      retry: 'safe',
      timeout: TIMEOUTS.default,
      options,
    });
  }

  /**
   * Issues a new secret and key ID. The previous pair stays valid for 24 hours: give your
   * receiver both until then.
   */
  rotateSecret(endpointId: string, options?: RequestOptions): Promise<WebhookManagementResponse> {
    return this.post(path`/webhook-endpoints/${endpointId}/rotate-secret`, options);
  }

  private post(apiPath: string, options?: RequestOptions): Promise<WebhookManagementResponse> {
    return this.transport.json<WebhookManagementResponse>({
      method: 'POST',
      path: apiPath,
      retry: 'create',
      timeout: TIMEOUTS.default,
      options,
    });
  }
}
