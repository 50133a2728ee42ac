import { AVAX_USD, type EvmChainData, type EvmTx } from '../world/index.js';
import type { Ctx } from './ctx.js';
import { badRequest, notFound } from './errors.js';
import { cmpNum, pageOf } from './paging.js';
import type { Route } from './router.js';
import { fullNativeTx, internalDetails, nativeTx, transferDetails } from './shape-evm.js';

/** One transaction in full, and the chain's latest transactions. */

/** The get-transaction answer of one transaction (also the deployment-transaction route's). */
export function transactionJson(ctx: Ctx, chain: EvmChainData, tx: EvmTx) {
  const token = chain.info.networkToken;
  const out: Record<string, unknown> = {};
  if (tx.erc20.length)
    out.erc20Transfers = tx.erc20.map((t) => transferDetails(chain, t, tx.timestamp));
  if (tx.erc721.length)
    out.erc721Transfers = tx.erc721.map((t) => transferDetails(chain, t, tx.timestamp));
  if (tx.erc1155.length)
    out.erc1155Transfers = tx.erc1155.map((t) => transferDetails(chain, t, tx.timestamp));
  if (tx.internals.length)
    out.internalTransactions = tx.internals.map((it) => internalDetails(chain, it));
  out.networkTokenDetails = {
    networkToken: { ...token },
    ...(token.symbol === 'AVAX'
      ? {
          currentPrice: { currencyCode: 'usd', value: ctx.world.market.avaxUsd },
          historicalPrice: { currencyCode: 'usd', value: AVAX_USD },
        }
      : {}),
  };
  out.nativeTransaction = fullNativeTx(chain, tx);
  if (tx.icm) {
    // The spec: destinationChainId only on source transactions, sourceChainId only on destination ones.
    const source = tx.icm.direction === 'SOURCE_TRANSACTION';
    out.teleporterMessageInfo = {
      teleporterMessageId: tx.icm.messageId,
      direction: tx.icm.direction,
      ...(source
        ? { destinationChainId: tx.icm.destinationChainId }
        : { sourceChainId: tx.icm.sourceChainId }),
    };
  }
  return out;
}

export const transactionRoutes: Route<Ctx>[] = [
  {
    method: 'GET',
    template: '/v1/chains/:chainId/transactions/:txHash',
    handler: (ctx) => {
      const chain = ctx.chain();
      const hash = ctx.params.txHash!;
      if (!/^0x[0-9a-fA-F]{64}$/.test(hash))
        throw badRequest('txHash must be a 0x-prefixed 32-byte transaction hash');
      const tx = chain.tx(hash);
      if (!tx) throw notFound(`Transaction ${hash} not found on chain ${chain.info.chainId}`);
      return transactionJson(ctx, chain, tx);
    },
  },
  {
    method: 'GET',
    template: '/v1/chains/:chainId/transactions',
    handler: (ctx) => {
      const chain = ctx.chain();
      const size = ctx.pageSize();
      const status = ctx.enumOf('status', ['failed', 'success'] as const);
      ctx.check();
      const want = status === undefined ? undefined : status === 'success' ? 1 : 0;
      const { page, next } = pageOf(chain.transactions, {
        desc: true,
        size,
        after: ctx.cursor<number>(['status']),
        key: (t) => t.seq,
        cmp: cmpNum,
        filter: want === undefined ? undefined : (t) => t.status === want,
      });
      return {
        ...ctx.nextPage(['status'], next),
        transactions: page.map((t) => nativeTx(chain, t)),
      };
    },
  },
];
