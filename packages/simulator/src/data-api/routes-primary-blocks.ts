import { cb58 } from '../world/encoding.js';
import type { PrimaryNetworkData, StakingTx } from '../world/index.js';
import type { Ctx } from './ctx.js';
import { notFound } from './errors.js';
import { cmpNum, lowerBound, pageOf } from './paging.js';
import type { Route } from './router.js';

/**
 * P-Chain blocks (listLatestPrimaryNetworkBlocks, getBlockById, listPrimaryNetworkBlocksByNodeId), derived
 * from the world's P-Chain transactions: each transaction's block (its hash, height and time), chained by
 * parent hash in time order, proposed by a validator picked from the height. Computed per request, so the
 * blocks follow the evolving world. X- and C-Chain ids answer 404 (no such history in the world).
 */
interface PBlock {
  tx: StakingTx;
  parentHash: string;
  proposerNodeId: string;
}

const P_ALIASES = ['11111111111111111111111111111111LpoYY', 'p-chain'];

function blocksOf(net: PrimaryNetworkData): PBlock[] {
  const txs = net.stakingTxs;
  const validators = net.validators;
  return txs.map((tx, i) => ({
    tx,
    parentHash: i === 0 ? cb58(new Uint8Array(32)) : txs[i - 1]!.blockHash,
    proposerNodeId: validators[tx.blockNumber % validators.length]!.nodeId,
  }));
}

function blockJson(b: PBlock) {
  const t = b.tx;
  return {
    blockNumber: String(t.blockNumber),
    blockHash: t.blockHash,
    parentHash: b.parentHash,
    blockTimestamp: t.blockTimestamp,
    blockType: 'BanffStandardBlock',
    txCount: 1,
    transactions: [t.txHash],
    blockSizeBytes: 350 + t.consumedUtxos.length * 120 + t.emittedUtxos.length * 90,
    proposerDetails: {
      proposerId: t.blockHash,
      proposerParentId: b.parentHash,
      proposerNodeId: b.proposerNodeId,
      proposerPChainHeight: t.blockNumber - 1,
      proposerTimestamp: t.blockTimestamp,
    },
  };
}

function pChainOnly(ctx: Ctx, net: PrimaryNetworkData): void {
  const id = ctx.params.blockchainId!;
  if (!P_ALIASES.includes(id) && id !== net.info.pChainId)
    throw notFound(`No block history for ${id}`);
}

function listBlocks(ctx: Ctx, nodeId?: string) {
  const net = ctx.network();
  const size = ctx.pageSize();
  const start = ctx.int('startTimestamp', { min: 0 });
  const end = ctx.int('endTimestamp', { min: 0 });
  ctx.check();
  pChainOnly(ctx, net);
  const blocks = blocksOf(net);
  const filters = ['startTimestamp', 'endTimestamp'];
  const lo = start === undefined ? 0 : lowerBound(blocks, (b) => b.tx.blockTimestamp >= start);
  const hi =
    end === undefined ? blocks.length : lowerBound(blocks, (b) => b.tx.blockTimestamp > end);
  const { page, next } = pageOf(
    blocks.map((_, i) => i),
    {
      lo,
      hi,
      desc: true,
      size,
      after: ctx.cursor<number>(filters),
      key: (i) => i,
      cmp: cmpNum,
      filter: (i) => nodeId === undefined || blocks[i]!.proposerNodeId === nodeId,
    },
  );
  const chainInfo = { chainName: 'p-chain' as const, network: net.info.name };
  return {
    ...ctx.nextPage(filters, next),
    blocks: page.map((i) => blockJson(blocks[i]!)),
    chainInfo,
  };
}

export const primaryBlockRoutes: Route<Ctx>[] = [
  {
    method: 'GET',
    template: '/v1/networks/:network/blockchains/:blockchainId/blocks',
    handler: (ctx) => listBlocks(ctx),
  },
  {
    method: 'GET',
    template: '/v1/networks/:network/blockchains/:blockchainId/nodes/:nodeId/blocks',
    handler: (ctx) => listBlocks(ctx, ctx.params.nodeId),
  },
  {
    method: 'GET',
    template: '/v1/networks/:network/blockchains/:blockchainId/blocks/:blockId',
    handler: (ctx) => {
      const net = ctx.network();
      ctx.check();
      pChainOnly(ctx, net);
      const b = blocksOf(net).find(
        (x) =>
          x.tx.blockHash === ctx.params.blockId || String(x.tx.blockNumber) === ctx.params.blockId,
      );
      if (!b) throw notFound(`Block ${ctx.params.blockId} not found`);
      return blockJson(b);
    },
  },
];
