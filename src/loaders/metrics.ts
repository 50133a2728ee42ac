import type { MetricsApiClient, SeriesFilter } from '../upstream/metrics-api.js';
import type { ChainMetric, RollingWindowMetric } from '../upstream/schemas/metrics.js';
import { type LoaderDeps, pageLoader, requestLoader } from './request-loader.js';

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

export function createMetricsLoaders(deps: LoaderDeps, api: MetricsApiClient) {
  return {
    seriesPage: pageLoader(deps, ({ chainId, metric, pageToken, ...filter }: SeriesPageKey) =>
      api.chainMetric(chainId, metric, filter, { pageToken, pageSize: METRICS_PAGE_SIZE }),
    ),
    rollingWindow: requestLoader(deps, (k: { chainId: string; metric: RollingWindowMetric }) =>
      api.rollingWindow(k.chainId, k.metric),
    ),
  };
}

export type MetricsLoaders = ReturnType<typeof createMetricsLoaders>;
