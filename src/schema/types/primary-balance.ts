import type {
  AggregatedAssetAmount,
  AssetAmount,
  CChainAtomicBalances,
  PChainBalances,
  PrimaryBalances,
  SharedAssetBalance,
  XChainBalances,
} from '../../upstream/schemas/primary.js';
import { builder } from '../builder.js';
import { badInput } from '../errors.js';
import { parsePrimaryAddresses, parseTimestampArg } from '../primary-inputs.js';
import { NetworkRef } from './network.js';

/**
 * Primary-network balances of a set of addresses on one chain. The real route answers a `oneOf` told apart
 * only by `chainInfo.chainName`: the graph has one type per chain kind (P-Chain buckets, X-Chain,
 * C-Chain atomic memory) behind the `PrimaryBalances` union. Not an entity (no id): it is a computed view.
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

export const AssetAmountRef = builder.objectRef<AssetAmount>('AssetAmount').implement({
  description:
    'An amount of a primary-network asset, in its smallest unit (nAVAX for AVAX: `denomination` 9).',
  fields: (t) => ({
    assetId: t.exposeString('assetId', {
      description:
        "CB58 id of the asset (AVAX's is `FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z` on mainnet).",
    }),
    name: t.exposeString('name', { description: 'Name of the asset (e.g. "Avalanche").' }),
    symbol: t.exposeString('symbol', {
      description: 'Symbol of the asset (at most 4 characters, e.g. "AVAX").',
    }),
    denomination: t.exposeInt('denomination', {
      description:
        'Decimals of the asset: divide `amount` by 10^denomination for whole units (9 for AVAX).',
    }),
    type: t.expose('type', {
      type: PrimaryAssetTypeEnum,
      description: 'Kind of asset: fungible (secp256k1) or NFT.',
    }),
    amount: t.expose('amount', {
      type: 'BigDecimal',
      description: "Amount in the asset's smallest unit (nAVAX for AVAX; decimal string).",
    }),
  }),
});

const AssetBalanceRef = builder.objectRef<AggregatedAssetAmount>('AssetBalance').implement({
  description: 'An asset amount summed over UTXOs.',
  fields: (t) => ({
    assetId: t.exposeString('assetId', {
      description:
        "CB58 id of the asset (AVAX's is `FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z` on mainnet).",
    }),
    name: t.exposeString('name', { description: 'Name of the asset (e.g. "Avalanche").' }),
    symbol: t.exposeString('symbol', {
      description: 'Symbol of the asset (at most 4 characters, e.g. "AVAX").',
    }),
    denomination: t.exposeInt('denomination', {
      description:
        'Decimals of the asset: divide `amount` by 10^denomination for whole units (9 for AVAX).',
    }),
    type: t.expose('type', {
      type: PrimaryAssetTypeEnum,
      description: 'Kind of asset: fungible (secp256k1) or NFT.',
    }),
    amount: t.expose('amount', {
      type: 'BigDecimal',
      description: "Amount in the asset's smallest unit (nAVAX for AVAX; decimal string).",
    }),
    utxoCount: t.exposeInt('utxoCount', { description: 'Number of UTXOs summed into `amount`.' }),
  }),
});

const SharedAssetBalanceRef = builder
  .objectRef<SharedAssetBalance>('SharedAssetBalance')
  .implement({
    description:
      'An asset amount in atomic (shared) memory: exported from or to `sharedWithChainId`, not yet imported.',
    fields: (t) => ({
      assetId: t.exposeString('assetId', {
        description:
          "CB58 id of the asset (AVAX's is `FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z` on mainnet).",
      }),
      name: t.exposeString('name', { description: 'Name of the asset (e.g. "Avalanche").' }),
      symbol: t.exposeString('symbol', {
        description: 'Symbol of the asset (at most 4 characters, e.g. "AVAX").',
      }),
      denomination: t.exposeInt('denomination', {
        description:
          'Decimals of the asset: divide `amount` by 10^denomination for whole units (9 for AVAX).',
      }),
      type: t.expose('type', {
        type: PrimaryAssetTypeEnum,
        description: 'Kind of asset: fungible (secp256k1) or NFT.',
      }),
      amount: t.expose('amount', {
        type: 'BigDecimal',
        description: "Amount in the asset's smallest unit (nAVAX for AVAX; decimal string).",
      }),
      utxoCount: t.exposeInt('utxoCount', { description: 'Number of UTXOs summed into `amount`.' }),
      sharedWithChainId: t.exposeString('sharedWithChainId', {
        description: 'CB58 id of the chain on the other side of the atomic memory.',
      }),
      status: t.exposeString('status', { nullable: true, description: 'P-Chain entries only.' }),
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

export const PChainBalancesRef = builder.objectRef<PChainBalances>('PChainBalances').implement({
  description:
    'P-Chain balances by bucket: locked/unlocked, staked/unstaked, pending, and atomic memory.',
  isTypeOf: (b) => (b as PrimaryBalances).chainInfo.chainName === 'p-chain',
  fields: (t) => ({
    chainInfo: t.field({
      type: PrimaryChainInfoRef,
      description: 'The chain and network these balances are for (the P-Chain).',
      resolve: (b) => b.chainInfo,
    }),
    unlockedUnstaked: t.field({
      type: [AssetBalanceRef],
      description: 'AVAX spendable now: neither locked nor staked.',
      resolve: (b) => b.balances.unlockedUnstaked,
    }),
    unlockedStaked: t.field({
      type: [AssetBalanceRef],
      description: 'Staked AVAX whose UTXOs are unlocked (spendable once the staking period ends).',
      resolve: (b) => b.balances.unlockedStaked,
    }),
    lockedPlatform: t.field({
      type: [AssetBalanceRef],
      description: 'Unstaked AVAX locked at platform level (by locktime) and not stakeable.',
      resolve: (b) => b.balances.lockedPlatform,
    }),
    lockedStakeable: t.field({
      type: [AssetBalanceRef],
      description: 'Unstaked AVAX locked at platform level but usable for staking.',
      resolve: (b) => b.balances.lockedStakeable,
    }),
    lockedStaked: t.field({
      type: [AssetBalanceRef],
      description:
        'Staked AVAX that stays locked after the staking period ends (its locktime is later).',
      resolve: (b) => b.balances.lockedStaked,
    }),
    pendingStaked: t.field({
      type: [AssetBalanceRef],
      description: 'Staked AVAX whose staking period has not started yet.',
      resolve: (b) => b.balances.pendingStaked,
    }),
    atomicMemoryUnlocked: t.field({
      type: [SharedAssetBalanceRef],
      description:
        'Unlocked AVAX in atomic memory between the P-Chain and another chain (exported, not yet imported).',
      resolve: (b) => b.balances.atomicMemoryUnlocked,
    }),
    atomicMemoryLocked: t.field({
      type: [SharedAssetBalanceRef],
      description: 'Locked AVAX in atomic memory between the P-Chain and another chain.',
      resolve: (b) => b.balances.atomicMemoryLocked,
    }),
  }),
});

export const XChainBalancesRef = builder.objectRef<XChainBalances>('XChainBalances').implement({
  description: 'X-Chain balances per asset, and atomic memory shared with the other chains.',
  isTypeOf: (b) => (b as PrimaryBalances).chainInfo.chainName === 'x-chain',
  fields: (t) => ({
    chainInfo: t.field({
      type: PrimaryChainInfoRef,
      description: 'The chain and network these balances are for (the X-Chain).',
      resolve: (b) => b.chainInfo,
    }),
    locked: t.field({
      type: [AssetBalanceRef],
      description: 'Assets locked by a locktime, per asset.',
      resolve: (b) => b.balances.locked,
    }),
    unlocked: t.field({
      type: [AssetBalanceRef],
      description: 'Spendable assets, per asset.',
      resolve: (b) => b.balances.unlocked,
    }),
    atomicMemoryUnlocked: t.field({
      type: [SharedAssetBalanceRef],
      description:
        'Unlocked assets in atomic memory with another chain (exported, not yet imported).',
      resolve: (b) => b.balances.atomicMemoryUnlocked,
    }),
    atomicMemoryLocked: t.field({
      type: [SharedAssetBalanceRef],
      description: 'Locked assets in atomic memory with another chain.',
      resolve: (b) => b.balances.atomicMemoryLocked,
    }),
  }),
});

export const CChainAtomicBalancesRef = builder
  .objectRef<CChainAtomicBalances>('CChainAtomicBalances')
  .implement({
    description: 'C-Chain atomic memory only; the EVM balance is `Address.nativeBalance`.',
    isTypeOf: (b) => (b as PrimaryBalances).chainInfo.chainName === 'c-chain',
    fields: (t) => ({
      chainInfo: t.field({
        type: PrimaryChainInfoRef,
        description: 'The chain and network these balances are for (the C-Chain).',
        resolve: (b) => b.chainInfo,
      }),
      atomicMemoryUnlocked: t.field({
        type: [SharedAssetBalanceRef],
        description:
          'Unlocked assets in atomic memory with another chain (exported, not yet imported).',
        resolve: (b) => b.balances.atomicMemoryUnlocked,
      }),
      atomicMemoryLocked: t.field({
        type: [SharedAssetBalanceRef],
        description: 'Locked assets in atomic memory with another chain.',
        resolve: (b) => b.balances.atomicMemoryLocked,
      }),
    }),
  });

export const PrimaryBalancesRef = builder.unionType('PrimaryBalances', {
  description: 'Balances of addresses on one primary-network chain, typed by chain kind.',
  types: [PChainBalancesRef, XChainBalancesRef, CChainAtomicBalancesRef],
  resolveType: (b) =>
    ({
      'p-chain': 'PChainBalances',
      'x-chain': 'XChainBalances',
      'c-chain': 'CChainAtomicBalances',
    })[b.chainInfo.chainName],
});

/** Largest address list one balances call takes (the upstream sends them in the query string). */
export const MAX_BALANCE_ADDRESSES = 64;

builder.objectFields(NetworkRef, (t) => ({
  balances: t.field({
    type: PrimaryBalancesRef,
    nullable: true,
    description:
      'Balances of P-Chain or X-Chain addresses on one chain (for the C-Chain, its atomic memory).',
    args: {
      blockchain: t.arg({
        type: PrimaryChainEnum,
        required: true,
        description: 'Which primary-network chain to read balances on.',
      }),
      addresses: t.arg.stringList({
        required: true,
        description: `Bech32 addresses of this network (avax1… / fuji1…, optionally P- or X-), 1 to ${MAX_BALANCE_ADDRESSES}.`,
      }),
      blockTimestamp: t.arg.int({
        description: 'Balances as of this Unix time (seconds, ≥ 0). Default: now.',
      }),
    },
    resolve: (network, args, ctx) => {
      if (args.addresses.length === 0)
        throw badInput('addresses', 'addresses must name at least one address');
      const addresses = parsePrimaryAddresses(
        args.addresses,
        network.name,
        'addresses',
        MAX_BALANCE_ADDRESSES,
      ).sort();
      const blockTimestamp = parseTimestampArg(args.blockTimestamp, 'blockTimestamp');
      return ctx.loaders.primary.balances.load({
        network: network.name,
        chain: args.blockchain,
        addresses,
        blockTimestamp,
      });
    },
  }),
}));
