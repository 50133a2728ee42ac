import type { PrimaryNetworkData } from '../world/index.js';
import { DAY } from './time.js';

/**
 * Daily staking metrics (validatorCount / validatorWeight / delegatorCount / delegatorWeight)
 * computed from the world's records, so the newest point agrees with the Data API: the primary
 * network counts validation periods active at each day's start (weights in nAVAX); an L1 counts
 * its active L1 validators created by then (L1s have no delegators). The series starts on the day
 * of the earliest record.
 */

export const NETWORK_METRICS = [
  'delegatorCount',
  'delegatorWeight',
  'validatorCount',
  'validatorWeight',
] as const;
export type NetworkMetric = (typeof NETWORK_METRICS)[number];

export interface StakingSeries {
  /** Day starts, ascending. */
  days: number[];
  values: Record<NetworkMetric, number[]>;
}

export function stakingSeries(
  net: PrimaryNetworkData,
  subnetId: string,
  now: number,
): StakingSeries | undefined {
  const lastDay = Math.floor(now / DAY) * DAY;
  const empty = (): Record<NetworkMetric, number[]> => ({
    delegatorCount: [],
    delegatorWeight: [],
    validatorCount: [],
    validatorWeight: [],
  });
  if (subnetId === net.info.primarySubnetId) {
    const vs = net.validators.filter((v) => v.status !== 'removed');
    if (vs.length === 0) return { days: [], values: empty() };
    const first = Math.floor(Math.min(...vs.map((v) => v.startTimestamp)) / DAY) * DAY + DAY;
    const out: StakingSeries = { days: [], values: empty() };
    for (let day = first; day <= lastDay; day += DAY) {
      const at = day === lastDay ? now : day;
      let count = 0;
      let weight = 0n;
      let delegators = 0;
      let delegated = 0n;
      for (const v of vs) {
        if (v.startTimestamp > at || v.endTimestamp <= at) continue;
        count++;
        weight += v.amountStaked;
        delegators += v.delegatorCount;
        delegated += v.amountDelegated;
      }
      out.days.push(day);
      out.values.validatorCount.push(count);
      out.values.validatorWeight.push(Number(weight));
      out.values.delegatorCount.push(delegators);
      out.values.delegatorWeight.push(Number(delegated));
    }
    return out;
  }
  if (!net.l1s.some((l) => l.subnetId === subnetId)) return undefined;
  const vs = net.l1Validators.filter((v) => v.subnetId === subnetId && v.active);
  const out: StakingSeries = { days: [], values: empty() };
  if (vs.length === 0) return out;
  const first = Math.floor(Math.min(...vs.map((v) => v.creationTimestamp)) / DAY) * DAY + DAY;
  for (let day = first; day <= lastDay; day += DAY) {
    const at = day === lastDay ? now : day;
    const live = vs.filter((v) => v.creationTimestamp <= at);
    out.days.push(day);
    out.values.validatorCount.push(live.length);
    out.values.validatorWeight.push(live.reduce((s, v) => s + v.weight, 0));
    out.values.delegatorCount.push(0);
    out.values.delegatorWeight.push(0);
  }
  return out;
}
