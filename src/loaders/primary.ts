import type {
  BalanceArgs,
  BlockRange,
  L1ValidatorFilter,
  PChainTxFilter,
  PrimaryApiClient,
  PrimaryChainAlias,
  StakingFilter,
  ValidatorFilter,
  XVertexFilter,
} from '../upstream/data-api-primary.js';
import type { NetworkName } from '../upstream/schemas/primary.js';
import { type LoaderDeps, pageLoader, requestLoader } from './request-loader.js';

/**
 * Primary-network loaders. Every upstream page is fetched at the route's largest size (the Data API
 * charges per call, not per item), so clients asking different `first` values share cached pages, and
 * the same page requested twice in one query (a validator refetched by id, a list read twice) is one call.
 */
export const PRIMARY_PAGE_SIZE = {
  validators: 100,
  l1Validators: 100,
  stakingTransactions: 100,
  pChainTransactions: 100,
  pChainBlocks: 100,
  xChainVertices: 100,
} as const;

export interface ValidatorsPageKey extends ValidatorFilter {
  network: NetworkName;
  nodeId: string;
  pageToken: string | null;
}

export interface L1ValidatorsPageKey extends L1ValidatorFilter {
  network: NetworkName;
  pageToken: string | null;
}

export interface StakingPageKey extends StakingFilter {
  network: NetworkName;
  pageToken: string | null;
}

export interface PChainTxPageKey extends PChainTxFilter {
  network: NetworkName;
  pageToken: string | null;
}

export interface PChainBlocksPageKey extends BlockRange {
  network: NetworkName;
  /** Blocks proposed by this node only; null for all. */
  nodeId: string | null;
  pageToken: string | null;
}

export interface XVerticesPageKey extends XVertexFilter {
  network: NetworkName;
  pageToken: string | null;
}

export interface BalancesKey extends BalanceArgs {
  network: NetworkName;
  chain: PrimaryChainAlias;
}

export function createPrimaryLoaders(deps: LoaderDeps, api: PrimaryApiClient) {
  return {
    validatorsPage: pageLoader(
      deps,
      ({ network, nodeId, pageToken, ...filter }: ValidatorsPageKey) =>
        api.listValidators(network, nodeId, filter, {
          pageToken,
          pageSize: PRIMARY_PAGE_SIZE.validators,
        }),
    ),
    l1ValidatorsPage: pageLoader(deps, ({ network, pageToken, ...filter }: L1ValidatorsPageKey) =>
      api.listL1Validators(network, filter, {
        pageToken,
        pageSize: PRIMARY_PAGE_SIZE.l1Validators,
      }),
    ),
    stakingPage: pageLoader(deps, ({ network, pageToken, ...filter }: StakingPageKey) =>
      api.listStakingTransactions(network, filter, {
        pageToken,
        pageSize: PRIMARY_PAGE_SIZE.stakingTransactions,
      }),
    ),
    pChainTxPage: pageLoader(deps, ({ network, pageToken, ...filter }: PChainTxPageKey) =>
      api.listPChainTransactions(network, filter, {
        pageToken,
        pageSize: PRIMARY_PAGE_SIZE.pChainTransactions,
      }),
    ),
    pChainBlocksPage: pageLoader(
      deps,
      ({ network, nodeId, pageToken, ...range }: PChainBlocksPageKey) =>
        api.listPChainBlocks(network, nodeId, range, {
          pageToken,
          pageSize: PRIMARY_PAGE_SIZE.pChainBlocks,
        }),
    ),
    pChainBlock: requestLoader(deps, (k: { network: NetworkName; blockId: string }) =>
      api.getPChainBlock(k.network, k.blockId),
    ),
    xVerticesPage: pageLoader(deps, ({ network, pageToken, ...filter }: XVerticesPageKey) =>
      api.listXChainVertices(network, filter, {
        pageToken,
        pageSize: PRIMARY_PAGE_SIZE.xChainVertices,
      }),
    ),
    xVertex: requestLoader(deps, (k: { network: NetworkName; vertexHash: string }) =>
      api.getXChainVertex(k.network, k.vertexHash),
    ),
    xAssetDetails: requestLoader(deps, (k: { network: NetworkName; assetId: string }) =>
      api.getXChainAssetDetails(k.network, k.assetId),
    ),
    balances: requestLoader(deps, ({ network, chain, ...args }: BalancesKey) =>
      api.getBalances(network, chain, args),
    ),
    pChainTransaction: requestLoader(deps, (k: { network: NetworkName; txHash: string }) =>
      api.getPChainTransaction(k.network, k.txHash),
    ),
  };
}

export type PrimaryLoaders = ReturnType<typeof createPrimaryLoaders>;
