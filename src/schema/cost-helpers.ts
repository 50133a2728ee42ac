/**
 * The one-line declarations of src/schema/cost-declarations.ts, in the terms of the GraphQL cost
 * directive spec (`@cost(weight:)`, `@listSize(...)`; src/schema/cost-spec.ts).
 */
/** One field's declaration: its weight and, for a list or connection, its size. */
export interface CostDeclaration {
  cost: { weight: number };
  listSize?: {
    assumedSize?: number;
    slicingArguments?: string[];
    sizedFields?: string[];
    requireOneSlicingArgument?: boolean;
  };
}

/** Items a connection holds when `first` is not given (the connections' own default). */
export const DEFAULT_PAGE = 20;

/** A field that makes one upstream request of `weight` CUs each time it resolves. */
export const calls = (weight: number): CostDeclaration => ({ cost: { weight } });
/** A field that makes no request of its own (a facade whose fields do): declared, weight 0. */
export const free = (): CostDeclaration => ({ cost: { weight: 0 } });
/** A connection: `weight` per upstream page; `first` items (DEFAULT_PAGE when absent) in its `edges`. */
export const paged = (weight: number): CostDeclaration => ({
  cost: { weight },
  listSize: {
    slicingArguments: ['first'],
    assumedSize: DEFAULT_PAGE,
    sizedFields: ['edges'],
    requireOneSlicingArgument: false,
  },
});
/** A list loaded one request per item (`weight` each), of about `assumedSize` items. */
export const eachItem = (weight: number, assumedSize: number): CostDeclaration => ({
  cost: { weight },
  listSize: { assumedSize },
});
/**
 * One request per element of the list argument (`nodes(ids)`, `_entities(representations)`): the spec's
 * slicing arguments are Int only, so the size declared is one, and our estimator counts the list's
 * length (src/edge/cost.ts); a router reading the spec alone prices one element.
 */
export const perElement = (weight: number): CostDeclaration => ({
  cost: { weight },
  listSize: { assumedSize: 1 },
});

/** The spec's directive names, as this schema imports them. */
export const COST_DIRECTIVE_NAMES = ['cost', 'listSize'];
