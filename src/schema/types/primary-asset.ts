import type { ArgBuilder } from '@pothos/core';
import type {
  AggregatedAssetAmount,
  AssetAmount,
  PrimaryBalances,
  SharedAssetBalance,
} from '../../upstream/schemas/primary.js';
import { builder } from '../builder.js';
import type { GatewayTypes, ObjectFields } from '../builder-types.js';
import { exposed } from '../expose.js';
import { addressSetDoc } from '../primary-inputs.js';

/**
 * Primary-network assets and amounts of them (plain, summed over UTXOs, in atomic memory), and the chains
 * of the primary network they are held on.
 */
export const PrimaryAssetTypeEnum = builder.enumType('PrimaryAssetType', {
  description: 'Kind of a primary-network asset.',
  values: {
    SECP256K1: {
      value: 'secp256k1',
      description:
        'A fungible asset held by secp256k1 keys (AVAX and other fungible X-Chain assets).',
    },
    NFT: { value: 'nft', description: 'A non-fungible X-Chain asset.' },
  } as const,
});

export const PrimaryChainEnum = builder.enumType('PrimaryChain', {
  description: 'A chain of the primary network.',
  values: {
    P_CHAIN: {
      value: 'p-chain',
      description: 'The Platform Chain: staking, validators, subnets and L1s.',
    },
    X_CHAIN: { value: 'x-chain', description: 'The Exchange Chain: UTXO-based asset transfers.' },
    C_CHAIN: {
      value: 'c-chain',
      description:
        'The Contract Chain (EVM); here only its atomic memory, the EVM balance is `Address.nativeBalance`.',
    },
  } as const,
});

/** The fields every primary-network asset amount has (a plain amount, a UTXO sum, a shared one). */
function assetFields<T extends AssetAmount>(t: ObjectFields<T>) {
  return {
    assetId: t.string({
      description:
        "CB58 id of the asset (AVAX's is `FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z` on mainnet).",
      resolve: (a) => a.assetId,
    }),
    name: t.string({
      description: 'Name of the asset (e.g. "Avalanche").',
      resolve: (a) => a.name,
    }),
    symbol: t.string({
      description: 'Symbol of the asset (at most 4 characters, e.g. "AVAX").',
      resolve: (a) => a.symbol,
    }),
    denomination: t.int({
      description:
        'Decimals of the asset: divide `amount` by 10^denomination for whole units (9 for AVAX).',
      resolve: (a) => a.denomination,
    }),
    type: t.field({
      type: PrimaryAssetTypeEnum,
      description: 'Kind of asset: fungible (secp256k1) or NFT.',
      resolve: (a) => a.type,
    }),
    amount: t.field({
      type: 'BigDecimal',
      description: "Amount in the asset's smallest unit (nAVAX for AVAX; decimal string).",
      resolve: (a) => a.amount,
    }),
  };
}

/** The arguments of a question about a set of addresses on one primary-network chain. */
export const chainAddressSetArgs = (
  arg: ArgBuilder<GatewayTypes>,
  max: number,
  chains: string,
) => ({
  blockchain: arg({ type: PrimaryChainEnum, required: true, description: chains }),
  addresses: arg.stringList({ required: true, description: addressSetDoc(max) }),
});

export const AssetAmountRef = builder.objectRef<AssetAmount>('AssetAmount').implement({
  description:
    'An amount of a primary-network asset, in its smallest unit (nAVAX for AVAX: `denomination` 9).',
  fields: (t) => assetFields(t),
});

export const AssetBalanceRef = builder.objectRef<AggregatedAssetAmount>('AssetBalance').implement({
  description: 'An asset amount summed over UTXOs.',
  fields: (t) => ({
    ...assetFields(t),
    utxoCount: t.exposeInt('utxoCount', { description: 'Number of UTXOs summed into `amount`.' }),
  }),
});

export const SharedAssetBalanceRef = builder
  .objectRef<SharedAssetBalance>('SharedAssetBalance')
  .implement({
    description:
      'An asset amount in atomic (shared) memory: exported from or to `sharedWithChainId`, not yet imported.',
    fields: (t) => ({
      ...assetFields(t),
      ...exposed(t, {
        utxoCount: ['Int', 'Number of UTXOs summed into `amount`.'],
        sharedWithChainId: [
          'String',
          'CB58 id of the chain on the other side of the atomic memory.',
        ],
        status: ['String?', 'P-Chain entries only.'],
      }),
    }),
  });

export const PrimaryChainInfoRef = builder
  .objectRef<PrimaryBalances['chainInfo']>('PrimaryChainInfo')
  .implement({
    description: 'The primary-network chain a balance answer is for, and its network.',
    fields: (t) => ({
      chainName: t.expose('chainName', {
        type: PrimaryChainEnum,
        description: 'Which chain of the primary network.',
      }),
      network: t.exposeString('network', {
        description: 'As the upstream names it: mainnet, fuji or testnet.',
      }),
    }),
  });
