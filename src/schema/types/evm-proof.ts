import type { EvmProof } from '../../upstream/schemas/evm-state.js';
import { builder } from '../builder.js';
import { exposed, refList } from '../expose.js';

/** eth_getProof's answer (EIP-1186): an account and storage slots with their Merkle proofs. */
export const EvmStorageProofRef = builder
  .objectRef<EvmProof['storageProof'][number]>('EvmStorageProof')
  .implement({
    description:
      'A storage slot and its Merkle-Patricia proof against the account’s storage root (EIP-1186).',
    fields: (t) =>
      exposed(t, {
        key: ['String', 'The storage key asked for, as the node echoes it.'],
        value: ['BigDecimal', 'The slot’s value, decimal.'],
        proof: ['[String]', 'RLP-encoded trie nodes from the storage root to the slot, 0x-hex.'],
      }),
  });

export const EvmAccountProofRef = builder.objectRef<EvmProof>('EvmAccountProof').implement({
  description:
    'An account and storage proof (eth_getProof, EIP-1186), verifiable against the block’s state' +
    ' root.',
  fields: (t) => ({
    ...exposed(t, {
      address: ['String', 'The account, lower-case hex.'],
      balance: ['BigDecimal', 'Balance in wei, decimal.'],
      nonce: ['BigDecimal', 'Nonce, decimal.'],
      codeHash: ['String', 'Keccak-256 of the account’s code.'],
      storageHash: ['String', 'The account’s storage root.'],
      accountProof: [
        '[String]',
        'RLP-encoded trie nodes from the state root to the account, 0x-hex.',
      ],
      storageProof: refList(EvmStorageProofRef, 'One proof per storage key asked for.'),
    }),
  }),
});
