/**
 * Whether a registered webhook host is a public address. spec: Limits — Webhook endpoints are
 * "HTTPS, port 443, public address". The mock applies the SDK's own rule (schemas/), so the two
 * refuse the same hosts; it resolves no names. Local receivers are reached through
 * `mockWebhooks(gateway).route()` instead.
 */
export { isPublicHost } from '../../../schemas/shared/public-address.js';
