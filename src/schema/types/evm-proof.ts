import type { EvmProof } from '../../upstream/schemas/evm-state.js';
import { builder } from '../builder.js';

/** eth_getProof's answer (EIP-1186): an account and storage slots with their Merkle proofs. */
export const EvmStorageProofRef = builder
  .objectRef<EvmProof['storageProof'][number]>('EvmStorageProof')
  .implement({
    description:
      'A storage slot and its Merkle-Patricia proof against the account’s storage root (EIP-1186).',
    fields: (t) => ({
      key: t.exposeString('key', {
        description: 'The storage key asked for, as the node echoes it.',
      }),
      value: t.expose('value', { type: 'BigDecimal', description: 'The slot’s value, decimal.' }),
      proof: t.exposeStringList('proof', {
        description: 'RLP-encoded trie nodes from the storage root to the slot, 0x-hex.',
      }),
    }),
  });

export const EvmAccountProofRef = builder.objectRef<EvmProof>('EvmAccountProof').implement({
  description:
    'An account and storage proof (eth_getProof, EIP-1186), verifiable against the block’s state' +
    ' root.',
  fields: (t) => ({
    address: t.exposeString('address', { description: 'The account, lower-case hex.' }),
    balance: t.expose('balance', { type: 'BigDecimal', description: 'Balance in wei, decimal.' }),
    nonce: t.expose('nonce', { type: 'BigDecimal', description: 'Nonce, decimal.' }),
    codeHash: t.exposeString('codeHash', { description: 'Keccak-256 of the account’s code.' }),
    storageHash: t.exposeString('storageHash', { description: 'The account’s storage root.' }),
    accountProof: t.exposeStringList('accountProof', {
      description: 'RLP-encoded trie nodes from the state root to the account, 0x-hex.',
    }),
    storageProof: t.field({
      type: [EvmStorageProofRef],
      description: 'One proof per storage key asked for.',
      resolve: (p) => p.storageProof,
    }),
  }),
});
