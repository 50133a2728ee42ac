import { isUpstreamStatus } from '../../upstream/errors.js';
import type { AddressChainIds, LastActivity } from '../../upstream/schemas/primary-net.js';
import { builder } from '../builder.js';
import { exposed } from '../expose.js';
import { addressSetDoc, parseAddressSet } from '../primary-inputs.js';
import { NetworkRef } from './network.js';
import { MAX_CHAIN_ID_ADDRESSES, MAX_UTXO_ADDRESSES } from './primary-address-utxos.js';
import { chainAddressSetArgs, PrimaryChainEnum } from './primary-asset.js';

/**
 * Where a set of P-Chain / X-Chain addresses has been active, on `Network`: its latest activity on one
 * chain and the chains each address has been seen on.
 */
const LastActivityRef = builder.objectRef<LastActivity>('AddressActivity').implement({
  description: 'The latest UTXO created or consumed for a set of addresses on one chain.',
  fields: (t) => ({
    ...exposed(t, {
      timestamp: ['Timestamp+Iso', 'When it happened, Unix seconds.'],
      blockNumber: ['BigDecimal', 'Height of the block it happened in (decimal string).'],
      txHash: ['String', 'The transaction that created or consumed the UTXO (CB58).'],
      utxoId: ['String', 'The UTXO created or consumed.'],
      isConsumed: [
        'Boolean',
        'True when the activity consumed the UTXO, false when it created it.',
      ],
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
    ...exposed(t, {
      address: ['String', 'The address, as the upstream echoes it.'],
      blockchainIds: ['[String]', 'CB58 ids of the chains it has UTXOs or activity on.'],
    }),
    chains: t.field({
      type: [PrimaryChainEnum],
      description: 'The same chains by name.',
      resolve: (a) => a.blockchainIds.map((id) => CHAIN_OF_ID[id]!),
    }),
  }),
});

builder.objectFields(NetworkRef, (t) => ({
  lastActivity: t.field({
    type: LastActivityRef,
    nullable: true,
    description:
      'The latest activity (a UTXO created or consumed) of a set of addresses on one chain ' +
      '(`getLastActivityTimestampByAddresses`, or its V2 POST for long lists); null when ' +
      'none of them has any activity there.',
    args: {
      ...chainAddressSetArgs(
        t.arg,
        MAX_UTXO_ADDRESSES,
        'Which chain: P_CHAIN, X_CHAIN or C_CHAIN.',
      ),
    },
    resolve: async (network, args, ctx) => {
      const addresses = parseAddressSet(args.addresses, network.name, MAX_UTXO_ADDRESSES);
      try {
        return await ctx.loaders.primaryNet.lastActivity.load({
          network: network.name,
          chain: args.blockchain,
          addresses,
        });
      } catch (e) {
        // The upstream answers 404 when none of the addresses has activity: that is the answer
        // "none".
        if (isUpstreamStatus(e, 404)) return null;
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
        description: addressSetDoc(MAX_CHAIN_ID_ADDRESSES),
      }),
    },
    resolve: (network, args, ctx) =>
      ctx.loaders.primaryNet.addressChainIds.load({
        network: network.name,
        addresses: parseAddressSet(args.addresses, network.name, MAX_CHAIN_ID_ADDRESSES),
      }),
  }),
}));
