import type { GatewayContext } from '../context.js';
import { badInput } from '../errors.js';
import { parseChainId, splitKey } from './inputs.js';
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

/** An entity of one network, loaded by its id and bound to that network (`{ ...entity, network }`). */
export type NetworkLoad<S> = (
  ctx: GatewayContext,
  network: GatewayNetwork,
  id: string,
) => Promise<S>;

export const inNetwork =
  <T extends object>(
    load: (ctx: GatewayContext, network: GatewayNetwork, id: string) => Promise<T>,
  ): NetworkLoad<T & { network: GatewayNetwork }> =>
  async (ctx, network, id) => ({ ...(await load(ctx, network, id)), network });

/**
 * A refetch of a node keyed within a network (global id `<Type>:<network>:<id>`): the id is checked
 * (`what` names it in the error), then loaded through `load`.
 */
export const loadOneInNetwork =
  <T>(
    what: string,
    load: (ctx: GatewayContext, network: GatewayNetwork, id: string) => Promise<T>,
  ) =>
  (id: string, ctx: GatewayContext) => {
    const k = parseNetworkScopedId(id, what);
    return load(ctx, k.network, k.id);
  };

/** As `loadOneInNetwork`, for a `loadableNodeRef`'s batch: each id alone (see `loadEach`). */
export const loadEachInNetwork =
  <T>(
    what: string,
    load: (ctx: GatewayContext, network: GatewayNetwork, id: string) => Promise<T>,
  ) =>
  (ids: string[], ctx: GatewayContext) =>
    loadEach(ids, (id) => loadOneInNetwork(what, load)(id, ctx));

/**
 * A `load` for nodes keyed on an EVM chain (global id `<Type>:<chainId>:<key>`): each id is split and
 * checked (`parseKey` checks the part after the chain id), then loaded alone through `load`.
 */
export const loadEachOnChain =
  <K, T>(
    type: string,
    parseKey: (raw: string, argument: string) => K,
    load: (ctx: GatewayContext, chainId: string, key: K) => Promise<T>,
  ) =>
  (ids: string[], ctx: GatewayContext) =>
    loadEach(ids, (id) => {
      const parts = splitKey(id);
      if (!parts) return badInput('id', `Malformed ${type} id`);
      return load(ctx, parseChainId(parts[0], 'id'), parseKey(parts[1], 'id'));
    });
