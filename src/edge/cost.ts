import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLInterfaceType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type GraphQLType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  valueFromASTUntyped,
  visit,
} from 'graphql';
import { coerceVariables } from './coerce-variables.js';

/**
 * A query's cost in UPSTREAM CALLS, estimated on its shape before anything runs (an upper bound: caches,
 * DataLoader deduplication and JSON-RPC batching only make the real count smaller).
 *
 * The schema's own convention carries most of it: fields are non-null unless they reach an upstream
 * (schema/builder.ts), though many nullable fields are merely optional data. So a nullable field is one call
 * when it takes arguments (`chain(id)`, `balance(…)`, `uptime(…)`), when its type is loaded by identity (a
 * Relay `Node` other than `Address` and `Network`, which exist without a call: `block`, `parent`, `contract`),
 * or when it sits on a node facade (`NetworkNode`, `CChain`, `XChain`: each field a JSON-RPC call); its
 * selection adds its own cost. Anything else (non-null fields, optional inline data) costs 0, and further:
 * - a connection (a field with `first`) is ⌈first / page size⌉ calls for its pages, plus `first` times the
 *   cost of one item (the edges / nodes of that same connection are those items, not another multiplier);
 * - a plain list of objects multiplies the cost of its selection by `listSize` (its length is unknown before
 *   execution: `chains` is one call, then one more per chain for each of its connections);
 * - `_entities(representations)` and `nodes(ids)` are one call per representation / id, plus the selection;
 * - every alias is a field of its own, so `a: block(…) b: block(…)` is two calls;
 * - introspection (`__schema`, `__type`) costs `introspectionCost` each: no upstream call, but work and
 *   bytes all the same, so a thousand aliased introspections are refused like a thousand blocks.
 * Fragments are expanded (each named fragment costed once per use, memoized, so fragment bombs stay linear
 * to estimate); types in an abstract selection are summed, never maxed (an upper bound).
 */
export interface CostOptions {
  /** `first` when a connection does not say. */
  defaultFirst: number;
  /** The largest `first` a connection accepts (a larger one is refused by the connection, naming it). */
  maxFirst: number;
  /** Items one upstream page holds. */
  pageSize: number;
  /** Assumed length of a plain list whose items cost calls. */
  listSize: number;
  /** Cost of one `__schema` / `__type` selection. */
  introspectionCost: number;
}

/** Node types that cost no call to exist: an address is its key; the network is its name. */
const FREE_ENTITIES = new Set(['Address', 'Network']);
/** Types whose every nullable field is its own node JSON-RPC call (`info.getNodeVersion`, `eth_gasPrice`…). */
const NODE_FACADES = new Set([
  'NetworkNode',
  'NetworkNodeAdmin',
  'CChain',
  'XChain',
  // EVM state (src/schema/types/evm-*.ts): every nullable field one JSON-RPC call.
  'EvmState',
  'EvmAccountState',
  'Erc20Reads',
]);

/**
 * Fields that make an upstream call although the rules above would price them at 0 (nullable, no
 * arguments, a type without identity): `Type.field`.
 */
const CALLING_FIELDS = new Set(['Address.chains']);
/** Plain lists whose every item is loaded by a call of its own (`Type.field`). */
const PER_ITEM_FIELDS = new Set(['PChainBlock.transactions']);
/** Entities whose look-up by key may take more than one call: an L1 validation id tries mainnet, then Fuji. */
const ENTITY_LOOKUP_CALLS: Record<string, number> = { L1Validator: 2 };

export const DEFAULT_COST_OPTIONS: CostOptions = {
  defaultFirst: 20,
  maxFirst: 500,
  pageSize: 100,
  listSize: 10,
  introspectionCost: 1,
};

export interface CostEstimate {
  /** Upstream calls (an upper bound), introspection included. */
  calls: number;
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
  if (!operation) return { calls: 0 };
  const coerced = coerceVariables(schema, operation, variables);
  if (!coerced.ok) return { calls: 0 };
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
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions)
    if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const root =
    operation.operation === 'mutation'
      ? schema.getMutationType()
      : operation.operation === 'subscription'
        ? schema.getSubscriptionType()
        : schema.getQueryType();
  if (!root) return { calls: 0 };
  const memo = new Map<string, number>();
  const visiting = new Set<string>();

  /** `inConnection`: the selection of a connection type, whose `edges` / `nodes` are the connection's own items. */
  const selectionCost = (
    parent: Composite,
    set: SelectionSetNode,
    inConnection: boolean,
  ): number => {
    let total = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) total += fieldCost(parent, sel, inConnection);
      else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const t = sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : parent;
        if (t && isComposite(t)) total += selectionCost(t, sel.selectionSet, inConnection);
      } else {
        const name = sel.name.value;
        const key = `${name}|${inConnection}`;
        const known = memo.get(key);
        if (known !== undefined) {
          total += known;
          continue;
        }
        const def = fragments.get(name);
        const t = def ? schema.getType(def.typeCondition.name.value) : undefined;
        // A cycle is a validation error; it costs nothing here rather than looping.
        if (!def || !t || !isComposite(t) || visiting.has(key)) continue;
        visiting.add(key);
        const c = selectionCost(t, def.selectionSet, inConnection);
        visiting.delete(key);
        memo.set(key, c);
        total += c;
      }
    }
    return total;
  };

  const fieldCost = (parent: Composite, node: FieldNode, inConnection: boolean): number => {
    const name = node.name.value;
    if (name === '__typename') return 0;
    if (name === '__schema' || name === '__type') return o.introspectionCost;
    if (!hasFields(parent)) return 0;
    const def = parent.getFields()[name];
    if (!def) return 0;
    // Only PRICED_ARGUMENTS are read (so the plugin's memo keys on just their variables).
    const arg = (argument: string) => argumentOf(def, node, argument, vars);
    const named = namedOf(def.type);
    const isConnection = def.args.some((a) => a.name === 'first');
    const child =
      node.selectionSet && isComposite(named)
        ? selectionCost(named, node.selectionSet, isConnection)
        : 0;

    if (parent === root && name === 'nodes') {
      const ids = arg('ids');
      return (Array.isArray(ids) ? ids.length : 1) * (1 + child);
    }
    if (parent === root && name === '_entities') {
      const reps = arg('representations');
      let calls = 0;
      for (const rep of Array.isArray(reps) ? reps : [undefined]) {
        const type = (rep as { __typename?: unknown } | undefined)?.__typename;
        calls += (typeof type === 'string' ? (ENTITY_LOOKUP_CALLS[type] ?? 1) : 1) + child;
      }
      return calls;
    }
    if (isConnection) {
      const raw = arg('first');
      const first =
        typeof raw === 'number' && Number.isFinite(raw) && raw >= 0
          ? Math.min(raw, o.maxFirst)
          : o.defaultFirst;
      return Math.max(1, Math.ceil(first / o.pageSize)) + first * child;
    }
    // A subscription field is priced per event: its item (a block, a transaction, a message) is one call.
    if (operation.operation === 'subscription' && parent === root) return 1 + child;
    // Every mutation reaches an upstream (an admin method, a signature aggregation), payload or not.
    if (operation.operation === 'mutation' && parent === root) return 1 + child;
    const coordinate = `${parent.name}.${name}`;
    const loads =
      def.args.length > 0 ||
      isLoaded(named) ||
      NODE_FACADES.has(parent.name) ||
      CALLING_FIELDS.has(coordinate);
    const calls = !isNonNull(def.type) && loads ? 1 : 0;
    if (PER_ITEM_FIELDS.has(coordinate)) return o.listSize * (1 + child);
    if (isList(def.type)) {
      // A connection's edges / nodes are its `first` items, already counted by the connection.
      const length = inConnection && (name === 'edges' || name === 'nodes') ? 1 : o.listSize;
      return calls + length * child;
    }
    return calls + child;
  };

  const loadedMemo = new Map<string, boolean>();
  /** A type with an identity of its own is loaded by a call (Relay `Node`s), except those that exist without one. */
  const isLoaded = (t: GraphQLNamedType): boolean => {
    let known = loadedMemo.get(t.name);
    if (known === undefined) {
      const candidates: readonly GraphQLObjectType[] = isAbstract(t)
        ? schema.getPossibleTypes(t as never)
        : kindOf(t) === 'GraphQLObjectType'
          ? [t as GraphQLObjectType]
          : [];
      known = candidates.some(
        (c) => !FREE_ENTITIES.has(c.name) && c.getInterfaces().some((i) => i.name === 'Node'),
      );
      loadedMemo.set(t.name, known);
    }
    return known;
  };

  return { calls: selectionCost(root, operation.selectionSet, false) };
}

/*
 * Type tests by shape and constructor name, never `instanceof`: the schema and this module may hold different
 * copies of graphql-js (its ESM and CJS builds), whose own predicates then throw "from another realm".
 */
type Composite =
  | GraphQLObjectType
  | GraphQLInterfaceType
  | (GraphQLNamedType & { getTypes(): unknown });
const kindOf = (t: unknown) => (t as { constructor?: { name?: string } }).constructor?.name;
const isNonNull = (t: GraphQLType) => kindOf(t) === 'GraphQLNonNull';
const unwrapNonNull = (t: GraphQLType): GraphQLType =>
  isNonNull(t) ? (t as { ofType: GraphQLType }).ofType : t;
const isList = (t: GraphQLType) => kindOf(unwrapNonNull(t)) === 'GraphQLList';
function namedOf(t: GraphQLType): GraphQLNamedType {
  let cur = t as GraphQLType & { ofType?: GraphQLType };
  while (cur.ofType) cur = cur.ofType as typeof cur;
  return cur as GraphQLNamedType;
}
const hasFields = (t: unknown): t is GraphQLObjectType | GraphQLInterfaceType =>
  typeof (t as { getFields?: unknown }).getFields === 'function' &&
  kindOf(t) !== 'GraphQLInputObjectType';
const isAbstract = (t: unknown) =>
  kindOf(t) === 'GraphQLUnionType' || kindOf(t) === 'GraphQLInterfaceType';
const isComposite = (t: unknown): t is Composite =>
  hasFields(t) || kindOf(t) === 'GraphQLUnionType';

export function pickOperation(
  document: DocumentNode,
  operationName: string | null | undefined,
): OperationDefinitionNode | undefined {
  const ops = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (operationName) return ops.find((op) => op.name?.value === operationName);
  return ops.length === 1 ? ops[0] : undefined;
}

/** The arguments whose values the estimate reads: the only ones its price may depend on. */
const PRICED_ARGUMENTS = new Set(['first', 'ids', 'representations']);

/**
 * The variables an operation's price can depend on, known from the document alone: those used (anywhere
 * in the document, fragments included) in an argument the estimate reads. An estimate kept for their
 * values holds for any other values of the rest.
 */
export function pricedVariables(document: DocumentNode): string[] {
  const names = new Set<string>();
  visit(document, {
    Argument(node) {
      if (!PRICED_ARGUMENTS.has(node.name.value)) return false;
      visit(node.value, {
        Variable(v) {
          names.add(v.name.value);
        },
      });
      return false;
    },
  });
  return [...names].sort();
}

/**
 * One argument of a field with variables substituted, untyped (execution coerces and refuses bad ones,
 * naming them); its default when it is not given or names an unknown variable (left to validation).
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
    // An absent variable leaves the argument at its own default, as execution does.
    return valueFromASTUntyped(given.value, variables) ?? fallback;
  } catch {
    return fallback;
  }
}
