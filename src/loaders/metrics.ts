import type DataLoader from 'dataloader';
import type { MetricsApiClient, SeriesFilter } from '../upstream/metrics-api.js';
import type { Page } from '../upstream/request.js';
import type {
  ChainMetric,
  MetricsValue,
  RollingWindowMetric,
  RollingWindowValues,
} from '../upstream/schemas/metrics.js';
import { type LoaderDeps, requestLoader } from './request-loader.js';

/**
 * Metrics series pages are fetched at the route's largest size (2160 points: six years of days, three
 * months of hours): one call per page whatever `first` the client asks, and pages shared between clients.
 */
export const METRICS_PAGE_SIZE = 2160;

export interface SeriesPageKey extends SeriesFilter {
  chainId: string;
  metric: ChainMetric;
  pageToken: string | null;
}

export interface MetricsLoaders {
  seriesPage: DataLoader<SeriesPageKey, Page<MetricsValue>, string>;
  rollingWindow: DataLoader<
    { chainId: string; metric: RollingWindowMetric },
    RollingWindowValues,
    string
  >;
}

export function createMetricsLoaders(deps: LoaderDeps, api: MetricsApiClient): MetricsLoaders {
  return {
    seriesPage: requestLoader(deps, ({ chainId, metric, pageToken, ...filter }: SeriesPageKey) =>
      api.chainMetric(chainId, metric, filter, { pageToken, pageSize: METRICS_PAGE_SIZE }),
    ),
    rollingWindow: requestLoader(deps, (k: { chainId: string; metric: RollingWindowMetric }) =>
      api.rollingWindow(k.chainId, k.metric),
    ),
  };
}
