import type { NetworkName, PrimaryNetworkInfo } from './types.js';

/** Primary-network records (P-Chain staking, validators, L1 validators, X-Chain, ICM). Amounts in nAVAX. */

export type ValidationStatus = 'active' | 'completed' | 'pending' | 'removed';

export interface BlsCredentials {
  publicKey: string;
  proofOfPossession: string;
}

/** One validation period of a node on the primary network. */
export interface ValidatorRecord {
  txHash: string;
  nodeId: string;
  subnetId: string;
  amountStaked: bigint;
  /** Percent as a decimal string, e.g. '2.0000'. */
  delegationFee: string;
  startTimestamp: number;
  endTimestamp: number;
  status: ValidationStatus;
  bls: BlsCredentials;
  delegatorCount: number;
  amountDelegated: bigint;
  rewardAddresses: string[];
  validationRewardAmount: bigint;
  delegationRewardAmount: bigint;
  /** Completed periods carry the reward tx. */
  rewardTxHash?: string;
  /** Uptime percent 0..100. */
  uptime: number;
  avalancheGoVersion: string;
  stakePercentage: number;
  delegationCapacity: bigint;
  ip: string;
  geolocation: {
    city: string;
    country: string;
    countryCode: string;
    latitude: number;
    longitude: number;
  };
  health: {
    reachabilityPercent: number;
    benchedPChainRequestsPercent: number;
    benchedXChainRequestsPercent: number;
    benchedCChainRequestsPercent: number;
  };
  removeTxHash?: string;
  removeTimestamp?: number;
}

export interface PUtxo {
  utxoId: string;
  txHash: string;
  outputIndex: number;
  /** bech32 addresses without chain prefix. */
  addresses: string[];
  amount: bigint;
  assetId: string;
  createdOnChainId: string;
  consumedOnChainId: string;
  blockNumber: number;
  blockTimestamp: number;
  consumingTxHash?: string;
  consumingBlockNumber?: number;
  consumingBlockTimestamp?: number;
  staked: boolean;
  utxoType: 'STAKE' | 'TRANSFER';
  threshold: number;
  utxoStartTimestamp?: number;
  utxoEndTimestamp?: number;
  rewardType?: 'VALIDATOR' | 'DELEGATOR' | 'VALIDATOR_FEE';
}

/** A P-Chain staking transaction (validator or delegator). */
export interface StakingTx {
  txHash: string;
  txType:
    | 'AddPermissionlessValidatorTx'
    | 'AddPermissionlessDelegatorTx'
    | 'AddValidatorTx'
    | 'AddDelegatorTx';
  blockNumber: number;
  blockHash: string;
  blockTimestamp: number;
  nodeId: string;
  subnetId: string;
  startTimestamp: number;
  endTimestamp: number;
  amountStaked: bigint;
  amountBurned: bigint;
  delegationFeePercent?: string;
  estimatedReward: bigint;
  rewardAddresses: string[];
  /** Owners of the consumed UTXOs (bech32, no prefix): what the `addresses` filter matches. */
  ownerAddresses: string[];
  consumedUtxos: PUtxo[];
  emittedUtxos: PUtxo[];
  bls?: BlsCredentials;
  memo: string;
}

export interface L1ValidatorRecord {
  validationId: string;
  validationIdHex: string;
  nodeId: string;
  subnetId: string;
  weight: number;
  remainingBalance: number;
  creationTimestamp: number;
  bls: BlsCredentials;
  remainingBalanceOwner: { addresses: string[]; threshold: number };
  deactivationOwner: { addresses: string[]; threshold: number };
  active: boolean;
}

export interface L1Info {
  subnetId: string;
  blockchainId: string;
  name: string;
  /** EVM chain id when the world indexes this L1's chain. */
  evmChainId?: string;
}

/** P-Chain balance of one address, split the way the Data API reports it. */
export interface PBalance {
  unlockedUnstaked: bigint;
  unlockedUnstakedUtxos: number;
  unlockedStaked: bigint;
  lockedPlatform: bigint;
  lockedStakeable: bigint;
  lockedStaked: bigint;
  pendingStaked: bigint;
  /** Shared memory with the X-Chain (exported to P, not yet imported). */
  atomicMemoryUnlocked: bigint;
}

export interface XAsset {
  assetId: string;
  /** The 32 id bytes as hex, for codec encoding. */
  assetIdHex: string;
  name: string;
  symbol: string;
  denomination: number;
}

/** An unspent X-Chain secp256k1 transfer output. */
export interface XUtxo {
  utxoId: string;
  txId: string;
  txIdHex: string;
  outputIndex: number;
  assetId: string;
  amount: bigint;
  locktime: number;
  threshold: number;
  /** bech32 addresses without the `X-` prefix. */
  addresses: string[];
  /** Raw 20-byte address hashes (hex), same order as `addresses`. */
  addressHex: string[];
  /** Avalanche codec bytes (hex, no 0x, no checksum) of the UTXO: what avm.getUTXOs encodes. */
  bytesHex: string;
  blockHeight: number;
}

export interface XTx {
  id: string;
  blockHeight: number;
  timestamp: number;
  /** Outputs this tx created (all still unspent). */
  utxoIds: string[];
  memo: string;
}

export interface XBlock {
  id: string;
  parentId: string;
  height: number;
  timestamp: number;
  txIds: string[];
}

export interface XChainData {
  assets: XAsset[];
  blocks: XBlock[];
  txs: XTx[];
  txById: Map<string, XTx>;
  blockById: Map<string, XBlock>;
  /** bech32 (no prefix) → its UTXOs, ascending by (block, tx, index): the node pages over this. */
  utxosByAddress: Map<string, XUtxo[]>;
  /** Addresses that own UTXOs, busiest first. */
  addresses: string[];
}

export type IcmStatus = 'pending' | 'delivered' | 'delivered_source_not_indexed';

export interface IcmMessage {
  /** Insertion order (stable tie-breaker). */
  seq: number;
  messageId: string;
  icmContractAddress: string;
  sourceBlockchainId: string;
  destinationBlockchainId: string;
  sourceEvmChainId: string;
  destinationEvmChainId: string;
  messageNonce: string;
  from: string;
  to: string;
  data: string;
  status: IcmStatus;
  receipts: { receivedMessageNonce: string; relayerRewardAddress: string }[];
  receiptDelivered: boolean;
  reward: { token: string; value: bigint };
  /** The world's source tx (absent for delivered_source_not_indexed). */
  sourceTransaction?: { chainId: string; txHash: string; timestamp: number; gasSpent: bigint };
  destinationTransaction?: {
    txHash: string;
    timestamp: number;
    gasSpent: bigint;
    rewardRedeemer: string;
    delivererAddress: string;
  };
  /** Timestamp the list sorts by (source tx, else destination tx). */
  timestamp: number;
  network: NetworkName;
}

export interface PrimaryNetworkData {
  info: PrimaryNetworkInfo;
  /** Every primary-network validation period, ascending by start time. */
  validators: ValidatorRecord[];
  validatorsByNode: Map<string, ValidatorRecord[]>;
  /** Staking txs, ascending by block timestamp. */
  stakingTxs: StakingTx[];
  l1s: L1Info[];
  /** L1 validators, ascending by creation time; `active` false = inactive. */
  l1Validators: L1ValidatorRecord[];
  /** P-Chain addresses (bech32, no prefix) that hold balances or own stakes. */
  pAddresses: string[];
  pBalances: Map<string, PBalance>;
  /** C-Chain shared-memory (atomic) balances by bech32 address. */
  cAtomicBalances: Map<string, bigint>;
  xChain: XChainData;
  /** Current P-Chain height (what the L1 validator list reports as blockHeight). */
  pChainHeight: number;
}
