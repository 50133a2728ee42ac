import { ROLLING_WINDOW_METRICS } from '../spec.js';
import type { World } from '../world/index.js';
import { metricsChains, type SeriesKey, seriesKey } from './chains.js';
import type { BucketPager } from './paging.js';
import { ANY_INTERVAL, CHAIN_METRICS, type ChainMetric, type ChainSeries } from './series.js';
import { bucketStart, type Interval, prevBucket } from './time.js';
import { Checker, MetricsError } from './validate.js';

/** The chain routes: listChains, getChain, getEvmChainMetrics, rolling windows and legacy avg_tps. */

export interface MetricsCtx {
  world: World;
  series: ChainSeries;
  pager: BucketPager;
}

const INTERVALS = ['hour', 'day', 'week', 'month'] as const;

const NETWORKS = ['mainnet', 'fuji', 'testnet'] as const;
export const MAX_PAGE_SIZE = 2160;
const LEGACY_PAGE_SIZE = 100;

/** The series a chainId names; 400 when it is not a chain id at all, 404 when no such chain is supported. */
function keyFor(ctx: MetricsCtx, chainId: string, check?: Checker): SeriesKey | undefined {
  const key = seriesKey(ctx.world, chainId);
  if (key) return key;
  if (!/^\d+$/.test(chainId)) {
    const problem =
      'chainId must be a supported EVM chain ID or one of "total", "mainnet", "testnet"';
    if (check) check.add(problem);
    else throw new MetricsError(400, [problem]);
    return undefined;
  }
  throw new MetricsError(404, [`Chain ${chainId} is not supported by the Metrics API`]);
}

export function listChains(ctx: MetricsCtx, query: URLSearchParams) {
  const check = new Checker(query);
  const network = check.oneOf('network', NETWORKS);
  check.done();
  const token = query.get('pageToken');
  if (token !== null) ctx.pager.resume(token, 'listChains');
  const want = network === undefined ? undefined : network === 'mainnet' ? 'mainnet' : 'testnet';
  return {
    chains: metricsChains(ctx.world).filter((c) => want === undefined || c.network === want),
  };
}

export function getChain(ctx: MetricsCtx, chainId: string) {
  const chain = metricsChains(ctx.world).find((c) => String(c.evmChainId) === chainId);
  if (!chain) throw new MetricsError(404, [`Chain ${chainId} is not supported by the Metrics API`]);
  return chain;
}

export function chainMetrics(
  ctx: MetricsCtx,
  chainId: string,
  metricRaw: string,
  query: URLSearchParams,
) {
  const check = new Checker(query);
  const metric = check.value('metric', metricRaw, CHAIN_METRICS);
  const start = check.int('startTimestamp', 0);
  const end = check.int('endTimestamp', 0);
  const interval: Interval = check.oneOf('timeInterval', INTERVALS) ?? 'day';
  const pageSize = check.int('pageSize', 1, MAX_PAGE_SIZE) ?? 100;
  const key = keyFor(ctx, chainId, check);
  if (
    metric &&
    !ANY_INTERVAL.has(metric) &&
    query.get('timeInterval') !== null &&
    interval !== 'day'
  ) {
    check.add(
      `timeInterval ${interval} is not supported for metric ${metric}; only day is supported`,
    );
  }
  if (start !== undefined && end !== undefined && start > end)
    check.add('startTimestamp must be less than or equal to endTimestamp');
  check.done();
  const now = ctx.series.now;
  const page = ctx.pager.page({
    binding: `metrics|${chainId}|${metric}|${interval}|${query.get('startTimestamp') ?? ''}|${query.get('endTimestamp') ?? ''}`,
    pageToken: query.get('pageToken'),
    pageSize,
    newest: bucketStart(Math.min(end ?? now, now), interval),
    lowest: Math.max(start ?? 0, bucketStart(key!.genesis, interval)),
    prev: (ts) => prevBucket(ts, interval),
    value: (ts) => ctx.series.value(key!, metric as ChainMetric, interval, ts),
  });
  return page.next === undefined
    ? { results: page.results }
    : { nextPageToken: page.next, results: page.results };
}

export function rollingWindowMetrics(
  ctx: MetricsCtx,
  chainId: string,
  metricRaw: string,
  query: URLSearchParams,
) {
  const check = new Checker(query);
  const metric = check.value('metric', metricRaw, ROLLING_WINDOW_METRICS);
  const key = keyFor(ctx, chainId, check);
  check.done();
  return { result: ctx.series.rolling(key!, metric!) };
}

/** The deprecated `GET /v1/avg_tps/{chain}` (LegacyEvmMetricsResponse), paged by `startKey` (or `pageToken`). */
export function legacyAvgTps(ctx: MetricsCtx, chain: string, query: URLSearchParams) {
  const check = new Checker(query);
  const bound = (name: 'from' | 'to') => {
    const raw = query.get(name);
    if (raw === null) return undefined;
    if (!/^\d+$/.test(raw.trim())) {
      check.add(`${name} must be a number string`);
      return undefined;
    }
    return Number(raw);
  };
  const from = bound('from');
  const to = bound('to');
  const key = keyFor(ctx, chain, check);
  check.done();
  const now = ctx.series.now;
  const page = ctx.pager.page({
    binding: `legacy|${chain}|${query.get('from') ?? ''}|${query.get('to') ?? ''}`,
    pageToken: query.get('startKey') ?? query.get('pageToken'),
    pageSize: LEGACY_PAGE_SIZE,
    newest: bucketStart(Math.min(to ?? now, now), 'day'),
    lowest: Math.max(from ?? 0, bucketStart(key!.genesis, 'day')),
    prev: (ts) => prevBucket(ts, 'day'),
    value: (ts) => ctx.series.value(key!, 'avgTps', 'day', ts),
  });
  const results = page.results.map((r) => ({ timestamp: r.timestamp, value: r.value }));
  const body: Record<string, unknown> = {
    results,
    status: 200,
    lastRun: Math.floor(now / 300) * 300,
  };
  if (page.next !== undefined) body.nextPageStartKey = page.next;
  return body;
}

/** The deprecated `GET /v1/avg_tps/{chainId}/rollingWindow` (RollingWindowResponse, snake_case windows). */
export function legacyAvgTpsRolling(ctx: MetricsCtx, chain: string) {
  const key = keyFor(ctx, chain);
  const r = ctx.series.rolling(key!, 'avgTps');
  return {
    result: {
      last_hour: r.lastHour,
      last_day: r.lastDay,
      last_month: r.lastMonth,
      last_year: r.lastYear,
      all_time: r.allTime,
    },
    status: 200,
    lastRun: Math.floor(ctx.series.now / 300) * 300,
  };
}
