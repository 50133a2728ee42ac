import { utxoPageSize } from '../../loaders/primary-net.js';
import type { UtxoFilter } from '../../upstream/data-api-primary-net.js';
import { UpstreamError } from '../../upstream/errors.js';
import type {
  AddressChainIds,
  IndexedUtxo,
  LastActivity,
} from '../../upstream/schemas/primary-net.js';
import type { PChainUtxo } from '../../upstream/schemas/primary-staking.js';
import { builder } from '../builder.js';
import { resolveTokenConnection } from '../connection.js';
import { badInput } from '../errors.js';
import { parseCb58Id, parsePrimaryAddresses } from '../primary-inputs.js';
import { isoOf } from '../scalars.js';
import { NetworkRef, SortOrderEnum } from './network.js';
import { PChainUtxoRef } from './p-chain-utxo.js';
import { AssetAmountRef, PrimaryChainEnum } from './primary-asset.js';

/**
 * UTXOs, last activity and chain ids of a set of P-Chain / X-Chain addresses, on `Network` (like
 * its `balances`: the question is about addresses of a network, not about one entity). Addresses
 * are checked, deduplicated and sorted before any call, so equal sets share cache entries; a list
 * too long for a URL goes upstream through the V2 POST routes (see
 * upstream/data-api-primary-net.ts).
 */
export const MAX_UTXO_ADDRESSES = 256;
/** The chain-ids route only has a GET: its addresses must fit a URL. */
export const MAX_CHAIN_ID_ADDRESSES = 64;

export const IndexedUtxoRef = builder.objectRef<IndexedUtxo>('PrimaryNetworkUtxo').implement({
  description: 'An X-Chain UTXO, or one in the C-Chain atomic memory, as the Data API indexes it.',
  fields: (t) => ({
    utxoId: t.exposeString('utxoId', { description: 'UTXO id (CB58).' }),
    creationTxHash: t.exposeString('creationTxHash', {
      description: 'The transaction that created it (CB58).',
    }),
    outputIndex: t.exposeString('outputIndex', {
      description: "Position of this output among its transaction's sorted outputs.",
    }),
    addresses: t.exposeStringList('addresses', {
      description: 'Addresses that may sign to consume it.',
    }),
    threshold: t.exposeInt('threshold', { description: 'Signatures needed to consume it.' }),
    asset: t.field({
      type: AssetAmountRef,
      description: 'The asset and amount held.',
      resolve: (u) => u.asset,
    }),
    utxoType: t.exposeString('utxoType', {
      description: 'Kind of output as the upstream names it (e.g. "transfer", "mint").',
    }),
    timestamp: t.expose('timestamp', {
      type: 'Timestamp',
      description: 'When it was created, Unix seconds.',
    }),
    timestampIso: t.string({
      description: '`timestamp` as an ISO 8601 UTC date-time.',
      resolve: (u) => isoOf(u.timestamp),
    }),
    locktime: t.expose('locktime', {
      type: 'Timestamp',
      description: 'Not consumable before this time (Unix seconds; 0: at once).',
    }),
    createdOnChainId: t.exposeString('createdOnChainId', {
      description: 'CB58 id of the chain it was created on.',
    }),
    consumedOnChainId: t.exposeString('consumedOnChainId', {
      description: 'CB58 id of the chain it is (or will be) consumed on.',
    }),
    consumingTxHash: t.exposeString('consumingTxHash', {
      nullable: true,
      description: 'The transaction that consumed it; null while unspent.',
    }),
    consumingTxTimestamp: t.expose('consumingTxTimestamp', {
      type: 'Timestamp',
      nullable: true,
      description: 'When it was consumed; null while unspent.',
    }),
    groupId: t.exposeInt('groupId', {
      nullable: true,
      description: 'NFT mint outputs: the minting set index; null otherwise.',
    }),
    payload: t.exposeString('payload', {
      nullable: true,
      description: 'NFT outputs: hex payload; null otherwise.',
    }),
    utxoBytes: t.exposeString('utxoBytes', {
      nullable: true,
      description: 'The serialized UTXO; null when the upstream omits it.',
    }),
  }),
});

export const AddressUtxoRef = builder.unionType('AddressUtxo', {
  description:
    'A UTXO of an address: P-Chain UTXOs carry staking details; X-Chain and C-Chain atomic ones ' +
    'do not.',
  types: [PChainUtxoRef, IndexedUtxoRef],
  // The two shapes of the route's oneOf: only the X/C one has `creationTxHash`.
  resolveType: (u) => ('creationTxHash' in u ? 'PrimaryNetworkUtxo' : 'PChainUtxo'),
});

const UtxoSortByEnum = builder.enumType('UtxoSortBy', {
  description: 'What a UTXO list is sorted by (with `sortOrder`).',
  values: {
    TIMESTAMP: { value: 'timestamp', description: 'Creation time.' },
    AMOUNT: { value: 'amount', description: 'Amount held.' },
  } as const,
});

const LastActivityRef = builder.objectRef<LastActivity>('AddressActivity').implement({
  description: 'The latest UTXO created or consumed for a set of addresses on one chain.',
  fields: (t) => ({
    timestamp: t.expose('timestamp', {
      type: 'Timestamp',
      description: 'When it happened, Unix seconds.',
    }),
    timestampIso: t.string({
      description: '`timestamp` as an ISO 8601 UTC date-time.',
      resolve: (a) => isoOf(a.timestamp),
    }),
    blockNumber: t.expose('blockNumber', {
      type: 'BigDecimal',
      description: 'Height of the block it happened in (decimal string).',
    }),
    txHash: t.exposeString('txHash', {
      description: 'The transaction that created or consumed the UTXO (CB58).',
    }),
    utxoId: t.exposeString('utxoId', { description: 'The UTXO created or consumed.' }),
    isConsumed: t.exposeBoolean('isConsumed', {
      description: 'True when the activity consumed the UTXO, false when it created it.',
    }),
    chain: t.field({
      type: PrimaryChainEnum,
      description: 'The chain it happened on.',
      resolve: (a) => a.chainName,
    }),
  }),
});

const CHAIN_OF_ID: Record<string, 'p-chain' | 'x-chain' | 'c-chain'> = {
  '11111111111111111111111111111111LpoYY': 'p-chain',
  '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM': 'x-chain',
  '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm': 'x-chain',
  '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5': 'c-chain',
  yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp: 'c-chain',
};

const AddressChainsRef = builder.objectRef<AddressChainIds>('AddressChainIds').implement({
  description: 'The primary-network chains an address has been seen on.',
  fields: (t) => ({
    address: t.exposeString('address', { description: 'The address, as the upstream echoes it.' }),
    blockchainIds: t.exposeStringList('blockchainIds', {
      description: 'CB58 ids of the chains it has UTXOs or activity on.',
    }),
    chains: t.field({
      type: [PrimaryChainEnum],
      description: 'The same chains by name.',
      resolve: (a) => a.blockchainIds.map((id) => CHAIN_OF_ID[id]!),
    }),
  }),
});

const addressesDoc = (max: number) =>
  `Bech32 addresses of this network (avax1… / fuji1…, optionally P- or X-), 1 to ${max}.`;

function addressesOf(
  values: readonly string[],
  network: 'mainnet' | 'fuji',
  max: number,
): string[] {
  if (values.length === 0) throw badInput('addresses', 'addresses must name at least one address');
  return parsePrimaryAddresses(values, network, 'addresses', max).sort();
}

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
        blockchain: t.arg({
          type: PrimaryChainEnum,
          required: true,
          description: 'Which chain: P_CHAIN, X_CHAIN or C_CHAIN (its atomic memory).',
        }),
        addresses: t.arg.stringList({
          required: true,
          description: addressesDoc(MAX_UTXO_ADDRESSES),
        }),
        assetId: t.arg.string({
          description: 'Only UTXOs of this asset (CB58). X-Chain only, as upstream.',
        }),
        minUtxoAmount: t.arg.string({
          description:
            'Only UTXOs holding at least this much (inclusive), in the smallest unit (nAVAX), a ' +
            'decimal integer.',
        }),
        includeSpent: t.arg.boolean({ description: 'Include spent UTXOs. Default false.' }),
        sortBy: t.arg({
          type: UtxoSortByEnum,
          description: 'Sort by creation time or amount. Default: creation time.',
        }),
        sortOrder: t.arg({
          type: SortOrderEnum,
          description: 'Ascending or descending. Default: the upstream’s.',
        }),
      },
      resolve: (network, args, ctx) => {
        const addresses = addressesOf(args.addresses, network.name, MAX_UTXO_ADDRESSES);
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
        const f = filter;
        const filters = [f.assetId, f.minUtxoAmount, f.includeSpent, f.sortBy, f.sortOrder];
        const list = [network.name, args.blockchain, addresses.join(','), ...filters];
        return resolveTokenConnection<PChainUtxo | IndexedUtxo>(args, ctx.connections, {
          listKey: `utxos|${list.map((x) => x ?? '').join('|')}`,
          pageSize: utxoPageSize(addresses),
          itemKey: (u) => u.utxoId,
          // A UTXO leaves the unspent list when spent: resuming continues after the cursor's UTXO
          // in the live list.
          mutableItems: true,
          fetchPage: (pageToken) =>
            ctx.loaders.primaryNet.utxosPage.load({
              network: network.name,
              chain: args.blockchain,
              addresses,
              pageToken,
              ...filter,
            }),
        });
      },
    },
    { description: 'A page of UTXOs.' },
    { description: 'A UTXO and its cursor.' },
  ),
  lastActivity: t.field({
    type: LastActivityRef,
    nullable: true,
    description:
      'The latest activity (a UTXO created or consumed) of a set of addresses on one chain ' +
      '(`getLastActivityTimestampByAddresses`, or its V2 POST for long lists); null when ' +
      'none of them has any activity there.',
    args: {
      blockchain: t.arg({
        type: PrimaryChainEnum,
        required: true,
        description: 'Which chain: P_CHAIN, X_CHAIN or C_CHAIN.',
      }),
      addresses: t.arg.stringList({
        required: true,
        description: addressesDoc(MAX_UTXO_ADDRESSES),
      }),
    },
    resolve: async (network, args, ctx) => {
      const addresses = addressesOf(args.addresses, network.name, MAX_UTXO_ADDRESSES);
      try {
        return await ctx.loaders.primaryNet.lastActivity.load({
          network: network.name,
          chain: args.blockchain,
          addresses,
        });
      } catch (e) {
        // The upstream answers 404 when none of the addresses has activity: that is the answer
        // "none".
        if (e instanceof UpstreamError && e.kind === 'status' && e.status === 404) return null;
        throw e;
      }
    },
  }),
  addressChainIds: t.field({
    type: [AddressChainsRef],
    nullable: true,
    description:
      'For each address, the primary-network chains it has been seen on ' +
      '(`getChainIdsForAddresses`).',
    args: {
      addresses: t.arg.stringList({
        required: true,
        description: addressesDoc(MAX_CHAIN_ID_ADDRESSES),
      }),
    },
    resolve: (network, args, ctx) =>
      ctx.loaders.primaryNet.addressChainIds.load({
        network: network.name,
        addresses: addressesOf(args.addresses, network.name, MAX_CHAIN_ID_ADDRESSES),
      }),
  }),
}));
