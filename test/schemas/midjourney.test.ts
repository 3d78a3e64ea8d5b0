// Covers: src/schemas/images/midjourney.ts
import { describe, expect, test } from 'vitest';
import { RequestValidationError } from '../../src/core/errors.js';
import { parseMidjourneyGenerateParams } from '../../src/schemas/images/midjourney.js';

const notifications = { webhook: { endpoint_id: 'whep_1', events: ['batch.completed', 'task.completed'] } };

describe('midjourney.generate', () => {
  test.each([
    [
      'client_reference_id over 128 bytes',
      { prompt: 'x', client_reference_id: 'a'.repeat(129) },
      'client_reference_id',
      '128 bytes',
    ],
    [
      'notifications with webhook',
      { notifications, webhook: 'https://h' },
      'notifications',
      'legacy `webhook`',
    ],
    [
      'notifications with callback_url',
      { notifications, callback_url: 'https://h' },
      'notifications',
      'legacy `callback_url`',
    ],
    [
      'an unknown event',
      { notifications: { webhook: { endpoint_id: 'whep_1', events: ['batch.done'] } } },
      'notifications.webhook.events[0]',
      'must be one of',
    ],
    [
      'an extra key in notifications',
      { notifications: { ...notifications, email: 'x' } },
      'notifications',
      '',
    ],
  ])('refuses %s', (_, params, path, fragment) => {
    try {
      parseMidjourneyGenerateParams(params);
      expect.unreachable('expected a refusal');
    } catch (error) {
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).message).toContain('midjourney.generate was not sent');
      expect((error as RequestValidationError).issues).toEqual([
        { path, message: expect.stringContaining(fragment) },
      ]);
    }
  });

  test.each([
    ['any fields, passed through unchanged', { prompt: 'a cat --ar 16:9', mode: 'fast', nested: { a: [1] } }],
    ['notifications with batch.completed', { prompt: 'x', notifications, client_reference_id: 'batch-7' }],
    ['a legacy callback_url alone', { prompt: 'x', callback_url: 'https://example.com/cb' }],
    ['an empty record', {}],
  ])('accepts %s', (_, params) => {
    expect(parseMidjourneyGenerateParams(params)).toEqual(params);
  });
});
