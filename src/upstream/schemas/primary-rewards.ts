import { z } from 'zod';
import { money } from './evm.js';
import { assetAmount, decimal, float, int } from './primary.js';

/**
 * Contracts of the Data API's delegation, reward and network-details routes (listDelegators,
 * listPendingPrimaryNetworkRewards, listHistoricalPrimaryNetworkRewards, getNetworkDetails), from
 * the real spec. Delegations are a `oneOf` by `delegationStatus`, so the graph types each member.
 */
const pageToken = z.string().optional();

const delegatorBase = {
  txHash: z.string(),
  nodeId: z.string(),
  rewardAddresses: z.array(z.string()),
  amountDelegated: decimal,
  delegationFee: decimal,
  startTimestamp: int,
  endTimestamp: int,
};

export const completedDelegator = z.object({
  ...delegatorBase,
  grossReward: decimal,
  netReward: decimal,
  delegationStatus: z.literal('completed'),
});
/** A delegation not ended yet (under way or pending) carries its estimated rewards. */
const unended = <S extends 'active' | 'pending'>(status: S) =>
  z.object({
    ...delegatorBase,
    estimatedGrossReward: decimal,
    estimatedNetReward: decimal,
    delegationStatus: z.literal(status),
  });
export const activeDelegator = unended('active');
export const pendingDelegator = unended('pending');
export const delegatorDetails = z.discriminatedUnion('delegationStatus', [
  completedDelegator,
  activeDelegator,
  pendingDelegator,
]);
export type DelegatorDetails = z.infer<typeof delegatorDetails>;
export type DelegationStatus = DelegatorDetails['delegationStatus'];
export const listDelegatorsResponse = z.object({
  delegators: z.array(delegatorDetails),
  nextPageToken: pageToken,
});

export const REWARD_TYPES = ['VALIDATOR', 'DELEGATOR', 'VALIDATOR_FEE'] as const;
const rewardBase = {
  addresses: z.array(z.string()),
  txHash: z.string(),
  amountStaked: decimal,
  nodeId: z.string(),
  startTimestamp: int,
  endTimestamp: int,
  rewardType: z.enum(REWARD_TYPES),
};

export const pendingReward = z.object({
  ...rewardBase,
  progress: float,
  estimatedReward: assetAmount,
});
export type PendingRewardRaw = z.infer<typeof pendingReward>;
export const listPendingRewardsResponse = z.object({
  pendingRewards: z.array(pendingReward),
  nextPageToken: pageToken,
});

export const historicalReward = z.object({
  ...rewardBase,
  utxoId: z.string(),
  outputIndex: int,
  reward: assetAmount.extend({ historicalPrice: money.optional() }),
  rewardTxHash: z.string(),
});
export type HistoricalRewardRaw = z.infer<typeof historicalReward>;
export const listHistoricalRewardsResponse = z.object({
  historicalRewards: z.array(historicalReward),
  nextPageToken: pageToken,
});

export const networkDetails = z.object({
  validatorDetails: z.object({
    validatorCount: int,
    totalAmountStaked: decimal,
    estimatedAnnualStakingReward: decimal,
    stakingDistributionByVersion: z.array(
      z.object({ version: z.string(), amountStaked: decimal, validatorCount: int }),
    ),
    stakingRatio: decimal,
  }),
  delegatorDetails: z.object({ delegatorCount: int, totalAmountStaked: decimal }),
});
export type NetworkDetails = z.infer<typeof networkDetails>;
