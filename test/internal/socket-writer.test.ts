// Covers: src/internal/socket-writer.ts
import { execFileSync } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { fileURLToPath } from 'node:url';
import * as undici from 'undici';
import { describe, expect, test } from 'vitest';
import { writesOnlyToSockets } from '../../src/internal/socket-writer.js';

const { Agent, Client, MockAgent, Pool, interceptors } = undici;

describe('writesOnlyToSockets: may an upload reuse its read buffers?', () => {
  test("yes for an Agent of the SDK's undici with its own connector and factory", () => {
    expect(writesOnlyToSockets(undici, new Agent())).toBe(true);
    expect(writesOnlyToSockets(undici, new Agent({ keepAliveTimeout: 1_000, connections: 4 }))).toBe(true);
    // Connector options (TLS settings, timeouts) still build undici's own socket connector.
    expect(writesOnlyToSockets(undici, new Agent({ connect: { timeout: 5_000 } }))).toBe(true);
  });

  test('yes for the global dispatcher undici installs', () => {
    const global = undici.getGlobalDispatcher();
    // Node's own fetch may have installed the agent of its bundled undici: a different class.
    expect(writesOnlyToSockets(undici, global)).toBe(global.constructor === Agent);
  });

  test('yes for the Agent of the undici bundled with Node, which a touch of Headers installs; no once it is composed', () => {
    const script = fileURLToPath(new URL('./fixtures/foreign-agent.ts', import.meta.url));
    const out = execFileSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ foreign: true, name: 'Agent', plain: true, composed: false });
  });

  test('no for anything that could keep a chunk', () => {
    const custom = () => {
      throw new Error('not called');
    };
    const cases = {
      mock: new MockAgent(),
      composed: new Agent().compose(interceptors.retry()),
      'custom connect': new Agent({ connect: custom }),
      'custom factory': new Agent({ factory: (origin, options) => new Pool(origin, options) }),
      pool: new Pool('http://127.0.0.1:1'),
      client: new Client('http://127.0.0.1:1'),
      subclass: new (class extends Agent {})(),
      'subclass named Agent': new (class Agent extends undici.Agent {})(),
    };
    for (const [name, dispatcher] of Object.entries(cases)) {
      expect([name, writesOnlyToSockets(undici, dispatcher)]).toEqual([name, false]);
    }
  });

  test('no while someone listens to the chunks undici sends', () => {
    const listener = () => undefined;
    subscribe('undici:request:bodyChunkSent', listener);
    try {
      expect(writesOnlyToSockets(undici, new Agent())).toBe(false);
    } finally {
      unsubscribe('undici:request:bodyChunkSent', listener);
    }
    expect(writesOnlyToSockets(undici, new Agent())).toBe(true);
  });
});
