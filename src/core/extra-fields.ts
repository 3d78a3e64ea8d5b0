/**
 * A result with the fields its type does not list made readable, as `unknown`. Result types
 * list the spec's fields only; whatever else the gateway sends is kept on the object as
 * received, and this is the one place the types open up to it.
 *
 * @example
 * const task: WithExtraFields<VideoTask> = withExtraFields(await client.videos.retrieve(id));
 * if (typeof task.seed === 'number') console.log(task.seed);
 */
export type WithExtraFields<T> = T & { readonly [field: string]: unknown };

/**
 * The same result, typed so that fields its type does not list can be read (as `unknown`, to be
 * checked before use). Nothing is copied or changed: it returns its argument.
 *
 * @example
 * const asset = withExtraFields(await client.library.assets.retrieve(id));
 * const created = asset.created_at; // unknown: the spec does not name the timestamp fields
 */
export function withExtraFields<T extends object>(result: T): WithExtraFields<T> {
  return result as WithExtraFields<T>;
}
