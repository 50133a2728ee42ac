import { SELF_NODE_ID, SIM_L1, UNINDEXED_L1 } from './constants.js';
import { bech32, bytesFromLabel, cb58, toHex } from './encoding.js';
import { createL1Validators } from './l1-validators.js';
import { rngFor } from './prng.js';
import { createStakingTxs, pHeightAt } from './staking.js';
import type { PrimaryNetworkInfo } from './types.js';
import type {
  L1Info,
  PBalance,
  PrimaryNetworkData,
  ValidatorRecord,
  XChainData,
} from './types-primary.js';
import { createValidators } from './validators.js';
import { createXChain } from './x-chain.js';

const NANO = 1_000_000_000n;

/** Builds one primary network: addresses, validators, staking txs, L1 validators, balances, X-Chain. */
export function createPrimaryNetwork(
  seed: string,
  net: PrimaryNetworkInfo,
  now: number,
): PrimaryNetworkData {
  const rng = rngFor(seed, net.name, 'primary');
  const raw = Array.from({ length: net.name === 'mainnet' ? 400 : 150 }, () => rng.bytes(20));
  const pAddresses = raw.map((b) => bech32(net.hrp, b));
  const validators = createValidators(rngFor(seed, net.name, 'validators'), {
    now,
    selfNodeId: SELF_NODE_ID,
    otherNodes: net.name === 'mainnet' ? 180 : 60,
    subnetId: net.primarySubnetId,
    rewardAddresses: pAddresses,
    stake: net.name === 'mainnet' ? [2000, 3_000_000] : [1, 100_000],
  });
  const validatorsByNode = new Map<string, ValidatorRecord[]>();
  for (const v of validators)
    validatorsByNode.set(v.nodeId, [...(validatorsByNode.get(v.nodeId) ?? []), v]);
  const stakingTxs = createStakingTxs(
    rngFor(seed, net.name, 'staking'),
    net,
    validators,
    pAddresses,
  );

  const l1s: L1Info[] =
    net.name === 'mainnet'
      ? [
          {
            subnetId: SIM_L1.subnetId,
            blockchainId: SIM_L1.blockchainId,
            name: SIM_L1.name,
            evmChainId: SIM_L1.chainId,
          },
          {
            subnetId: UNINDEXED_L1.subnetId,
            blockchainId: UNINDEXED_L1.blockchainId,
            name: UNINDEXED_L1.name,
          },
          {
            subnetId: cb58(bytesFromLabel('sim-l1-c-subnet')),
            blockchainId: cb58(bytesFromLabel('sim-l1-c-chain')),
            name: 'Gaming L1',
          },
          {
            subnetId: cb58(bytesFromLabel('sim-l1-d-subnet')),
            blockchainId: cb58(bytesFromLabel('sim-l1-d-chain')),
            name: 'Payments L1',
          },
        ]
      : [
          {
            subnetId: cb58(bytesFromLabel('sim-fuji-l1-a-subnet')),
            blockchainId: cb58(bytesFromLabel('sim-fuji-l1-a-chain')),
            name: 'Fuji Test L1',
          },
          {
            subnetId: cb58(bytesFromLabel('sim-fuji-l1-b-subnet')),
            blockchainId: cb58(bytesFromLabel('sim-fuji-l1-b-chain')),
            name: 'Fuji Dev L1',
          },
        ];
  const counts = net.name === 'mainnet' ? [60, 40, 30, 25] : [24, 16];
  const l1Validators = createL1Validators(
    rngFor(seed, net.name, 'l1-validators'),
    l1s.map((l1, i) => ({ l1, count: counts[i]! })),
    { now, selfNodeId: SELF_NODE_ID, owners: pAddresses },
  );

  const pBalances = new Map<string, PBalance>();
  const brng = rngFor(seed, net.name, 'balances');
  for (const a of pAddresses) {
    pBalances.set(a, {
      unlockedUnstaked: brng.bigint(20_000n * NANO),
      unlockedUnstakedUtxos: brng.int(1, 12),
      unlockedStaked: 0n,
      lockedPlatform: 0n,
      lockedStakeable: brng.chance(0.05) ? BigInt(brng.int(1, 5000)) * NANO : 0n,
      lockedStaked: 0n,
      pendingStaked: 0n,
      atomicMemoryUnlocked: brng.chance(0.1) ? brng.bigint(100n * NANO) + 1n : 0n,
    });
  }
  for (const tx of stakingTxs) {
    if (tx.endTimestamp <= now) continue;
    const b = pBalances.get(tx.ownerAddresses[0]!)!;
    if (tx.startTimestamp > now) b.pendingStaked += tx.amountStaked;
    else b.unlockedStaked += tx.amountStaked;
  }
  const cAtomicBalances = new Map<string, bigint>();
  for (const a of pAddresses)
    if (brng.chance(0.08)) cAtomicBalances.set(a, brng.bigint(50n * NANO) + 1n);
  cAtomicBalances.set(pAddresses[0]!, 12n * NANO + 345n);

  // The X-Chain is built on first use (its own keyed Rng: same result whenever that happens).
  let xChain: XChainData | undefined;
  return {
    info: net,
    validators,
    validatorsByNode,
    stakingTxs,
    l1s,
    l1Validators,
    pAddresses,
    pBalances,
    cAtomicBalances,
    get xChain() {
      xChain ??= createXChain(
        rngFor(seed, net.name, 'x-chain'),
        net,
        { bech32: pAddresses, raw: raw.map(toHex) },
        now,
      );
      return xChain;
    },
    pChainHeight: pHeightAt(now),
  };
}
