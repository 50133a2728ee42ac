import type { EvmBlock, NativeTransaction } from '../../upstream/schemas/evm.js';
import type { GatewayNetwork } from '../../upstream/schemas/primary.js';
import { builder } from '../builder.js';
import { pageTypes, resolveTokenConnection } from '../connection.js';
import { BlockRef } from './block.js';
import { TransactionStatusEnum } from './chain.js';
import { NetworkNameEnum } from './network.js';
import { TransactionRef } from './transaction.js';

/**
 * At the root, the newest blocks and transactions of every chain (`listLatestBlocksAllChains`,
 * `listLatestTransactionsAllChains`), which no single chain owns.
 */
const networkOf = (n: string | null | undefined) => (n ?? undefined) as GatewayNetwork | undefined;
const networkArg = { description: 'Only chains of this network; every network when omitted.' };

builder.queryFields((t) => ({
  latestBlocks: t.connection(
    {
      type: BlockRef,
      nullable: true,
      description:
        'The newest blocks of every EVM chain the Data API indexes, newest first ' +
        '(`listLatestBlocksAllChains`). Forward paging only.',
      args: { network: t.arg({ type: NetworkNameEnum, required: false, ...networkArg }) },
      resolve: (_root, args, ctx) => {
        const network = networkOf(args.network);
        return resolveTokenConnection<EvmBlock>(args, ctx.connections, {
          pages: ctx.loaders.tokens.latestBlocksPage.list({ network }).map((page) => {
            ctx.loaders.evm.primeBlocks(page.items);
            return page;
          }),
          pageSize: ctx.loaders.tokens.pageSizes.latestAllChains,
          itemKey: (b) => `${b.chainId}:${b.blockHash}`,
        });
      },
    },
    ...pageTypes('LatestBlock', 'the newest blocks across chains', 'A block'),
  ),
  latestTransactions: t.connection(
    {
      type: TransactionRef,
      nullable: true,
      description:
        'The newest transactions of every EVM chain the Data API indexes, newest first ' +
        '(`listLatestTransactionsAllChains`). Forward paging only.',
      args: {
        network: t.arg({ type: NetworkNameEnum, required: false, ...networkArg }),
        status: t.arg({
          type: TransactionStatusEnum,
          required: false,
          description: 'Only successful or only failed transactions; all when omitted.',
        }),
      },
      resolve: (_root, args, ctx) => {
        const network = networkOf(args.network);
        const status = args.status ?? undefined;
        return resolveTokenConnection<NativeTransaction>(args, ctx.connections, {
          pages: ctx.loaders.tokens.latestTransactionsPage.list({ network, status }),
          pageSize: ctx.loaders.tokens.pageSizes.latestAllChains,
          itemKey: (tx) => `${tx.chainId}:${tx.txHash}`,
        });
      },
    },
    {
      name: 'LatestTransactionConnection',
      description: 'A page of the newest transactions across chains.',
    },
    { name: 'LatestTransactionEdge', description: 'A transaction and its cursor.' },
  ),
}));
