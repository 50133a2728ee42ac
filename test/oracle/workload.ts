import { readdirSync, readFileSync } from 'node:fs';
import type { WorldFixtures } from '@avalanche-gateway/simulator';
import { Rng } from '@avalanche-gateway/simulator/world/prng.js';
import {
  type DefinitionNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  isAbstractType,
  isEnumType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  parse,
  print,
  typeFromAST,
} from 'graphql';
import { usedFragments } from '../../src/edge/persisted.js';

/**
 * The oracle's workload: every query operation in `schema/operations/` (mutations are never cached
 * and are left out), plus one query per root field generated from the schema (every field reachable
 * within depth 3 whose required arguments can be filled), plus `node(id)` for global ids harvested
 * from earlier answers. Arguments come from the world's fixtures and harvested values, chosen by a
 * seeded Rng; connections are paged: a step whose answer has a next page is followed by a step with
 * its `endCursor` as `$after`.
 */

export interface Step {
  /** Stable name of the step (operation name, or `gen:<field>`). */
  name: string;
  query: string;
  variables: Record<string, unknown>;
  /** Whether the query takes `$after` (a second page is asked for with the first page's endCursor). */
  pages: boolean;
}

const OPS_DIR = new URL('../../schema/operations/', import.meta.url);

/** Values by argument / variable name; `undefined` = none known. */
export interface ArgValues {
  get(name: string, opName: string, type: GraphQLInputType): unknown;
}

/** Ids of the world the fixtures do not name (test/oracle/workload-extra.ts reads them). */
export interface WorldIds {
  cAtomicTxId?: string;
  xTxId?: string;
  xAssetId?: string;
  pTxHash?: string;
}

export function argValues(
  f: WorldFixtures,
  extra: { selfNodeId: string; seed: string; ids?: WorldIds },
): ArgValues {
  const ids = extra.ids ?? {};
  const rng = new Rng(`oracle-args|${extra.seed}`);
  return {
    get(name, opName, type) {
      const named = getNamedType(type);
      const list = isListType(isNonNullType(type) ? type.ofType : type);
      const wrap = (v: unknown) =>
        v === undefined ? undefined : list && !Array.isArray(v) ? [v] : v;
      if (isEnumType(named)) {
        const values = named.getValues().map((v) => v.name);
        return wrap(rng.pick(values));
      }
      switch (name) {
        case 'chainId':
          return '43114';
        case 'address':
          if (/Icm/i.test(opName)) return f.icmAddress;
          if (/Contract|ChainAddress/.test(opName)) return f.contracts.erc20;
          if (/XChain/.test(opName)) return f.xChainAddress;
          return rng.chance(0.5) ? f.ordinaryAddress : f.busyAddress;
        case 'addresses':
          if (/Logs/.test(opName)) return [f.contracts.erc20];
          if (/XChain|CChain/.test(opName)) return [f.xChainAddress];
          return [f.pChainAddress];
        case 'id':
          if (/^Chain$/.test(opName)) return '43114';
          if (/CChainAtomic/.test(opName)) return ids.cAtomicTxId;
          if (/XChain/.test(opName)) return ids.xTxId;
          if (/icmMessage|IcmMessage/.test(opName)) return f.icmMessageId;
          if (/Block/.test(opName) || opName === 'gen:block')
            return rng.chance(0.5) ? String(f.blockNumber) : f.blockHash;
          return undefined;
        case 'txId':
          return ids.xTxId;
        case 'asset':
        case 'assetId':
          return ids.xAssetId;
        case 'amount':
          return '123456789';
        case 'subnetId':
          return f.l1SubnetId;
        case 'txHash':
          // A primary-network transaction where the network's fields ask for one.
          return /Signature|Staking|Primary|^gen:network$/.test(opName) ? ids.pTxHash : f.txHash;
        case 'vertexHeight':
          return 1;
        case 'slot':
          return '0x0';
        case 'holder':
        case 'owner':
          return f.busyAddress;
        case 'data':
          // balanceOf(busyAddress): an ERC-20's answer, an empty one elsewhere.
          return `0x70a08231${f.busyAddress.slice(2).toLowerCase().padStart(64, '0')}`;
        case 'hash':
          return rng.chance(0.5) ? f.txHash : f.nativeTxHash;
        case 'network':
          return 'mainnet';
        case 'name':
          return /network/i.test(opName) && !/node/i.test(opName) ? 'mainnet' : undefined;
        case 'nodeId':
          return extra.selfNodeId;
        case 'chain':
        case 'alias':
          return 'C';
        case 'sourceChain':
          return 'X';
        case 'first':
          return rng.int(2, 4);
        case 'txFirst':
          return 2;
        case 'block':
          return rng.chance(0.5) ? String(f.blockNumber) : f.blockHash;
        case 'account':
          return rng.chance(0.5) ? f.ordinaryAddress : f.busyAddress;
        case 'currency':
          return undefined;
        default:
          return undefined;
      }
    },
  };
}

/** Operation documents from schema/operations: one self-contained query text per operation. */
export function operationSteps(
  schema: GraphQLSchema,
  args: ArgValues,
  harvested: () => string[],
  rng: Rng,
): { steps: Step[]; skipped: string[] } {
  const defs: DefinitionNode[] = [];
  for (const file of readdirSync(OPS_DIR)
    .filter((f) => f.endsWith('.graphql'))
    .sort()) {
    defs.push(...parse(readFileSync(new URL(file, OPS_DIR), 'utf8')).definitions);
  }
  const fragments = new Map(
    defs
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  const steps: Step[] = [];
  const skipped: string[] = [];
  for (const op of defs.filter(
    (d): d is OperationDefinitionNode =>
      d.kind === Kind.OPERATION_DEFINITION && d.operation === 'query',
  )) {
    const name = op.name?.value ?? 'anonymous';
    const used = usedFragments(op, fragments);
    const text = [op, ...used].map((d) => print(d)).join('\n\n');
    const variables: Record<string, unknown> = {};
    let ok = true;
    for (const v of op.variableDefinitions ?? []) {
      const vn = v.variable.name.value;
      if (vn === 'after' || vn === 'before' || vn === 'last') continue;
      const type = typeFromAST(schema, v.type as never) as GraphQLInputType | undefined;
      let value: unknown;
      if (vn === 'id' && print(v.type).startsWith('ID')) value = pickId(harvested(), rng);
      else if (vn === 'ids')
        value = [pickId(harvested(), rng), pickId(harvested(), rng)].filter(Boolean);
      else if (type) value = args.get(vn, name, type);
      if (value === undefined && v.type.kind === Kind.NON_NULL_TYPE && !v.defaultValue) ok = false;
      if (value !== undefined) variables[vn] = value;
    }
    if (!ok) {
      skipped.push(name);
      continue;
    }
    steps.push({
      name,
      query: text,
      variables,
      pages: (op.variableDefinitions ?? []).some((v) => v.variable.name.value === 'after'),
    });
  }
  return { steps, skipped };
}

const pickId = (ids: string[], rng: Rng) => (ids.length ? rng.pick(ids) : undefined);

const ROOTS = [
  'evmState',
  'chains',
  'chain',
  'block',
  'transaction',
  'address',
  'icmMessages',
  'network',
  'networkNode',
  'networkNodes',
  'latestBlocks',
  'latestTransactions',
  'icmMessage',
];
const MAX_DEPTH = 3;

/** One query per root field: every field reachable within depth 3 whose required arguments can be filled. */
/** A generated selection of a type's fields (depth counts from `depth`), for hand-written steps. */
export const selectionOf = (
  schema: GraphQLSchema,
  type: string,
  opName: string,
  args: ArgValues,
  depth = 2,
): string => selectionFor(schema.getType(type)!, depth, opName, args);

export function generatedSteps(schema: GraphQLSchema, args: ArgValues): Step[] {
  const query = schema.getQueryType()!;
  const steps: Step[] = [];
  for (const root of ROOTS) {
    const field = query.getFields()[root];
    if (!field) continue;
    const opName = `gen:${root}`;
    const a = fieldArgs(field, opName, args, true);
    if (a === undefined) continue;
    const named = getNamedType(field.type);
    // A root of an interface type (icmMessage): each possible type's plain fields.
    const sel = isAbstractType(named)
      ? `__typename ${schema
          .getPossibleTypes(named)
          .map((t) => `... on ${t.name} { ${leafFields(t).join(' ')} }`)
          .join(' ')}`
      : selectionFor(named, 1, opName, args);
    const text = `query Gen_${root} { ${root}${a}${sel ? ` { ${sel} }` : ''} }`;
    steps.push({ name: opName, query: text, variables: {}, pages: false });
  }
  return steps;
}

/** `node(id)` for harvested global ids: every concrete type's scalar fields. */
export function nodeSteps(schema: GraphQLSchema, ids: string[]): Step[] {
  const nodeIface = schema.getType('Node');
  if (!nodeIface || !isAbstractType(nodeIface)) return [];
  const parts = schema
    .getPossibleTypes(nodeIface)
    .map((t) => `... on ${t.name} { ${leafFields(t).join(' ')} }`);
  return ids.map((id, i) => ({
    name: `gen:node#${i}`,
    query: `query GenNode($id: ID!) { node(id: $id) { __typename id ${parts.join(' ')} } }`,
    variables: { id },
    pages: false,
  }));
}

function leafFields(t: GraphQLObjectType): string[] {
  return Object.values(t.getFields())
    .filter((f) => isLeafType(getNamedType(f.type)) && f.args.every((a) => !isNonNullType(a.type)))
    .map((f) => f.name);
}

function fieldArgs(
  field: GraphQLField<unknown, unknown>,
  opName: string,
  args: ArgValues,
  root: boolean,
): string | undefined {
  const parts: string[] = [];
  for (const a of field.args) {
    if (a.name === 'after' || a.name === 'before' || a.name === 'last') continue;
    let v: unknown;
    if (a.name === 'first') v = 2;
    else if (root || isNonNullType(a.type)) v = args.get(a.name, opName, a.type);
    if (v === undefined) {
      if (isNonNullType(a.type)) return undefined;
      continue;
    }
    const named = getNamedType(a.type);
    const lit = (x: unknown): string =>
      Array.isArray(x)
        ? `[${x.map(lit).join(', ')}]`
        : isEnumType(named)
          ? String(x)
          : JSON.stringify(x);
    parts.push(`${a.name}: ${lit(v)}`);
  }
  return parts.length ? `(${parts.join(', ')})` : '';
}

function selectionFor(
  type: GraphQLNamedType,
  depth: number,
  opName: string,
  args: ArgValues,
): string {
  if (isLeafType(type)) return '';
  if (isAbstractType(type)) return '__typename';
  if (!isObjectType(type)) return '';
  if (type.name.endsWith('Connection')) {
    const edge = type.getFields().edges;
    const node = edge && getNamedType(edge.type);
    const nodeType =
      node && isObjectType(node) ? getNamedType(node.getFields().node!.type) : undefined;
    const inner = nodeType ? selectionFor(nodeType, depth + 1, opName, args) : '';
    return `edges { node { ${inner || '__typename'} } } pageInfo { hasNextPage endCursor }`;
  }
  const out: string[] = [];
  for (const f of Object.values(type.getFields())) {
    const named = getNamedType(f.type);
    const a = fieldArgs(f, opName, args, false);
    if (a === undefined) continue;
    if (isLeafType(named)) out.push(`${f.name}${a}`);
    else if (depth < MAX_DEPTH) {
      if (isAbstractType(named)) {
        out.push(`${f.name}${a} { __typename }`);
        continue;
      }
      const sub = selectionFor(named, depth + 1, opName, args);
      if (sub) out.push(`${f.name}${a} { ${sub} }`);
    }
  }
  return out.join(' ');
}

/** Global ids (`id` fields) found anywhere in an answer. */
export function harvestIds(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) for (const v of value) harvestIds(v, into);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'id' && typeof v === 'string' && v.length > 8) into.add(v);
      else harvestIds(v, into);
    }
  }
}

/** The endCursor of the shallowest pageInfo with a next page, if any. */
export function nextCursor(data: unknown): string | undefined {
  let level: unknown[] = [data];
  for (let d = 0; d < 8 && level.length; d++) {
    const next: unknown[] = [];
    for (const v of level) {
      if (!v || typeof v !== 'object') continue;
      const o = v as Record<string, unknown>;
      const pi = o.pageInfo as { hasNextPage?: boolean; endCursor?: string } | undefined;
      if (pi?.hasNextPage && pi.endCursor) return pi.endCursor;
      next.push(...(Array.isArray(v) ? v : Object.values(o)));
    }
    level = next;
  }
  return undefined;
}
