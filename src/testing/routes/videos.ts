import type { MockGateway } from '../gateway.js';
import type { Router } from '../router.js';

/** Registers the mock gateway's videos routes. */
export function registerVideoRoutes(_router: Router, _gateway: MockGateway): void {}
