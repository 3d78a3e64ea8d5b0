/**
 * The input aliases of the video requests, resolved to the fields they stand for, in one place
 * that every rule reads (limits, totals, durations, prompt indexes, task types, reservations).
 * No zod here: reservations import it without loading the request schemas.
 *
 * The body is never rewritten: the SDK sends the fields as the caller wrote them, because the
 * gateway accepts the aliases and rewriting them would send fields the caller did not set.
 */

type Body = Record<string, unknown>;

/** The list fields of a video request that the input aliases stand for. */
export type InputListField = 'image_urls' | 'video_urls' | 'audio_urls';

// spec: Video, "Preview upgrade" — the input aliases `seconds`, `images`, `image`,
// `input_reference`, `first_frame_image`, `last_frame_image`, `video_list`. The spec does not
// map them all; the SDK's reading (also in docs/spec-coverage.md, V25-52):
// - `seconds` is `duration`;
// - `images` is `image_urls`; `image` and `input_reference`, single URLs, are a one-entry
//   `image_urls` (plain reference images: reading `input_reference` as a first frame would impose
//   the frame-task rules on requests the gateway may accept);
// - `video_list` is `video_urls`;
// - `first_frame_image` / `last_frame_image` are the `first_frame` / `last_frame` roles (spec).
/** The input aliases and the field each stands for (`first_frame_image`/`last_frame_image` are roles). */
export const INPUT_ALIASES = {
  seconds: 'duration',
  images: 'image_urls',
  image: 'image_urls',
  input_reference: 'image_urls',
  video_list: 'video_urls',
} as const;

/** One of the keys of {@link INPUT_ALIASES}. */
export type InputAlias = keyof typeof INPUT_ALIASES;

const ALIASES_OF: Record<string, readonly InputAlias[]> = {
  duration: ['seconds'],
  image_urls: ['images', 'image', 'input_reference'],
  video_urls: ['video_list'],
  audio_urls: [],
};

/** The field names the caller set for `field`: the field itself first, then its aliases, in order. */
export function givenNames(body: Body, field: string): string[] {
  return [field, ...(ALIASES_OF[field] ?? [])].filter((name) => body[name] !== undefined);
}

function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The entries of a list field, its aliases included. An alias holding the same entries as the
 * field (or as another alias) is the same input, counted once; differing ones are all counted
 * (for the models whose fields the spec does not show), and refused where the model's schema
 * requires agreement ({@link aliasConflicts}).
 */
export function inputList(body: Body, field: InputListField): unknown[] {
  const lists: unknown[][] = [];
  for (const name of givenNames(body, field)) {
    const list = asList(body[name]);
    if (!lists.some((known) => same(known, list))) lists.push(list);
  }
  return lists.flat();
}

/** The requested duration: `duration`, else its alias `seconds`; `undefined` when neither is set. */
export function inputDuration(body: Body): unknown {
  return body.duration ?? body.seconds;
}

/**
 * The name the caller used for `field` (the field itself when set, else the first alias set),
 * for issue paths that name what the caller wrote.
 */
export function writtenName(body: Body, field: string): string {
  return givenNames(body, field)[0] ?? field;
}

/**
 * The aliases set beside their field (or an earlier alias of it) with a different value, as
 * `[alias, field]` pairs: spec: Errors — "conflicting aliases" give HTTP 400.
 */
export function aliasConflicts(body: Body): Array<[alias: string, other: string]> {
  const out: Array<[string, string]> = [];
  for (const field of Object.keys(ALIASES_OF)) {
    const [first, ...rest] = givenNames(body, field);
    if (first === undefined) continue;
    const isList = field !== 'duration';
    const norm = (name: string) => (isList ? asList(body[name]) : body[name]);
    for (const name of rest) if (!same(norm(name), norm(first))) out.push([name, first]);
  }
  return out;
}

/** How many references of each kind a body holds, every alias counted as the field it stands for. */
export function referenceCounts(body: Body): { images: number; videos: number; audios: number } {
  const frames = ['first_frame_image', 'last_frame_image'].filter((f) => typeof body[f] === 'string').length;
  const roles = Array.isArray(body.image_with_roles) ? body.image_with_roles.length : 0;
  return {
    images: inputList(body, 'image_urls').length + roles + frames,
    videos: inputList(body, 'video_urls').length,
    audios: inputList(body, 'audio_urls').length,
  };
}

const REFERENCE_KINDS = {
  图片: { count: 'images', noun: 'image' },
  视频: { count: 'videos', noun: 'video' },
  音频: { count: 'audios', noun: 'audio' },
} as const;

/** A prompt reference with no matching media: the token as written, its kind, index and the count. */
export interface PromptReferenceProblem {
  token: string;
  noun: 'image' | 'video' | 'audio';
  index: number;
  available: number;
}

// spec: Video — "Reference indexes start at 1 in array order and are written in prompts as `@图片<n>`,
// `@视频<n>`, `@音频<n>`; an absent index must not be referenced."
/** Each distinct `@图片<n>` / `@视频<n>` / `@音频<n>` of `prompt` that `counts` holds no media for. */
export function promptReferenceProblems(
  prompt: string,
  counts: { images: number; videos: number; audios: number },
): PromptReferenceProblem[] {
  const out: PromptReferenceProblem[] = [];
  if (!prompt.includes('@')) return out;
  const seen = new Set<string>();
  for (const match of prompt.matchAll(/@(图片|视频|音频)(\d+)/g)) {
    const token = match[0];
    if (seen.has(token)) continue;
    seen.add(token);
    const kind = REFERENCE_KINDS[match[1] as keyof typeof REFERENCE_KINDS];
    const index = Number(match[2]);
    const available = counts[kind.count];
    if (index < 1 || index > available) out.push({ token, noun: kind.noun, index, available });
  }
  return out;
}
