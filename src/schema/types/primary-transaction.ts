import { PRIMARY_PAGE_SIZE } from '../../loaders/primary.js';
import type { PrimaryChainInfo } from '../../upstream/schemas/primary.js';
import { builder } from '../builder.js';
import { resolveTokenConnection } from '../connection.js';
import { badInput } from '../errors.js';
import { parseCb58Id, parsePrimaryAddresses, parseTimeRange } from '../primary-inputs.js';
import { NetworkRef, SortOrderEnum } from './network.js';
import { PrimaryChainEnum, PrimaryChainInfoRef } from './primary-balance.js';
import {
  PrimaryNetworkTxTypeEnum,
  type StakingTransaction,
  StakingTransactionRef,
} from './staking-transaction.js';

/**
 * The Data API's primary-network transaction routes (listLatestPrimaryNetworkTransactions, getTxByHash)
 * on `Network`: `transactions(blockchain, …)` and `transaction(blockchain, txHash)`, typed as the
 * `PrimaryNetworkTransaction` union. The P-Chain member is `StakingTransaction` (the spec's
 * PChainTransaction, which every P-Chain tx kind shares); X-Chain and C-Chain atomic members are not served
 * yet, and asking for them is refused before any upstream call.
 */
export const PrimaryNetworkTransactionRef = builder.unionType('PrimaryNetworkTransaction', {
  description:
    'A primary-network transaction, typed by the chain it is on (P-Chain: `StakingTransaction`).',
  types: [StakingTransactionRef],
  resolveType: () => 'StakingTransaction',
});

type Chain = 'p-chain' | 'x-chain' | 'c-chain';

/** Only the P-Chain is served so far: the X-Chain and C-Chain shapes are refused, never answered empty. */
function requirePChain(chain: Chain): void {
  if (chain !== 'p-chain') {
    throw badInput('blockchain', `Transactions of ${chain} are not served yet; only P_CHAIN is`);
  }
}

builder.objectFields(NetworkRef, (t) => ({
  transaction: t.field({
    type: PrimaryNetworkTransactionRef,
    nullable: true,
    description:
      'One primary-network transaction by hash (Data API getTxByHash). P_CHAIN only for now.',
    args: {
      blockchain: t.arg({
        type: PrimaryChainEnum,
        required: true,
        description: 'The chain the transaction is on.',
      }),
      txHash: t.arg.string({ required: true, description: 'Transaction hash (CB58).' }),
    },
    resolve: async (network, args, ctx) => {
      requirePChain(args.blockchain);
      const txHash = parseCb58Id(args.txHash, 'txHash', 'transaction hash');
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
        'newest first by default. P_CHAIN only for now. Forward paging only.',
      args: {
        blockchain: t.arg({
          type: PrimaryChainEnum,
          required: true,
          description: 'The chain to list.',
        }),
        addresses: t.arg.stringList({
          description: 'Only transactions of these P/X addresses (bech32 of this network).',
        }),
        l1ValidationId: t.arg.string({
          description: 'Only transactions of this L1 validation (CB58 id).',
        }),
        txTypes: t.arg({
          description: 'Only these transaction types; all when omitted.',
          type: [PrimaryNetworkTxTypeEnum],
        }),
        startTimestamp: t.arg.int({
          description: 'Only transactions after this Unix time (seconds, ≥ 0).',
        }),
        endTimestamp: t.arg.int({
          description: 'Only transactions before this Unix time (seconds, ≥ 0).',
        }),
        sortOrder: t.arg({
          type: SortOrderEnum,
          description: 'By block time. Default: newest first.',
        }),
      },
      resolve: (network, args, ctx) => {
        requirePChain(args.blockchain);
        const addresses = args.addresses
          ? parsePrimaryAddresses(args.addresses, network.name).sort()
          : undefined;
        const l1ValidationId =
          args.l1ValidationId == null
            ? undefined
            : parseCb58Id(args.l1ValidationId, 'l1ValidationId');
        const { startTimestamp, endTimestamp } = parseTimeRange(args);
        const txTypes = args.txTypes ? [...new Set(args.txTypes)].sort() : undefined;
        const filter = {
          addresses,
          l1ValidationId,
          txTypes,
          startTimestamp,
          endTimestamp,
          sortOrder: args.sortOrder ?? undefined,
        };
        let lastChainInfo: PrimaryChainInfo | null = null;
        return resolveTokenConnection<StakingTransaction>(args, ctx.connections, {
          listKey: `ptxs|${network.name}|${JSON.stringify(filter)}`,
          pageSize: PRIMARY_PAGE_SIZE.pChainTransactions,
          itemKey: (tx) => tx.txHash,
          fetchPage: async (pageToken) => {
            const page = await ctx.loaders.primary.pChainTxPage.load({
              network: network.name,
              pageToken,
              ...filter,
            });
            lastChainInfo = page.chainInfo;
            const items = page.items.map((tx) => ({
              ...tx,
              network: network.name,
              listChainInfo: page.chainInfo,
            }));
            return { items, nextPageToken: page.nextPageToken };
          },
        }).then((conn) => ({
          ...conn,
          chainInfo: conn.edges[0]?.node.listChainInfo ?? lastChainInfo,
        }));
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
