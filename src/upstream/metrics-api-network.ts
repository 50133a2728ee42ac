import { z } from 'zod';
import type { HttpClient } from './http.js';
import type { CallContext, Page, UpstreamRequest } from './request.js';
import {
  type MetricsValue,
  metricsApiResponse,
  metricsPage,
  metricsValue,
  rollingWindowValues,
  type TimeInterval,
} from './schemas/metrics.js';
import type { NetworkName } from './schemas/primary.js';

/**
 * The Metrics API's network, ICM and L1-validator routes (getStakingMetrics, getICMTimeseries,
 * getICMSummary, getTotalL1ValidatorMetrics, getMetricsByValidationId, getMetricsByNodeId,
 * getMetricsBySubnetId), named and serialised as the Metrics API's OpenAPI spec
 * (`metrics-api.openapi.json` in SPEC_DIR) says. The L1-validator routes take no page token: one answer is the whole series.
 */
export const NETWORK_METRICS = [
  'validatorCount',
  'validatorWeight',
  'delegatorCount',
  'delegatorWeight',
] as const;
export type NetworkMetric = (typeof NETWORK_METRICS)[number];
export const ICM_GROUP_BY = [
  'srcBlockchainId',
  'destBlockchainId',
  'srcBlockchainId,destBlockchainId',
] as const;
export type IcmGroupBy = (typeof ICM_GROUP_BY)[number];

/** The L1-validator fee routes: their path prefix and metrics. */
export const L1_FEE_METRICS = {
  total: ['totalCumulativeFeesDaily', 'totalValidatorFeesDaily', 'totalPayingValidatorsDaily'],
  validation: ['validationCumulativeFeesDaily', 'validationFeesDaily'],
  node: ['perNodeCumulativeFeesPaid', 'perNodeDailyFeesPaid'],
  subnet: ['perSubnetDailyFeesPaid', 'perSubnetCumulativeFeesPaid', 'perSubnetPayingValidators'],
} as const;
export type L1FeeScope = keyof typeof L1_FEE_METRICS;
export type L1FeeMetric<S extends L1FeeScope = L1FeeScope> = (typeof L1_FEE_METRICS)[S][number];

export interface TimeRange {
  startTimestamp?: number;
  endTimestamp?: number;
}
export interface IcmFilter {
  srcBlockchainId?: string;
  destBlockchainId?: string;
  groupBy?: IcmGroupBy;
  network?: NetworkName;
}

/** ICM series and windows carry the chain pair they are about. */
const chainPair = { srcBlockchainId: z.string(), destBlockchainId: z.string() };
export const icmMetricsValue = metricsValue.extend(chainPair);
export type IcmMetricsValue = z.infer<typeof icmMetricsValue>;
const icmMetricsResponse = metricsPage(icmMetricsValue);
export const icmRollingWindow = rollingWindowValues.extend(chainPair);
export type IcmRollingWindow = z.infer<typeof icmRollingWindow>;

type PageArgs = { pageToken: string | null; pageSize: number };

/** A chain the Metrics API reports on (listChains, getChain). */
export const metricsChain = z.object({
  evmChainId: z.number().int(),
  chainName: z.string(),
  blockchainId: z.string(),
  subnetId: z.string(),
  network: z.enum(['mainnet', 'testnet']),
});
export type MetricsChain = z.infer<typeof metricsChain>;
const listChainsResponse = z.object({
  chains: z.array(metricsChain),
  nextPageToken: z.string().optional(),
});

export interface MetricsNetworkClient {
  listChains(
    network: 'mainnet' | 'testnet',
    pageToken: string | null,
  ): UpstreamRequest<Page<MetricsChain>>;
  getChain(chainId: string): UpstreamRequest<MetricsChain>;
  stakingMetric(
    network: NetworkName,
    metric: NetworkMetric,
    f: TimeRange & { subnetId?: string },
    p: PageArgs,
  ): UpstreamRequest<Page<MetricsValue>>;
  icmTimeseries(
    f: IcmFilter & TimeRange & { timeInterval?: TimeInterval },
    p: PageArgs,
  ): UpstreamRequest<Page<IcmMetricsValue>>;
  icmSummary(f: IcmFilter): UpstreamRequest<IcmRollingWindow>;
  l1FeeMetric(
    scope: L1FeeScope,
    id: string | undefined,
    metric: L1FeeMetric,
    f: TimeRange,
  ): UpstreamRequest<Page<MetricsValue>>;
}

const seg = encodeURIComponent;

export function createMetricsNetworkClient(http: HttpClient): MetricsNetworkClient {
  const req = <T>(
    resource: UpstreamRequest<T>['resource'],
    path: string,
    query: UpstreamRequest<T>['query'],
    run: (call?: CallContext) => Promise<T>,
    pageToken?: string | null,
  ) =>
    ({
      upstream: 'metrics-api',
      resource,
      method: 'GET',
      path,
      query,
      pageToken,
      run,
    }) as UpstreamRequest<T>;
  const paged = async <V>(
    path: string,
    query: UpstreamRequest<unknown>['query'],
    schema: z.ZodType<{ results: V[]; nextPageToken?: string }>,
    call: CallContext | undefined,
  ) => {
    const res = await http.getJson(path, query, schema, call);
    return { items: res.results, nextPageToken: res.nextPageToken || null };
  };
  return {
    listChains(network, pageToken) {
      const path = '/v2/chains';
      // The route takes no pageSize: a page is whatever the upstream sends.
      const query = { pageToken: pageToken ?? undefined, network };
      return req(
        'metrics.chains',
        path,
        query,
        async (call) => {
          const res = await http.getJson(path, query, listChainsResponse, call);
          return { items: res.chains, nextPageToken: res.nextPageToken || null };
        },
        pageToken,
      );
    },
    getChain(chainId) {
      const path = `/v2/chains/${seg(chainId)}`;
      return req('metrics.chain', path, {}, (call) => http.getJson(path, {}, metricsChain, call));
    },
    stakingMetric(network, metric, f, { pageToken, pageSize }) {
      const path = `/v2/networks/${seg(network)}/metrics/${metric}`;
      const query = {
        startTimestamp: f.startTimestamp,
        endTimestamp: f.endTimestamp,
        pageToken: pageToken ?? undefined,
        pageSize,
        subnetId: f.subnetId,
      };
      return req(
        'metrics.stakingMetric',
        path,
        query,
        (call) => paged(path, query, metricsApiResponse, call),
        pageToken,
      );
    },
    icmTimeseries(f, { pageToken, pageSize }) {
      const path = '/v2/icm/timeseries';
      const query = {
        startTimestamp: f.startTimestamp,
        endTimestamp: f.endTimestamp,
        srcBlockchainId: f.srcBlockchainId,
        destBlockchainId: f.destBlockchainId,
        timeInterval: f.timeInterval,
        pageToken: pageToken ?? undefined,
        pageSize,
        groupBy: f.groupBy,
        network: f.network,
      };
      return req(
        'metrics.icmTimeseries',
        path,
        query,
        (call) => paged(path, query, icmMetricsResponse, call),
        pageToken,
      );
    },
    icmSummary(f) {
      const path = '/v2/icm/summary';
      const query = {
        srcBlockchainId: f.srcBlockchainId,
        destBlockchainId: f.destBlockchainId,
        groupBy: f.groupBy,
        network: f.network,
      };
      return req(
        'metrics.icmSummary',
        path,
        query,
        async (call) =>
          (await http.getJson(path, query, z.object({ result: icmRollingWindow }), call)).result,
      );
    },
    l1FeeMetric(scope, id, metric, f) {
      const prefix = {
        total: '/v2/validators',
        validation: '/v2/validation',
        node: '/v2/validator',
        subnet: '/v2/subnet',
      }[scope];
      const path =
        scope === 'total'
          ? `${prefix}/metrics/${metric}`
          : `${prefix}/${seg(id ?? '')}/metrics/${metric}`;
      const query = { startTimestamp: f.startTimestamp, endTimestamp: f.endTimestamp };
      // No page token on these routes: the answer is the whole series (a token, if any, is not
      // followed).
      return req('metrics.l1ValidatorFees', path, query, async (call) => ({
        ...(await paged(path, query, metricsApiResponse, call)),
        nextPageToken: null,
      }));
    },
  };
}

/** The resources this client's requests name (their cache classes: `cache/policy.ts`). */
export const METRICS_API_MORE_RESOURCES = [
  'metrics.stakingMetric',
  'metrics.chains',
  'metrics.chain',
  'metrics.icmTimeseries',
  'metrics.icmSummary',
  'metrics.l1ValidatorFees',
] as const;
