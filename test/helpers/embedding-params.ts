/** An `embeddings.create` body for `text-embedding-3-small` with input `'hello'`, with `over` applied. */
export const small = (over: Record<string, unknown> = {}) => ({
  model: 'text-embedding-3-small',
  input: 'hello',
  ...over,
});
