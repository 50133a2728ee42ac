import { cb58 } from './encoding.js';
import type { Rng } from './prng.js';
import type { PrimaryNetworkInfo } from './types.js';
import type { PUtxo, StakingTx, ValidatorRecord } from './types-primary.js';

/**
 * P-Chain staking transactions: one per validation period (same tx hash as the validator record)
 * and one per delegation. `owners[0]` (the network's busy P address) funds a large share of them.
 */

const NANO = 1_000_000_000n;
const P_GENESIS = 1_600_000_000;

/** P-Chain height at a time: roughly one block every 3 s since a fixed origin. */
export const pHeightAt = (t: number): number => 2_000_000 + Math.floor((t - P_GENESIS) / 3);

function utxo(
  rng: Rng,
  net: PrimaryNetworkInfo,
  o: Partial<PUtxo> &
    Pick<PUtxo, 'txHash' | 'outputIndex' | 'addresses' | 'amount' | 'blockTimestamp'>,
): PUtxo {
  return {
    utxoId: cb58(rng.bytes(32)),
    assetId: net.avaxAssetId,
    createdOnChainId: net.pChainId,
    consumedOnChainId: net.pChainId,
    blockNumber: pHeightAt(o.blockTimestamp),
    staked: false,
    utxoType: 'TRANSFER',
    threshold: 1,
    ...o,
  };
}

function stakingTx(
  rng: Rng,
  net: PrimaryNetworkInfo,
  owners: string[],
  o: {
    txHash: string;
    txType: StakingTx['txType'];
    nodeId: string;
    subnetId: string;
    start: number;
    end: number;
    amount: bigint;
    fee?: string;
    rewardAddress: string;
    bls?: ValidatorRecord['bls'];
  },
): StakingTx {
  const owner = rng.chance(0.3) ? owners[0]! : rng.pick(owners);
  const blockTimestamp = o.start - rng.int(60, 3600);
  const blockNumber = pHeightAt(blockTimestamp);
  const burned = 1_000_000n;
  const input = o.amount + burned + rng.bigint(100n * NANO);
  const consumed = utxo(rng, net, {
    txHash: cb58(rng.bytes(32)),
    outputIndex: rng.int(0, 3),
    addresses: [owner],
    amount: input,
    blockTimestamp: blockTimestamp - rng.int(3600, 90 * 86_400),
    consumingTxHash: o.txHash,
    consumingBlockNumber: blockNumber,
    consumingBlockTimestamp: blockTimestamp,
  });
  const validator = o.txType.includes('Validator');
  const emitted = [
    utxo(rng, net, {
      txHash: o.txHash,
      outputIndex: 0,
      addresses: [owner],
      amount: input - o.amount - burned,
      blockTimestamp,
    }),
    utxo(rng, net, {
      txHash: o.txHash,
      outputIndex: 1,
      addresses: [owner],
      amount: o.amount,
      blockTimestamp,
      staked: true,
      utxoType: 'STAKE',
      utxoStartTimestamp: o.start,
      utxoEndTimestamp: o.end,
      rewardType: validator ? 'VALIDATOR' : 'DELEGATOR',
    }),
  ];
  const days = BigInt(Math.max(1, Math.floor((o.end - o.start) / 86_400)));
  return {
    txHash: o.txHash,
    txType: o.txType,
    blockNumber,
    blockHash: cb58(rng.bytes(32)),
    blockTimestamp,
    nodeId: o.nodeId,
    subnetId: o.subnetId,
    startTimestamp: o.start,
    endTimestamp: o.end,
    amountStaked: o.amount,
    amountBurned: burned,
    delegationFeePercent: o.fee,
    estimatedReward: (o.amount * days) / 5000n,
    rewardAddresses: [o.rewardAddress],
    ownerAddresses: [owner],
    consumedUtxos: [consumed],
    emittedUtxos: emitted,
    bls: o.bls,
    memo: '',
  };
}

/** Staking txs for every validation period and its delegations, ascending by block time. */
export function createStakingTxs(
  rng: Rng,
  net: PrimaryNetworkInfo,
  validators: ValidatorRecord[],
  owners: string[],
): StakingTx[] {
  const out: StakingTx[] = [];
  for (const v of validators) {
    const permissionless = v.startTimestamp > 1_700_000_000;
    out.push(
      stakingTx(rng, net, owners, {
        txHash: v.txHash,
        txType: permissionless ? 'AddPermissionlessValidatorTx' : 'AddValidatorTx',
        nodeId: v.nodeId,
        subnetId: v.subnetId,
        start: v.startTimestamp,
        end: v.endTimestamp,
        amount: v.amountStaked,
        fee: v.delegationFee,
        rewardAddress: v.rewardAddresses[0]!,
        bls: permissionless ? v.bls : undefined,
      }),
    );
    let left = v.amountDelegated;
    for (let d = 0; d < v.delegatorCount; d++) {
      const amount = d === v.delegatorCount - 1 ? left : left / BigInt(v.delegatorCount - d);
      left -= amount;
      const start = v.startTimestamp + rng.int(3600, 7 * 86_400);
      out.push(
        stakingTx(rng, net, owners, {
          txHash: cb58(rng.bytes(32)),
          txType: permissionless ? 'AddPermissionlessDelegatorTx' : 'AddDelegatorTx',
          nodeId: v.nodeId,
          subnetId: v.subnetId,
          start,
          end: Math.min(v.endTimestamp, start + rng.int(14, 365) * 86_400),
          amount: amount > 0n ? amount : 25n * NANO,
          rewardAddress: rng.pick(owners),
        }),
      );
    }
  }
  return out.sort(
    (a, b) => a.blockTimestamp - b.blockTimestamp || a.txHash.localeCompare(b.txHash),
  );
}
