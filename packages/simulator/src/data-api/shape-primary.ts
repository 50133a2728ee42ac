import type {
  IcmMessage,
  L1ValidatorRecord,
  PrimaryNetworkInfo,
  PUtxo,
  StakingTx,
  ValidatorRecord,
  World,
} from '../world/index.js';

/** World records → the Data API's primary-network and ICM JSON shapes. */

const s = (v: bigint | number) => v.toString();

export function avaxAmount(net: PrimaryNetworkInfo, amount: bigint) {
  return {
    assetId: net.avaxAssetId,
    name: 'Avalanche',
    symbol: 'AVAX',
    denomination: 9,
    type: 'secp256k1' as const,
    amount: s(amount),
  };
}

export function utxoJson(net: PrimaryNetworkInfo, u: PUtxo) {
  return {
    addresses: [...u.addresses],
    asset: avaxAmount(net, u.amount),
    consumedOnChainId: u.consumedOnChainId,
    ...(u.consumingTxHash ? { consumingTxHash: u.consumingTxHash } : {}),
    createdOnChainId: u.createdOnChainId,
    utxoId: u.utxoId,
    amount: s(u.amount),
    assetId: u.assetId,
    blockNumber: s(u.blockNumber),
    blockTimestamp: u.blockTimestamp,
    ...(u.consumingBlockNumber !== undefined
      ? {
          consumingBlockNumber: s(u.consumingBlockNumber),
          consumingBlockTimestamp: u.consumingBlockTimestamp,
        }
      : {}),
    outputIndex: u.outputIndex,
    ...(u.rewardType ? { rewardType: u.rewardType } : {}),
    staked: u.staked,
    threshold: u.threshold,
    txHash: u.txHash,
    ...(u.utxoStartTimestamp !== undefined
      ? { utxoStartTimestamp: u.utxoStartTimestamp, utxoEndTimestamp: u.utxoEndTimestamp }
      : {}),
    utxoType: u.utxoType,
  };
}

export function stakingTxJson(net: PrimaryNetworkInfo, t: StakingTx) {
  const emitted = t.emittedUtxos.reduce((sum, u) => sum + u.amount, 0n);
  return {
    txHash: t.txHash,
    txType: t.txType,
    blockTimestamp: t.blockTimestamp,
    blockNumber: s(t.blockNumber),
    blockHash: t.blockHash,
    consumedUtxos: t.consumedUtxos.map((u) => utxoJson(net, u)),
    emittedUtxos: t.emittedUtxos.map((u) => utxoJson(net, u)),
    value: [avaxAmount(net, emitted)],
    amountBurned: [avaxAmount(net, t.amountBurned)],
    amountStaked: [avaxAmount(net, t.amountStaked)],
    amountL1ValidatorBalanceBurned: [],
    startTimestamp: t.startTimestamp,
    endTimestamp: t.endTimestamp,
    ...(t.delegationFeePercent ? { delegationFeePercent: t.delegationFeePercent } : {}),
    nodeId: t.nodeId,
    subnetId: t.subnetId,
    estimatedReward: s(t.estimatedReward),
    rewardAddresses: [...t.rewardAddresses],
    memo: t.memo,
    ...(t.bls ? { blsCredentials: { ...t.bls } } : {}),
  };
}

export function validatorJson(v: ValidatorRecord) {
  const base = {
    txHash: v.txHash,
    nodeId: v.nodeId,
    subnetId: v.subnetId,
    amountStaked: s(v.amountStaked),
    delegationFee: v.delegationFee,
    startTimestamp: v.startTimestamp,
    endTimestamp: v.endTimestamp,
    blsCredentials: { ...v.bls },
  };
  const rewards = {
    validationRewardAmount: s(v.validationRewardAmount),
    delegationRewardAmount: s(v.delegationRewardAmount),
    rewardAddresses: [...v.rewardAddresses],
  };
  switch (v.status) {
    case 'completed':
      return {
        ...base,
        delegatorCount: v.delegatorCount,
        amountDelegated: s(v.amountDelegated),
        rewards: { ...rewards, ...(v.rewardTxHash ? { rewardTxHash: v.rewardTxHash } : {}) },
        validationStatus: 'completed' as const,
      };
    case 'active':
      return {
        ...base,
        stakePercentage: v.stakePercentage,
        delegatorCount: v.delegatorCount,
        amountDelegated: s(v.amountDelegated),
        uptimePerformance: v.uptime,
        avalancheGoVersion: v.avalancheGoVersion,
        delegationCapacity: s(v.delegationCapacity),
        potentialRewards: rewards,
        validationStatus: 'active' as const,
        validatorHealth: { ...v.health },
        geolocation: { ...v.geolocation },
      };
    case 'pending':
      return { ...base, validationStatus: 'pending' as const };
    default:
      return {
        ...base,
        removeTxHash: v.removeTxHash ?? v.txHash,
        removeTimestamp: v.removeTimestamp ?? v.endTimestamp,
        validationStatus: 'removed' as const,
      };
  }
}

export function l1ValidatorJson(v: L1ValidatorRecord) {
  return {
    validationId: v.validationId,
    validationIdHex: v.validationIdHex,
    nodeId: v.nodeId,
    subnetId: v.subnetId,
    weight: v.weight,
    remainingBalance: v.remainingBalance,
    creationTimestamp: v.creationTimestamp,
    blsCredentials: { ...v.bls },
    remainingBalanceOwner: {
      addresses: [...v.remainingBalanceOwner.addresses],
      threshold: v.remainingBalanceOwner.threshold,
    },
    deactivationOwner: {
      addresses: [...v.deactivationOwner.addresses],
      threshold: v.deactivationOwner.threshold,
    },
  };
}

export function icmMessageJson(world: World, m: IcmMessage) {
  const token = world.addressBook.erc20.find(
    (t) => t.address.toLowerCase() === m.reward.token.toLowerCase(),
  );
  const rewardDetails = {
    address: m.reward.token,
    name: token?.name ?? '',
    symbol: token?.symbol ?? '',
    decimals: token?.decimals ?? 18,
    ...(token ? { logoUri: token.logoUri } : {}),
    ercType: 'ERC-20' as const,
    ...(token?.priceUsd !== undefined
      ? { price: { currencyCode: 'usd' as const, value: token.priceUsd } }
      : {}),
    value: s(m.reward.value),
  };
  const common = {
    messageId: m.messageId,
    icmContractAddress: m.icmContractAddress,
    sourceBlockchainId: m.sourceBlockchainId,
    destinationBlockchainId: m.destinationBlockchainId,
    sourceEvmChainId: m.sourceEvmChainId,
    destinationEvmChainId: m.destinationEvmChainId,
    messageNonce: m.messageNonce,
    from: m.from,
    to: m.to,
    data: m.data,
    messageExecuted: m.status !== 'pending',
    receipts: m.receipts.map((r) => ({ ...r })),
    receiptDelivered: m.receiptDelivered,
    rewardDetails,
  };
  const src = m.sourceTransaction && {
    txHash: m.sourceTransaction.txHash,
    timestamp: m.sourceTransaction.timestamp,
    gasSpent: s(m.sourceTransaction.gasSpent),
  };
  const dst = m.destinationTransaction && {
    ...m.destinationTransaction,
    gasSpent: s(m.destinationTransaction.gasSpent),
  };
  if (m.status === 'pending')
    return { ...common, sourceTransaction: src!, status: 'pending' as const };
  if (m.status === 'delivered')
    return {
      ...common,
      sourceTransaction: src!,
      destinationTransaction: dst!,
      status: 'delivered' as const,
    };
  return {
    ...common,
    destinationTransaction: dst!,
    status: 'delivered_source_not_indexed' as const,
  };
}
