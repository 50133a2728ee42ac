import type {
  AggregatedAssetAmount,
  CChainAtomicBalances,
  PChainBalances,
  PrimaryBalances,
  SharedAssetBalance,
  XChainBalances,
} from '../../upstream/schemas/primary.js';
import { builder } from '../builder.js';
import type { GatewayTypes, ObjectFields } from '../builder-types.js';
import { parseAddressSet, parseTimestampArg } from '../primary-inputs.js';
import { NetworkRef } from './network.js';
import {
  AssetBalanceRef,
  chainAddressSetArgs,
  PrimaryChainInfoRef,
  SharedAssetBalanceRef,
} from './primary-asset.js';

/** Imported from here by the primary-transaction types. */
export { PrimaryChainEnum, PrimaryChainInfoRef } from './primary-asset.js';

type AnyBalances = PChainBalances | XChainBalances | CChainAtomicBalances;

/**
 * The fields of one chain kind's balances: `chainInfo`, then one list per bucket of `balances`, each
 * described by `buckets` (in its order). The Data API names its atomic-memory buckets `atomicMemory…`,
 * and only those hold balances shared with another chain (`SharedAssetBalance`, with that chain).
 */
function balanceFields<B extends AnyBalances>(
  t: ObjectFields<B>,
  chain: string,
  buckets: Record<keyof B['balances'] & string, string>,
) {
  const fields: Record<string, PothosSchemaTypes.FieldRef<GatewayTypes, unknown, 'Object'>> = {
    chainInfo: t.field({
      type: PrimaryChainInfoRef,
      description: `The chain and network these balances are for (${chain}).`,
      resolve: (b) => b.chainInfo,
    }),
  };
  for (const [bucket, description] of Object.entries<string>(buckets)) {
    fields[bucket] = bucket.startsWith('atomicMemory')
      ? t.field({
          type: [SharedAssetBalanceRef],
          description,
          resolve: (b) => (b.balances as Record<string, SharedAssetBalance[]>)[bucket] ?? [],
        })
      : t.field({
          type: [AssetBalanceRef],
          description,
          resolve: (b) => (b.balances as Record<string, AggregatedAssetAmount[]>)[bucket] ?? [],
        });
  }
  return fields;
}

/**
 * Primary-network balances of a set of addresses on one chain. The real route answers a `oneOf` told apart
 * only by `chainInfo.chainName`: the graph has one type per chain kind (P-Chain buckets, X-Chain,
 * C-Chain atomic memory) behind the `PrimaryBalances` union. Not an entity (no id): it is a computed view.
 */
export const PChainBalancesRef = builder.objectRef<PChainBalances>('PChainBalances').implement({
  description:
    'P-Chain balances by bucket: locked/unlocked, staked/unstaked, pending, and atomic memory.',
  isTypeOf: (b) => (b as PrimaryBalances).chainInfo.chainName === 'p-chain',
  fields: (t) =>
    balanceFields(t, 'the P-Chain', {
      unlockedUnstaked: 'AVAX spendable now: neither locked nor staked.',
      unlockedStaked:
        'Staked AVAX whose UTXOs are unlocked (spendable once the staking period ends).',
      lockedPlatform: 'Unstaked AVAX locked at platform level (by locktime) and not stakeable.',
      lockedStakeable: 'Unstaked AVAX locked at platform level but usable for staking.',
      lockedStaked:
        'Staked AVAX that stays locked after the staking period ends (its locktime is later).',
      pendingStaked: 'Staked AVAX whose staking period has not started yet.',
      atomicMemoryUnlocked:
        'Unlocked AVAX in atomic memory between the P-Chain and another chain (exported, not yet imported).',
      atomicMemoryLocked: 'Locked AVAX in atomic memory between the P-Chain and another chain.',
    }),
});

export const XChainBalancesRef = builder.objectRef<XChainBalances>('XChainBalances').implement({
  description: 'X-Chain balances per asset, and atomic memory shared with the other chains.',
  isTypeOf: (b) => (b as PrimaryBalances).chainInfo.chainName === 'x-chain',
  fields: (t) =>
    balanceFields(t, 'the X-Chain', {
      locked: 'Assets locked by a locktime, per asset.',
      unlocked: 'Spendable assets, per asset.',
      atomicMemoryUnlocked:
        'Unlocked assets in atomic memory with another chain (exported, not yet imported).',
      atomicMemoryLocked: 'Locked assets in atomic memory with another chain.',
    }),
});

export const CChainAtomicBalancesRef = builder
  .objectRef<CChainAtomicBalances>('CChainAtomicBalances')
  .implement({
    description: 'C-Chain atomic memory only; the EVM balance is `Address.nativeBalance`.',
    isTypeOf: (b) => (b as PrimaryBalances).chainInfo.chainName === 'c-chain',
    fields: (t) =>
      balanceFields(t, 'the C-Chain', {
        atomicMemoryUnlocked:
          'Unlocked assets in atomic memory with another chain (exported, not yet imported).',
        atomicMemoryLocked: 'Locked assets in atomic memory with another chain.',
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
      ...chainAddressSetArgs(
        t.arg,
        MAX_BALANCE_ADDRESSES,
        'Which primary-network chain to read balances on.',
      ),
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
