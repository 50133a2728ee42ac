import { createRequire } from 'node:module';
import type { GraphQLField, GraphQLObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { COST_DECLARATIONS } from '../../src/schema/cost-declarations.js';
import { type CostDeclaration, calls, data } from '../../src/schema/cost-helpers.js';
import { buildSchema } from '../../src/schema/index.js';
import { cuPrice, listedCu } from '../../src/upstream/compute-units.js';

/**
 * Issue 33, item 2: every field that reaches an upstream declares its cost (`@cost`, and `@listSize`
 * for a list or connection) in the schema, the only thing the estimator reads (src/edge/cost.ts).
 * "Reaches an upstream", without running anything: a field with a `first` argument (a connection over
 * upstream pages), any root mutation or subscription field, and, by the schema's convention (fields are
 * non-null unless they reach an upstream, src/schema/builder.ts), a nullable field that takes arguments,
 * returns an entity loaded by identity (a Relay `Node`), or sits on a node facade. Fields that need a
 * declaration although the convention misses them are listed by hand below.
 */
const schema = buildSchema();
// The schema's copy of graphql-js (src/edge/coerce-variables.ts says why).
const { getNamedType, isAbstractType, isInterfaceType, isNonNullType, isObjectType } =
  createRequire(import.meta.url)('graphql') as typeof import('graphql');
/** Relay nodes that exist without a call (an address is its key; a network is its name). */
const KEYED_ONLY = new Set(['Address', 'Network']);
/** Types whose every field is a JSON-RPC call of the configured node or an EVM node. */
const FACADES = new Set([
  'NetworkNode',
  'NetworkNodeAdmin',
  'CChain',
  'XChain',
  'EvmState',
  'EvmAccountState',
  'Erc20Reads',
]);
/** Calls the convention cannot see: a non-null field that still loads. */
const ALSO_CALLING = ['Address.chains', 'PChainBlock.transactions', 'XChainVertex.parents'];

const reachesUpstream = (parent: GraphQLObjectType, f: GraphQLField<unknown, unknown>) => {
  if (f.args.some((a) => a.name === 'first')) return true;
  if (parent === schema.getMutationType() || parent === schema.getSubscriptionType()) return true;
  if (ALSO_CALLING.includes(`${parent.name}.${f.name}`)) return true;
  if (isNonNullType(f.type)) return false;
  const named = getNamedType(f.type);
  const candidates = isAbstractType(named)
    ? schema.getPossibleTypes(named)
    : isObjectType(named)
      ? [named]
      : [];
  const loaded = candidates.some(
    (c) => !KEYED_ONLY.has(c.name) && c.getInterfaces().some((i) => i.name === 'Node'),
  );
  return f.args.length > 0 || loaded || FACADES.has(parent.name);
};
/** Routes we call that neither the rate-limit pages nor the spec list: priced the documented default. */
const UNLISTED_ROUTES = new Set([
  'GET /v1/networks/{network}/blockchains/{blockchainId}/lastActivityTimestampByAddresses',
  'GET /v2/validators',
]);
/** The `@cost` weight printed on a field of the schema (NaN when it has none). */
const printedWeight = (coordinate: string): number => {
  const [type, field] = coordinate.split('.') as [string, string];
  const t = schema.getType(type);
  const f = t && isObjectType(t) ? t.getFields()[field] : undefined;
  const printed = f?.astNode?.directives?.find((x) => x.name.value === 'cost');
  const arg = printed?.arguments?.find((a) => a.name.value === 'weight')?.value;
  return arg && 'value' in arg ? Number(arg.value) : Number.NaN;
};
/** Declarations whose weight is not the price table's for their route, or whose route it does not list. */
function offTable(
  declarations: Record<string, CostDeclaration>,
  weightOf: (coordinate: string) => number,
): string[] {
  const wrong: string[] = [];
  for (const [coordinate, d] of Object.entries(declarations)) {
    const weight = weightOf(coordinate);
    if (!d.route) {
      // Only a field that makes no request of its own goes without a route.
      if (weight !== 0 || d.cost.weight !== 0)
        wrong.push(`${coordinate}: ${weight} without a route`);
      continue;
    }
    const routes = [d.route, ...(d.also ?? [])];
    const price = routes.reduce((sum, r) => sum + r.times * cuPrice(r.upstream, r.route), 0);
    if (weight !== price || d.cost.weight !== price)
      wrong.push(
        `${coordinate}: @cost ${weight}, ${routes.map((r) => r.route).join(' + ')} costs ${price}`,
      );
    // A Data or Metrics API route must be in the table (a typo would silently take the default); the
    // node's own methods (AvalancheGo's `info.*`, `avm.*`…) are priced the documented default.
    for (const r of routes)
      if (
        r.upstream !== 'rpc' &&
        !UNLISTED_ROUTES.has(r.route) &&
        listedCu(r.upstream, r.route) === undefined
      )
        wrong.push(`${coordinate}: ${r.route} is not in the price table`);
  }
  return wrong;
}
const declared = (f: GraphQLField<unknown, unknown>) =>
  (f.astNode?.directives ?? []).some((d) => d.name.value === 'cost');

/**
 * Issue 42: the convention above missed per-item fields that load (a list item's full transaction, an
 * X-Chain transaction's decoded form). The stricter walk, over the resolvers themselves: a field whose
 * resolver takes the request's context (the only way to a loader or a client) declares @cost, or is
 * listed here with why it makes no upstream call.
 */
const READS_NO_UPSTREAM: Record<string, string> = {
  'NetworkNode.isDefault': 'compares its name with the configured default',
  'Address.name': 'the label the referencing item carried (exposedOf)',
  'Address.symbol': 'the label the referencing item carried (exposedOf)',
  'Address.decimals': 'the label the referencing item carried (exposedOf)',
  'Address.logoUri': 'the label the referencing item carried (exposedOf)',
};
/** The source of the function a field runs (Pothos keeps it in the field's options), if any. */
const resolverSource = (f: GraphQLField<unknown, unknown>): string | undefined => {
  const o = (f.extensions as { pothosOptions?: { resolve?: unknown } } | undefined)?.pothosOptions;
  return typeof o?.resolve === 'function' ? String(o.resolve) : undefined;
};
/** Does the resolver's source name a third parameter (the context), or reach for one by name? */
const readsContext = (source: string) =>
  /^(async\s*)?(function\s*\w*\s*)?\(?\s*[^,()]*,\s*[^,()]*,\s*[A-Za-z_$]/.test(
    source.replace(/\s+/g, ' '),
  ) || /\bctx\b|\.loaders\b/.test(source);
/** Undeclared fields of `s` whose resolvers read the context, less the listed and the Relay ids. */
function unpricedContextReaders(s: typeof schema): string[] {
  const out: string[] = [];
  for (const t of Object.values(s.getTypeMap())) {
    if (t.name.startsWith('__') || !isObjectType(t)) continue;
    for (const f of Object.values(t.getFields())) {
      const coordinate = `${t.name}.${f.name}`;
      // A Relay id encodes its key; a refetch through node(id) is priced at node(id).
      if (f.name === 'id' || declared(f) || coordinate in READS_NO_UPSTREAM) continue;
      const source = resolverSource(f);
      if (source && readsContext(source)) out.push(coordinate);
    }
  }
  return out;
}

describe('cost declarations', () => {
  it('every field that reaches an upstream declares @cost', () => {
    const missing: string[] = [];
    for (const t of Object.values(schema.getTypeMap())) {
      if (t.name.startsWith('__')) continue;
      // Interface fields carry none (federation forbids @cost there): they are priced from their
      // implementations' (src/edge/cost.ts).
      if (isObjectType(t)) {
        for (const f of Object.values(t.getFields()))
          if (reachesUpstream(t, f) && !declared(f)) missing.push(`${t.name}.${f.name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every field whose resolver reads the context declares @cost, or says why it makes no call (issue 42)', () => {
    expect(unpricedContextReaders(schema)).toEqual([]);
  });

  it('the walk finds a planted per-item field that loads, priced at nothing', () => {
    const fields = (schema.getType('Transaction') as GraphQLObjectType).getFields();
    const f = fields.input!;
    // As the field was before issue 42: the full transaction's load, with no @cost.
    fields.input = { ...f, astNode: f.astNode && { ...f.astNode, directives: [] } };
    try {
      expect(unpricedContextReaders(schema)).toEqual(['Transaction.input']);
    } finally {
      fields.input = f;
    }
  });

  it('every line of the table names a field of the schema, and every connection its slicing argument', () => {
    for (const [coordinate, d] of Object.entries(COST_DECLARATIONS)) {
      const [type, field] = coordinate.split('.') as [string, string];
      const t = schema.getType(type);
      const f = t && (isObjectType(t) || isInterfaceType(t)) ? t.getFields()[field] : undefined;
      expect(f, coordinate).toBeDefined();
      expect(declared(f!), coordinate).toBe(true);
      if (f!.args.some((a) => a.name === 'first'))
        expect(d.listSize?.slicingArguments, coordinate).toEqual(['first']);
    }
  });

  it("every printed @cost weight is the price table's for the route its field calls (issue 33)", () => {
    expect(offTable(COST_DECLARATIONS, printedWeight)).toEqual([]);
  });

  it('the check fails a weight written by hand, a route the table does not list, a weight without a route', () => {
    const planted: Record<string, CostDeclaration> = {
      'Query.block': { ...calls(data('getBlock')), cost: { weight: 20 } },
      'Query.chain': calls(data('getChainInf')),
      'Query.address': { cost: { weight: 10 } },
    };
    const weights: Record<string, number> = {
      'Query.block': 20,
      'Query.chain': 20,
      'Query.address': 10,
    };
    expect(offTable(planted, (c) => weights[c]!)).toEqual([
      'Query.block: @cost 20, getBlock costs 10',
      'Query.chain: getChainInf is not in the price table',
      'Query.address: 10 without a route',
    ]);
  });
});
