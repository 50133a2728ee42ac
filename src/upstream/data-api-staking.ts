/**
 * The Data API's network-wide staking routes: the validator set with every filter of
 * `listValidators`, delegations, pending and historical rewards, and the network's staking totals.
 * Query parameters are named and serialised as the spec says: id and address lists comma-separated
 * in one string, nAVAX capacities as decimal strings, percentages and seconds as numbers.
 */
import type { z } from 'zod';
import { VALIDATOR_SORT_BY, type ValidatorSortBy } from '../spec/data-api.js';
import type { PageArgs } from './data-api.js';
import { dataApiBinding } from './data-api-binding.js';
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
  const { page, one } = dataApiBinding(http, opts);
  /** The filter both reward lists take. */
  const rewardQuery = (f: RewardFilter) => ({
    addresses: list(f.addresses),
    nodeIds: list(f.nodeIds),
    sortOrder: f.sortOrder,
  });

  /** One page of a network's list route `/v1/networks/{network}/<route>`, its query from the filter. */
  const networkList =
    <F, S extends z.ZodType<{ nextPageToken?: string | null }>, T>(
      resource: UpstreamRequest<unknown>['resource'],
      route: string,
      query: (f: F) => UpstreamRequest<unknown>['query'],
      schema: S,
      items: (res: z.output<S>) => T[],
    ) =>
    (network: NetworkName, f: F, paging: PageArgs) =>
      page({
        resource,
        path: `/v1/networks/${seg(network)}/${route}`,
        paging,
        query: query(f),
        schema,
        items,
      });

  return {
    listNetworkValidators: networkList(
      'data.networkValidators',
      'validators',
      (f) => ({
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
      }),
      listValidatorDetailsResponse,
      (r) => r.validators,
    ),
    listDelegators: networkList(
      'data.delegators',
      'delegators',
      (f) => ({
        rewardAddresses: list(f.rewardAddresses),
        sortOrder: f.sortOrder,
        delegationStatus: f.delegationStatus,
        nodeIds: list(f.nodeIds),
      }),
      listDelegatorsResponse,
      (r) => r.delegators,
    ),
    listPendingRewards: networkList(
      'data.pendingRewards',
      'rewards:listPending',
      rewardQuery,
      listPendingRewardsResponse,
      (r) => r.pendingRewards,
    ),
    listHistoricalRewards: networkList(
      'data.historicalRewards',
      'rewards',
      (f) => ({ ...rewardQuery(f), currency: f.currency }),
      listHistoricalRewardsResponse,
      (r) => r.historicalRewards,
    ),
    getNetworkDetails: (network) =>
      one('data.networkDetails', `/v1/networks/${seg(network)}`, networkDetails),
  };
}

/** The resources this client's requests name (their cache classes: `cache/policy.ts`). */
export const DATA_API_STAKING_RESOURCES = [
  'data.networkValidators',
  'data.delegators',
  'data.pendingRewards',
  'data.historicalRewards',
  'data.networkDetails',
] as const;
