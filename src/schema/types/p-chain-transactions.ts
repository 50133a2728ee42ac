import { PRIMARY_PAGE_SIZE } from '../../loaders/primary.js';
import { builder } from '../builder.js';
import { resolveTokenConnection } from '../connection.js';
import { badInput } from '../errors.js';
import { parseCb58Id, parsePrimaryAddresses, parseTimestampArg } from '../primary-inputs.js';
import { NetworkRef, SortOrderEnum } from './network.js';
import { PrimaryNetworkTxTypeEnum, StakingTransactionRef, type StakingTransaction } from './staking-transaction.js';

/**
 * `Network.pChainTransactions`: the Data API's `listLatestPrimaryNetworkTransactions` on the P-Chain
 * (every P-Chain transaction, not only active stakes), with every filter of the route. Items are the
 * same `StakingTransaction` nodes (the `PChainTransaction` shape) the staking list and `node(id)` give,
 * so each links to its validator. Arguments are checked before any upstream call.
 */
builder.objectFields(NetworkRef, (t) => ({
  pChainTransactions: t.connection(
    {
      type: StakingTransactionRef,
      nullable: true,
      description:
        'Every P-Chain transaction (Data API `listLatestPrimaryNetworkTransactions` on the P-Chain), ' +
        'newest first unless `sortOrder` says otherwise. Forward paging only.',
      args: {
        addresses: t.arg.stringList({ description: 'Only transactions of these P/X addresses (bech32 of this network, optionally P- or X-).' }),
        l1ValidationId: t.arg.string({ description: 'Only transactions concerning this L1 validation (CB58 validation id).' }),
        txTypes: t.arg({ description: 'Only these transaction types; all types when omitted.', type: [PrimaryNetworkTxTypeEnum] }),
        startTimestamp: t.arg.int({ description: 'Only transactions at or after this Unix time (seconds, ≥ 0).' }),
        endTimestamp: t.arg.int({ description: 'Only transactions at or before this Unix time (seconds, ≥ 0).' }),
        sortOrder: t.arg({ type: SortOrderEnum, description: 'By block time. Default: newest first.' }),
      },
      resolve: (network, args, ctx) => {
        const addresses = args.addresses ? parsePrimaryAddresses(args.addresses, network.name).sort() : undefined;
        const l1ValidationId = args.l1ValidationId == null ? undefined : parseCb58Id(args.l1ValidationId, 'l1ValidationId', 'validation id');
        const startTimestamp = parseTimestampArg(args.startTimestamp, 'startTimestamp');
        const endTimestamp = parseTimestampArg(args.endTimestamp, 'endTimestamp');
        if (startTimestamp !== undefined && endTimestamp !== undefined && startTimestamp > endTimestamp) {
          throw badInput('endTimestamp', 'endTimestamp must not be before startTimestamp');
        }
        const txTypes = args.txTypes ? [...new Set(args.txTypes)].sort() : undefined;
        const filter = { addresses, l1ValidationId, txTypes, startTimestamp, endTimestamp, sortOrder: args.sortOrder ?? undefined };
        return resolveTokenConnection<StakingTransaction>(args, ctx.connections, {
          listKey: `pChainTxs|${network.name}|${JSON.stringify(filter)}`,
          pageSize: PRIMARY_PAGE_SIZE.pChainTransactions,
          itemKey: (tx) => tx.txHash,
          // A transaction gains its reward tx hash when its stake ends: cursors resume in the live list.
          mutableItems: true,
          fetchPage: async (pageToken) => {
            const page = await ctx.loaders.primary.pChainTxPage.load({ network: network.name, pageToken, ...filter });
            return { items: page.items.map((tx) => ({ ...tx, network: network.name })), nextPageToken: page.nextPageToken };
          },
        });
      },
    },
    { description: 'A page of P-Chain transactions.' },
    { description: 'A P-Chain transaction and its cursor.' },
  ),
}));
