import type { PageArgs } from './data-api.js';
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
 * The Data API's primary-network routes (real paths, `../shared/upstream/README.md` rows 10, 11, 14, 15).
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
  const get = <T>(
    resource: UpstreamRequest<T>['resource'],
    path: string,
    query: UpstreamRequest<T>['query'],
    run: () => Promise<T>,
    pageToken?: string | null,
  ): UpstreamRequest<T> => ({
    upstream: 'data-api',
    resource,
    method: 'GET',
    path,
    query,
    pageToken,
    run,
  });

  return {
    listValidators(network, nodeId, filter, { pageToken, pageSize }) {
      const path = `/v1/networks/${seg(network)}/validators/${seg(nodeId)}`;
      const query = {
        pageToken: pageToken ?? undefined,
        pageSize,
        validationStatus: filter.validationStatus,
        sortOrder: filter.sortOrder,
      };
      return get(
        'data.validators',
        path,
        query,
        async () => {
          const res = await http.getJson(path, query, listValidatorDetailsResponse, opts);
          return { items: res.validators, nextPageToken: res.nextPageToken || null };
        },
        pageToken,
      );
    },
    listL1Validators(network, filter, { pageToken, pageSize }) {
      const path = `/v1/networks/${seg(network)}/l1Validators`;
      const query = {
        pageToken: pageToken ?? undefined,
        pageSize,
        l1ValidationId: filter.l1ValidationId,
        includeInactiveL1Validators: filter.includeInactive,
        nodeId: filter.nodeId,
        subnetId: filter.subnetId,
      };
      return get(
        'data.l1Validators',
        path,
        query,
        async () => {
          const res = await http.getJson(path, query, listL1ValidatorsResponse, opts);
          return {
            items: res.validators,
            nextPageToken: res.nextPageToken || null,
            blockHeight: res.blockHeight,
          };
        },
        pageToken,
      );
    },
    listStakingTransactions(network, filter, { pageToken, pageSize }) {
      // Only the P-Chain has staking transactions: the real route accepts nothing else here.
      const path = `/v1/networks/${seg(network)}/blockchains/p-chain/transactions:listStaking`;
      const query = {
        pageToken: pageToken ?? undefined,
        pageSize,
        addresses: list(filter.addresses),
        // The real API takes txTypes as a repeated (array) query parameter; sorted so the cache key is stable.
        txTypes:
          filter.txTypes && filter.txTypes.length > 0
            ? [...filter.txTypes].sort().join(',')
            : undefined,
        startTimestamp: filter.startTimestamp,
        endTimestamp: filter.endTimestamp,
        sortOrder: filter.sortOrder,
      };
      const wire = {
        ...query,
        txTypes:
          filter.txTypes && filter.txTypes.length > 0 ? [...filter.txTypes].sort() : undefined,
      };
      return get(
        'data.stakingTransactions',
        path,
        query,
        async () => {
          const res = await http.getJson(path, wire, listStakingTransactionsResponse, opts);
          return {
            items: res.transactions,
            nextPageToken: res.nextPageToken || null,
            chainInfo: res.chainInfo,
          };
        },
        pageToken,
      );
    },
    listPChainTransactions(network, filter, { pageToken, pageSize }) {
      const path = `/v1/networks/${seg(network)}/blockchains/p-chain/transactions`;
      const types =
        filter.txTypes && filter.txTypes.length > 0 ? [...filter.txTypes].sort() : undefined;
      const query = {
        pageToken: pageToken ?? undefined,
        pageSize,
        addresses: list(filter.addresses),
        l1ValidationId: filter.l1ValidationId,
        txTypes: types?.join(','),
        startTimestamp: filter.startTimestamp,
        endTimestamp: filter.endTimestamp,
        sortOrder: filter.sortOrder,
      };
      // txTypes is a repeated (array) query parameter on the wire; joined only in the cache key.
      const wire = { ...query, txTypes: types };
      return get(
        'data.pChainTransactions',
        path,
        query,
        async () => {
          const res = await http.getJson(path, wire, listStakingTransactionsResponse, opts);
          return {
            items: res.transactions,
            nextPageToken: res.nextPageToken || null,
            chainInfo: res.chainInfo,
          };
        },
        pageToken,
      );
    },
    listPChainBlocks(network, nodeId, range, { pageToken, pageSize }) {
      const base = `/v1/networks/${seg(network)}/blockchains/p-chain`;
      const path = nodeId == null ? `${base}/blocks` : `${base}/nodes/${seg(nodeId)}/blocks`;
      const query = {
        pageToken: pageToken ?? undefined,
        pageSize,
        startTimestamp: range.startTimestamp,
        endTimestamp: range.endTimestamp,
      };
      return get(
        'data.pChainBlocks',
        path,
        query,
        async () => {
          const res = await http.getJson(path, query, listPrimaryNetworkBlocksResponse, opts);
          return {
            items: res.blocks,
            nextPageToken: res.nextPageToken || null,
            chainInfo: res.chainInfo,
          };
        },
        pageToken,
      );
    },
    getPChainBlock(network, blockId) {
      const path = `/v1/networks/${seg(network)}/blockchains/p-chain/blocks/${seg(blockId)}`;
      return get('data.pChainBlock', path, {}, () =>
        http.getJson(path, {}, primaryNetworkBlock, opts),
      );
    },
    listXChainVertices(network, filter, { pageToken, pageSize }) {
      const base = `/v1/networks/${seg(network)}/blockchains/x-chain/vertices`;
      const byHeight = filter.vertexHeight !== undefined;
      const path = byHeight ? `${base}:listByHeight` : base;
      const query = byHeight
        ? {
            pageToken: pageToken ?? undefined,
            pageSize,
            vertexHeight: filter.vertexHeight,
            sortOrder: filter.sortOrder,
          }
        : { pageToken: pageToken ?? undefined, pageSize };
      return get(
        'data.xChainVertices',
        path,
        query,
        async () => {
          const res = await http.getJson(path, query, listXChainVerticesResponse, opts);
          return {
            items: res.vertices,
            nextPageToken: res.nextPageToken || null,
            chainInfo: res.chainInfo,
          };
        },
        pageToken,
      );
    },
    getXChainVertex(network, vertexHash) {
      const path = `/v1/networks/${seg(network)}/blockchains/x-chain/vertices/${seg(vertexHash)}`;
      return get('data.xChainVertex', path, {}, () => http.getJson(path, {}, xChainVertex, opts));
    },
    getXChainAssetDetails(network, assetId) {
      const path = `/v1/networks/${seg(network)}/blockchains/x-chain/assets/${seg(assetId)}`;
      return get('data.xChainAssetDetails', path, {}, () =>
        http.getJson(path, {}, xChainAssetDetails, opts),
      );
    },
    getBalances(network, chain, { addresses, blockTimestamp }) {
      const path = `/v1/networks/${seg(network)}/blockchains/${chain}/balances`;
      const query = { addresses: list(addresses), blockTimestamp };
      return get('data.primaryBalances', path, query, () =>
        http.getJson(path, query, primaryBalancesResponse, opts),
      );
    },
    getPChainTransaction(network, txHash) {
      const path = `/v1/networks/${seg(network)}/blockchains/p-chain/transactions/${seg(txHash)}`;
      return get('data.pChainTransaction', path, {}, () =>
        http.getJson(path, {}, pChainTransaction, opts),
      );
    },
  };
}
