import { isCb58Id } from '../node-rpc/go-args.js';
import type { PrimaryNetworkData } from '../world/index.js';
import type { MetricsCtx } from './routes-chains.js';
import { MAX_PAGE_SIZE } from './routes-chains.js';
import { NETWORK_METRICS, type StakingSeries, stakingSeries } from './staking-series.js';
import { DAY } from './time.js';
import { Checker } from './validate.js';

/**
 * `GET /v2/networks/{network}/metrics/{metric}` (getStakingMetrics): daily staking series of the
 * primary network (default `subnetId`) or of an L1; an unknown subnet has no data points.
 */

const NETWORKS = ['mainnet', 'fuji', 'testnet'] as const;
export const STAKING_METRICS_PARAMS = [
  'startTimestamp',
  'endTimestamp',
  'pageToken',
  'pageSize',
  'subnetId',
] as const;

export function stakingMetrics(
  ctx: MetricsCtx,
  cache: Map<string, StakingSeries | undefined>,
  networkRaw: string,
  metricRaw: string,
  query: URLSearchParams,
) {
  const check = new Checker(query);
  check.allowOnly(STAKING_METRICS_PARAMS);
  const metric = check.value('metric', metricRaw, NETWORK_METRICS);
  const start = check.int('startTimestamp', 0);
  const end = check.int('endTimestamp', 0);
  const pageSize = check.int('pageSize', 1, MAX_PAGE_SIZE) ?? 100;
  const network = check.value('network', networkRaw, NETWORKS);
  const net: PrimaryNetworkData | undefined = network ? ctx.world.network(network) : undefined;
  const subnetId = query.get('subnetId') ?? net?.info.primarySubnetId ?? '';
  if (query.get('subnetId') !== null && !isCb58Id(subnetId))
    check.add('subnetId must be a valid CB58-encoded subnet ID');
  if (start !== undefined && end !== undefined && start > end)
    check.add('startTimestamp must be less than or equal to endTimestamp');
  check.done();

  const cacheKey = `${net!.info.name}|${subnetId}`;
  if (!cache.has(cacheKey)) cache.set(cacheKey, stakingSeries(net!, subnetId, ctx.world.now));
  const series = cache.get(cacheKey);
  const days = series?.days ?? [];
  const indexOf = (ts: number) => (days.length === 0 ? -1 : (ts - days[0]!) / DAY);
  const newestDay = days.at(-1) ?? 0;
  const page = ctx.pager.page({
    binding: `staking|${net!.info.name}|${metric}|${subnetId}|${query.get('startTimestamp') ?? ''}|${query.get('endTimestamp') ?? ''}`,
    pageToken: query.get('pageToken'),
    pageSize,
    newest: Math.min(newestDay, Math.floor((end ?? newestDay) / DAY) * DAY),
    lowest: days.length === 0 ? 1 : Math.max(start ?? 0, days[0]!),
    prev: (ts) => ts - DAY,
    value: (ts) => {
      const i = indexOf(ts);
      return i >= 0 && i < days.length ? series!.values[metric!][i] : undefined;
    },
  });
  return page.next === undefined
    ? { results: page.results }
    : { nextPageToken: page.next, results: page.results };
}
