import type { MockGateway } from '../gateway.js';
import type { Router } from '../router.js';

/** Registers the mock gateway's tasks routes. */
export function registerTaskRoutes(_router: Router, _gateway: MockGateway): void {}
