import { VALIDATOR_SORT_BY, type ValidatorSortBy } from '../spec.js';
import type { PrimaryNetworkData, ValidatorRecord } from '../world/index.js';
import type { Ctx } from './ctx.js';
import { pageOf } from './paging.js';
import type { Route } from './router.js';
import { validatorJson } from './shape-primary.js';

/**
 * The network's validator set and its totals: `listValidators` (every filter of the real route) and
 * `getNetworkDetails`. Filters follow the spec's descriptions: node ids match by substring,
 * capacities are nAVAX decimal strings, uptime bounds apply to active periods (the default minimum
 * is 90, as the spec says), fee bounds to primary-network periods, time remaining is `end - now` (0
 * once ended).
 */

const NODE_PART = /^[A-Za-z0-9-]{1,64}$/;
const MAX_CAPACITY = 720_000_000_000_000_000n;
const SORT_BY = VALIDATOR_SORT_BY;
type SortBy = ValidatorSortBy;

export const LIST_VALIDATORS_PARAMS = [
  'pageToken',
  'pageSize',
  'nodeIds',
  'sortBy',
  'sortOrder',
  'validationStatus',
  'minDelegationCapacity',
  'maxDelegationCapacity',
  'minTimeRemaining',
  'maxTimeRemaining',
  'minFeePercentage',
  'maxFeePercentage',
  'minUptimePerformance',
  'maxUptimePerformance',
  'subnetId',
] as const;

/** A nAVAX amount filter: a decimal integer string from 0 to 720,000,000,000,000,000. */
function capacity(ctx: Ctx, name: string): bigint | undefined {
  const raw = ctx.q(name);
  if (raw === undefined) return undefined;
  if (!/^\d{1,19}$/.test(raw) || BigInt(raw) > MAX_CAPACITY) {
    ctx.errors.push(`${name} must be a number string from 0 to 720000000000000000`);
    return undefined;
  }
  return BigInt(raw);
}

function range<T extends number | bigint>(
  ctx: Ctx,
  what: string,
  lo: T | undefined,
  hi: T | undefined,
): void {
  if (lo !== undefined && hi !== undefined && lo > hi)
    ctx.errors.push(`min${what} must be less than or equal to max${what}`);
}

const remaining = (v: ValidatorRecord, now: number) => Math.max(0, v.endTimestamp - now);

function sortValue(v: ValidatorRecord, by: SortBy, now: number): number {
  switch (by) {
    case 'blockIndex':
      return v.startTimestamp;
    case 'delegationCapacity':
      return v.status === 'active' ? Number(v.delegationCapacity) : 0;
    case 'timeRemaining':
      return remaining(v, now);
    case 'delegationFee':
      return Number(v.delegationFee);
    case 'uptimePerformance':
      return v.status === 'active' ? v.uptime : 0;
  }
}

const cmp = (a: [number, string], b: [number, string]) =>
  a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);

export const stakingRoutes: Route<Ctx>[] = [
  {
    method: 'GET',
    template: '/v1/networks/:network/validators',
    handler: (ctx) => {
      const net = ctx.network();
      ctx.allowOnly(LIST_VALIDATORS_PARAMS);
      const size = ctx.pageSize();
      const nodeIds = ctx
        .q('nodeIds')
        ?.split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
      for (const n of nodeIds ?? [])
        if (!NODE_PART.test(n))
          ctx.errors.push('nodeIds must be a comma separated list of node ids');
      const sortBy = ctx.enumOf('sortBy', SORT_BY) ?? 'blockIndex';
      const order = ctx.enumOf('sortOrder', ['asc', 'desc'] as const) ?? 'desc';
      const status = ctx.enumOf('validationStatus', [
        'completed',
        'active',
        'pending',
        'removed',
      ] as const);
      const minCap = capacity(ctx, 'minDelegationCapacity');
      const maxCap = capacity(ctx, 'maxDelegationCapacity');
      const minTime = ctx.num('minTimeRemaining', { min: 0, max: 2147483647 });
      const maxTime = ctx.num('maxTimeRemaining', { min: 0, max: 2147483647 });
      const minFee = ctx.num('minFeePercentage', { min: 2, max: 100 });
      const maxFee = ctx.num('maxFeePercentage', { min: 2, max: 100 });
      const minUp = ctx.num('minUptimePerformance', { min: 0, max: 100 }) ?? 90;
      const maxUp = ctx.num('maxUptimePerformance', { min: 0, max: 100 }) ?? 100;
      range(ctx, 'DelegationCapacity', minCap, maxCap);
      range(ctx, 'TimeRemaining', minTime, maxTime);
      range(ctx, 'FeePercentage', minFee, maxFee);
      range(ctx, 'UptimePerformance', minUp, maxUp);
      const subnetId = ctx.q('subnetId');
      ctx.check();
      const now = ctx.world.now;
      const feeFiltered = minFee !== undefined || maxFee !== undefined;
      const keep = (v: ValidatorRecord) =>
        (nodeIds === undefined || nodeIds.some((n) => v.nodeId.includes(n))) &&
        (status === undefined || v.status === status) &&
        (subnetId === undefined || v.subnetId === subnetId) &&
        (minCap === undefined || (v.status === 'active' && v.delegationCapacity >= minCap)) &&
        (maxCap === undefined || v.status !== 'active' || v.delegationCapacity <= maxCap) &&
        (minTime === undefined || remaining(v, now) >= minTime) &&
        (maxTime === undefined || remaining(v, now) <= maxTime) &&
        (!feeFiltered ||
          (v.subnetId === net.info.primarySubnetId &&
            Number(v.delegationFee) >= (minFee ?? 2) &&
            Number(v.delegationFee) <= (maxFee ?? 100))) &&
        (v.status !== 'active' || (v.uptime >= minUp && v.uptime <= maxUp));
      const key = (v: ValidatorRecord): [number, string] => [sortValue(v, sortBy, now), v.txHash];
      const sorted = net.validators.filter(keep).sort((a, b) => cmp(key(a), key(b)));
      const filters = LIST_VALIDATORS_PARAMS.filter((p) => p !== 'pageToken' && p !== 'pageSize');
      const { page, next } = pageOf(sorted, {
        desc: order === 'desc',
        size,
        after: ctx.cursor<[number, string]>(filters),
        key,
        cmp,
      });
      return { ...ctx.nextPage(filters, next), validators: page.map(validatorJson) };
    },
  },
  {
    method: 'GET',
    template: '/v1/networks/:network',
    handler: (ctx) => {
      const net = ctx.network();
      ctx.allowOnly([]);
      ctx.check();
      return networkDetails(net, ctx.world.now);
    },
  },
];

/**
 * Totals of the active validator set (the AVAX supply of the ratio is the primary network's 720 M
 * cap).
 */
export function networkDetails(net: PrimaryNetworkData, now: number) {
  const active = net.validators.filter((v) => v.status === 'active');
  const staked = active.reduce((s, v) => s + v.amountStaked, 0n);
  const delegations = net.stakingTxs.filter(
    (t) => t.txType.includes('Delegator') && t.startTimestamp <= now && t.endTimestamp > now,
  );
  const delegated = delegations.reduce((s, t) => s + t.amountStaked, 0n);
  const reward = active.reduce(
    (s, v) => s + v.validationRewardAmount + v.delegationRewardAmount,
    0n,
  );
  const byVersion = new Map<string, { amount: bigint; count: number }>();
  for (const v of active) {
    const e = byVersion.get(v.avalancheGoVersion) ?? { amount: 0n, count: 0 };
    e.amount += v.amountStaked;
    e.count += 1;
    byVersion.set(v.avalancheGoVersion, e);
  }
  const supply = 720_000_000n * 1_000_000_000n;
  return {
    validatorDetails: {
      validatorCount: active.length,
      totalAmountStaked: String(staked),
      estimatedAnnualStakingReward: String(reward),
      stakingDistributionByVersion: [...byVersion.entries()]
        .sort((a, b) => (a[0] < b[0] ? -1 : 1))
        .map(([version, e]) => ({
          version,
          amountStaked: String(e.amount),
          validatorCount: e.count,
        })),
      stakingRatio: (Number(((staked + delegated) * 1_000_000n) / supply) / 1_000_000).toFixed(6),
    },
    delegatorDetails: { delegatorCount: delegations.length, totalAmountStaked: String(delegated) },
  };
}
