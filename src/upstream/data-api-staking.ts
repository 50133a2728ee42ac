/**
 * The Data API's network-wide staking routes: the validator set with every filter of
 * `listValidators`, delegations, pending and historical rewards, and the network's staking totals.
 * Query parameters are named and serialised as the spec says: id and address lists comma-separated
 * in one string, nAVAX capacities as decimal strings, percentages and seconds as numbers.
 */
import { VALIDATOR_SORT_BY, type ValidatorSortBy } from '../spec/data-api.js';
import type { PageArgs } from './data-api.js';
import type { SortOrder } from './data-api-primary.js';
import type { HttpClient, RequestOptions } from './http.js';
import type { Page, UpstreamRequest } from './request.js';
import type { CurrencyCode } from './schemas/evm.js';
import {
  listValidatorDetailsResponse,
  type NetworkName,
  type ValidationStatus,
  type ValidatorDetails,
} from './schemas/primary.js';
import {
  type DelegationStatus,
  type DelegatorDetails,
  type HistoricalRewardRaw,
  listDelegatorsResponse,
  listHistoricalRewardsResponse,
  listPendingRewardsResponse,
  type NetworkDetails,
  networkDetails,
  type PendingRewardRaw,
} from './schemas/primary-rewards.js';

export { VALIDATOR_SORT_BY, type ValidatorSortBy };

export interface NetworkValidatorFilter {
  nodeIds?: readonly string[];
  sortBy?: ValidatorSortBy;
  sortOrder?: SortOrder;
  validationStatus?: ValidationStatus;
  minDelegationCapacity?: string;
  maxDelegationCapacity?: string;
  minTimeRemaining?: number;
  maxTimeRemaining?: number;
  minFeePercentage?: number;
  maxFeePercentage?: number;
  minUptimePerformance?: number;
  maxUptimePerformance?: number;
  subnetId?: string;
}

export interface DelegatorFilter {
  rewardAddresses?: readonly string[];
  sortOrder?: SortOrder;
  delegationStatus?: DelegationStatus;
  nodeIds?: readonly string[];
}

export interface RewardFilter {
  addresses?: readonly string[];
  nodeIds?: readonly string[];
  sortOrder?: SortOrder;
}

export interface StakingApiClient {
  listNetworkValidators(
    network: NetworkName,
    filter: NetworkValidatorFilter,
    page: PageArgs,
  ): UpstreamRequest<Page<ValidatorDetails>>;
  listDelegators(
    network: NetworkName,
    filter: DelegatorFilter,
    page: PageArgs,
  ): UpstreamRequest<Page<DelegatorDetails>>;
  listPendingRewards(
    network: NetworkName,
    filter: RewardFilter,
    page: PageArgs,
  ): UpstreamRequest<Page<PendingRewardRaw>>;
  listHistoricalRewards(
    network: NetworkName,
    filter: RewardFilter & { currency?: CurrencyCode },
    page: PageArgs,
  ): UpstreamRequest<Page<HistoricalRewardRaw>>;
  getNetworkDetails(network: NetworkName): UpstreamRequest<NetworkDetails>;
}

const seg = encodeURIComponent;
/** Lists go out sorted and deduplicated: the same set is the same request (one cache key). */
const list = (xs: readonly string[] | undefined) =>
  xs && xs.length > 0 ? [...new Set(xs)].sort().join(',') : undefined;

export function createStakingApiClient(
  http: HttpClient,
  opts: RequestOptions = {},
): StakingApiClient {
  function page<T, R>(
    resource: UpstreamRequest<T>['resource'],
    path: string,
    query: UpstreamRequest<T>['query'],
    schema: { parse(v: unknown): R },
    items: (r: R) => { items: unknown[]; nextPageToken?: string },
    pageToken: string | null,
  ) {
    return {
      upstream: 'data-api',
      resource,
      method: 'GET',
      path,
      query,
      pageToken,
      run: async () => {
        const res = items(await http.getJson(path, query, schema as never, opts));
        return { items: res.items, nextPageToken: res.nextPageToken || null };
      },
    } as UpstreamRequest<T>;
  }
  return {
    listNetworkValidators(network, f, { pageToken, pageSize }) {
      const path = `/v1/networks/${seg(network)}/validators`;
      const query = {
        pageToken: pageToken ?? undefined,
        pageSize,
        nodeIds: list(f.nodeIds),
        sortBy: f.sortBy,
        sortOrder: f.sortOrder,
        validationStatus: f.validationStatus,
        minDelegationCapacity: f.minDelegationCapacity,
        maxDelegationCapacity: f.maxDelegationCapacity,
        minTimeRemaining: f.minTimeRemaining,
        maxTimeRemaining: f.maxTimeRemaining,
        minFeePercentage: f.minFeePercentage,
        maxFeePercentage: f.maxFeePercentage,
        minUptimePerformance: f.minUptimePerformance,
        maxUptimePerformance: f.maxUptimePerformance,
        subnetId: f.subnetId,
      };
      return page(
        'data.networkValidators',
        path,
        query,
        listValidatorDetailsResponse,
        (r) => ({ items: r.validators, nextPageToken: r.nextPageToken }),
        pageToken,
      );
    },
    listDelegators(network, f, { pageToken, pageSize }) {
      const path = `/v1/networks/${seg(network)}/delegators`;
      const query = {
        pageToken: pageToken ?? undefined,
        pageSize,
        rewardAddresses: list(f.rewardAddresses),
        sortOrder: f.sortOrder,
        delegationStatus: f.delegationStatus,
        nodeIds: list(f.nodeIds),
      };
      return page(
        'data.delegators',
        path,
        query,
        listDelegatorsResponse,
        (r) => ({ items: r.delegators, nextPageToken: r.nextPageToken }),
        pageToken,
      );
    },
    listPendingRewards(network, f, { pageToken, pageSize }) {
      const path = `/v1/networks/${seg(network)}/rewards:listPending`;
      const query = {
        pageToken: pageToken ?? undefined,
        pageSize,
        addresses: list(f.addresses),
        nodeIds: list(f.nodeIds),
        sortOrder: f.sortOrder,
      };
      return page(
        'data.pendingRewards',
        path,
        query,
        listPendingRewardsResponse,
        (r) => ({ items: r.pendingRewards, nextPageToken: r.nextPageToken }),
        pageToken,
      );
    },
    listHistoricalRewards(network, f, { pageToken, pageSize }) {
      const path = `/v1/networks/${seg(network)}/rewards`;
      const query = {
        pageToken: pageToken ?? undefined,
        pageSize,
        addresses: list(f.addresses),
        nodeIds: list(f.nodeIds),
        sortOrder: f.sortOrder,
        currency: f.currency,
      };
      return page(
        'data.historicalRewards',
        path,
        query,
        listHistoricalRewardsResponse,
        (r) => ({ items: r.historicalRewards, nextPageToken: r.nextPageToken }),
        pageToken,
      );
    },
    getNetworkDetails(network) {
      const path = `/v1/networks/${seg(network)}`;
      return {
        upstream: 'data-api',
        resource: 'data.networkDetails',
        method: 'GET',
        path,
        query: {},
        run: () => http.getJson(path, {}, networkDetails, opts),
      };
    },
  };
}
