import type { IcmRegistry } from './icm.js';
import type { Rng } from './prng.js';
import type { PrimaryNetworkData } from './types-primary.js';

/**
 * The world beyond new blocks: what `/_sim/advance` also moves, one deterministic step at a time
 * (each step draws from its own keyed Rng, so the same seed goes through the same versions).
 *
 * - ICM: pending messages are delivered (status, destination tx, receipts);
 * - stakes end: an active validation period completes (status, end time, reward tx) and its staking
 *   tx leaves the active staking list; a pending period becomes active; the P-Chain height moves;
 * - prices move (the AVAX price the Data API quotes, within ±5 % a step);
 * - P-Chain balances move (staked amounts of ended stakes are unlocked).
 * Address lists and the node's height follow the new blocks `advance()` appends.
 */
export interface Market {
  /** AVAX in USD, as quoted by the Data API (native balances, transaction prices). */
  avaxUsd: number;
}

export interface EvolveTarget {
  now: number;
  icm: IcmRegistry;
  primary: PrimaryNetworkData;
  market: Market;
}

export interface EvolveReport {
  step: number;
  delivered: string[];
  completed: string[];
  activated: string[];
  avaxUsd: number;
}

export function evolveWorld(w: EvolveTarget, rng: Rng, step: number): EvolveReport {
  const report: EvolveReport = { step, delivered: [], completed: [], activated: [], avaxUsd: 0 };
  const now = w.now;

  // ICM: up to three pending messages are delivered.
  for (const m of w.icm.messages.filter((x) => x.status === 'pending').slice(0, rng.int(1, 3))) {
    const relayer = `0x${rng.hex(20)}`;
    m.status = 'delivered';
    m.destinationTransaction = {
      txHash: `0x${rng.hex(32)}`,
      timestamp: Math.max(m.timestamp + 2, now),
      gasSpent: BigInt(rng.int(150_000, 400_000)) * 2_000_000_000n,
      rewardRedeemer: relayer,
      delivererAddress: relayer,
    };
    if (rng.chance(0.5))
      m.receipts = [{ receivedMessageNonce: m.messageNonce, relayerRewardAddress: relayer }];
    report.delivered.push(m.messageId);
  }

  // Stakes: one active period completes (its staking tx leaves the active list); one pending period starts.
  const p = w.primary;
  const active = p.validators.filter((v) => v.status === 'active' && v.nodeId !== undefined);
  if (active.length > 1) {
    const v = active[rng.int(0, active.length - 1)]!;
    v.status = 'completed';
    v.endTimestamp = Math.min(v.endTimestamp, now);
    v.rewardTxHash ??= rng.hex(32);
    for (const t of p.stakingTxs)
      if (t.txHash === v.txHash || (t.nodeId === v.nodeId && t.endTimestamp > now))
        t.endTimestamp = Math.min(t.endTimestamp, now);
    report.completed.push(v.txHash);
  }
  const pending = p.validators.find((v) => v.status === 'pending');
  if (pending) {
    pending.status = 'active';
    pending.startTimestamp = Math.min(pending.startTimestamp, now);
    report.activated.push(pending.txHash);
  }
  p.pChainHeight += rng.int(1, 5);

  // Prices.
  w.market.avaxUsd = Math.round(w.market.avaxUsd * (1 + (rng.next() - 0.5) / 10) * 100) / 100;
  report.avaxUsd = w.market.avaxUsd;
  return report;
}
