import { type GraphQLResolveInfo, Kind, type SelectionSetNode } from 'graphql';
import type { GatewayContext } from '../../context.js';
import { gqlError } from '../../errors.js';
import type { EvmQuantityMethod } from '../../upstream/node-rpc.js';
import { nodeByName } from './network-node-inputs.js';

/**
 * The C-Chain's head as one operation sees it: every head-dependent `CChain` field the operation
 * selects (the head number, the fees, state at the head) is read from ONE answer of the node, asked
 * once per operation and node and cached whole, so no answer joins one head's number to another's fees.
 */
const ORDER: readonly EvmQuantityMethod[] = [
  'eth_blockNumber',
  'eth_baseFee',
  'eth_maxPriorityFeePerGas',
  'eth_gasPrice',
];
/** CChain fields → the head quantities they read (state fields read at the head's number). */
const NEEDS: Record<string, EvmQuantityMethod> = {
  blockNumber: 'eth_blockNumber',
  latestBlock: 'eth_blockNumber',
  balance: 'eth_blockNumber',
  transactionCount: 'eth_blockNumber',
  baseFee: 'eth_baseFee',
  maxPriorityFeePerGas: 'eth_maxPriorityFeePerGas',
  gasPrice: 'eth_gasPrice',
};

const byOperation = new WeakMap<object, Set<EvmQuantityMethod>>();

/** What every `cChain` selection of the operation reads of the head (fragments followed). */
function operationNeeds(info: GraphQLResolveInfo): Set<EvmQuantityMethod> {
  const known = byOperation.get(info.operation);
  if (known) return known;
  const needs = new Set<EvmQuantityMethod>();
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode | undefined, inCChain: boolean) => {
    for (const s of set?.selections ?? []) {
      if (s.kind === Kind.FIELD) {
        const need =
          inCChain && Object.hasOwn(NEEDS, s.name.value) ? NEEDS[s.name.value] : undefined;
        if (need) needs.add(need);
        walk(s.selectionSet, s.name.value === 'cChain');
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        walk(s.selectionSet, inCChain);
      } else if (!seen.has(`${s.name.value}|${inCChain}`)) {
        seen.add(`${s.name.value}|${inCChain}`);
        walk(info.fragments[s.name.value]?.selectionSet, inCChain);
      }
    }
  };
  walk(info.operation.selectionSet, false);
  byOperation.set(info.operation, needs);
  return needs;
}

/** `method`'s value at the operation's one head of node `node`. */
export async function headQuantity(
  node: string,
  ctx: GatewayContext,
  info: GraphQLResolveInfo,
  method: EvmQuantityMethod,
): Promise<string> {
  const needs = operationNeeds(info);
  const methods = ORDER.filter((m) => needs.has(m) || m === method);
  const head = await nodeByName(ctx, node).read((c) => c.cChain.headQuantities(methods));
  const value = head[method];
  if (value === undefined)
    throw gqlError('UPSTREAM_ERROR', `The node's answer lacks ${method}`, { reason: 'NO_ANSWER' });
  return value;
}

/** The operation's head number as a JSON-RPC block parameter. */
export const headBlockParam = async (node: string, ctx: GatewayContext, info: GraphQLResolveInfo) =>
  `0x${BigInt(await headQuantity(node, ctx, info, 'eth_blockNumber')).toString(16)}`;
