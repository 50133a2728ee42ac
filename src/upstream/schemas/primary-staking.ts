import { z } from 'zod';
import { P_CHAIN_TX_TYPES } from '../../spec/data-api.js';
import {
  assetAmount,
  blsCredentials,
  decimal,
  int,
  int64,
  l1BlsCredentials,
  primaryChainInfo,
  uint64,
} from './primary.js';
import { genesisData } from './primary-genesis.js';

/**
 * P-Chain transactions as the staking list answers them (`ListPChainTransactionsResponse`), from the
 * real spec. Most fields are present only for some transaction types, hence optional.
 */
export const pChainTxType = z.enum(P_CHAIN_TX_TYPES);
export type PChainTxType = z.infer<typeof pChainTxType>;

export { PRIMARY_NETWORK_TX_TYPES, type PrimaryNetworkTxType } from '../../spec/data-api.js';

export const pChainUtxo = z.object({
  addresses: z.array(z.string()),
  asset: assetAmount,
  consumedOnChainId: z.string(),
  consumingTxHash: z.string().optional(),
  createdOnChainId: z.string(),
  utxoId: z.string(),
  utxoBytes: z.string().optional(),
  amount: decimal,
  assetId: z.string(),
  blockNumber: decimal,
  blockTimestamp: int,
  consumingBlockNumber: decimal.optional(),
  consumingBlockTimestamp: int.optional(),
  platformLocktime: int.optional(),
  outputIndex: int,
  rewardType: z.enum(['VALIDATOR', 'DELEGATOR', 'VALIDATOR_FEE']).optional(),
  stakeableLocktime: int.optional(),
  staked: z.boolean().optional(),
  threshold: int.optional(),
  txHash: z.string(),
  utxoEndTimestamp: int.optional(),
  utxoStartTimestamp: int.optional(),
  utxoType: z.enum(['STAKE', 'TRANSFER']),
});
export type PChainUtxo = z.infer<typeof pChainUtxo>;

export const l1ValidatorTxDetails = z.object({
  validationId: z.string(),
  validationIdHex: z.string(),
  nodeId: z.string(),
  subnetId: z.string(),
  weight: uint64,
  remainingBalance: uint64,
  balanceChange: int64.optional(),
  blsCredentials: l1BlsCredentials.optional(),
});
export type L1ValidatorTxDetails = z.infer<typeof l1ValidatorTxDetails>;

export const blockchainInfo = z.object({
  chainName: z.string(),
  vmId: z.string(),
  genesisData: genesisData.optional(),
});
export type BlockchainInfo = z.infer<typeof blockchainInfo>;

export const pChainTransaction = z.object({
  txHash: z.string(),
  txType: pChainTxType,
  blockTimestamp: int,
  blockNumber: decimal,
  blockHash: z.string(),
  consumedUtxos: z.array(pChainUtxo),
  emittedUtxos: z.array(pChainUtxo),
  sourceChain: z.string().optional(),
  destinationChain: z.string().optional(),
  value: z.array(assetAmount),
  amountBurned: z.array(assetAmount),
  amountStaked: z.array(assetAmount),
  amountL1ValidatorBalanceBurned: z.array(assetAmount),
  startTimestamp: int.optional(),
  endTimestamp: int.optional(),
  delegationFeePercent: decimal.optional(),
  nodeId: z.string().optional(),
  subnetId: z.string().optional(),
  l1ValidatorManagerDetails: z
    .object({ blockchainId: z.string(), contractAddress: z.string() })
    .optional(),
  l1ValidatorDetails: z.array(l1ValidatorTxDetails).optional(),
  estimatedReward: decimal.optional(),
  rewardTxHash: z.string().optional(),
  rewardAddresses: z.array(z.string()).optional(),
  memo: z.string().optional(),
  stakingTxHash: z.string().optional(),
  subnetOwnershipInfo: z
    .object({ locktime: int, threshold: int, addresses: z.array(z.string()) })
    .optional(),
  blsCredentials: blsCredentials.optional(),
  blockchainInfo: blockchainInfo.optional(),
});
export type PChainTransactionRaw = z.infer<typeof pChainTransaction>;

export const listStakingTransactionsResponse = z.object({
  transactions: z.array(pChainTransaction),
  chainInfo: primaryChainInfo,
  nextPageToken: z.string().optional(),
});
