import type { GatewayContext } from '../context.js';
import { type GatewayNetwork, parseNetworkScopedId } from './primary-inputs.js';
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

/**
 * A `load` for nodes keyed within a network (global id `<Type>:<network>:<id>`): each id is checked
 * (`what` names it in the error), then loaded alone through `load`.
 */
export const loadEachInNetwork =
  <T>(
    what: string,
    load: (ctx: GatewayContext, network: GatewayNetwork, id: string) => Promise<T>,
  ) =>
  (ids: string[], ctx: GatewayContext) =>
    loadEach(ids, (id) => {
      const k = parseNetworkScopedId(id, what);
      return load(ctx, k.network, k.id);
    });
