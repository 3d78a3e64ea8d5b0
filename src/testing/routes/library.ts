import type { MockGateway } from '../gateway.js';
import type { Router } from '../router.js';

/** Registers the mock gateway's library routes. */
export function registerLibraryRoutes(_router: Router, _gateway: MockGateway): void {}
