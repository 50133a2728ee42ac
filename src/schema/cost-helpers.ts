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
/** A connection: `weight` per upstream page; `first` items (DEFAULT_PAGE when absent) in `edges` / `nodes`. */
export const paged = (weight: number): CostDeclaration => ({
  cost: { weight },
  listSize: {
    slicingArguments: ['first'],
    assumedSize: DEFAULT_PAGE,
    sizedFields: ['edges', 'nodes'],
    requireOneSlicingArgument: false,
  },
});
/** A list loaded one request per item (`weight` each), of about `assumedSize` items. */
export const eachItem = (weight: number, assumedSize: number): CostDeclaration => ({
  cost: { weight },
  listSize: { assumedSize },
});
/** One request per element of the list argument `argument` (`nodes(ids)`, `_entities(representations)`). */
export const perElement = (weight: number, argument: string): CostDeclaration => ({
  cost: { weight },
  listSize: { slicingArguments: [argument], requireOneSlicingArgument: false },
});

/** The spec's directive names, as this schema imports them. */
export const COST_DIRECTIVE_NAMES = ['cost', 'listSize'];
