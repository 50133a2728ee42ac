import type {
  DelegatorFilter,
  NetworkValidatorFilter,
  RewardFilter,
  StakingApiClient,
} from '../upstream/data-api-staking.js';
import type { Derivations } from '../upstream/derivations.js';
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

export function createStakingLoaders(
  deps: LoaderDeps,
  api: StakingApiClient,
  derivations: Derivations,
) {
  const size = STAKING_PAGE_SIZE;
  const validatorsPage = pageLoader(deps, ({ network, pageToken, ...f }: NetworkValidatorsKey) =>
    api.listNetworkValidators(network, f, { pageToken, pageSize: size }),
  );
  return {
    validatorsPage,
    /**
     * Whether none of `nodeIds` has a stake now, so none has a pending reward: the validators list of
     * those ids (every status, and every uptime: the route leaves out active validators under 90 % unless
     * told `minUptimePerformance=0`) is complete and holds no validation of theirs active or pending.
     * The route matches ids as substrings, so only an exact id counts. False when that cannot be told
     * (a second page) or the derivation is off.
     */
    async noStakeNow(network: NetworkName, nodeIds: readonly string[]): Promise<boolean> {
      if (!derivations.pendingRewardsFromValidators || nodeIds.length === 0) return false;
      const page = await validatorsPage.load({
        network,
        nodeIds,
        minUptimePerformance: 0,
        pageToken: null,
      });
      if (page.nextPageToken !== null) return false;
      const ids = new Set(nodeIds);
      return !page.items.some(
        (v) =>
          ids.has(v.nodeId) &&
          (v.validationStatus === 'active' || v.validationStatus === 'pending'),
      );
    },
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
