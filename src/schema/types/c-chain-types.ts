import type { ChainConfig, SyncingResult, VmConfigEntry } from '../../upstream/schemas/node-evm.js';
import { builder } from '../builder.js';
import { exposed, refList } from '../expose.js';
import { isoOf } from '../scalars.js';
import { BlockRef } from './block.js';
import { nodeByName } from './network-node-inputs.js';

/** Object types of the C-Chain answers: chain config, sync progress, VM config, atomic transactions. */

const ForkRef = builder.objectRef<ChainConfig['forks'][number]>('EvmFork').implement({
  description:
    'A fork of the chain config, activated at a block number or at a time (null: not scheduled).',
  fields: (t) => ({
    ...exposed(t, {
      name: ['String', 'e.g. "london", "cancun", "durango", "apricotPhase3".'],
      key: [
        'String',
        'The config key as the node names it, e.g. "londonBlock", "durangoBlockTimestamp".',
      ],
      block: ['BigDecimal?', 'Activation block number (block-activated forks).'],
    }),
    timestamp: t.field({
      type: 'Timestamp',
      nullable: true,
      description: 'Activation time (time-activated forks).',
      resolve: (f) => (f.timestamp === null ? null : Number(f.timestamp)),
    }),
    timestampIso: t.string({
      nullable: true,
      description: '`timestamp` as an ISO 8601 UTC date-time; null for block-activated forks.',
      resolve: (f) => (f.timestamp === null ? null : isoOf(Number(f.timestamp))),
    }),
  }),
});

export const EvmChainConfigRef = builder.objectRef<ChainConfig>('EvmChainConfig').implement({
  description:
    "The EVM chain config (eth_getChainConfig): go-ethereum's forks and Avalanche's upgrades.",
  fields: (t) => ({
    ...exposed(t, {
      chainId: ['String', 'EVM chain id (decimal string, e.g. "43114").'],
      daoForkSupport: ['Boolean?', "go-ethereum's DAO fork flag; null when the config omits it."],
      forks: refList(ForkRef, 'Every fork key of the config, by key.'),
    }),
  }),
});

export const EvmSyncProgressRef = builder
  .objectRef<NonNullable<SyncingResult>>('EvmSyncProgress')
  .implement({
    description: 'Progress of a node still syncing the chain (eth_syncing).',
    fields: (t) =>
      exposed(t, {
        startingBlock: ['BigDecimal', 'Block the sync started at (decimal string).'],
        currentBlock: ['BigDecimal', 'Block the node has reached (decimal string).'],
        highestBlock: ['BigDecimal', 'Highest block the node knows of (decimal string).'],
      }),
  });

export const VmConfigEntryRef = builder.objectRef<VmConfigEntry>('VmConfigEntry').implement({
  description:
    'One setting of the C-Chain VM configuration; its value as JSON text (the node documents no fixed set of fields).',
  fields: (t) =>
    exposed(t, {
      key: ['String', 'Name of the setting.'],
      value: ['String', 'JSON text.'],
    }),
});

/**
 * A C-Chain atomic transaction (import/export with shared memory) on a configured node
 * (avax.getAtomicTx, avax.getAtomicTxStatus on `/ext/bc/C/avax` — the seed's `svc.`).
 */
export interface AtomicTxShape {
  node: string;
  txId: string;
}

export const CChainAtomicTransactionRef = builder
  .objectRef<AtomicTxShape>('CChainAtomicTransaction')
  .implement({
    description: 'An atomic (import or export) transaction of the C-Chain.',
    fields: (t) => ({
      txId: t.exposeString('txId', { description: 'Id (CB58) of the atomic transaction.' }),
      hex: t.string({
        nullable: true,
        description: "The signed tx in the node's hex encoding.",
        resolve: async (a, _x, ctx) =>
          (await nodeByName(ctx, a.node).read((c) => c.cChain.atomicTx(a.txId))).tx,
      }),
      blockHeight: t.field({
        type: 'BigDecimal',
        nullable: true,
        description: 'The C-Chain block that accepted it (null while processing).',
        resolve: async (a, _x, ctx) =>
          (await nodeByName(ctx, a.node).read((c) => c.cChain.atomicTx(a.txId))).blockHeight ??
          null,
      }),
      block: t.field({
        type: BlockRef,
        nullable: true,
        description: 'That block, from the Data API.',
        resolve: async (a, _x, ctx) => {
          const node = nodeByName(ctx, a.node);
          const [{ blockHeight }, chainId] = await Promise.all([
            node.read((c) => c.cChain.atomicTx(a.txId)),
            node.read((c) => c.cChain.quantity('eth_chainId')),
          ]);
          return blockHeight === undefined ? null : `${chainId}:${blockHeight}`;
        },
      }),
      status: t.string({
        nullable: true,
        description: 'Accepted, Processing, Dropped or Unknown (avax.getAtomicTxStatus).',
        resolve: async (a, _x, ctx) =>
          (await nodeByName(ctx, a.node).read((c) => c.cChain.atomicTxStatus(a.txId))).status,
      }),
    }),
  });
