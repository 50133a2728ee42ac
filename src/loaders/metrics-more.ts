import type DataLoader from 'dataloader';
import type {
  IcmFilter,
  IcmMetricsValue,
  IcmRollingWindow,
  L1FeeMetric,
  L1FeeScope,
  MetricsChain,
  MetricsMoreClient,
  NetworkMetric,
  TimeRange,
} from '../upstream/metrics-api-more.js';
import type { Page } from '../upstream/request.js';
import type { MetricsValue, TimeInterval } from '../upstream/schemas/metrics.js';
import type { NetworkName } from '../upstream/schemas/primary.js';
import { METRICS_PAGE_SIZE } from './metrics.js';
import { type LoaderDeps, requestLoader } from './request-loader.js';

/**
 * Metrics API loaders for staking, ICM and L1-validator fee series (pages at the route's largest
 * size).
 */
export type StakingMetricKey = TimeRange & {
  network: NetworkName;
  metric: NetworkMetric;
  subnetId?: string;
  pageToken: string | null;
};
export type IcmSeriesKey = IcmFilter &
  TimeRange & { timeInterval?: TimeInterval; pageToken: string | null };
export type L1FeeKey = TimeRange & { scope: L1FeeScope; id?: string; metric: L1FeeMetric };

export interface MetricsMoreLoaders {
  chainsPage: DataLoader<
    { network: 'mainnet' | 'testnet'; pageToken: string | null },
    Page<MetricsChain>,
    string
  >;
  chain: DataLoader<string, MetricsChain, string>;
  stakingPage: DataLoader<StakingMetricKey, Page<MetricsValue>, string>;
  icmPage: DataLoader<IcmSeriesKey, Page<IcmMetricsValue>, string>;
  icmSummary: DataLoader<IcmFilter, IcmRollingWindow, string>;
  l1Fees: DataLoader<L1FeeKey, Page<MetricsValue>, string>;
}

export function createMetricsMoreLoaders(
  deps: LoaderDeps,
  api: MetricsMoreClient,
): MetricsMoreLoaders {
  const pageSize = METRICS_PAGE_SIZE;
  return {
    chainsPage: requestLoader(
      deps,
      (k: { network: 'mainnet' | 'testnet'; pageToken: string | null }) =>
        api.listChains(k.network, k.pageToken),
    ),
    chain: requestLoader(deps, (chainId: string) => api.getChain(chainId)),
    stakingPage: requestLoader(deps, ({ network, metric, pageToken, ...f }: StakingMetricKey) =>
      api.stakingMetric(network, metric, f, { pageToken, pageSize }),
    ),
    icmPage: requestLoader(deps, ({ pageToken, ...f }: IcmSeriesKey) =>
      api.icmTimeseries(f, { pageToken, pageSize }),
    ),
    icmSummary: requestLoader(deps, (f: IcmFilter) => api.icmSummary(f)),
    l1Fees: requestLoader(deps, ({ scope, id, metric, ...f }: L1FeeKey) =>
      api.l1FeeMetric(scope, id, metric, f),
    ),
  };
}
