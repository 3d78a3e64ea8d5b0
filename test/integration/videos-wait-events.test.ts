// Covers: the client against the mock gateway: video waits ended by events
// A wait on task events for a request that subscribed none: it polls at its normal pace instead
// of sitting until the 60-120 s fallback poll, and says so at debug.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { TaskEventHub } from '../../src/index.js';
import { type MockGateway, startMockGateway } from '../../src/testing/index.js';
import { testClient } from '../helpers/client.js';

let gateway: MockGateway;
beforeAll(async () => {
  gateway = await startMockGateway({ clock: 'manual' });
});
afterAll(() => gateway.close());

const kite = { model: 'vidmodel-2.0-mini', prompt: 'a red kite', duration: 5 } as const;

describe('videos.createAndWait with events and no notifications in the request', () => {
  test('polls at the client pollInterval, ends on the task, and logs why at debug', async () => {
    const lines: string[] = [];
    const client = testClient({
      gateway,
      pollInterval: 20,
      logger: { debug: (message: string) => lines.push(message) },
    });
    const hub = new TaskEventHub();
    const listened = vi.spyOn(hub, 'waitFor');
    let polls = 0;
    const task = await client.videos.createAndWait(kite, {
      events: hub,
      // Far under the 60 s fallback poll: a wait that waited for an event would time out.
      timeout: 10_000,
      onProgress: () => {
        polls++;
        // Each poll moves the mock clock 4 s: the task completes within a few polls.
        void gateway.clock.advance(4_000);
      },
    });
    expect(task.status).toBe('completed');
    expect(polls).toBeGreaterThanOrEqual(2);
    expect(listened).not.toHaveBeenCalled();
    const why = lines.filter((line) => line.startsWith('videos.createAndWait:'));
    expect(why).toEqual([
      `videos.createAndWait: task ${task.id} subscribes no task.completed or task.failed event (notifications), so no event can end its wait: polling at the normal pace instead`,
    ]);
  });
});
