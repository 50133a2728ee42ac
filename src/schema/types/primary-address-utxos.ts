import { badInput } from '../../errors.js';
import { utxoPageSize } from '../../loaders/primary-net.js';
import type { UtxoFilter } from '../../upstream/data-api-primary-net.js';
import type { IndexedUtxo } from '../../upstream/schemas/primary-net.js';
import type { PChainUtxo } from '../../upstream/schemas/primary-staking.js';
import { argTable } from '../arg-table.js';
import { builder } from '../builder.js';
import { pageDocs, resolveTokenConnection } from '../connection.js';
import { parseAddressSet, parseCb58Id } from '../primary-inputs.js';
import { NetworkRef, SortOrderEnum } from './network.js';
import { chainAddressSetArgs } from './primary-asset.js';
import { AddressUtxoRef } from './primary-utxo.js';

/**
 * UTXOs of a set of P-Chain / X-Chain addresses, on `Network` (like its `balances`: the question is about addresses of a network, not about one entity). Addresses
 * are checked, deduplicated and sorted before any call, so equal sets share cache entries; a list
 * too long for a URL goes upstream through the V2 POST routes (see
 * upstream/data-api-primary-net.ts).
 */
export const MAX_UTXO_ADDRESSES = 256;
/** The chain-ids route only has a GET: its addresses must fit a URL. */
export const MAX_CHAIN_ID_ADDRESSES = 64;

const UtxoSortByEnum = builder.enumType('UtxoSortBy', {
  description: 'What a UTXO list is sorted by (with `sortOrder`).',
  values: {
    TIMESTAMP: { value: 'timestamp', description: 'Creation time.' },
    AMOUNT: { value: 'amount', description: 'Amount held.' },
  } as const,
});

builder.objectFields(NetworkRef, (t) => ({
  utxos: t.connection(
    {
      type: AddressUtxoRef,
      nullable: true,
      description:
        'UTXOs of a set of addresses on one primary-network chain (`getUtxosByAddresses`; ' +
        'with more addresses than fit a URL, `getUtxosByAddressesV2`), unspent only unless ' +
        'includeSpent. Forward paging only (first/after).',
      args: {
        ...chainAddressSetArgs(
          t.arg,
          MAX_UTXO_ADDRESSES,
          'Which chain: P_CHAIN, X_CHAIN or C_CHAIN (its atomic memory).',
        ),
        ...argTable(t.arg, {
          assetId: ['String', 'Only UTXOs of this asset (CB58). X-Chain only, as upstream.'],
          minUtxoAmount: [
            'String',
            'Only UTXOs holding at least this much (inclusive), in the smallest unit (nAVAX), a ' +
              'decimal integer.',
          ],
          includeSpent: ['Boolean', 'Include spent UTXOs. Default false.'],
          sortBy: [UtxoSortByEnum, 'Sort by creation time or amount. Default: creation time.'],
          sortOrder: [SortOrderEnum, 'Ascending or descending. Default: the upstream’s.'],
        }),
      },
      resolve: (network, args, ctx) => {
        const addresses = parseAddressSet(args.addresses, network.name, MAX_UTXO_ADDRESSES);
        if (args.assetId != null && args.blockchain !== 'x-chain')
          throw badInput('assetId', 'assetId applies to the X-Chain only');
        const min = args.minUtxoAmount;
        if (min != null && !/^\d{1,30}$/.test(min))
          throw badInput(
            'minUtxoAmount',
            'minUtxoAmount must be a whole number of the smallest unit, 0 or more (decimal digits)',
          );
        const filter: UtxoFilter = {
          assetId:
            args.assetId == null ? undefined : parseCb58Id(args.assetId, 'assetId', 'asset id'),
          minUtxoAmount: min == null ? undefined : BigInt(min).toString(),
          includeSpent: args.includeSpent ?? undefined,
          sortBy: args.sortBy ?? undefined,
          sortOrder: args.sortOrder ?? undefined,
        };
        return resolveTokenConnection<PChainUtxo | IndexedUtxo>(args, ctx.connections, {
          pages: ctx.loaders.primaryNet.utxosPage.list({
            network: network.name,
            chain: args.blockchain,
            addresses,
            ...filter,
          }),
          pageSize: utxoPageSize(addresses),
          itemKey: (u) => u.utxoId,
          // A UTXO leaves the unspent list when spent: resuming continues after the cursor's UTXO
          // in the live list.
          mutableItems: true,
        });
      },
    },
    ...pageDocs('UTXOs', 'A UTXO'),
  ),
}));
