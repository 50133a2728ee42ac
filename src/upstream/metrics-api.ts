import type { HttpClient } from './http.js';
import type { Page, UpstreamRequest } from './request.js';
import {
  type ChainMetric,
  type MetricsValue,
  metricsApiResponse,
  type RollingWindowMetric,
  type RollingWindowValues,
  rollingWindowResponse,
  type TimeInterval,
} from './schemas/metrics.js';

/**
 * The Metrics API (no API key). Time series are token-paged like the Data API but with pages of 1–2160
 * points and tokens that expire after 24 hours (a 400 on resume).
 */
export interface SeriesFilter {
  startTimestamp?: number;
  endTimestamp?: number;
  timeInterval?: TimeInterval;
}

export interface MetricsApiClient {
  chainMetric(
    chainId: string,
    metric: ChainMetric,
    filter: SeriesFilter,
    page: { pageToken: string | null; pageSize: number },
  ): UpstreamRequest<Page<MetricsValue>>;
  rollingWindow(chainId: string, metric: RollingWindowMetric): UpstreamRequest<RollingWindowValues>;
}

const seg = encodeURIComponent;

export function createMetricsApiClient(http: HttpClient): MetricsApiClient {
  return {
    chainMetric(chainId, metric, filter, { pageToken, pageSize }) {
      const path = `/v2/chains/${seg(chainId)}/metrics/${metric}`;
      const query = { pageToken: pageToken ?? undefined, pageSize, ...filter };
      return {
        upstream: 'metrics-api',
        resource: 'metrics.chainMetric',
        method: 'GET',
        path,
        query,
        pageToken,
        run: async (call) => {
          const res = await http.getJson(path, query, metricsApiResponse, call);
          return { items: res.results, nextPageToken: res.nextPageToken || null };
        },
      };
    },
    rollingWindow(chainId, metric) {
      const path = `/v2/chains/${seg(chainId)}/rollingWindowMetrics/${metric}`;
      return {
        upstream: 'metrics-api',
        resource: 'metrics.rollingWindow',
        method: 'GET',
        path,
        query: {},
        run: async (call) => (await http.getJson(path, {}, rollingWindowResponse, call)).result,
      };
    },
  };
}

/** The resources this client's requests name (their cache classes: `cache/policy.ts`). */
export const METRICS_API_RESOURCES = ['metrics.chainMetric', 'metrics.rollingWindow'] as const;
