import type { GatewayContext } from '../../context.js';
import { badInput } from '../../errors.js';
import { PRIMARY_PAGE_SIZE } from '../../loaders/primary.js';
import type { GatewayNetwork } from '../../upstream/schemas/primary.js';
import type { PrimaryNetworkBlockRaw } from '../../upstream/schemas/primary-blocks.js';
import { argTable } from '../arg-table.js';
import { builder } from '../builder.js';
import { pageTypes, resolveTokenConnection } from '../connection.js';
import { exposed, ref, refOrNull } from '../expose.js';
import { inNetwork, loadOneInNetwork, type NetworkLoad } from '../node-load.js';
import { parseCb58Id, parseNodeId, parseTimeRange } from '../primary-inputs.js';
import { NetworkNameEnum, NetworkRef } from './network.js';
import { PrimaryChainEnum } from './primary-asset.js';
import { type StakingTransaction, StakingTransactionRef } from './staking-transaction.js';
import { ValidatorRef } from './validator.js';

/**
 * P-Chain blocks from the Data API (listLatestPrimaryNetworkBlocks, getBlockById,
 * listPrimaryNetworkBlocksByNodeId): `Network.blocks`, `Network.block` and `Validator.proposedBlocks`.
 * Global id: `PChainBlock:<network>:<block hash>`. Its `transactions` load each tx by hash.
 */
export type PChainBlock = PrimaryNetworkBlockRaw & { network: GatewayNetwork };

export const PChainBlockRef = builder.objectRef<PChainBlock>('PChainBlock');

type Proposer = NonNullable<PrimaryNetworkBlockRaw['proposerDetails']>;
const ProposerRef = builder.objectRef<Proposer>('PChainBlockProposer').implement({
  description: 'The Snowman++ proposer of a block (when the upstream knows it).',
  fields: (t) =>
    exposed(t, {
      proposerId: ['String?', 'Id of the proposer block.'],
      proposerParentId: ['String?', 'Its parent id.'],
      proposerNodeId: ['String?', 'Node id of the proposer.'],
      proposerPChainHeight: ['Float?', 'P-Chain height the proposer referenced.'],
      proposerTimestamp: ['Timestamp?', 'When the proposer built the block, Unix seconds.'],
    }),
});

const loadBlock: NetworkLoad<PChainBlock> = inNetwork((ctx, network, blockId) =>
  ctx.loaders.primary.pChainBlock.load({ network, blockId }),
);

builder.node(PChainBlockRef, {
  description: 'A P-Chain block: its height, parent, proposer and transactions.',
  id: { resolve: (b) => `${b.network}:${b.blockHash}` },
  loadOne: loadOneInNetwork('block id', loadBlock),
  fields: (t) => ({
    ...exposed(t, {
      network: ref(NetworkNameEnum, 'The primary network of this block.'),
      blockNumber: ['BigDecimal', 'Height (decimal string).'],
      blockHash: ['String', 'Block id (CB58).'],
      parentHash: ['String', "Parent block's id (CB58)."],
      blockTimestamp: ['Timestamp+Iso', 'Block time, Unix seconds.'],
      blockType: ['String', 'The block type, as the upstream names it.'],
      txCount: ['Int', 'Number of transactions in the block.'],
    }),
    txHashes: t.exposeStringList('transactions', {
      description: 'Hashes (CB58) of its transactions.',
    }),
    ...exposed(t, {
      blockSizeBytes: ['Int', 'Size of the block in bytes.'],
      currentSupply: ['String?', 'AVAX supply after it (nAVAX).'],
      proposerDetails: refOrNull(ProposerRef, 'Who proposed the block; null when unknown.'),
    }),
    transactions: t.field({
      type: [StakingTransactionRef],
      nullable: true,
      description: 'Its transactions, each loaded by hash (one call per transaction, cached).',
      resolve: (b, _args, ctx) =>
        Promise.all(
          b.transactions.map(async (txHash) => {
            const tx = await ctx.loaders.primary.pChainTransaction.load({
              network: b.network,
              txHash,
            });
            return { ...tx, network: b.network } satisfies StakingTransaction;
          }),
        ),
    }),
  }),
});

function parseRange(args: { startTimestamp?: number | null; endTimestamp?: number | null }) {
  const { startTimestamp, endTimestamp } = parseTimeRange(args);
  return { startTimestamp, endTimestamp };
}

function blocksConnection(
  network: GatewayNetwork,
  nodeId: string | null,
  args: {
    startTimestamp?: number | null;
    endTimestamp?: number | null;
    first?: number | null;
    after?: string | null;
  },
  ctx: GatewayContext,
) {
  const range = parseRange(args);
  return resolveTokenConnection<PChainBlock>(args, ctx.connections, {
    pages: ctx.loaders.primary.pChainBlocksPage
      .list({
        network,
        nodeId,
        ...range,
      })
      .mapItems((b) => ({ ...b, network })),
    pageSize: PRIMARY_PAGE_SIZE.pChainBlocks,
    itemKey: (b) => b.blockHash,
  });
}

/** The time range every block list takes. */
const TIME_RANGE = {
  startTimestamp: ['Int', 'Only blocks after this Unix time (seconds, ≥ 0).'],
  endTimestamp: ['Int', 'Only blocks before this Unix time (seconds, ≥ 0).'],
} as const;

const requirePChain = (chain: string) => {
  if (chain !== 'p-chain')
    throw badInput('blockchain', `Blocks of ${chain} are not served yet; only P_CHAIN is`);
};

builder.objectFields(NetworkRef, (t) => ({
  block: t.field({
    type: PChainBlockRef,
    nullable: true,
    description: 'One block by id (Data API getBlockById). P_CHAIN only for now.',
    args: argTable(t.arg, {
      blockchain: [PrimaryChainEnum, 'The chain of the block.', 'required'],
      blockId: ['String!', 'Block id (CB58).'],
    }),
    resolve: (network, args, ctx) => {
      requirePChain(args.blockchain);
      return loadBlock(ctx, network.name, parseCb58Id(args.blockId, 'blockId', 'block id'));
    },
  }),
  blocks: t.connection(
    {
      type: PChainBlockRef,
      nullable: true,
      description:
        'The latest blocks of a chain, newest first (Data API listLatestPrimaryNetworkBlocks). P_CHAIN only.',
      args: argTable(t.arg, {
        blockchain: [PrimaryChainEnum, 'The chain to list.', 'required'],
        ...TIME_RANGE,
      }),
      resolve: (network, args, ctx) => {
        requirePChain(args.blockchain);
        return blocksConnection(network.name, null, args, ctx);
      },
    },
    ...pageTypes('PChainBlock', 'P-Chain blocks', 'A P-Chain block'),
  ),
  blocksProposedBy: t.connection(
    {
      type: PChainBlockRef,
      nullable: true,
      description:
        'P-Chain blocks one node proposed, newest first (Data API listPrimaryNetworkBlocksByNodeId).',
      args: argTable(t.arg, { nodeId: ['String!', 'The proposer (`NodeID-…`).'], ...TIME_RANGE }),
      resolve: (network, args, ctx) =>
        blocksConnection(network.name, parseNodeId(args.nodeId, 'nodeId'), args, ctx),
    },
    ...pageTypes('PChainProposedBlock', 'blocks one node proposed', 'A proposed block'),
  ),
}));

builder.interfaceFields(ValidatorRef, (t) => ({
  proposedBlocks: t.connection(
    {
      type: PChainBlockRef,
      nullable: true,
      description:
        "P-Chain blocks this validator's node proposed, newest first (listPrimaryNetworkBlocksByNodeId).",
      args: argTable(t.arg, TIME_RANGE),
      resolve: (v, args, ctx) => blocksConnection(v.network, v.nodeId, args, ctx),
    },
    {
      name: 'ValidatorProposedBlockConnection',
      description: 'A page of blocks a validator proposed.',
    },
    { name: 'ValidatorProposedBlockEdge', description: 'A proposed block and its cursor.' },
  ),
}));
