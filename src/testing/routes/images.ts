import type { MockGateway } from '../gateway.js';
import type { Router } from '../router.js';

/** Registers the mock gateway's images routes. */
export function registerImageRoutes(_router: Router, _gateway: MockGateway): void {}
