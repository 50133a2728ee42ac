import type { AggregatedAssetAmount, AssetAmount, CChainAtomicBalances, PChainBalances, PrimaryBalances, SharedAssetBalance, XChainBalances } from '../../upstream/schemas/primary.js';
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
  values: { SECP256K1: { value: 'secp256k1' }, NFT: { value: 'nft' } } as const,
});

export const PrimaryChainEnum = builder.enumType('PrimaryChain', {
  description: 'A chain of the primary network.',
  values: { P_CHAIN: { value: 'p-chain' }, X_CHAIN: { value: 'x-chain' }, C_CHAIN: { value: 'c-chain' } } as const,
});

export const AssetAmountRef = builder.objectRef<AssetAmount>('AssetAmount').implement({
  description: 'An amount of a primary-network asset, in its smallest unit (nAVAX for AVAX: `denomination` 9).',
  fields: (t) => ({
    assetId: t.exposeString('assetId'),
    name: t.exposeString('name'),
    symbol: t.exposeString('symbol'),
    denomination: t.exposeInt('denomination'),
    type: t.expose('type', { type: PrimaryAssetTypeEnum }),
    amount: t.expose('amount', { type: 'BigDecimal' }),
  }),
});

const AssetBalanceRef = builder.objectRef<AggregatedAssetAmount>('AssetBalance').implement({
  description: 'An asset amount summed over UTXOs.',
  fields: (t) => ({
    assetId: t.exposeString('assetId'),
    name: t.exposeString('name'),
    symbol: t.exposeString('symbol'),
    denomination: t.exposeInt('denomination'),
    type: t.expose('type', { type: PrimaryAssetTypeEnum }),
    amount: t.expose('amount', { type: 'BigDecimal' }),
    utxoCount: t.exposeInt('utxoCount'),
  }),
});

const SharedAssetBalanceRef = builder.objectRef<SharedAssetBalance>('SharedAssetBalance').implement({
  description: 'An asset amount in atomic (shared) memory: exported from or to `sharedWithChainId`, not yet imported.',
  fields: (t) => ({
    assetId: t.exposeString('assetId'),
    name: t.exposeString('name'),
    symbol: t.exposeString('symbol'),
    denomination: t.exposeInt('denomination'),
    type: t.expose('type', { type: PrimaryAssetTypeEnum }),
    amount: t.expose('amount', { type: 'BigDecimal' }),
    utxoCount: t.exposeInt('utxoCount'),
    sharedWithChainId: t.exposeString('sharedWithChainId'),
    status: t.exposeString('status', { nullable: true, description: 'P-Chain entries only.' }),
  }),
});

export const PrimaryChainInfoRef = builder.objectRef<PrimaryBalances['chainInfo']>('PrimaryChainInfo').implement({
  fields: (t) => ({
    chainName: t.expose('chainName', { type: PrimaryChainEnum }),
    network: t.exposeString('network', { description: 'As the upstream names it: mainnet, fuji or testnet.' }),
  }),
});

export const PChainBalancesRef = builder.objectRef<PChainBalances>('PChainBalances').implement({
  description: 'P-Chain balances by bucket: locked/unlocked, staked/unstaked, pending, and atomic memory.',
  isTypeOf: (b) => (b as PrimaryBalances).chainInfo.chainName === 'p-chain',
  fields: (t) => ({
    chainInfo: t.field({ type: PrimaryChainInfoRef, resolve: (b) => b.chainInfo }),
    unlockedUnstaked: t.field({ type: [AssetBalanceRef], resolve: (b) => b.balances.unlockedUnstaked }),
    unlockedStaked: t.field({ type: [AssetBalanceRef], resolve: (b) => b.balances.unlockedStaked }),
    lockedPlatform: t.field({ type: [AssetBalanceRef], resolve: (b) => b.balances.lockedPlatform }),
    lockedStakeable: t.field({ type: [AssetBalanceRef], resolve: (b) => b.balances.lockedStakeable }),
    lockedStaked: t.field({ type: [AssetBalanceRef], resolve: (b) => b.balances.lockedStaked }),
    pendingStaked: t.field({ type: [AssetBalanceRef], resolve: (b) => b.balances.pendingStaked }),
    atomicMemoryUnlocked: t.field({ type: [SharedAssetBalanceRef], resolve: (b) => b.balances.atomicMemoryUnlocked }),
    atomicMemoryLocked: t.field({ type: [SharedAssetBalanceRef], resolve: (b) => b.balances.atomicMemoryLocked }),
  }),
});

export const XChainBalancesRef = builder.objectRef<XChainBalances>('XChainBalances').implement({
  description: 'X-Chain balances per asset, and atomic memory shared with the other chains.',
  isTypeOf: (b) => (b as PrimaryBalances).chainInfo.chainName === 'x-chain',
  fields: (t) => ({
    chainInfo: t.field({ type: PrimaryChainInfoRef, resolve: (b) => b.chainInfo }),
    locked: t.field({ type: [AssetBalanceRef], resolve: (b) => b.balances.locked }),
    unlocked: t.field({ type: [AssetBalanceRef], resolve: (b) => b.balances.unlocked }),
    atomicMemoryUnlocked: t.field({ type: [SharedAssetBalanceRef], resolve: (b) => b.balances.atomicMemoryUnlocked }),
    atomicMemoryLocked: t.field({ type: [SharedAssetBalanceRef], resolve: (b) => b.balances.atomicMemoryLocked }),
  }),
});

export const CChainAtomicBalancesRef = builder.objectRef<CChainAtomicBalances>('CChainAtomicBalances').implement({
  description: 'C-Chain atomic memory only; the EVM balance is `Address.nativeBalance`.',
  isTypeOf: (b) => (b as PrimaryBalances).chainInfo.chainName === 'c-chain',
  fields: (t) => ({
    chainInfo: t.field({ type: PrimaryChainInfoRef, resolve: (b) => b.chainInfo }),
    atomicMemoryUnlocked: t.field({ type: [SharedAssetBalanceRef], resolve: (b) => b.balances.atomicMemoryUnlocked }),
    atomicMemoryLocked: t.field({ type: [SharedAssetBalanceRef], resolve: (b) => b.balances.atomicMemoryLocked }),
  }),
});

export const PrimaryBalancesRef = builder.unionType('PrimaryBalances', {
  description: 'Balances of addresses on one primary-network chain, typed by chain kind.',
  types: [PChainBalancesRef, XChainBalancesRef, CChainAtomicBalancesRef],
  resolveType: (b) => ({ 'p-chain': 'PChainBalances', 'x-chain': 'XChainBalances', 'c-chain': 'CChainAtomicBalances' })[b.chainInfo.chainName],
});

/** Largest address list one balances call takes (the upstream sends them in the query string). */
export const MAX_BALANCE_ADDRESSES = 64;

builder.objectFields(NetworkRef, (t) => ({
  balances: t.field({
    type: PrimaryBalancesRef,
    nullable: true,
    description: 'Balances of P-Chain or X-Chain addresses on one chain (for the C-Chain, its atomic memory).',
    args: {
      blockchain: t.arg({ type: PrimaryChainEnum, required: true }),
      addresses: t.arg.stringList({ required: true, description: `Bech32 addresses of this network (avax1… / fuji1…, optionally P- or X-), 1 to ${MAX_BALANCE_ADDRESSES}.` }),
      blockTimestamp: t.arg.int({ description: 'Balances as of this Unix time (seconds, ≥ 0). Default: now.' }),
    },
    resolve: (network, args, ctx) => {
      if (args.addresses.length === 0) throw badInput('addresses', 'addresses must name at least one address');
      const addresses = parsePrimaryAddresses(args.addresses, network.name, 'addresses', MAX_BALANCE_ADDRESSES).sort();
      const blockTimestamp = parseTimestampArg(args.blockTimestamp, 'blockTimestamp');
      return ctx.loaders.primary.balances.load({ network: network.name, chain: args.blockchain, addresses, blockTimestamp });
    },
  }),
}));
