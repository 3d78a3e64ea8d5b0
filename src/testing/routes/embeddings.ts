import type { MockGateway } from '../gateway.js';
import type { Router } from '../router.js';

/** Registers the mock gateway's embeddings routes. */
export function registerEmbeddingRoutes(_router: Router, _gateway: MockGateway): void {}
