import { Agent } from 'undici';
import { afterAll, beforeEach } from 'vitest';
import { startMockGateway } from '../../src/testing/index.js';
import { testClient } from '../helpers/client.js';

/**
 * A mock gateway on 127.0.0.1 with a manual clock, and a client of its first account, for the
 * test file that calls this at its top level: faults and the request log are cleared before
 * each test, and both are closed after the file. Returns the gateway, the client and its agent.
 */
export async function mockGatewayClient(options: { maxRetries?: number } = {}) {
  const gateway = await startMockGateway({ clock: 'manual' });
  const agent = new Agent({ keepAliveTimeout: 1_000 });
  const client = testClient({ gateway, maxRetries: options.maxRetries ?? 0, dispatcher: agent });
  beforeEach(() => {
    gateway.clearFaults();
    gateway.resetRequests();
  });
  afterAll(async () => {
    await gateway.close();
    await agent.close();
  });
  return { gateway, client, agent };
}
