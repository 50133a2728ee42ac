/**
 * Loads each refetch id alone, for a `loadableNodeRef`'s `load` (used by `node(id)`, `nodes(ids)`
 * and `_entities`): a malformed or missing id becomes an Error at its own index, never a rejection
 * that fails the other ids of the batch.
 */
export function loadEach<T>(
  ids: readonly string[],
  load: (id: string) => Promise<T | Error> | T | Error,
): Promise<(T | Error)[]> {
  return Promise.all(
    ids.map(async (id) => {
      try {
        return await load(id);
      } catch (e) {
        return e instanceof Error ? e : new Error(String(e));
      }
    }),
  );
}
