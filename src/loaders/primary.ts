import type DataLoader from 'dataloader';
import type {
  BalanceArgs,
  BlockRange,
  L1ValidatorFilter,
  L1ValidatorPage,
  PChainTxFilter,
  PrimaryApiClient,
  PrimaryBlockPage,
  PrimaryChainAlias,
  StakingFilter,
  StakingPage,
  ValidatorFilter,
  XVertexFilter,
  XVertexPage,
} from '../upstream/data-api-primary.js';
import type { Page } from '../upstream/request.js';
import type {
  NetworkName,
  PrimaryBalances,
  ValidatorDetails,
} from '../upstream/schemas/primary.js';
import type {
  PrimaryNetworkBlockRaw,
  XChainAssetDetailsRaw,
  XChainVertexRaw,
} from '../upstream/schemas/primary-blocks.js';
import type { PChainTransactionRaw } from '../upstream/schemas/primary-staking.js';
import { type LoaderDeps, requestLoader } from './request-loader.js';

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

export interface PrimaryLoaders {
  validatorsPage: DataLoader<ValidatorsPageKey, Page<ValidatorDetails>, string>;
  l1ValidatorsPage: DataLoader<L1ValidatorsPageKey, L1ValidatorPage, string>;
  stakingPage: DataLoader<StakingPageKey, StakingPage, string>;
  pChainTxPage: DataLoader<PChainTxPageKey, StakingPage, string>;
  pChainBlocksPage: DataLoader<PChainBlocksPageKey, PrimaryBlockPage, string>;
  pChainBlock: DataLoader<
    { network: NetworkName; blockId: string },
    PrimaryNetworkBlockRaw,
    string
  >;
  xVerticesPage: DataLoader<XVerticesPageKey, XVertexPage, string>;
  xVertex: DataLoader<{ network: NetworkName; vertexHash: string }, XChainVertexRaw, string>;
  xAssetDetails: DataLoader<
    { network: NetworkName; assetId: string },
    XChainAssetDetailsRaw,
    string
  >;
  balances: DataLoader<BalancesKey, PrimaryBalances, string>;
  pChainTransaction: DataLoader<
    { network: NetworkName; txHash: string },
    PChainTransactionRaw,
    string
  >;
}

export function createPrimaryLoaders(deps: LoaderDeps, api: PrimaryApiClient): PrimaryLoaders {
  return {
    validatorsPage: requestLoader(
      deps,
      ({ network, nodeId, pageToken, ...filter }: ValidatorsPageKey) =>
        api.listValidators(network, nodeId, filter, {
          pageToken,
          pageSize: PRIMARY_PAGE_SIZE.validators,
        }),
    ),
    l1ValidatorsPage: requestLoader(
      deps,
      ({ network, pageToken, ...filter }: L1ValidatorsPageKey) =>
        api.listL1Validators(network, filter, {
          pageToken,
          pageSize: PRIMARY_PAGE_SIZE.l1Validators,
        }),
    ),
    stakingPage: requestLoader(deps, ({ network, pageToken, ...filter }: StakingPageKey) =>
      api.listStakingTransactions(network, filter, {
        pageToken,
        pageSize: PRIMARY_PAGE_SIZE.stakingTransactions,
      }),
    ),
    pChainTxPage: requestLoader(deps, ({ network, pageToken, ...filter }: PChainTxPageKey) =>
      api.listPChainTransactions(network, filter, {
        pageToken,
        pageSize: PRIMARY_PAGE_SIZE.pChainTransactions,
      }),
    ),
    pChainBlocksPage: requestLoader(
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
    xVerticesPage: requestLoader(deps, ({ network, pageToken, ...filter }: XVerticesPageKey) =>
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
