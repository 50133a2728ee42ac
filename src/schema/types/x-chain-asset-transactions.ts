import { ATOMIC_TX_PAGE_SIZE } from '../../loaders/primary-txs.js';
import { builder } from '../builder.js';
import { pageTypes, resolveTokenConnection } from '../connection.js';
import { IndexedXChainTransactionRef, withNetwork, type XChainTx } from './atomic-transaction.js';
import { parseTxFilter, txFilterArgs } from './staking-transaction-parts.js';
import { AssetDetailsRef } from './x-chain-vertex.js';

/**
 * An X-Chain asset's transactions (Data API listAssetTransactions) on the asset itself, newest first,
 * with the route's filters. Its items are X-Chain transactions of either era (`IndexedXChainTransaction`).
 */
builder.objectFields(AssetDetailsRef, (t) => ({
  transactions: t.connection(
    {
      type: IndexedXChainTransactionRef,
      nullable: true,
      description:
        'The transactions that moved this asset, newest first (Data API listAssetTransactions). Forward paging only.',
      args: {
        ...txFilterArgs,
      },
      resolve: (asset, args, ctx) => {
        const { txTypes, startTimestamp, endTimestamp } = parseTxFilter(args);
        const filter = { txTypes, startTimestamp, endTimestamp };
        const { network, assetId } = asset;
        return resolveTokenConnection<XChainTx>(args, ctx.connections, {
          pages: ctx.loaders.primaryTxs.assetTxPage
            .list({
              network,
              assetId,
              ...filter,
            })
            .mapItems((tx) => withNetwork(tx, network)),
          pageSize: ATOMIC_TX_PAGE_SIZE,
          itemKey: (tx) => tx.txHash,
        });
      },
    },
    ...pageTypes('XChainAssetTransaction', 'an asset’s transactions', 'An asset transaction'),
  ),
}));
