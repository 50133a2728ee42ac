import { PRIMARY_PAGE_SIZE } from '../../loaders/primary.js';
import type { PrimaryChainInfo } from '../../upstream/schemas/primary.js';
import { builder } from '../builder.js';
import { resolveCarryingConnection } from '../page-value.js';
import { parsePrimaryAddresses } from '../primary-inputs.js';
import { blockTimeOrderArgs, NetworkRef } from './network.js';
import { PrimaryChainInfoRef } from './primary-asset.js';
import { StakingTransactionRef } from './staking-transaction.js';
import { parseTxFilter, txFilterArgs } from './staking-transaction-parts.js';

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
        ...txFilterArgs,
        ...blockTimeOrderArgs,
      },
      resolve: (network, args, ctx) => {
        const addresses = args.addresses
          ? parsePrimaryAddresses(args.addresses, network.name).sort()
          : undefined;
        const { txTypes, startTimestamp, endTimestamp } = parseTxFilter(args);
        const filter = {
          addresses,
          txTypes,
          startTimestamp,
          endTimestamp,
          sortOrder: args.sortOrder ?? undefined,
        };
        // Active stakes leave the list when they end: cursors resume in the live list.
        const pages = ctx.loaders.primary.stakingPage
          .list({ network: network.name, ...filter })
          .mapItems((tx) => ({ ...tx, network: network.name }));
        return resolveCarryingConnection(
          args,
          ctx.connections,
          { pages, key: 'listChainInfo', value: (page) => page.chainInfo, show: 'chainInfo' },
          {
            pageSize: PRIMARY_PAGE_SIZE.stakingTransactions,
            itemKey: (tx) => tx.txHash,
            mutableItems: true,
          },
        );
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
