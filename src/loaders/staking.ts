import type {
  DelegatorFilter,
  NetworkValidatorFilter,
  RewardFilter,
  StakingApiClient,
} from '../upstream/data-api-staking.js';
import type { CurrencyCode } from '../upstream/schemas/evm.js';
import type { NetworkName } from '../upstream/schemas/primary.js';
import { type LoaderDeps, pageLoader, requestLoader } from './request-loader.js';

/**
 * Network-wide staking loaders. Pages are fetched at the routes' largest size (100), so every
 * `first` shares the same cached pages; the same page read twice in one query is one call.
 */
export const STAKING_PAGE_SIZE = 100;

interface Paged {
  network: NetworkName;
  pageToken: string | null;
}
export type NetworkValidatorsKey = Paged & NetworkValidatorFilter;
export type DelegatorsKey = Paged & DelegatorFilter;
export type RewardsKey = Paged & RewardFilter;
export type HistoricalRewardsKey = RewardsKey & { currency?: CurrencyCode };

export function createStakingLoaders(deps: LoaderDeps, api: StakingApiClient) {
  const size = STAKING_PAGE_SIZE;
  return {
    validatorsPage: pageLoader(deps, ({ network, pageToken, ...f }: NetworkValidatorsKey) =>
      api.listNetworkValidators(network, f, { pageToken, pageSize: size }),
    ),
    delegatorsPage: pageLoader(deps, ({ network, pageToken, ...f }: DelegatorsKey) =>
      api.listDelegators(network, f, { pageToken, pageSize: size }),
    ),
    pendingRewardsPage: pageLoader(deps, ({ network, pageToken, ...f }: RewardsKey) =>
      api.listPendingRewards(network, f, { pageToken, pageSize: size }),
    ),
    historicalRewardsPage: pageLoader(deps, ({ network, pageToken, ...f }: HistoricalRewardsKey) =>
      api.listHistoricalRewards(network, f, { pageToken, pageSize: size }),
    ),
    networkDetails: requestLoader(deps, (network: NetworkName) => api.getNetworkDetails(network)),
  };
}

export type StakingLoaders = ReturnType<typeof createStakingLoaders>;
