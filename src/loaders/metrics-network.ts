import type {
  IcmFilter,
  L1FeeMetric,
  L1FeeScope,
  MetricsNetworkClient,
  NetworkMetric,
  TimeRange,
} from '../upstream/metrics-api-network.js';
import type { TimeInterval } from '../upstream/schemas/metrics.js';
import type { NetworkName } from '../upstream/schemas/primary.js';
import { METRICS_PAGE_SIZE } from './metrics.js';
import { type LoaderDeps, type PageKey, pageLoader, requestLoader } from './request-loader.js';

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

export function createMetricsNetworkLoaders(deps: LoaderDeps, api: MetricsNetworkClient) {
  const pageSize = METRICS_PAGE_SIZE;
  return {
    chainsPage: pageLoader(
      deps,
      (k: { network: 'mainnet' | 'testnet'; pageToken: string | null }) =>
        api.listChains(k.network, k.pageToken),
    ),
    chain: requestLoader(deps, (chainId: string) => api.getChain(chainId)),
    stakingPage: pageLoader(deps, ({ network, metric, pageToken, ...f }: StakingMetricKey) =>
      api.stakingMetric(network, metric, f, { pageToken, pageSize }),
    ),
    icmPage: pageLoader(deps, ({ pageToken, ...f }: IcmSeriesKey) =>
      api.icmTimeseries(f, { pageToken, pageSize }),
    ),
    icmSummary: requestLoader(deps, (f: IcmFilter) => api.icmSummary(f)),
    /** The fee routes answer a whole series (no page token): one page, whatever the key's token. */
    l1Fees: pageLoader(deps, ({ scope, id, metric, pageToken: _, ...f }: L1FeeKey & PageKey) =>
      api.l1FeeMetric(scope, id, metric, f),
    ),
  };
}

export type MetricsNetworkLoaders = ReturnType<typeof createMetricsNetworkLoaders>;
