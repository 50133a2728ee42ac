import type { PChainUtxo } from '../../upstream/schemas/primary-staking.js';
import { builder } from '../builder.js';
import { exposed, ref, refOrNull } from '../expose.js';
import { AssetAmountRef } from './primary-asset.js';

/** A P-Chain UTXO as a staking transaction consumed or emitted it. */
export const RewardTypeEnum = builder.enumType('RewardType', {
  description: 'What a reward UTXO pays for.',
  values: {
    VALIDATOR: { description: 'Reward for validating.' },
    DELEGATOR: { description: 'Reward for delegating.' },
    VALIDATOR_FEE: { description: 'Delegation fee paid to the validator.' },
  } as const,
});

export const UtxoTypeEnum = builder.enumType('UtxoType', {
  description: 'Whether a P-Chain UTXO is locked as stake or spendable.',
  values: {
    STAKE: { description: 'Locked as stake until the staking period ends.' },
    TRANSFER: { description: 'A spendable output.' },
  } as const,
});

const ts = { type: 'Timestamp', nullable: true } as const;

export const PChainUtxoRef = builder.objectRef<PChainUtxo>('PChainUtxo').implement({
  description:
    'An output of a P-Chain transaction: who can spend it, how much, and whether it is staked or locked.',
  fields: (t) => ({
    ...exposed(t, {
      utxoId: ['String', 'UTXO id (CB58).'],
      txHash: ['String', 'The transaction that created it.'],
      outputIndex: ['Int', "Position of this output among the transaction's outputs."],
      addresses: ['[String]', 'Addresses that may sign to consume it.'],
      threshold: ['Int?', 'Signatures needed to consume it.'],
      asset: ref(AssetAmountRef, 'The asset and amount held (AVAX in nAVAX).'),
      amount: [
        'BigDecimal',
        "Amount held, in the asset's smallest unit (nAVAX for AVAX; decimal string).",
      ],
      assetId: ['String', 'CB58 id of the asset held.'],
      utxoType: ref(
        UtxoTypeEnum,
        'STAKE for a staked (locked) output, TRANSFER for a spendable one.',
      ),
    }),
    staked: t.exposeBoolean('staked', {
      nullable: true,
      description: 'True when the output is staked; null when the upstream does not say.',
    }),
    ...exposed(t, {
      rewardType: refOrNull(
        RewardTypeEnum,
        'For a reward output: what the reward is for; null otherwise.',
      ),
      createdOnChainId: ['String', 'CB58 id of the chain on which the output was created.'],
      consumedOnChainId: ['String', 'CB58 id of the chain on which it is (or will be) consumed.'],
      blockNumber: [
        'BigDecimal',
        'Height of the P-Chain block that created the output (decimal string).',
      ],
      blockTimestamp: ['Timestamp', 'When that block was proposed, Unix seconds.'],
      consumingTxHash: [
        'String?',
        'Hash (CB58) of the transaction that consumed the output; null while unspent.',
      ],
      consumingBlockNumber: [
        'BigDecimal?',
        'Height of the block that consumed it (decimal string); null while unspent.',
      ],
    }),
    consumingBlockTimestamp: t.expose('consumingBlockTimestamp', {
      ...ts,
      description: 'When it was consumed, Unix seconds; null while unspent.',
    }),
    platformLocktime: t.expose('platformLocktime', {
      ...ts,
      description: 'Not consumable before this time.',
    }),
    stakeableLocktime: t.expose('stakeableLocktime', {
      ...ts,
      description: 'Before this time it may only be used for staking.',
    }),
    utxoStartTimestamp: t.expose('utxoStartTimestamp', {
      ...ts,
      description: 'When a staked output was locked.',
    }),
    utxoEndTimestamp: t.expose('utxoEndTimestamp', {
      ...ts,
      description: 'When a staked output unlocks.',
    }),
    utxoBytes: t.exposeString('utxoBytes', {
      nullable: true,
      description: 'The serialized UTXO, hex; null when the upstream omits it.',
    }),
  }),
});
