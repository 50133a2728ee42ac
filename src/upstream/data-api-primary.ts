import type { z } from 'zod';
import type { PageArgs } from './data-api.js';
import { dataApiBinding } from './data-api-binding.js';
import type { HttpClient, RequestOptions } from './http.js';
import type { Page, UpstreamRequest } from './request.js';
import {
  type L1ValidatorRaw,
  listL1ValidatorsResponse,
  listValidatorDetailsResponse,
  type NetworkName,
  type PrimaryBalances,
  type PrimaryChainInfo,
  primaryBalancesResponse,
  type ValidatorDetails,
} from './schemas/primary.js';
import {
  listPrimaryNetworkBlocksResponse,
  listXChainVerticesResponse,
  type PrimaryNetworkBlockRaw,
  primaryNetworkBlock,
  type XChainAssetDetailsRaw,
  type XChainVertexRaw,
  xChainAssetDetails,
  xChainVertex,
} from './schemas/primary-blocks.js';
import {
  listStakingTransactionsResponse,
  type PChainTransactionRaw,
  type PrimaryNetworkTxType,
  pChainTransaction,
} from './schemas/primary-staking.js';

/**
 * The Data API's primary-network routes (real paths, from `data-api.openapi.json`).
 * Each method describes one upstream call; lists are normalized to `Page<T>` plus whatever the list
 * answer carries beside its items (the L1 list's block height, the staking list's chain info).
 */
export type SortOrder = 'asc' | 'desc';

export interface ValidatorFilter {
  validationStatus?: ValidatorDetails['validationStatus'];
  sortOrder?: SortOrder;
}

export interface L1ValidatorFilter {
  l1ValidationId?: string;
  includeInactive?: boolean;
  nodeId?: string;
  subnetId?: string;
}

export interface StakingFilter {
  /** Bech32 P/X addresses, sent comma-separated as the real API wants them. */
  addresses?: readonly string[];
  txTypes?: readonly PrimaryNetworkTxType[];
  startTimestamp?: number;
  endTimestamp?: number;
  sortOrder?: SortOrder;
}

/** listLatestPrimaryNetworkTransactions' filters: the staking ones plus an L1 validation id. */
export interface PChainTxFilter extends StakingFilter {
  l1ValidationId?: string;
}

export interface BalanceArgs {
  addresses?: readonly string[];
  blockTimestamp?: number;
}

export type L1ValidatorPage = Page<L1ValidatorRaw> & { blockHeight: string };
export type PrimaryBlockPage = Page<PrimaryNetworkBlockRaw> & { chainInfo: PrimaryChainInfo };
export interface BlockRange {
  startTimestamp?: number;
  endTimestamp?: number;
}
export type XVertexPage = Page<XChainVertexRaw> & { chainInfo: PrimaryChainInfo };
/** listLatestXChainVertices takes no filter; with `vertexHeight` the call is getVertexByHeight. */
export interface XVertexFilter {
  vertexHeight?: number;
  sortOrder?: SortOrder;
}
export type StakingPage = Page<PChainTransactionRaw> & { chainInfo: PrimaryChainInfo };

/** `blockchainId` of the balances route: the aliases the real API accepts for the three primary chains. */
export type PrimaryChainAlias = 'p-chain' | 'x-chain' | 'c-chain';

export interface PrimaryApiClient {
  listValidators(
    network: NetworkName,
    nodeId: string,
    filter: ValidatorFilter,
    page: PageArgs,
  ): UpstreamRequest<Page<ValidatorDetails>>;
  listL1Validators(
    network: NetworkName,
    filter: L1ValidatorFilter,
    page: PageArgs,
  ): UpstreamRequest<L1ValidatorPage>;
  listStakingTransactions(
    network: NetworkName,
    filter: StakingFilter,
    page: PageArgs,
  ): UpstreamRequest<StakingPage>;
  getBalances(
    network: NetworkName,
    chain: PrimaryChainAlias,
    args: BalanceArgs,
  ): UpstreamRequest<PrimaryBalances>;
  /** Latest P-Chain transactions (listLatestPrimaryNetworkTransactions, P-Chain member of its oneOf). */
  listPChainTransactions(
    network: NetworkName,
    filter: PChainTxFilter,
    page: PageArgs,
  ): UpstreamRequest<StakingPage>;
  /** Latest P-Chain blocks (listLatestPrimaryNetworkBlocks), or those one node proposed (…ByNodeId). */
  listPChainBlocks(
    network: NetworkName,
    nodeId: string | null,
    range: BlockRange,
    page: PageArgs,
  ): UpstreamRequest<PrimaryBlockPage>;
  /** One P-Chain block by id (getBlockById). */
  getPChainBlock(network: NetworkName, blockId: string): UpstreamRequest<PrimaryNetworkBlockRaw>;
  /** X-Chain vertices: latest (listLatestXChainVertices) or at one height (getVertexByHeight). */
  listXChainVertices(
    network: NetworkName,
    filter: XVertexFilter,
    page: PageArgs,
  ): UpstreamRequest<XVertexPage>;
  /** One X-Chain vertex by hash (getVertexByHash). */
  getXChainVertex(network: NetworkName, vertexHash: string): UpstreamRequest<XChainVertexRaw>;
  /** One X-Chain asset's details (getAssetDetails). */
  getXChainAssetDetails(
    network: NetworkName,
    assetId: string,
  ): UpstreamRequest<XChainAssetDetailsRaw>;
  /** One P-Chain transaction by hash (the P-Chain member of the real route's oneOf). */
  getPChainTransaction(network: NetworkName, txHash: string): UpstreamRequest<PChainTransactionRaw>;
}

const seg = encodeURIComponent;
const list = (xs: readonly string[] | undefined) =>
  xs && xs.length > 0 ? xs.join(',') : undefined;

export function createPrimaryApiClient(
  http: HttpClient,
  opts: RequestOptions = {},
): PrimaryApiClient {
  const { page, one } = dataApiBinding(http, opts);
  const net = (network: NetworkName) => `/v1/networks/${seg(network)}`;
  /** txTypes is a repeated (array) query parameter on the wire; sorted, and joined only in the cache key. */
  const txTypesOf = (f: StakingFilter) =>
    f.txTypes && f.txTypes.length > 0 ? [...f.txTypes].sort() : undefined;
  const txQuery = (f: StakingFilter) => ({
    addresses: list(f.addresses),
    txTypes: txTypesOf(f)?.join(','),
    startTimestamp: f.startTimestamp,
    endTimestamp: f.endTimestamp,
    sortOrder: f.sortOrder,
  });

  /** One item of a primary-network chain by its id: `/blockchains/<route>/<id>`. */
  const byId =
    <S extends z.ZodType>(
      resource: UpstreamRequest<unknown>['resource'],
      route: string,
      schema: S,
    ) =>
    (network: NetworkName, id: string) =>
      one(resource, `${net(network)}/blockchains/${route}/${seg(id)}`, schema);

  return {
    listValidators: (network, nodeId, filter, paging) =>
      page({
        resource: 'data.validators',
        path: `${net(network)}/validators/${seg(nodeId)}`,
        paging,
        query: { validationStatus: filter.validationStatus, sortOrder: filter.sortOrder },
        schema: listValidatorDetailsResponse,
        items: (res) => res.validators,
      }),
    listL1Validators: (network, filter, paging) =>
      page({
        resource: 'data.l1Validators',
        path: `${net(network)}/l1Validators`,
        paging,
        query: {
          l1ValidationId: filter.l1ValidationId,
          includeInactiveL1Validators: filter.includeInactive,
          nodeId: filter.nodeId,
          subnetId: filter.subnetId,
        },
        schema: listL1ValidatorsResponse,
        items: (res) => res.validators,
        extra: (res) => ({ blockHeight: res.blockHeight }),
      }),
    // Only the P-Chain has staking transactions: the real route accepts nothing else here.
    listStakingTransactions: (network, filter, paging) =>
      page({
        resource: 'data.stakingTransactions',
        path: `${net(network)}/blockchains/p-chain/transactions:listStaking`,
        paging,
        query: txQuery(filter),
        schema: listStakingTransactionsResponse,
        items: (res) => res.transactions,
        extra: (res) => ({ chainInfo: res.chainInfo }),
        wire: { txTypes: txTypesOf(filter) },
      }),
    listPChainTransactions: (network, filter, paging) =>
      page({
        resource: 'data.pChainTransactions',
        path: `${net(network)}/blockchains/p-chain/transactions`,
        paging,
        query: { ...txQuery(filter), l1ValidationId: filter.l1ValidationId },
        schema: listStakingTransactionsResponse,
        items: (res) => res.transactions,
        extra: (res) => ({ chainInfo: res.chainInfo }),
        wire: { txTypes: txTypesOf(filter) },
      }),
    listPChainBlocks: (network, nodeId, range, paging) =>
      page({
        resource: 'data.pChainBlocks',
        path: `${net(network)}/blockchains/p-chain${nodeId == null ? '' : `/nodes/${seg(nodeId)}`}/blocks`,
        paging,
        query: { startTimestamp: range.startTimestamp, endTimestamp: range.endTimestamp },
        schema: listPrimaryNetworkBlocksResponse,
        items: (res) => res.blocks,
        extra: (res) => ({ chainInfo: res.chainInfo }),
      }),
    getPChainBlock: byId('data.pChainBlock', 'p-chain/blocks', primaryNetworkBlock),
    listXChainVertices: (network, filter, paging) => {
      const base = `${net(network)}/blockchains/x-chain/vertices`;
      const byHeight = filter.vertexHeight !== undefined;
      return page({
        resource: 'data.xChainVertices',
        path: byHeight ? `${base}:listByHeight` : base,
        paging,
        query: byHeight ? { vertexHeight: filter.vertexHeight, sortOrder: filter.sortOrder } : {},
        schema: listXChainVerticesResponse,
        items: (res) => res.vertices,
        extra: (res) => ({ chainInfo: res.chainInfo }),
      });
    },
    getXChainVertex: byId('data.xChainVertex', 'x-chain/vertices', xChainVertex),
    getXChainAssetDetails: byId('data.xChainAssetDetails', 'x-chain/assets', xChainAssetDetails),
    getBalances: (network, chain, { addresses, blockTimestamp }) =>
      one(
        'data.primaryBalances',
        `${net(network)}/blockchains/${chain}/balances`,
        primaryBalancesResponse,
        { addresses: list(addresses), blockTimestamp },
      ),
    getPChainTransaction: byId('data.pChainTransaction', 'p-chain/transactions', pChainTransaction),
  };
}

/** The resources this client's requests name (their cache classes: `cache/policy.ts`). */
export const DATA_API_PRIMARY_RESOURCES = [
  'data.validators',
  'data.l1Validators',
  'data.stakingTransactions',
  'data.primaryBalances',
  'data.pChainTransactions',
  'data.pChainBlocks',
  'data.pChainBlock',
  'data.xChainVertices',
  'data.xChainVertex',
  'data.xChainAssetDetails',
  'data.pChainTransaction',
] as const;
