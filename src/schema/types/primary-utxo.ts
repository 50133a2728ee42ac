import type { IndexedUtxo } from '../../upstream/schemas/primary-net.js';
import { builder } from '../builder.js';
import { exposed, ref } from '../expose.js';
import { PChainUtxoRef } from './p-chain-utxo.js';
import { AssetAmountRef } from './primary-asset.js';

/** A UTXO as the Data API indexes it: an X-Chain one or one in the C-Chain atomic memory, or a P-Chain one. */
export const IndexedUtxoRef = builder.objectRef<IndexedUtxo>('PrimaryNetworkUtxo').implement({
  description: 'An X-Chain UTXO, or one in the C-Chain atomic memory, as the Data API indexes it.',
  fields: (t) =>
    exposed(t, {
      utxoId: ['String', 'UTXO id (CB58).'],
      creationTxHash: ['String', 'The transaction that created it (CB58).'],
      outputIndex: ['String', "Position of this output among its transaction's sorted outputs."],
      addresses: ['[String]', 'Addresses that may sign to consume it.'],
      threshold: ['Int', 'Signatures needed to consume it.'],
      asset: ref(AssetAmountRef, 'The asset and amount held.'),
      utxoType: ['String', 'Kind of output as the upstream names it (e.g. "transfer", "mint").'],
      timestamp: ['Timestamp+Iso', 'When it was created, Unix seconds.'],
      locktime: ['Timestamp', 'Not consumable before this time (Unix seconds; 0: at once).'],
      createdOnChainId: ['String', 'CB58 id of the chain it was created on.'],
      consumedOnChainId: ['String', 'CB58 id of the chain it is (or will be) consumed on.'],
      consumingTxHash: ['String?', 'The transaction that consumed it; null while unspent.'],
      consumingTxTimestamp: ['Timestamp?', 'When it was consumed; null while unspent.'],
      groupId: ['Int?', 'NFT mint outputs: the minting set index; null otherwise.'],
      payload: ['String?', 'NFT outputs: hex payload; null otherwise.'],
      utxoBytes: ['String?', 'The serialized UTXO; null when the upstream omits it.'],
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
