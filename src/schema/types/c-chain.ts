import { requireAdmin } from '../../admin-auth.js';
import type { GatewayContext } from '../../context.js';
import { isUpstreamStatus } from '../../upstream/errors.js';
import type { EvmQuantityMethod } from '../../upstream/node-rpc.js';
import { argTable, EVM_ADDRESS_ARG } from '../arg-table.js';
import { builder } from '../builder.js';
import type { ObjectFields } from '../builder-types.js';
import { parseEvmAddress } from '../inputs.js';
import { BlockRef, headerBlock, loadBlock } from './block.js';
import { headBlockParam, headQuantity } from './c-chain-head.js';
import {
  CChainAtomicTransactionRef,
  EvmChainConfigRef,
  EvmSyncProgressRef,
  VmConfigEntryRef,
} from './c-chain-types.js';
import { ChainRef } from './chain.js';
import { NetworkNodeRef } from './network-node.js';
import { nodeByName, parseId } from './network-node-inputs.js';
import { utxoConnection } from './x-chain-utxo.js';

/**
 * The C-Chain of a configured node: the EVM endpoint (`/ext/bc/C/rpc`, go-ethereum style — the EVM fields a
 * query selects go out as one JSON-RPC batch, then a second for state at the head the first named), shared memory (`/ext/bc/C/avax`, the seed's `svc.`) and the
 * VM admin (`/ext/bc/C/admin`). EVM quantities are hex on the wire and exact decimal strings here.
 */
export interface CChainShape {
  node: string;
}

const quantity = (x: CChainShape, ctx: GatewayContext, method: EvmQuantityMethod) =>
  nodeByName(ctx, x.node).read((c) => c.cChain.quantity(method));

/** Head quantities of the chain (`field: [method, description]`), each an exact decimal string. */
const quantities = (
  t: ObjectFields<CChainShape>,
  table: Record<string, readonly [EvmQuantityMethod, string]>,
) =>
  Object.fromEntries(
    Object.entries(table).map(([field, [method, description]]) => [
      field,
      t.field({
        type: 'BigDecimal',
        nullable: true,
        description,
        resolve: (x, _a, ctx, info) => headQuantity(x.node, ctx, info, method),
      }),
    ]),
  );

/** A quantity of one address at the operation's head (the last accepted block): its balance or its nonce. */
const addressState = (
  t: ObjectFields<CChainShape>,
  field: 'balance' | 'transactionCount',
  description: string,
) => ({
  [field]: t.field({
    type: 'BigDecimal',
    nullable: true,
    description,
    args: argTable(t.arg, {
      address: EVM_ADDRESS_ARG,
    }),
    resolve: async (x, args, ctx, info) => {
      const address = parseEvmAddress(args.address, 'address');
      const block = await headBlockParam(x.node, ctx, info);
      return nodeByName(ctx, x.node).read((c) => c.cChain[field](address, block));
    },
  }),
});

export const CChainRef = builder.objectRef<CChainShape>('CChain').implement({
  description: "A configured node's C-Chain.",
  fields: (t) => ({
    chainId: t.string({
      nullable: true,
      description: 'The EVM chain id, decimal (eth_chainId).',
      resolve: (x, _a, ctx) => quantity(x, ctx, 'eth_chainId'),
    }),
    chain: t.field({
      type: ChainRef,
      nullable: true,
      description: 'This chain as the Data API indexes it.',
      resolve: (x, _a, ctx) => quantity(x, ctx, 'eth_chainId'),
    }),
    ...quantities(t, {
      blockNumber: ['eth_blockNumber', 'The last accepted block (eth_blockNumber).'],
    }),
    latestBlock: t.field({
      type: BlockRef,
      nullable: true,
      description:
        'The last accepted block, from the Data API; while the Data API has not indexed it yet (it trails ' +
        'the node by a few blocks), from the node’s header, whose fields only the index has answer with ' +
        'its NOT_FOUND.',
      resolve: async (x, _a, ctx, info) => {
        const [chainId, number] = await Promise.all([
          quantity(x, ctx, 'eth_chainId'),
          headQuantity(x.node, ctx, info, 'eth_blockNumber'),
        ]);
        try {
          return await loadBlock(ctx, { chainId, blockId: number });
        } catch (e) {
          if (!isUpstreamStatus(e, 404)) throw e;
          // The node's head, not indexed yet: its header (DATA_API_INDEX_LAG_BLOCKS).
          const h = await (await ctx.loaders.evmState.endpoint(chainId)).header({ number });
          if (h.gasUsed === undefined || h.gasLimit === undefined) throw e;
          return headerBlock(
            {
              chainId,
              number: h.number,
              hash: h.hash,
              parentHash: h.parentHash,
              timestamp: Number(h.timestamp),
              gasUsed: h.gasUsed,
              gasLimit: h.gasLimit,
              baseFee: h.baseFeePerGas ?? null,
              txCount: h.transactions ?? null,
            },
            e,
          );
        }
      },
    }),
    ...quantities(t, {
      baseFee: ['eth_baseFee', 'Base fee of the next block, wei (eth_baseFee).'],
      maxPriorityFeePerGas: [
        'eth_maxPriorityFeePerGas',
        'Suggested priority fee (tip), wei (eth_maxPriorityFeePerGas).',
      ],
      gasPrice: ['eth_gasPrice', 'Suggested legacy gas price, wei (eth_gasPrice).'],
    }),
    chainConfig: t.field({
      type: EvmChainConfigRef,
      nullable: true,
      description:
        "The chain config: go-ethereum's forks and Avalanche's upgrades (eth_getChainConfig).",
      resolve: (x, _a, ctx) => nodeByName(ctx, x.node).read((c) => c.cChain.chainConfig()),
    }),
    isSyncing: t.boolean({
      nullable: true,
      description: 'eth_syncing: false once the node is in sync.',
      resolve: async (x, _a, ctx) =>
        (await nodeByName(ctx, x.node).read((c) => c.cChain.syncing())) !== null,
    }),
    syncProgress: t.field({
      type: EvmSyncProgressRef,
      nullable: true,
      description: 'Null when in sync.',
      resolve: (x, _a, ctx) => nodeByName(ctx, x.node).read((c) => c.cChain.syncing()),
    }),
    netVersion: t.string({
      nullable: true,
      description: 'net_version.',
      resolve: (x, _a, ctx) => nodeByName(ctx, x.node).read((c) => c.cChain.netVersion()),
    }),
    clientVersion: t.string({
      nullable: true,
      description: 'web3_clientVersion.',
      resolve: (x, _a, ctx) => nodeByName(ctx, x.node).read((c) => c.cChain.clientVersion()),
    }),
    ...addressState(
      t,
      'balance',
      'Native balance at the last accepted block, wei (eth_getBalance).',
    ),
    ...addressState(
      t,
      'transactionCount',
      'Nonce at the last accepted block (eth_getTransactionCount).',
    ),
    atomicTransaction: t.field({
      type: CChainAtomicTransactionRef,
      nullable: true,
      description: 'An atomic (import/export) transaction by id (avax.getAtomicTx).',
      args: { id: t.arg.string({ required: true, description: 'Atomic tx id (CB58).' }) },
      resolve: (x, args) => ({ node: x.node, txId: parseId(args.id, 'id', 'transaction id') }),
    }),
    atomicUtxos: utxoConnection(t, 'C', {
      description:
        'Atomic UTXOs exported to the C-Chain from sourceChain and owned by the addresses (avax.getUTXOs).',
      addresses: 'C-Chain bech32 addresses (C-avax1…; the C- may be omitted), one network.',
      sourceChain: 'The chain the UTXOs were exported from: an id or alias ("X", "P").',
      sourceRequired: true,
      page: 'A page of atomic UTXOs.',
      edge: 'An atomic UTXO and its cursor.',
    }),
    vmConfig: t.field({
      type: [VmConfigEntryRef],
      nullable: true,
      description:
        'The VM configuration (admin.getVMConfig on /ext/bc/C/admin). Needs the admin token; never cached.',
      resolve: (x, _a, ctx) => {
        requireAdmin(ctx.adminAuth);
        return nodeByName(ctx, x.node).call((c) => c.cChain.vmConfig());
      },
    }),
  }),
});

builder.objectFields(NetworkNodeRef, (t) => ({
  cChain: t.field({
    type: CChainRef,
    description: 'The C-Chain of this node.',
    resolve: (n) => ({ node: n.name }),
  }),
}));
