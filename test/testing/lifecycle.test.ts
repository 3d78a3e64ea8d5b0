// Covers: src/testing/http/server.ts
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { startMockGateway } from '../../src/testing/index.js';
import { api, createAgent } from './helpers.js';

const handles = () => {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
};

describe('listening', () => {
  test('both origins listen on 127.0.0.1 only, on free ports by default', async () => {
    const gateway = await startMockGateway();
    try {
      for (const server of [gateway.servers.api, gateway.servers.media]) {
        const address = server.address() as AddressInfo;
        expect(address.address).toBe('127.0.0.1');
        expect(address.family).toBe('IPv4');
        expect(address.port).toBeGreaterThan(0);
      }
      expect(gateway.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(gateway.mediaUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(gateway.mediaUrl).not.toBe(gateway.url);
    } finally {
      await gateway.close();
    }
  });

  test('listens on the asked port, which is free again after close', async () => {
    const first = await startMockGateway();
    const port = (first.servers.api.address() as AddressInfo).port;
    await first.close();
    const second = await startMockGateway({ port });
    expect(second.url).toBe(`http://127.0.0.1:${port}`);
    await second.close();
  });
});

describe('close()', () => {
  test('leaves no server, socket or timer behind, even with open, hanging and streaming requests', async () => {
    const before = handles();
    const agent = createAgent();
    const gateway = await startMockGateway({ clock: 'real', speed: 1, largeMediaBytes: 50 * 1024 * 1024 });
    gateway.router.add('GET', '/v1/test/ok', (ctx) => ctx.json(200, {}));
    gateway.tasks.create({ account: 'acct_1', kind: 'video', model: 'vidmodel-2.5' }); // a pending clock timer
    await api(agent, gateway, 'GET', '/v1/test/ok', { key: gateway.apiKey }); // a kept-alive socket
    gateway.inject({ match: { path: '/v1/test/hang' }, fault: { hang: true } });
    gateway.inject({ match: { path: '/v1/test/slow' }, fault: { delayMs: 60_000 } });
    const hanging = api(agent, gateway, 'GET', '/v1/test/hang', { key: gateway.apiKey }).catch(
      (e: unknown) => e,
    );
    const delayed = api(agent, gateway, 'GET', '/v1/test/slow', { key: gateway.apiKey }).catch(
      (e: unknown) => e,
    );
    const record = gateway.media.publishVideo({ account: 'acct_1' });
    const { request } = await import('undici');
    const download = await request(record.url, { dispatcher: agent });
    const streaming = (async () => {
      for await (const _ of download.body) await sleep(1);
    })().catch((e: unknown) => e);
    for (let i = 0; i < 100 && gateway.requests.length < 4; i++) await sleep(5);
    expect(gateway.requests).toHaveLength(4);

    await gateway.close();
    await gateway.close(); // idempotent
    expect(await hanging).toBeInstanceOf(Error);
    expect(await delayed).toBeInstanceOf(Error);
    expect(await streaming).toBeInstanceOf(Error);
    await agent.close();
    await sleep(10);
    const after = handles();
    for (const kind of ['TCPServerWrap', 'TCPSocketWrap', 'Timeout'])
      expect(after[kind] ?? 0, kind).toBeLessThanOrEqual(before[kind] ?? 0);
    expect(gateway.servers.api.listening).toBe(false);
    expect(gateway.servers.media.listening).toBe(false);
    expect(gateway.clock.pendingTimers).toBe(0);
  });

  test('runs onClose hooks, and a failing hook does not keep the servers open', async () => {
    const errors: unknown[] = [];
    const gateway = await startMockGateway({ onError: (e) => errors.push(e) });
    const calls: string[] = [];
    gateway.onClose(() => {
      throw new Error('hook failed');
    });
    gateway.onClose(async () => {
      calls.push('second');
    });
    await gateway.close();
    expect(calls).toEqual(['second']);
    expect(errors).toHaveLength(1);
    expect(gateway.servers.api.listening).toBe(false);
  });
});

describe('mediagw-mock bin', () => {
  test('prints the URLs and keys, serves, and exits 0 on SIGTERM', async () => {
    const bin = fileURLToPath(new URL('../../src/cli/mock-bin.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', bin, '--port', '0', '--speed', '5'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      for (let i = 0; i < 200 && !output.includes('Press Ctrl+C'); i++) await sleep(50);
      const url = /base URL:\s+(\S+)/.exec(output)?.[1];
      const key = /acct_1 key: (\S+)/.exec(output)?.[1];
      expect(output).toMatch(/media origin:\s+http:\/\/127\.0\.0\.1:\d+/);
      expect(output).toMatch(/acct_2 key: mgw_test_/);
      expect(output).toMatch(/speed:\s+5x/);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const response = await fetch(`${url}/v1/not-a-route`, { headers: { authorization: `Bearer ${key}` } });
      expect(response.status).toBe(404);
      expect(response.headers.get('x-service-request-id')).toBe('req_1');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  test('refuses a bad --speed with a usage message and exit code 1', async () => {
    const bin = fileURLToPath(new URL('../../src/cli/mock-bin.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', bin, '--speed', 'fast'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(1);
    expect(stderr).toContain('--speed must be a number, got fast');
  });
});
