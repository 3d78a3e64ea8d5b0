import type { MockGateway } from '../gateway.js';
import type { Router } from '../router.js';

/** Registers the mock gateway's webhooks routes. */
export function registerWebhookRoutes(_router: Router, _gateway: MockGateway): void {}
