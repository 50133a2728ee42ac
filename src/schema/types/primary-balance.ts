import type {
  CChainAtomicBalances,
  PChainBalances,
  PrimaryBalances,
  XChainBalances,
} from '../../upstream/schemas/primary.js';
import { builder } from '../builder.js';
import { addressSetDoc, parseAddressSet, parseTimestampArg } from '../primary-inputs.js';
import { NetworkRef } from './network.js';
import {
  AssetBalanceRef,
  PrimaryChainEnum,
  PrimaryChainInfoRef,
  SharedAssetBalanceRef,
} from './primary-asset.js';

/** Imported from here by the primary-transaction types. */
export { PrimaryChainEnum, PrimaryChainInfoRef } from './primary-asset.js';

/**
 * Primary-network balances of a set of addresses on one chain. The real route answers a `oneOf` told apart
 * only by `chainInfo.chainName`: the graph has one type per chain kind (P-Chain buckets, X-Chain,
 * C-Chain atomic memory) behind the `PrimaryBalances` union. Not an entity (no id): it is a computed view.
 */
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
        description: addressSetDoc(MAX_BALANCE_ADDRESSES),
      }),
      blockTimestamp: t.arg.int({
        description: 'Balances as of this Unix time (seconds, ≥ 0). Default: now.',
      }),
    },
    resolve: (network, args, ctx) => {
      const addresses = parseAddressSet(args.addresses, network.name, MAX_BALANCE_ADDRESSES);
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
