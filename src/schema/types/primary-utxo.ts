import type { IndexedUtxo } from '../../upstream/schemas/primary-net.js';
import { builder } from '../builder.js';
import { isoOf } from '../scalars.js';
import { PChainUtxoRef } from './p-chain-utxo.js';
import { AssetAmountRef } from './primary-asset.js';

/** A UTXO as the Data API indexes it: an X-Chain one or one in the C-Chain atomic memory, or a P-Chain one. */
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
