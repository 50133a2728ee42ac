import { PRIMARY_PAGE_SIZE } from '../../loaders/primary.js';
import type { PrimaryChainInfo } from '../../upstream/schemas/primary.js';
import { builder } from '../builder.js';
import { resolveTokenConnection } from '../connection.js';
import { parsePrimaryAddresses, parseTimeRange } from '../primary-inputs.js';
import { NetworkRef, SortOrderEnum } from './network.js';
import { PrimaryChainInfoRef } from './primary-asset.js';
import { type StakingTransaction, StakingTransactionRef } from './staking-transaction.js';
import { PrimaryNetworkTxTypeEnum } from './staking-transaction-parts.js';

/** `Network.stakingTransactions`: the active staking transactions (`listActivePrimaryNetworkStakingTransactions`). */
builder.objectFields(NetworkRef, (t) => ({
  stakingTransactions: t.connection(
    {
      type: StakingTransactionRef,
      nullable: true,
      description:
        'Active P-Chain staking transactions (validations and delegations not yet ended). Forward paging only.',
      args: {
        addresses: t.arg.stringList({
          description:
            'Only transactions of these P/X addresses (bech32 of this network, optionally P- or X-).',
        }),
        txTypes: t.arg({
          description: 'Only these transaction types; all types when omitted.',
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
        const addresses = args.addresses
          ? parsePrimaryAddresses(args.addresses, network.name).sort()
          : undefined;
        const { startTimestamp, endTimestamp } = parseTimeRange(args);
        const txTypes = args.txTypes ? [...new Set(args.txTypes)].sort() : undefined;
        const filter = {
          addresses,
          txTypes,
          startTimestamp,
          endTimestamp,
          sortOrder: args.sortOrder ?? undefined,
        };
        let lastChainInfo: PrimaryChainInfo | null = null;
        return resolveTokenConnection<StakingTransaction>(args, ctx.connections, {
          pages: ctx.loaders.primary.stakingPage
            .list({
              network: network.name,
              ...filter,
            })
            .map((page) => {
              lastChainInfo = page.chainInfo;
              // Items carry their page's chain info so a page resumed from its snapshot still has it.
              return {
                items: page.items.map((tx) => ({
                  ...tx,
                  network: network.name,
                  listChainInfo: page.chainInfo,
                })),
                nextPageToken: page.nextPageToken,
              };
            }),
          pageSize: PRIMARY_PAGE_SIZE.stakingTransactions,
          itemKey: (tx) => tx.txHash,
          // Active stakes leave the list when they end: cursors resume in the live list.
          mutableItems: true,
        }).then((conn) => ({
          ...conn,
          chainInfo: conn.edges[0]?.node.listChainInfo ?? lastChainInfo,
        }));
      },
    },
    {
      description: 'A page of P-Chain staking transactions.',
      fields: (c) => ({
        chainInfo: c.field({
          type: PrimaryChainInfoRef,
          nullable: true,
          description: 'The chain the upstream listed (always the P-Chain) and its network name.',
          resolve: (conn) => (conn as { chainInfo?: PrimaryChainInfo | null }).chainInfo ?? null,
        }),
      }),
    },
    { description: 'A staking transaction and its cursor.' },
  ),
}));
