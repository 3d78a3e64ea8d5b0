/**
 * Embeddings, media library and webhook endpoint requests (spec: Embeddings, Media library,
 * Webhook management): valid ones and one breaker per rule.
 */
import fc from 'fast-check';
import { codePoints, type Fixtures, httpUrl, inlineData } from './common.js';
import { type Body, badValue, missing, type Rule, unknownField } from './rules.js';

/** Short non-empty texts (the mock counts tokens; 8192 per text is far away). */
const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 });

/** Valid `embeddings.create` requests. */
export function embeddingCreate(): fc.Arbitrary<Body> {
  return fc
    .record(
      {
        model: fc.constantFrom('text-embedding-3-small', 'bge-m3'),
        input: fc.oneof(text, fc.array(text, { minLength: 1, maxLength: 8 })),
        dimensions: fc.oneof(fc.constant(512), fc.integer({ min: 1, max: 1536 })),
        encoding_format: fc.constantFrom('float', 'base64'),
      },
      // spec: Embeddings lists the endpoint's fields; no others pass through.
      { requiredKeys: ['model', 'input'] },
    )
    .map((fields) => {
      const body: Body = { ...fields };
      // spec: Embeddings — dimensions is for text-embedding-3-small.
      if (body.model === 'bge-m3') delete body.dimensions;
      return body;
    });
}

/** One breaker per rule of `embeddings.create`. */
export function embeddingCreateRules(): Rule[] {
  return [
    badValue('model is text-embedding-3-small or bge-m3', 'model', 'text-embedding-3-large', 'BGE-M3', ''),
    unknownField,
    missing('input is required', 'input'),
    badValue('input is a non-empty string or a non-empty list', 'input', '', [], 5, { text: 'a' }),
    {
      rule: 'every input text is a non-empty string',
      bad: fc.constantFrom('', 7, null),
      apply: (body, bad) => {
        const list = Array.isArray(body.input) ? [...body.input] : [body.input];
        return { input: { ...body, input: [...list, bad] }, path: `input[${list.length}]` };
      },
    },
    {
      rule: 'dimensions is for text-embedding-3-small only',
      apply: (body) => ({ input: { ...body, model: 'bge-m3', dimensions: 512 }, path: 'dimensions' }),
    },
    {
      rule: 'dimensions is an integer from 1 to 1536',
      bad: fc.constantFrom(0, 1537, 1.5, '512'),
      apply: (body, bad) => ({
        input: { ...body, model: 'text-embedding-3-small', dimensions: bad },
        path: 'dimensions',
      }),
    },
    badValue('encoding_format is float or base64', 'encoding_format', 'binary', 'FLOAT'),
    {
      rule: 'messages, max_tokens and stream are never sent',
      bad: fc.tuple(
        fc.constantFrom('messages', 'max_tokens', 'stream'),
        fc.constantFrom(false, 0, null, [], 'x'),
      ),
      apply: (body, bad) => {
        const [field, value] = bad as [string, unknown];
        return { input: { ...body, [field]: value }, path: field };
      },
    },
  ];
}

const LIBRARY_MODELS = ['vidmodel-2.0', 'vidmodel-2.5', 'vidmodel-2.0-mini'];
const NAME_UNITS = ['a', 'Z', '7', ' ', '-', 'é', '灯', '🌊', '_'];
/** 1 to `max` code points, the limit included (a spec limit in characters counts code points). */
const chars = (max: number, min = 1) =>
  fc.oneof(
    {
      arbitrary: fc
        .array(fc.constantFrom(...NAME_UNITS), { minLength: min, maxLength: Math.min(max, 40) })
        .map((a) => a.join('')),
      weight: 4,
    },
    { arbitrary: fc.constant(codePoints(max)), weight: 1 },
  );
const groupName = chars(255).filter((s) => s.trim().length > 0);

/** Valid `library.groups.create` requests. */
export function groupCreate(): fc.Arbitrary<Body> {
  return fc.record(
    { model: fc.constantFrom(...LIBRARY_MODELS), name: groupName, description: chars(4000, 0) },
    { requiredKeys: ['name'] },
  );
}

/** Valid `library.groups.update` requests (name and/or description). */
export function groupUpdate(): fc.Arbitrary<Body> {
  return fc
    .record({ name: groupName, description: chars(4000, 0) }, { requiredKeys: [] })
    .filter((body) => Object.keys(body).length > 0);
}

const nameRules = (field = 'name'): Rule[] => [
  badValue(`${field} is 1 to 255 characters`, field, '', codePoints(256), 42),
];

/** One breaker per rule of `library.groups.create`. */
export function groupCreateRules(): Rule[] {
  return [
    missing('name is required', 'name'),
    ...nameRules(),
    badValue('description is at most 4000 characters', 'description', codePoints(4001), 7),
    badValue('model is a non-empty model ID', 'model', '', 25),
  ];
}

/** One breaker per rule of `library.groups.update`. */
export function groupUpdateRules(): Rule[] {
  return [
    { rule: 'name and/or description is given', apply: () => ({ input: {}, path: '' }) },
    ...nameRules(),
    badValue('description is at most 4000 characters', 'description', codePoints(4001)),
  ];
}

/** Valid list queries: `page` from 1, `limit` 1-100; for assets also `group_id` and `status`. */
export function listQuery(fixtures: Fixtures, assets: boolean): fc.Arbitrary<Body> {
  return fc.record(
    {
      page: fc.integer({ min: 1, max: 50 }),
      limit: fc.integer({ min: 1, max: 100 }),
      ...(assets
        ? {
            group_id: fc.constantFrom(...fixtures.groupIds),
            status: fc.constantFrom('Pending', 'Active', 'Failed'),
          }
        : {}),
    },
    { requiredKeys: [] },
  );
}

/** One breaker per rule of a list query. */
export function listQueryRules(assets: boolean): Rule[] {
  return [
    badValue('page is a positive integer', 'page', 0, -1, 1.5, '2'),
    badValue('limit is an integer from 1 to 100', 'limit', 0, 101, 2.5, '20'),
    ...(assets
      ? [
          badValue(
            'status is Pending, Active or Failed (case-sensitive)',
            'status',
            'active',
            'PENDING',
            'Done',
          ),
          badValue('group_id is a non-empty ID', 'group_id', '', 5),
        ]
      : []),
  ];
}

const assetUrl = fc.oneof(
  { arbitrary: httpUrl, weight: 5 },
  { arbitrary: fc.constant(`https://media.example.com/${'a'.repeat(8192 - 26)}`), weight: 1 },
);

/** Valid `library.assets.submit` review batches. */
export function assetSubmit(fixtures: Fixtures): fc.Arbitrary<Body> {
  return fc
    .record(
      {
        model: fc.constantFrom(...LIBRARY_MODELS),
        target: fc.oneof(
          fc.constant({}),
          fc.constantFrom(...fixtures.groupIds).map((group_id) => ({ group_id })),
          fc
            .record({ name: groupName, description: chars(4000, 0) }, { requiredKeys: [] })
            .map((group) => ({ group })),
        ),
        project_name: fc.constant('default'),
        asset_type: fc.constantFrom('Image', 'Video', 'Audio'),
        assets: fc.array(fc.record({ url: assetUrl, name: chars(255) }, { requiredKeys: ['url'] }), {
          minLength: 1,
          maxLength: 20,
        }),
      },
      { requiredKeys: ['target', 'assets'] },
    )
    .map(({ target, ...fields }) => ({ ...fields, ...target }));
}

/** One breaker per rule of `library.assets.submit`. */
export function assetSubmitRules(fixtures: Fixtures): Rule[] {
  const group = fixtures.groupIds[0] ?? 'grp_x';
  const item = { url: 'https://media.example.com/face.png' };
  return [
    missing('assets is required', 'assets'),
    badValue(
      'assets holds 1 to 20 items',
      'assets',
      [],
      Array.from({ length: 21 }, () => item),
    ),
    {
      rule: 'assets[].url is a public http(s) URL of at most 8192 characters',
      bad: fc.oneof(
        inlineData,
        fc.constant(`https://media.example.com/${'a'.repeat(8192)}`),
        fc.constant('asset://x'),
      ),
      apply: (body, bad) => {
        const list = [...(body.assets as Body[])];
        const at = list.length - 1;
        list[at] = { ...list[at], url: bad };
        return { input: { ...body, assets: list }, path: `assets[${at}].url` };
      },
    },
    {
      rule: 'assets[].name is at most 255 characters',
      apply: (body) => {
        const list = [...(body.assets as Body[])];
        list[0] = { ...list[0], name: codePoints(256) };
        return { input: { ...body, assets: list }, path: 'assets[0].name' };
      },
    },
    {
      rule: 'an asset holds only url and name',
      apply: (body) => {
        const list = [...(body.assets as Body[])];
        list[0] = { ...list[0], type: 'Image' };
        return { input: { ...body, assets: list }, path: 'assets[0]' };
      },
    },
    {
      rule: 'group and group_id are never combined',
      apply: (body) => ({ input: { ...body, group: { name: 'cast' }, group_id: group }, path: 'group_id' }),
    },
    {
      rule: 'a new group holds a name of at most 255 characters and nothing else',
      bad: fc.constantFrom<[string, unknown]>(
        ['group.name', { name: codePoints(256) }],
        ['group', { name: 'a', owner: 'me' }],
      ),
      apply: (body, bad) => {
        const [path, value] = bad as [string, unknown];
        const { group_id: _g, ...rest } = body;
        return { input: { ...rest, group: value }, path };
      },
    },
    badValue("project_name is 'default'", 'project_name', 'other', 'Default'),
    badValue('asset_type is Image, Video or Audio (case-sensitive)', 'asset_type', 'image', 'VIDEO', 'Photo'),
  ];
}

/** Valid `library.assets.update` requests. */
export function assetUpdate(): fc.Arbitrary<Body> {
  return fc.record({ name: groupName });
}

/** One breaker per rule of `library.assets.update`. */
export function assetUpdateRules(): Rule[] {
  return [
    missing('name is required', 'name'),
    ...nameRules(),
    {
      rule: 'only the name can be changed',
      bad: fc.constantFrom('group_id', 'status', 'url'),
      apply: (body, field) => ({ input: { ...body, [field as string]: 'x' }, path: '' }),
    },
  ];
}

/** Valid `webhooks.endpoints.create` requests: https, port 443, public host, no credentials. */
export function endpointCreate(): fc.Arbitrary<Body> {
  return fc
    .record({
      host: fc.domain().filter((host) => !/(^|\.)(localhost|local)$/i.test(host)),
      port: fc.boolean(),
      path: fc.webPath(),
      query: fc.option(fc.webQueryParameters(), { nil: undefined }),
    })
    .map(({ host, port, path, query }) => ({
      url: `https://${host}${port ? ':443' : ''}${path}${query ? `?${query}` : ''}`,
    }));
}

/** One breaker per rule of `webhooks.endpoints.create`. */
export function endpointCreateRules(): Rule[] {
  return [
    missing('url is required', 'url'),
    {
      rule: 'url is https:// on port 443 with no user name or password',
      bad: fc.constantFrom('http://', 'https://:8443', 'https://user:pw@', 'ws://', 'not a url'),
      apply: (body, how) => {
        const url = new URL(String(body.url));
        const broken =
          how === 'http://' || how === 'ws://'
            ? `${how}${url.host}${url.pathname}`
            : how === 'https://:8443'
              ? `https://${url.hostname}:8443${url.pathname}`
              : how === 'https://user:pw@'
                ? `https://user:pw@${url.host}${url.pathname}`
                : 'hooks.example.com/mediagw';
        return { input: { url: broken }, path: 'url' };
      },
    },
    {
      rule: 'url is a public address (no localhost, loopback, private or link-local IP literal)',
      bad: fc.constantFrom(
        '127.0.0.1',
        'localhost',
        'hooks.localhost',
        '10.0.0.5',
        '172.16.4.4',
        '192.168.1.2',
        '169.254.169.254',
        '100.64.0.1',
        '0.0.0.0',
        '[::1]',
        '[::ffff:127.0.0.1]',
        '[fd00::1]',
        '[fe80::1]',
      ),
      apply: (body, host) => {
        const url = new URL(String(body.url));
        return { input: { url: `https://${host as string}${url.pathname}${url.search}` }, path: 'url' };
      },
    },
    {
      rule: 'the body holds only url',
      apply: (body) => ({ input: { ...body, enabled: true }, path: '' }),
    },
  ];
}

/** Valid `webhooks.endpoints.update` requests. */
export const endpointUpdate = (): fc.Arbitrary<Body> => fc.record({ enabled: fc.boolean() });

/** One breaker per rule of `webhooks.endpoints.update`. */
export function endpointUpdateRules(): Rule[] {
  return [
    badValue('enabled is a JSON boolean', 'enabled', 'false', 'true', 0, null),
    missing('enabled is required', 'enabled'),
    {
      rule: 'only enabled can be changed (the URL is immutable)',
      apply: (body) => ({ input: { ...body, url: 'https://hooks.example.com/new' }, path: '' }),
    },
  ];
}

/** Valid `webhooks.capabilities` queries. */
export const capabilitiesQuery = (): fc.Arbitrary<Body> =>
  fc.record({
    model: fc.constantFrom('vidmodel-2.5', 'vidmodel-2.0-mini', 'imgmodel-2', 'bge-m3', 'some-model'),
  });

/** Valid `webhooks.events.list` queries. */
export const eventListQuery = (fixtures: Fixtures): fc.Arbitrary<Body> =>
  fc.record({ task_id: fc.constantFrom(...fixtures.taskIds) });

/** One breaker per rule of a query with one required string field. */
export function requiredStringRules(field: string): Rule[] {
  return [missing(`${field} is required`, field), badValue(`${field} is a non-empty string`, field, '', 5)];
}
