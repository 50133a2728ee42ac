import { cb58 } from './encoding.js';
import type { Rng } from './prng.js';
import type { BlsCredentials, ValidationStatus, ValidatorRecord } from './types-primary.js';

/** Primary-network validation periods: the simulated node plus many others. */

const DAY = 86_400;
const NANO = 1_000_000_000n;
const PLACES = [
  { city: 'Frankfurt', country: 'Germany', countryCode: 'DE', latitude: 50.11, longitude: 8.68 },
  {
    city: 'Ashburn',
    country: 'United States',
    countryCode: 'US',
    latitude: 39.04,
    longitude: -77.49,
  },
  { city: 'Singapore', country: 'Singapore', countryCode: 'SG', latitude: 1.35, longitude: 103.82 },
  { city: 'Tokyo', country: 'Japan', countryCode: 'JP', latitude: 35.68, longitude: 139.69 },
  { city: 'Paris', country: 'France', countryCode: 'FR', latitude: 48.86, longitude: 2.35 },
  { city: 'Toronto', country: 'Canada', countryCode: 'CA', latitude: 43.65, longitude: -79.38 },
];

export const randomNodeId = (rng: Rng): string => `NodeID-${cb58(rng.bytes(20))}`;
export const randomBls = (rng: Rng): BlsCredentials => ({
  publicKey: `0x${rng.hex(48)}`,
  proofOfPossession: `0x${rng.hex(96)}`,
});

export interface ValidatorGenOptions {
  now: number;
  selfNodeId: string;
  otherNodes: number;
  subnetId: string;
  /** Reward address pool (bech32 without prefix). */
  rewardAddresses: string[];
  /** Stake range in whole AVAX. */
  stake: [number, number];
}

function status(start: number, end: number, now: number): ValidationStatus {
  if (start > now) return 'pending';
  return end <= now ? 'completed' : 'active';
}

function period(
  rng: Rng,
  o: ValidatorGenOptions,
  nodeId: string,
  start: number,
  end: number,
  bls: BlsCredentials,
  ip: string,
): ValidatorRecord {
  const amountStaked = BigInt(rng.int(o.stake[0], o.stake[1])) * NANO + rng.bigint(NANO);
  const delegatorCount = rng.chance(0.4) ? 0 : rng.int(1, 5);
  const amountDelegated = delegatorCount === 0 ? 0n : BigInt(rng.int(25, 50_000)) * NANO;
  const st = status(start, end, o.now);
  const reward = (amountStaked * BigInt(Math.max(1, Math.floor((end - start) / DAY)))) / 5000n;
  const rec: ValidatorRecord = {
    txHash: cb58(rng.bytes(32)),
    nodeId,
    subnetId: o.subnetId,
    amountStaked,
    delegationFee: `${rng.int(2, 20)}.0000`,
    startTimestamp: start,
    endTimestamp: end,
    status: st,
    bls,
    delegatorCount,
    amountDelegated,
    rewardAddresses: [rng.pick(o.rewardAddresses)],
    validationRewardAmount: reward,
    delegationRewardAmount: amountDelegated / 400n,
    uptime: Math.round((85 + rng.next() * 15) * 10000) / 10000,
    avalancheGoVersion: `avalanchego/1.13.${rng.int(0, 5)}`,
    stakePercentage: 0,
    delegationCapacity:
      amountStaked * 4n > amountDelegated ? amountStaked * 4n - amountDelegated : 0n,
    ip,
    geolocation: rng.pick(PLACES),
    health: {
      reachabilityPercent: 100,
      benchedPChainRequestsPercent: 0,
      benchedXChainRequestsPercent: 0,
      benchedCChainRequestsPercent: 0,
    },
  };
  if (st === 'completed') rec.rewardTxHash = cb58(rng.bytes(32));
  if (st !== 'active') rec.uptime = st === 'pending' ? 0 : rec.uptime;
  return rec;
}

/** Every node's periods, ascending by start time. The self node has 12 completed periods and one active. */
export function createValidators(rng: Rng, o: ValidatorGenOptions): ValidatorRecord[] {
  const out: ValidatorRecord[] = [];
  const ipOf = () =>
    `${rng.int(3, 220)}.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}:9651`;
  {
    const bls = randomBls(rng);
    const ip = ipOf();
    let start = o.now - 13 * 30 * DAY - 5 * DAY;
    for (let i = 0; i < 12; i++) {
      out.push(period(rng, o, o.selfNodeId, start, start + 30 * DAY, bls, ip));
      start += 30 * DAY + 600;
    }
    out.push(period(rng, o, o.selfNodeId, start, o.now + 200 * DAY, bls, ip));
  }
  for (let n = 0; n < o.otherNodes; n++) {
    const nodeId = randomNodeId(rng);
    const bls = randomBls(rng);
    const ip = ipOf();
    if (rng.chance(0.05)) {
      const start = o.now + rng.int(1, 20) * DAY;
      out.push(period(rng, o, nodeId, start, start + rng.int(14, 365) * DAY, bls, ip));
      continue;
    }
    const start = o.now - rng.int(1, 300) * DAY;
    let cursor = start;
    for (let k = rng.chance(0.3) ? rng.int(1, 3) : 0; k > 0; k--) {
      const len = rng.int(14, 60) * DAY;
      const pastEnd = cursor - rng.int(1, 30) * DAY;
      out.push(period(rng, o, nodeId, pastEnd - len, pastEnd, bls, ip));
      cursor = pastEnd - len;
    }
    out.push(
      period(
        rng,
        o,
        nodeId,
        start,
        Math.max(start + 14 * DAY, o.now + rng.int(1, 365) * DAY),
        bls,
        ip,
      ),
    );
  }
  out.sort((a, b) => a.startTimestamp - b.startTimestamp || a.txHash.localeCompare(b.txHash));
  const activeTotal = out
    .filter((v) => v.status === 'active')
    .reduce((s, v) => s + v.amountStaked + v.amountDelegated, 0n);
  for (const v of out) {
    if (v.status === 'active' && activeTotal > 0n)
      v.stakePercentage =
        Number(((v.amountStaked + v.amountDelegated) * 1_000_000n) / activeTotal) / 10_000;
  }
  return out;
}
