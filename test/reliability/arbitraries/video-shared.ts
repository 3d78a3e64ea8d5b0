import fc from 'fast-check';
import { VIDEO_RATIOS } from '../../../src/schemas/shared/constants.js';
import { type Fixtures, inlineData } from './common.js';
import { type Body, badValue, type Rule } from './rules.js';

const REFERENCE = /\s*@(图片|视频|音频)\d+/g;

/** How many references of each kind a body holds (the prompt's `@图片<n>` indexes count these). */
export function counts(body: Body): { images: number; videos: number; audios: number } {
  const length = (value: unknown) => (Array.isArray(value) ? value.length : 0);
  const aliases = ['first_frame_image', 'last_frame_image'].filter((f) => typeof body[f] === 'string').length;
  // An input alias is its field: a list equal to one already counted is the same input.
  const merged = (...fields: string[]) => {
    const lists: string[] = [];
    for (const field of fields) {
      const value = body[field];
      if (value === undefined) continue;
      const list = JSON.stringify(Array.isArray(value) ? value : [value]);
      if (!lists.includes(list)) lists.push(list);
    }
    return lists.reduce((sum, list) => sum + length(JSON.parse(list)), 0);
  };
  return {
    images:
      merged('image_urls', 'images', 'image', 'input_reference') + length(body.image_with_roles) + aliases,
    videos: merged('video_urls', 'video_list'),
    audios: length(body.audio_urls),
  };
}

/** The prompt without its references. */
export function stripReferences(body: Body): Body {
  if (typeof body.prompt === 'string') body.prompt = body.prompt.replace(REFERENCE, '');
  return body;
}

/** References to the first and last media of each kind the body holds (1-based, as the spec says). */
export function referencesFor(body: Body): string {
  const { images, videos, audios } = counts(body);
  const out: string[] = [];
  for (const [kind, count] of [
    ['图片', images],
    ['视频', videos],
    ['音频', audios],
  ] as const) {
    if (count > 0) out.push(`@${kind}1`, `@${kind}${count}`);
  }
  return out.length > 0 ? ` ${out.join(' ')}` : '';
}

/** Turns every frame role into `reference_image` (the image count stays the same). */
export function withoutFrameRoles(body: Body): Body {
  if (Array.isArray(body.image_with_roles)) {
    body.image_with_roles = body.image_with_roles.map((item) => ({
      ...(item as Body),
      role: 'reference_image',
    }));
  }
  return body;
}

/** Sets every ratio field present (of `fields`) to `value`. */
export function setPresentRatios(body: Body, value: string, fields: readonly string[]): Body {
  for (const field of fields) if (body[field] !== undefined) body[field] = value;
  return body;
}

/** Ratios other than `adaptive`. */
export const FIXED_RATIOS = VIDEO_RATIOS.filter((r) => r !== 'adaptive');

export const URL_A = 'https://media.example.com/a.png';
export const URL_B = 'https://media.example.com/b.png';
export const CLIP = 'https://media.example.com/clip.mp4';
export const SOUND = 'https://media.example.com/sound.mp3';

/** `n` distinct public URLs. */
export const urls = (n: number, name = 'ref') =>
  Array.from({ length: n }, (_, i) => `https://media.example.com/${name}-${i}.png`);

/** The rules every video JSON request shares: task additions, prompt references, input aliases. */
export function sharedVideoRules(fixtures: Fixtures): Rule[] {
  const endpoint = fixtures.endpointIds[0] ?? 'whep_x';
  return [
    {
      rule: 'a prompt reference names existing media (indexes start at 1)',
      bad: fc.constantFrom('图片', '视频', '音频', 'zero'),
      apply: (body, kind) => {
        const c = counts(body);
        const token =
          kind === 'zero'
            ? '@图片0'
            : `@${kind}${(kind === '图片' ? c.images : kind === '视频' ? c.videos : c.audios) + 1}`;
        return { input: { ...body, prompt: `${String(body.prompt ?? 'a')} ${token}` }, path: 'prompt' };
      },
    },
    {
      rule: 'notifications.webhook.events are task.completed, task.failed or batch.completed',
      bad: fc.constantFrom('task.started', 'webhook.endpoint_verification', 'TASK.COMPLETED'),
      apply: (body, event) => ({
        input: { ...body, notifications: { webhook: { endpoint_id: endpoint, events: [event] } } },
        path: 'notifications.webhook.events[0]',
      }),
    },
    {
      rule: 'notifications.webhook.endpoint_id is a non-empty string',
      apply: (body) => ({
        input: { ...body, notifications: { webhook: { endpoint_id: '', events: ['task.completed'] } } },
        path: 'notifications.webhook.endpoint_id',
      }),
    },
    {
      rule: 'notifications is not combined with the legacy webhook or callback_url',
      bad: fc.constantFrom('webhook', 'callback_url'),
      apply: (body, legacy) => ({
        input: {
          ...body,
          notifications: body.notifications ?? {
            webhook: { endpoint_id: endpoint, events: ['task.failed'] },
          },
          [legacy as string]: 'https://hooks.example.com/legacy',
        },
        path: 'notifications',
      }),
    },
    badValue(
      'client_reference_id is at most 128 bytes of UTF-8',
      'client_reference_id',
      'a'.repeat(129),
      'é'.repeat(65),
      '🌊'.repeat(33),
    ),
    {
      rule: 'input aliases hold http(s):// or asset:// URLs, never inline data',
      bad: fc.tuple(fc.constantFrom('image', 'input_reference'), inlineData),
      apply: (body, bad) => {
        const [field, value] = bad as [string, string];
        return { input: { ...body, [field]: value }, path: field };
      },
    },
  ];
}
