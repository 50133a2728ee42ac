import type { PChainUtxo } from '../../upstream/schemas/primary-staking.js';
import { builder } from '../builder.js';
import { AssetAmountRef } from './primary-balance.js';

/** A P-Chain UTXO as a staking transaction consumed or emitted it. */
export const RewardTypeEnum = builder.enumType('RewardType', {
  values: ['VALIDATOR', 'DELEGATOR', 'VALIDATOR_FEE'] as const,
});

export const UtxoTypeEnum = builder.enumType('UtxoType', { values: ['STAKE', 'TRANSFER'] as const });

const ts = { type: 'Timestamp', nullable: true } as const;

export const PChainUtxoRef = builder.objectRef<PChainUtxo>('PChainUtxo').implement({
  description: 'An output of a P-Chain transaction: who can spend it, how much, and whether it is staked or locked.',
  fields: (t) => ({
    utxoId: t.exposeString('utxoId'),
    txHash: t.exposeString('txHash', { description: 'The transaction that created it.' }),
    outputIndex: t.exposeInt('outputIndex'),
    addresses: t.exposeStringList('addresses', { description: 'Addresses that may sign to consume it.' }),
    threshold: t.exposeInt('threshold', { nullable: true, description: 'Signatures needed to consume it.' }),
    asset: t.field({ type: AssetAmountRef, resolve: (u) => u.asset }),
    amount: t.expose('amount', { type: 'BigDecimal' }),
    assetId: t.exposeString('assetId'),
    utxoType: t.expose('utxoType', { type: UtxoTypeEnum }),
    staked: t.exposeBoolean('staked', { nullable: true }),
    rewardType: t.expose('rewardType', { type: RewardTypeEnum, nullable: true }),
    createdOnChainId: t.exposeString('createdOnChainId'),
    consumedOnChainId: t.exposeString('consumedOnChainId'),
    blockNumber: t.expose('blockNumber', { type: 'BigDecimal' }),
    blockTimestamp: t.expose('blockTimestamp', { type: 'Timestamp' }),
    consumingTxHash: t.exposeString('consumingTxHash', { nullable: true }),
    consumingBlockNumber: t.expose('consumingBlockNumber', { type: 'BigDecimal', nullable: true }),
    consumingBlockTimestamp: t.expose('consumingBlockTimestamp', ts),
    platformLocktime: t.expose('platformLocktime', { ...ts, description: 'Not consumable before this time.' }),
    stakeableLocktime: t.expose('stakeableLocktime', { ...ts, description: 'Before this time it may only be used for staking.' }),
    utxoStartTimestamp: t.expose('utxoStartTimestamp', { ...ts, description: 'When a staked output was locked.' }),
    utxoEndTimestamp: t.expose('utxoEndTimestamp', { ...ts, description: 'When a staked output unlocks.' }),
    utxoBytes: t.exposeString('utxoBytes', { nullable: true }),
  }),
});
