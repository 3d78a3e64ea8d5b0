// Covers: src/schemas/library/index.ts
import { describe, expect, test } from 'vitest';
import { RequestValidationError } from '../../src/core/errors.js';
import {
  parseAssetListParams,
  parseAssetSubmitParams,
  parseAssetUpdateParams,
  parseGroupCreateParams,
  parseGroupUpdateParams,
  parseListParams,
} from '../../src/schemas/library/index.js';

type Parse = (params: unknown) => unknown;
type Case = [string, unknown, string, string];

function expectRefused(parse: Parse, operation: string, params: unknown, path: string, fragment: string) {
  try {
    parse(params);
  } catch (error) {
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).message).toContain(`${operation} was not sent`);
    expect((error as RequestValidationError).issues).toEqual([
      { path, message: expect.stringContaining(fragment) },
    ]);
    return;
  }
  throw new Error('expected the request to be refused');
}

const chars = (n: number, c = 'a') => c.repeat(n);
const asset = (i = 0) => ({ url: `https://example.com/m${i}.png` });
const batch = (over: Record<string, unknown> = {}) => ({ asset_type: 'Image', assets: [asset()], ...over });

describe('library.groups.create', () => {
  test.each<Case>([
    ['a missing name', {}, 'name', '1 to 255 characters'],
    ['an empty name', { name: '' }, 'name', '1 to 255 characters'],
    ['a 256-character name', { name: chars(256) }, 'name', '1 to 255 characters'],
    ['a 4001-character description', { name: 'g', description: chars(4001) }, 'description', 'at most 4000'],
    ['an empty model', { name: 'g', model: '' }, 'model', 'must not be empty'],
    ['a numeric name', { name: 5 }, 'name', 'must be a string'],
  ])('refuses %s', (_, params, path, fragment) => {
    expectRefused(parseGroupCreateParams, 'library.groups.create', params, path, fragment);
  });

  test.each([
    ['a name only (model left to the gateway)', { name: 'g' }],
    ['255 characters and a 4000-character description', { name: chars(255), description: chars(4000) }],
    ['255 astral characters (counted as characters)', { name: chars(255, '😀') }],
    ['an explicit model', { name: 'g', model: 'vidmodel-2.0-mini' }],
  ])('accepts %s', (_, params) => {
    expect(parseGroupCreateParams(params)).toEqual(params);
    expect(parseGroupCreateParams(params)).not.toHaveProperty('model', 'vidmodel-2.5');
  });
});

describe('library.groups.update', () => {
  test.each<Case>([
    ['neither name nor description', {}, '', 'must change name and/or description'],
    ['an empty name', { name: '' }, 'name', '1 to 255'],
    ['a long description', { description: chars(4001) }, 'description', 'at most 4000'],
  ])('refuses %s', (_, params, path, fragment) => {
    expectRefused(parseGroupUpdateParams, 'library.groups.update', params, path, fragment);
  });

  test.each([[{ name: 'n' }], [{ description: '' }], [{ name: 'n', description: 'd' }]])(
    'accepts %j',
    (params) => {
      expect(parseGroupUpdateParams(params)).toEqual(params);
    },
  );
});

describe('list queries', () => {
  test.each<Case>([
    ['page 0', { page: 0 }, 'page', 'positive integer'],
    ['page 1.5', { page: 1.5 }, 'page', 'positive integer'],
    ['limit 0', { limit: 0 }, 'limit', 'from 1 to 100'],
    ['limit 101', { limit: 101 }, 'limit', 'from 1 to 100'],
    ['limit as a string', { limit: '20' }, 'limit', 'from 1 to 100'],
  ])('groups.list refuses %s', (_, params, path, fragment) => {
    expectRefused((p) => parseListParams(p), 'library.groups.list', params, path, fragment);
  });

  test.each<Case>([
    ['limit 101', { limit: 101 }, 'limit', 'from 1 to 100'],
    ['status in lower case', { status: 'active' }, 'status', "is case-sensitive: use 'Active', not 'active'"],
    ['status PENDING', { status: 'PENDING' }, 'status', "use 'Pending'"],
    ['an unknown status', { status: 'Deleted' }, 'status', 'must be one of Pending, Active, Failed'],
    ['an empty group_id', { group_id: '' }, 'group_id', 'must not be empty'],
  ])('assets.list refuses %s', (_, params, path, fragment) => {
    expectRefused(parseAssetListParams, 'library.assets.list', params, path, fragment);
  });

  test.each([[{}], [{ page: 1, limit: 1 }], [{ page: 7, limit: 100 }]])(
    'groups.list accepts %j',
    (params) => {
      expect(parseListParams(params)).toEqual(params);
    },
  );

  test.each([
    [{ status: 'Pending' }],
    [{ status: 'Active', group_id: 'grp_1', page: 2, limit: 50 }],
    [{ status: 'Failed' }],
  ])('assets.list accepts %j', (params) => {
    expect(parseAssetListParams(params)).toEqual(params);
  });

  test('no query at all is valid', () => {
    expect(parseListParams()).toEqual({});
    expect(parseAssetListParams()).toEqual({});
  });
});

describe('library.assets.submit (review batch)', () => {
  test.each<Case>([
    ['no assets', batch({ assets: undefined }), 'assets', 'is required'],
    ['0 assets', batch({ assets: [] }), 'assets', 'at least 1 asset'],
    [
      '21 assets',
      batch({ assets: Array.from({ length: 21 }, (_, i) => asset(i)) }),
      'assets',
      'at most 20 assets',
    ],
    [
      'asset_type in lower case',
      batch({ asset_type: 'image' }),
      'asset_type',
      "is case-sensitive: use 'Image'",
    ],
    ['asset_type VIDEO', batch({ asset_type: 'VIDEO' }), 'asset_type', "use 'Video'"],
    [
      'an unknown asset_type',
      batch({ asset_type: 'Document' }),
      'asset_type',
      'must be one of Image, Video, Audio',
    ],
    ['project_name other than default', batch({ project_name: 'mine' }), 'project_name', "must be 'default'"],
    ['project_name Default', batch({ project_name: 'Default' }), 'project_name', "must be 'default'"],
    [
      'group and group_id together',
      batch({ group: { name: 'g' }, group_id: 'grp_1' }),
      'group_id',
      'must not be combined with group',
    ],
    ['a group name of 256 characters', batch({ group: { name: chars(256) } }), 'group.name', '1 to 255'],
    [
      'a group description of 4001 characters',
      batch({ group: { name: 'g', description: chars(4001) } }),
      'group.description',
      'at most 4000',
    ],
    [
      'an unknown key in group',
      batch({ group: { name: 'g', id: 'x' } }),
      'group',
      'only name and description',
    ],
    ['an asset without url', batch({ assets: [{ name: 'a' }] }), 'assets[0].url', 'is required'],
    [
      'an asset:// url',
      batch({ assets: [asset(), { url: 'asset://a1' }] }),
      'assets[1].url',
      'public http(s)',
    ],
    [
      'an ftp url',
      batch({ assets: [{ url: 'ftp://example.com/a.png' }] }),
      'assets[0].url',
      'public http(s)',
    ],
    ['a data URL', batch({ assets: [{ url: 'data:image/png;base64,AAAA' }] }), 'assets[0].url', 'upload'],
    [
      'a url of 8193 characters',
      batch({ assets: [{ url: `https://example.com/${chars(8173)}` }] }),
      'assets[0].url',
      'at most 8192',
    ],
    [
      'an asset name of 256 characters',
      batch({ assets: [{ ...asset(), name: chars(256) }] }),
      'assets[0].name',
      'at most 255',
    ],
    [
      'an unknown asset key',
      batch({ assets: [{ ...asset(), type: 'Image' }] }),
      'assets[0]',
      'only url and name',
    ],
    [
      'an asset with a numeric url',
      batch({ assets: [{ url: 7 }] }),
      'assets[0].url',
      'must be a public http(s)',
    ],
    ['assets as an object', batch({ assets: asset() }), 'assets', 'must be an array of 1 to 20'],
    [
      'an asset that is a string',
      batch({ assets: ['https://example.com/a.png'] }),
      'assets[0]',
      '{ url, name? }',
    ],
  ])('refuses %s', (_, params, path, fragment) => {
    expectRefused(parseAssetSubmitParams, 'library.assets.submit', params, path, fragment);
  });

  test.each([
    ['1 asset, no group (the gateway creates one)', batch()],
    ['20 assets', batch({ assets: Array.from({ length: 20 }, (_, i) => asset(i)) })],
    ['each asset_type', batch({ asset_type: 'Audio' })],
    ['no asset_type (Image by default on the gateway)', { assets: [asset()] }],
    ['a new group', batch({ group: { name: chars(255), description: chars(4000) } })],
    ['an existing group_id', batch({ group_id: 'grp_1', model: 'vidmodel-2.5', project_name: 'default' })],
    [
      'a url of exactly 8192 characters and a 255-character name',
      batch({ assets: [{ url: `https://example.com/${chars(8172)}`, name: chars(255) }] }),
    ],
    ['an http url', batch({ assets: [{ url: 'http://example.com/a.mp4' }], asset_type: 'Video' })],
    [
      // Characters, as for names: 8192 code points, though these are 16364 UTF-16 units.
      'a url of 8192 characters outside the BMP',
      batch({ assets: [{ url: `https://example.com/${'🎬'.repeat(8172)}` }] }),
    ],
  ])('accepts %s', (_, params) => {
    expect(parseAssetSubmitParams(params)).toEqual(params);
  });
});

describe('library.assets.update', () => {
  test.each<Case>([
    ['no name', {}, 'name', '1 to 255'],
    ['an empty name', { name: '' }, 'name', '1 to 255'],
    ['a 256-character name', { name: chars(256) }, 'name', '1 to 255'],
    [
      'another field',
      { name: 'n', group_id: 'grp_2' },
      '',
      'only name can be changed (unexpected: group_id)',
    ],
  ])('refuses %s', (_, params, path, fragment) => {
    expectRefused(parseAssetUpdateParams, 'library.assets.update', params, path, fragment);
  });

  test.each([[{ name: 'n' }], [{ name: chars(255) }]])('accepts a name', (params) => {
    expect(parseAssetUpdateParams(params)).toEqual(params);
  });
});
