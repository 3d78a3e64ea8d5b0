import type { APIPromise } from '../../core/api-promise.js';
import type { PagePromise } from '../../core/pagination.js';
import type { RequestOptions } from '../../internal/request-spec.js';
import { parseGroupCreateParams, parseGroupUpdateParams, parseListParams } from '../../internal/schemas.js';
import { checkPathId } from '../../internal/url.js';
import type { GroupCreateParams, GroupUpdateParams, ListParams } from '../../schemas/library/index.js';
import { LibraryCollection } from './collection.js';
import type { Group } from './types.js';

const BASE = '/vidmodel2/private-avatar/groups';
/** A record's path, for the message of a refused ID. */
const ROUTE = `/v1${BASE}/{groupId}`;

/** Library groups: `/v1/vidmodel2/private-avatar/groups`. */
export class Groups extends LibraryCollection {
  protected readonly base = BASE;

  /**
   * Creates a group. The gateway uses `vidmodel-2.5` when `model` is left out. Creates state:
   * retried only on 429 or a refused connection.
   *
   * @throws RequestValidationError for a name over 255 or a description over 4000 characters.
   * @example const group = await client.library.groups.create({ name: 'Cast', description: 'lead actors' });
   */
  create(params: GroupCreateParams, options?: RequestOptions): APIPromise<Group> {
    return this.call<Group>('POST', () => ({
      body: parseGroupCreateParams(params),
      retry: 'create',
      options,
    }));
  }

  /**
   * Lists groups: await it for the first page, or `for await` over every group of every page
   * (each page is fetched when iteration reaches it).
   *
   * @throws RequestValidationError (as a rejection) for a `limit` outside 1-100 or a `page` below 1.
   * @throws InvalidResponseError when an answer is not a list page, or repeats the page before it
   *   (a server that ignores `page`): iteration stops there instead of looping.
   * @example for await (const group of client.library.groups.list()) console.log(group.name);
   */
  list(params: ListParams = {}, options?: RequestOptions): PagePromise<Group> {
    return this.pages('library.groups.list', () => parseListParams(params, 'library.groups.list'), options);
  }

  /**
   * Reads a group.
   *
   * @throws NotFoundError for an unknown, deleted or another account's group.
   */
  retrieve(groupId: string, options?: RequestOptions): APIPromise<Group> {
    return this.call<Group>('GET', () => ({ id: checkPathId(ROUTE, 'groupId', groupId), options }));
  }

  /**
   * Renames or re-describes a group.
   *
   * @throws RequestValidationError when neither `name` nor `description` is given, or either is too long.
   * @throws NotFoundError for an unknown, deleted or another account's group.
   */
  update(groupId: string, params: GroupUpdateParams, options?: RequestOptions): APIPromise<Group> {
    return this.call<Group>('PATCH', () => ({
      id: checkPathId(ROUTE, 'groupId', groupId),
      body: parseGroupUpdateParams(params),
      options,
    }));
  }

  /**
   * Deletes an empty group and resolves with its ID (`{ id }`, whether the gateway answers the
   * ID alone or an object holding it).
   *
   * @throws ConflictError (409) when the group still holds materials (of any status).
   * @throws NotFoundError for an unknown, deleted or another account's group.
   */
  delete(
    groupId: string,
    options?: RequestOptions,
  ): APIPromise<{
    /** The deleted group's ID. */
    id: string;
    [key: string]: unknown;
  }> {
    return this.call<{ id: string } | string>('DELETE', () => ({
      id: checkPathId(ROUTE, 'groupId', groupId),
      options,
    }))._thenUnwrap((data) => {
      // spec: Media library — the delete "returns the group ID"; its exact shape is not shown.
      if (data && typeof data === 'object') return data;
      return { id: typeof data === 'string' && data ? data : groupId };
    });
  }
}
