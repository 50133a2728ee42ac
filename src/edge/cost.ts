import {
  type DocumentNode,
  type FieldNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  valueFromASTUntyped,
  visit,
} from 'graphql';
import { ENTITY_LOOKUPS } from '../schema/cost-entities.js';
import { fragmentsOf, pickOperation, walkSelections } from '../schema/selections.js';
import { coerceVariables } from './coerce-variables.js';
import { declaredByImplementations, declaredOf } from './cost-declared.js';
import { fieldsOf, kindOf, listArguments, listDepth, namedOf, sizeOf } from './cost-types.js';

/**
 * A query's cost in the upstream's COMPUTE UNITS (CUs), estimated before anything runs from what the
 * schema declares and nothing else: the GraphQL cost directive spec as Apollo Router's and Hive
 * Gateway's demand control read it (src/schema/cost-declarations.ts declares every field that reaches
 * an upstream). An upper bound: caches, DataLoader deduplication and JSON-RPC batching only spend less.
 * - A field costs its `@cost(weight:)` each time it resolves: times the size of every list around it.
 * - `@listSize` sizes a list: the largest slicing argument given (a number, or a list argument's length),
 *   else its `assumedSize`; with `sizedFields`, that size is the size of those child fields (a
 *   connection's `edges` / `nodes`), not of the field itself. A list without `@listSize` holds
 *   `listSize` items (per level of nesting), as Hive Gateway's `listSize` option assumes.
 * - One rule beyond the spec: a connection (a field with `sizedFields`) fetches upstream pages of
 *   `pageSize` items, so its own weight counts once per page its size spans; resumed from a cursor
 *   (`after` given), one page more, since the cursor may stand inside an upstream page (the rest of
 *   that page, then the pages after it).
 * - Introspection (`__schema`, `__type`) costs `introspectionCost` each: no upstream, but work and bytes.
 * Every alias is a field of its own; fragments are expanded (each costed once per use and size, so
 * fragment bombs stay linear to estimate); the members of an abstract selection are summed.
 */
export interface CostOptions {
  /** The largest `first` a connection accepts (a larger one is refused by the connection, naming it). */
  maxFirst: number;
  /** Items one upstream page holds (the routes' maximum page size). */
  pageSize: number;
  /** Assumed length of a list that declares no `@listSize`. */
  listSize: number;
  /** Cost of one `__schema` / `__type` selection, in CUs. */
  introspectionCost: number;
  /**
   * The spec's plain reading, as Hive Gateway's demand control reads it: no pages, no list-argument
   * sizes, no interface field priced from its implementations, no introspection cost, and a non-null list
   * without `@listSize` counted once (for comparing with it; never to enforce).
   */
  specOnly: boolean;
}

export const DEFAULT_COST_OPTIONS: CostOptions = {
  maxFirst: 500,
  pageSize: 100,
  listSize: 10,
  introspectionCost: 10,
  specOnly: false,
};

const NONE: readonly string[] = [];

/** The cursor argument a connection resumes from. */
const RESUME_ARGUMENT = 'after';

export interface CostEstimate {
  /** Compute units (an upper bound), introspection included. */
  cu: number;
}

type Variables = Record<string, unknown>;

/**
 * The estimate on the variables as execution will coerce them (defaults applied, lists counted). Values
 * that do not coerce are priced at 0: execution refuses them before any resolver runs.
 */
export function estimateCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Variables | null | undefined,
  options: Partial<CostOptions> = {},
): CostEstimate {
  const operation = pickOperation(document, operationName);
  if (!operation) return { cu: 0 };
  const coerced = coerceVariables(schema, operation, variables);
  if (!coerced.ok) return { cu: 0 };
  return estimateCoerced(schema, document, operation, coerced.values, options);
}

/** The estimate of `operation` on variables already coerced (src/edge/coerce-variables.ts). */
export function estimateCoerced(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  vars: Variables,
  options: Partial<CostOptions> = {},
): CostEstimate {
  const o = { ...DEFAULT_COST_OPTIONS, ...options };
  const fragmentNamed = fragmentsOf(document);
  const root =
    operation.operation === 'mutation'
      ? schema.getMutationType()
      : operation.operation === 'subscription'
        ? schema.getSubscriptionType()
        : schema.getQueryType();
  if (!root) return { cu: 0 };
  // A fragment's cost, by name and the sizes it was given, is worked out once however often it is spread.
  const memo = new Map<string, number>();
  const visiting = new Set<string>();

  /** The cost of one resolution of `set` on `parent`; `sized`: sizes its parent gave to fields by name. */
  const selectionCost = (
    parent: GraphQLNamedType,
    set: SelectionSetNode,
    sized: Map<string, number> | undefined,
    /** Loads the parent came with (its list's `carries`): fields naming one cost nothing. */
    carried: readonly string[] = NONE,
  ): number => {
    const sizedKey = `${sized ? JSON.stringify([...sized]) : ''}|${carried.join(',')}`;
    // One running total per fragment being entered: its own cost is memoised when it is left.
    const totals = [0];
    // The parent's loads already paid for, per frame (a fragment pays its own: it is memoised).
    const loads = [new Set<string>()];
    const add = (cu: number) => {
      totals[totals.length - 1]! += cu;
    };
    walkSelections(set, parent.name, fragmentNamed, {
      field: (node, on) => {
        const t = on === parent.name ? parent : schema.getType(on);
        if (t) add(fieldCost(t, node, sized, loads[loads.length - 1]!, carried));
      },
      enter: (fragment) => {
        const key = `${fragment.name.value}|${sizedKey}`;
        const known = memo.get(key);
        if (known !== undefined) add(known);
        // A cycle is a validation error; it costs nothing here rather than looping.
        if (
          known !== undefined ||
          visiting.has(key) ||
          !schema.getType(fragment.typeCondition.name.value)
        )
          return false;
        visiting.add(key);
        totals.push(0);
        loads.push(new Set());
        return true;
      },
      leave: (fragment) => {
        const key = `${fragment.name.value}|${sizedKey}`;
        const own = totals.pop()!;
        loads.pop();
        visiting.delete(key);
        memo.set(key, own);
        add(own);
      },
    });
    return totals[0]!;
  };

  const fieldCost = (
    parent: GraphQLNamedType,
    node: FieldNode,
    sized: Map<string, number> | undefined,
    loads: Set<string>,
    carried: readonly string[],
  ): number => {
    const name = node.name.value;
    if (name === '__schema' || name === '__type') return o.specOnly ? 0 : o.introspectionCost;
    const def = fieldsOf(parent)?.[name];
    if (!def) return 0;
    const d =
      declaredOf(def) ?? (o.specOnly ? undefined : declaredByImplementations(schema, parent, name));
    let size = sized?.get(name) ?? 1;
    let pages = 1;
    let childSizes: Map<string, number> | undefined;
    if (d?.slicing || d?.assumedSize !== undefined) {
      let n = d.assumedSize ?? 1;
      // Slicing arguments, or (a rule of ours: the spec's are Int only) the list arguments of a field that
      // returns one item per element (`nodes(ids)`, `_entities(representations)`).
      const given = [...(d.slicing ?? []), ...(o.specOnly ? [] : listArguments(def))]
        .map((a) => sizeOf(argumentOf(def, node, a, vars), a === 'first' ? o.maxFirst : Infinity))
        .filter((v): v is number => v !== undefined);
      if (given.length > 0) n = Math.max(...given);
      if (d.sized?.length) {
        childSizes = new Map(d.sized.map((f) => [f, n]));
        if (!o.specOnly) {
          pages = Math.max(1, Math.ceil(n / o.pageSize));
          const after = argumentOf(def, node, RESUME_ARGUMENT, vars);
          if (after !== undefined && after !== null) pages += 1;
        }
      } else size = n;
    } else if (!sized?.has(name)) {
      // Hive Gateway sizes only a list whose outer type is nullable ([T], not [T]!).
      const depth = o.specOnly && kindOf(def.type) !== 'GraphQLList' ? 0 : listDepth(def.type);
      if (depth > 0) size = o.listSize * depth;
    }
    const child = node.selectionSet
      ? selectionCost(namedOf(def.type), node.selectionSet, childSizes, d?.carries)
      : 0;
    if (d?.load !== undefined && !o.specOnly) {
      // A load of the parent's (src/schema/cost-helpers.ts `loadsParent`): once per resolution of the
      // parent, whichever of its fields naming it come first, never per item of this field's own list.
      const key = `${parent.name}|${d.load}`;
      const own = loads.has(key) || carried.includes(d.load) ? 0 : d.weight;
      loads.add(key);
      return own + size * child;
    }
    if (name === '_entities' && parent === root && !o.specOnly) {
      // Each representation pays its own type's look-up (src/schema/cost-entities.ts); a `__typename`
      // that is no entity type of the schema (refused at its index, BAD_USER_INPUT, without a call), or
      // no string at all, is priced as the dearest look-up: the estimate stays a finite number whatever
      // the client sends.
      const reps = argumentOf(def, node, 'representations', vars);
      if (Array.isArray(reps)) {
        const dearest = d?.weight ?? 0;
        let sum = 0;
        for (const rep of reps) {
          const type =
            typeof rep === 'object' && rep !== null
              ? (rep as { __typename?: unknown }).__typename
              : undefined;
          const own = typeof type === 'string' ? ENTITY_LOOKUPS.get(type) : undefined;
          sum += (own ?? dearest) + child;
        }
        return sum;
      }
    }
    return size * ((d?.weight ?? 0) * pages + child);
  };

  return { cu: selectionCost(root, operation.selectionSet, undefined) };
}

/**
 * The variables an operation's price can depend on, known from the document alone: those used anywhere
 * in it (fragments included) in an argument some field declares as a slicing argument. An estimate kept
 * for their values holds for any other values of the rest.
 */
export function pricedVariables(
  schema: GraphQLSchema,
  document: DocumentNode,
): { sized: string[]; resumed: string[] } {
  const slicing = slicingArgumentsOf(schema);
  const sized = new Set<string>();
  const resumed = new Set<string>();
  visit(document, {
    Argument(node) {
      const name = node.name.value;
      // Of a cursor, only whether it is given counts (one page more): its value is no part of the key.
      const into = name === RESUME_ARGUMENT ? resumed : slicing.has(name) ? sized : undefined;
      if (!into) return false;
      visit(node.value, {
        Variable(v) {
          into.add(v.name.value);
        },
      });
      return false;
    },
  });
  return { sized: [...sized].sort(), resumed: [...resumed].sort() };
}

const slicingBySchema = new WeakMap<GraphQLSchema, Set<string>>();
function slicingArgumentsOf(schema: GraphQLSchema): Set<string> {
  let s = slicingBySchema.get(schema);
  if (!s) {
    s = new Set();
    for (const t of Object.values(schema.getTypeMap()))
      for (const f of Object.values(fieldsOf(t) ?? {}))
        if (declaredOf(f))
          for (const a of [...(declaredOf(f)?.slicing ?? []), ...listArguments(f)]) s.add(a);
    slicingBySchema.set(schema, s);
  }
  return s;
}

/**
 * One argument of a field with variables substituted, untyped (execution coerces and refuses bad ones,
 * naming them); its default when it is not given or names an absent variable.
 */
function argumentOf(
  def: GraphQLField<unknown, unknown>,
  node: FieldNode,
  argument: string,
  variables: Variables,
): unknown {
  const fallback = def.args.find((a) => a.name === argument)?.defaultValue;
  const given = node.arguments?.find((a) => a.name.value === argument);
  if (!given) return fallback;
  try {
    return valueFromASTUntyped(given.value, variables) ?? fallback;
  } catch {
    return fallback;
  }
}
