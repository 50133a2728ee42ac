import type { EvmBlock, EvmChainData, EvmTx } from '../world/index.js';
import type { Ctx } from './ctx.js';
import { badRequest, notFound } from './errors.js';
import { cmpNum, pageOf } from './paging.js';
import type { Route } from './router.js';
import { blockJson, nativeTx } from './shape-evm.js';

/** Latest blocks, one block, a block's transactions. */

export function findBlock(chain: EvmChainData, blockId: string): EvmBlock {
  let block: EvmBlock | undefined;
  if (/^\d+$/.test(blockId)) block = chain.block(Number(blockId));
  else if (/^0x[0-9a-fA-F]{64}$/.test(blockId)) block = chain.block(blockId);
  else throw badRequest('blockId must be a block number or a 0x-prefixed 32-byte block hash');
  if (!block) throw notFound(`Block ${blockId} not found on chain ${chain.info.chainId}`);
  return block;
}

export const blockRoutes: Route<Ctx>[] = [
  {
    method: 'GET',
    template: '/v1/chains/:chainId/blocks',
    handler: (ctx) => {
      const chain = ctx.chain();
      const size = ctx.pageSize();
      ctx.check();
      // Newest first; the cursor is the last block number returned, so new head blocks never shift a walk.
      const { page, next } = pageOf(chain.blocks, {
        desc: true,
        size,
        after: ctx.cursor<number>([]),
        key: (b) => b.number,
        cmp: cmpNum,
      });
      return { ...ctx.nextPage([], next), blocks: page.map(blockJson) };
    },
  },
  {
    method: 'GET',
    template: '/v1/chains/:chainId/blocks/:blockId',
    handler: (ctx) => blockJson(findBlock(ctx.chain(), ctx.params.blockId!)),
  },
  {
    method: 'GET',
    template: '/v1/chains/:chainId/blocks/:blockId/transactions',
    handler: (ctx) => {
      const chain = ctx.chain();
      // pageSize here is 0..100 with default 0. Our reading of the real API: 0 means "no paging",
      // the whole block in one answer (what this route returned before it gained pageToken and
      // pageSize); 1..100 pages through the block in block order with page tokens.
      const size = ctx.pageSize(0, 100, 0);
      ctx.check();
      const block = findBlock(chain, ctx.params.blockId!);
      const txs = chain.blockTxs(block);
      if (size === 0) return { transactions: txs.map((t) => nativeTx(chain, t)) };
      const { page, next } = pageOf<EvmTx, number>(txs, {
        desc: false,
        size,
        after: ctx.cursor<number>([]),
        key: (t) => t.blockIndex,
        cmp: cmpNum,
      });
      return { ...ctx.nextPage([], next), transactions: page.map((t) => nativeTx(chain, t)) };
    },
  },
];
