import { badInput } from '../../errors.js';
import { PRIMARY_PAGE_SIZE } from '../../loaders/primary.js';
import { ATOMIC_TX_PAGE_SIZE } from '../../loaders/primary-txs.js';
import type { PagedList } from '../../loaders/request-loader.js';
import type { PrimaryChainInfo } from '../../upstream/schemas/primary.js';
import { argTable } from '../arg-table.js';
import { builder } from '../builder.js';
import { resolveCarryingConnection } from '../page-value.js';
import { parseCb58Id, parsePrimaryAddresses } from '../primary-inputs.js';
import {
  type CChainAtomicTx,
  CChainExportTransactionRef,
  CChainImportTransactionRef,
  loadCChainTx,
  loadXChainTx,
  withNetwork,
  XChainLinearTransactionRef,
  XChainNonLinearTransactionRef,
  type XChainTx,
} from './atomic-transaction.js';
import { blockTimeOrderArgs, NetworkRef } from './network.js';
import { PrimaryChainEnum, PrimaryChainInfoRef } from './primary-balance.js';
import { type StakingTransaction, StakingTransactionRef } from './staking-transaction.js';
import { parseTxFilter, txFilterArgs } from './staking-transaction-parts.js';

/**
 * The Data API's primary-network transaction routes (listLatestPrimaryNetworkTransactions, getTxByHash)
 * on `Network`: `transactions(blockchain, …)` and `transaction(blockchain, txHash)`, typed as the
 * `PrimaryNetworkTransaction` union: the P-Chain member is `StakingTransaction` (the spec's
 * PChainTransaction, which every P-Chain tx kind shares); the X-Chain's are `XChainLinearTransaction` and
 * `XChainNonLinearTransaction`, the C-Chain's atomic ones `CChainExportTransaction` and
 * `CChainImportTransaction` (src/schema/types/atomic-transaction.ts).
 */
export const PrimaryNetworkTransactionRef = builder.unionType('PrimaryNetworkTransaction', {
  description:
    'A primary-network transaction, typed by the chain it is on and its shape (P-Chain: `StakingTransaction`; ' +
    'X-Chain: linear or DAG era; C-Chain: atomic export or import).',
  types: [
    StakingTransactionRef,
    XChainLinearTransactionRef,
    XChainNonLinearTransactionRef,
    CChainExportTransactionRef,
    CChainImportTransactionRef,
  ],
  // The members' shapes tell them apart as the spec's oneOf does (no discriminator property).
  resolveType: (tx) =>
    'vertices' in tx
      ? 'XChainNonLinearTransaction'
      : 'chainFormat' in tx
        ? 'XChainLinearTransaction'
        : 'evmInputs' in tx
          ? 'CChainExportTransaction'
          : 'evmOutputs' in tx
            ? 'CChainImportTransaction'
            : 'StakingTransaction',
});

type Chain = 'p-chain' | 'x-chain' | 'c-chain';
type AnyPrimaryTx = StakingTransaction | XChainTx | CChainAtomicTx;

builder.objectFields(NetworkRef, (t) => ({
  transaction: t.field({
    type: PrimaryNetworkTransactionRef,
    nullable: true,
    description:
      'One primary-network transaction by hash (Data API getTxByHash), typed by its chain and shape.',
    args: argTable(t.arg, {
      blockchain: [PrimaryChainEnum, 'The chain the transaction is on.', 'required'],
      txHash: ['String!', 'Transaction hash (CB58).'],
    }),
    resolve: async (network, args, ctx): Promise<AnyPrimaryTx> => {
      const txHash = parseCb58Id(args.txHash, 'txHash', 'transaction hash');
      const chain: Chain = args.blockchain;
      if (chain === 'x-chain') return loadXChainTx(network.name, txHash, ctx);
      if (chain === 'c-chain') return loadCChainTx(network.name, txHash, ctx);
      const tx = await ctx.loaders.primary.pChainTransaction.load({
        network: network.name,
        txHash,
      });
      return { ...tx, network: network.name } satisfies StakingTransaction;
    },
  }),
  transactions: t.connection(
    {
      type: PrimaryNetworkTransactionRef,
      nullable: true,
      description:
        'The latest transactions of one primary-network chain (Data API listLatestPrimaryNetworkTransactions), ' +
        'newest first by default: P-Chain, X-Chain, or the C-Chain atomic transactions. Forward paging only.',
      args: {
        ...argTable(t.arg, {
          blockchain: [PrimaryChainEnum, 'The chain to list.', 'required'],
          addresses: [
            '[String]',
            'Only transactions of these P/X/C addresses (bech32 of this network).',
          ],
          l1ValidationId: [
            'String',
            'Only transactions of this L1 validation (CB58 id; P_CHAIN only).',
          ],
        }),
        ...txFilterArgs,
        ...blockTimeOrderArgs,
      },
      resolve: (network, args, ctx) => {
        const chain: Chain = args.blockchain;
        if (chain !== 'p-chain' && args.l1ValidationId != null) {
          throw badInput('l1ValidationId', 'l1ValidationId filters P-Chain transactions only');
        }
        const addresses = args.addresses
          ? parsePrimaryAddresses(args.addresses, network.name).sort()
          : undefined;
        const l1ValidationId =
          args.l1ValidationId == null
            ? undefined
            : parseCb58Id(args.l1ValidationId, 'l1ValidationId');
        const { txTypes, startTimestamp, endTimestamp } = parseTxFilter(args);
        const filter = {
          addresses,
          l1ValidationId,
          txTypes,
          startTimestamp,
          endTimestamp,
          sortOrder: args.sortOrder ?? undefined,
        };
        const name = network.name;
        type ChainPage = {
          items: AnyPrimaryTx[];
          nextPageToken: string | null;
          chainInfo: PrimaryChainInfo;
        };
        const key = { network: name, ...filter };
        const pages: PagedList<AnyPrimaryTx, ChainPage> =
          chain === 'x-chain'
            ? ctx.loaders.primaryTxs.xChainTxPage.list(key).mapItems((tx) => withNetwork(tx, name))
            : chain === 'c-chain'
              ? ctx.loaders.primaryTxs.cChainTxPage
                  .list(key)
                  .mapItems((tx) => withNetwork(tx, name))
              : ctx.loaders.primary.pChainTxPage
                  .list(key)
                  .mapItems((tx) => ({ ...tx, network: name }));
        return resolveCarryingConnection(
          args,
          ctx.connections,
          { pages, key: 'listChainInfo', value: (page) => page.chainInfo, show: 'chainInfo' },
          {
            pageSize:
              chain === 'p-chain' ? PRIMARY_PAGE_SIZE.pChainTransactions : ATOMIC_TX_PAGE_SIZE,
            itemKey: (tx) => tx.txHash,
          },
        );
      },
    },
    {
      name: 'PrimaryNetworkTransactionConnection',
      description: 'A page of primary-network transactions.',
      fields: (c) => ({
        chainInfo: c.field({
          type: PrimaryChainInfoRef,
          nullable: true,
          description: 'The chain the upstream listed and its network name.',
          resolve: (conn) => (conn as { chainInfo?: PrimaryChainInfo | null }).chainInfo ?? null,
        }),
      }),
    },
    {
      name: 'PrimaryNetworkTransactionEdge',
      description: 'A primary-network transaction and its cursor.',
    },
  ),
}));
