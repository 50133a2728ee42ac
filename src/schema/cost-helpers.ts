import { type CuUpstream, cuPrice } from '../upstream/compute-units.js';

/**
 * The one-line declarations of src/schema/cost-declarations.ts, in the terms of the GraphQL cost
 * directive spec (`@cost(weight:)`, `@listSize(...)`; src/schema/cost-spec.ts). A weight is never written
 * by hand: it is the price table's (src/upstream/compute-units.ts) for the route or method named.
 */

/** The upstream request a field makes: its route (operationId, template) or JSON-RPC method, and its price. */
export interface PricedRoute {
  upstream: CuUpstream;
  route: string;
  /** Requests of that route one resolution makes (a look-up that tries mainnet, then Fuji: 2). */
  times: number;
  weight: number;
}

const priced = (upstream: CuUpstream, route: string, times: number): PricedRoute => ({
  upstream,
  route,
  times,
  weight: times * cuPrice(upstream, route),
});
/** A Data API route, by operationId or `METHOD /template`. */
export const data = (route: string, times = 1) => priced('data', route, times);
/** A Metrics API route (its own scale), by operationId or `METHOD /template`. */
export const metrics = (route: string, times = 1) => priced('metrics', route, times);
/** A JSON-RPC method of a node (the Data API page's prices; AvalancheGo's own methods take the default). */
export const rpc = (method: string, times = 1) => priced('rpc', method, times);

/** One field's declaration: its weight and, for a list or connection, its size. */
export interface CostDeclaration {
  cost: { weight: number };
  /** The request the weight is the price of (none: a field that makes no request of its own). */
  route?: PricedRoute;
  /** Further requests one resolution makes (`callsEach`): the weight is the sum of all their prices. */
  also?: PricedRoute[];
  /**
   * The field reads what its parent loads on demand (a list item's full transaction): its weight is paid
   * once per resolution of the parent, shared by every sibling field that names the same load, and not
   * once per item of the field's own list (src/edge/cost.ts). Not printed: the schema carries it as the
   * field's `extensions.costLoad`.
   */
  load?: string;
  /**
   * Loads its items come with (a block's decoded transactions carry their decoded form): their fields
   * that name one of these loads are paid for. Not printed (`extensions.costCarries`).
   */
  carries?: string[];
  listSize?: {
    assumedSize?: number;
    slicingArguments?: string[];
    sizedFields?: string[];
    requireOneSlicingArgument?: boolean;
  };
}

/** Items a connection holds when `first` is not given (the connections' own default). */
export const DEFAULT_PAGE = 20;

/** A field that makes one upstream request of `route` each time it resolves. */
export const calls = (route: PricedRoute): CostDeclaration => ({
  cost: { weight: route.weight },
  route,
});
/**
 * A field of an item that may have to load more of the item (a transaction from a list carries the list
 * form; its call data, fees, prices and transfers load the full one): `route` once per item, whichever
 * and however many of those fields are selected.
 */
export const loadsParent = (route: PricedRoute): CostDeclaration => ({
  ...calls(route),
  load: route.route,
});
/** A field that makes one request of each of `routes` each time it resolves (e.g. a node's chain id too). */
export const callsEach = (first: PricedRoute, ...rest: PricedRoute[]): CostDeclaration => ({
  cost: { weight: rest.reduce((sum, r) => sum + r.weight, first.weight) },
  route: first,
  also: rest,
});
/** `d`, whose every resolution also makes one request of each of `rest` first (a node's own id). */
export const after = (d: CostDeclaration, ...rest: PricedRoute[]): CostDeclaration => ({
  ...d,
  cost: { weight: rest.reduce((sum, r) => sum + r.weight, d.cost.weight) },
  also: [...(d.also ?? []), ...rest],
});
/** One JSON-RPC call per resolution (EVM methods; the node's AvalancheGo ones are unlisted). */
export const rpcCall = (method: string): CostDeclaration => calls(rpc(method));
/** A field that makes no request of its own (a facade whose fields do): declared, weight 0. */
export const free = (): CostDeclaration => ({ cost: { weight: 0 } });
/** A connection: `route` per upstream page; `first` items (DEFAULT_PAGE when absent) in its `edges`. */
export const paged = (route: PricedRoute): CostDeclaration => ({
  ...calls(route),
  listSize: {
    slicingArguments: ['first'],
    assumedSize: DEFAULT_PAGE,
    sizedFields: ['edges'],
    requireOneSlicingArgument: false,
  },
});
/** A list loaded one request of `route` per item, of about `assumedSize` items. */
export const eachItem = (route: PricedRoute, assumedSize: number): CostDeclaration => ({
  ...calls(route),
  listSize: { assumedSize },
});
/**
 * One request per element of the list argument (`nodes(ids)`, `_entities(representations)`): the spec's
 * slicing arguments are Int only, so the size declared is one, and our estimator counts the list's
 * length (src/edge/cost.ts); a router reading the spec alone prices one element.
 */
export const perElement = (route: PricedRoute): CostDeclaration => ({
  ...calls(route),
  listSize: { assumedSize: 1 },
});

/** The spec's directive names, as this schema imports them. */
export const COST_DIRECTIVE_NAMES = ['cost', 'listSize'];

/** The same fields, at the same prices, on each of `types` (the implementations of an interface). */
export const onEach = (types: readonly string[], fields: Record<string, CostDeclaration>) =>
  Object.fromEntries(
    types.flatMap((type) => Object.entries(fields).map(([field, d]) => [`${type}.${field}`, d])),
  );
/** The implementations of the interfaces whose fields are declared once for all (`onEach`). */
export const VALIDATORS = [
  'ActiveValidator',
  'CompletedValidator',
  'PendingValidator',
  'RemovedValidator',
];
export const DELEGATORS = ['ActiveDelegator', 'CompletedDelegator', 'PendingDelegator'];
export const REWARDS = ['HistoricalReward', 'PendingReward'];

/**
 * A read pinned to a block of an EVM endpoint: the block, and the endpoint's chain id (checked against
 * the chain asked for before the first read, src/upstream/evm-state.ts).
 */
export const pinnedRead = callsEach(rpc('eth_getBlockByNumber'), rpc('eth_chainId'));
