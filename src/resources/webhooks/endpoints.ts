import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../internal/request-spec.js';
import {
  parseWebhookEndpointCreateParams,
  parseWebhookEndpointUpdateParams,
} from '../../internal/schemas.js';
import { path } from '../../internal/url.js';
import type {
  WebhookEndpointCreateParams,
  WebhookEndpointUpdateParams,
} from '../../schemas/webhook-endpoints/index.js';
import { APIResource } from '../resource.js';
import type { EndpointCreated, SecretRotation, WebhookManagementResponse } from './types.js';

/** Webhook endpoints: `/v1/webhook-endpoints`. */
export class Endpoints extends APIResource {
  /**
   * Registers an endpoint: HTTPS on port 443, no credentials in the URL, immutable once made.
   * The answer's `signing_secret` is returned only this once: store it.
   *
   * @throws RequestValidationError before sending for a URL the gateway would refuse (not
   * `https://`, not port 443, or with a user name or password).
   * @throws APIError (a subclass by status) when the gateway refuses the URL (a private address,
   * say) or the account already has its 20 endpoints.
   * @example
   * const { endpoint, signing_secret } = await client.webhooks.endpoints.create({
   *   url: 'https://hooks.example.com/mediagw',
   * });
   * await secretStore.put(endpoint.key_id, signing_secret); // shown only now
   */
  create(params: WebhookEndpointCreateParams, options?: RequestOptions): APIPromise<EndpointCreated> {
    return this.jsonCall<EndpointCreated>(
      'POST',
      'create',
      () => ({ path: '/webhook-endpoints', body: parseWebhookEndpointCreateParams(params) }),
      options,
    );
  }

  /**
   * Starts the verification challenge: the gateway sends a `webhook.endpoint_verification`
   * event, which the receiver must answer within 10 s with `{ challenge }` (the SDK's
   * handlers do). Only verified, enabled endpoints may be named in task requests.
   *
   * @throws NotFoundError for an unknown endpoint or one of another account.
   * @example
   * await client.webhooks.endpoints.verify(endpoint.id);
   */
  verify(endpointId: string, options?: RequestOptions): APIPromise<WebhookManagementResponse> {
    return this.jsonCall(
      'POST',
      'create',
      () => ({ path: path`/webhook-endpoints/${{ endpointId }}/verify` }),
      options,
    );
  }

  /**
   * Pauses (`enabled: false`) or resumes (`enabled: true`) an endpoint. While paused, task
   * requests naming it are rejected and its events wait; on resume, events whose 72-hour
   * window has not passed are delivered.
   *
   * @throws RequestValidationError before sending when `enabled` is not a JSON boolean.
   * @throws NotFoundError for an unknown endpoint or one of another account.
   * @example
   * await client.webhooks.endpoints.update(endpoint.id, { enabled: false });
   */
  update(
    endpointId: string,
    params: WebhookEndpointUpdateParams,
    options?: RequestOptions,
  ): APIPromise<WebhookManagementResponse> {
    return this.jsonCall<WebhookManagementResponse>(
      'PATCH',
      'safe',
      () => ({
        path: path`/webhook-endpoints/${{ endpointId }}`,
        body: parseWebhookEndpointUpdateParams(params),
      }),
      options,
    );
  }

  /**
   * Issues a new secret and key ID. The previous pair stays valid for 24 hours: give your
   * receiver both until then. Never retried on an unknown outcome (a second rotation would
   * replace the secret you have not seen).
   *
   * @throws NotFoundError for an unknown endpoint or one of another account.
   * @example
   * const rotated = await client.webhooks.endpoints.rotateSecret(endpoint.id);
   * // store rotated.signing_secret now; keep the old pair in the receiver for 24 hours
   */
  rotateSecret(endpointId: string, options?: RequestOptions): APIPromise<SecretRotation> {
    return this.jsonCall(
      'POST',
      'create',
      () => ({ path: path`/webhook-endpoints/${{ endpointId }}/rotate-secret` }),
      options,
    );
  }
}
